//! Runs of ordinary characters: the one scanner every state's fast path uses.
//!
//! Most states spend their time on characters that need no decision (text, comment
//! data, attribute values, names). Each such state names the bytes that *do* need one
//! as a [`Stops`] set, and [`run_len`] finds the first of them in a single forward
//! pass. NUL is a member of every set where the state treats it specially, CR of
//! every set (it must become LF), so a run ends at the first byte needing a decision,
//! whichever it is, and no byte is looked at twice. (Scanning for the other stops
//! first and then for NUL within that run, as this module replaced, costs a scan to
//! the next other stop for *each* NUL: quadratic on a run of NULs.)
//!
//! Cost: every set is tested sixteen bytes at a time ([`super::lanes`]): a small set
//! (text, comments, quoted attribute values, DOCTYPE identifiers) byte by byte
//! for equality; a larger one (tag and attribute names, unquoted values) as "any
//! byte up to 0x20" and "A-Z" plus its other members, a candidate then checked in
//! the set's table (a control character other than whitespace is a candidate but
//! no member). A run is usually short, so most scans are one block.

/// At most this many bytes are compared one by one in the block scan.
const EQ_MAX: usize = 8;

use super::lanes::{Lanes, WIDTH, block_at};

/// A set of bytes that end a run. CR is always a member.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stops {
    /// Membership of every byte value.
    table: [bool; 256],
    /// The block scan's candidates: these bytes (the first `eq_len`)…
    eq: [u8; EQ_MAX],
    eq_len: usize,
    /// …every byte up to 0x20 (the set's whitespace, NUL and CR, plus other
    /// controls, which the table then rejects)…
    low: bool,
    /// …and the ASCII uppercase letters.
    upper: bool,
    /// The candidates are exactly the members (no table check needed).
    exact: bool,
    /// The candidates cover every member, so the block scan may be used.
    block: bool,
}

impl Stops {
    /// The set of `bytes` plus CR.
    pub(crate) const fn new(bytes: &[u8]) -> Stops {
        let mut table = [false; 256];
        table[b'\r' as usize] = true;
        let mut i = 0;
        while i < bytes.len() {
            table[bytes[i] as usize] = true;
            i += 1;
        }
        Stops::plan(table)
    }

    /// This set plus the ASCII uppercase letters (which names must lowercase).
    pub(crate) const fn with_uppercase(self) -> Stops {
        let mut table = self.table;
        let mut b = b'A';
        while b <= b'Z' {
            table[b as usize] = true;
            b += 1;
        }
        Stops::plan(table)
    }

    /// Chooses how the block scan finds the members of `table`: compared one by
    /// one when there are few; otherwise the bytes up to 0x20 and A-Z (when all are
    /// members) as ranges and the rest one by one; with no block scan if that
    /// still leaves too many.
    const fn plan(table: [bool; 256]) -> Stops {
        let mut count = 0;
        let mut b = 0;
        while b < 256 {
            if table[b] {
                count += 1;
            }
            b += 1;
        }
        let mut upper = true;
        let mut b = b'A';
        while b <= b'Z' {
            upper &= table[b as usize];
            b += 1;
        }
        let ranges = count > 5;
        let upper = ranges && upper;
        let low = ranges;
        let mut eq = [b'\r'; EQ_MAX];
        let mut eq_len = 0;
        let mut fits = true;
        let mut b = 0;
        while b < 256 {
            let covered = (low && b <= 0x20) || (upper && b >= b'A' as usize && b <= b'Z' as usize);
            if table[b] && !covered {
                if eq_len < EQ_MAX {
                    eq[eq_len] = b as u8;
                    eq_len += 1;
                } else {
                    fits = false;
                }
            }
            b += 1;
        }
        let exact = !low && !upper;
        Stops {
            table,
            eq,
            eq_len,
            low,
            upper,
            exact,
            block: fits,
        }
    }

    /// Whether `b` ends a run.
    #[inline]
    pub(crate) fn contains(&self, b: u8) -> bool {
        self.table[usize::from(b)]
    }

    /// The block scan's candidates in `block`, one bit per byte.
    #[inline(always)]
    fn candidates(&self, block: &[u8; WIDTH]) -> u32 {
        let lanes = Lanes::load(block);
        let mut hits = Lanes::none();
        let mut i = 0;
        while i < self.eq_len && i < EQ_MAX {
            hits = hits.or(lanes.eq(self.eq[i]));
            i += 1;
        }
        if self.low {
            hits = hits.or(lanes.le(0x20));
        }
        if self.upper {
            hits = hits.or(lanes.between(b'A', b'Z'));
        }
        hits.bits()
    }

    /// The first member among the candidate bits of `block`, if any.
    #[inline(always)]
    fn first_in(&self, block: &[u8; WIDTH], mut bits: u32) -> Option<usize> {
        if self.exact {
            return (bits != 0).then(|| bits.trailing_zeros() as usize);
        }
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            if block.get(i).is_some_and(|&b| self.contains(b)) {
                return Some(i);
            }
            bits &= bits - 1;
        }
        None
    }
}

/// A stop set as a type, so that every scan is compiled for its own set (its
/// comparisons unrolled, its flags folded away). Declared with [`stop_set!`].
pub(crate) trait StopSet {
    /// The set.
    const STOPS: Stops;
}

/// Declares a [`StopSet`] type: `stop_set!(/// doc\n Name = Stops::new(b"..."));`.
macro_rules! stop_set {
    ($(#[$doc:meta])* $name:ident = $set:expr) => {
        $(#[$doc])*
        pub(crate) struct $name;
        impl $crate::tokenizer::run::StopSet for $name {
            const STOPS: $crate::tokenizer::run::Stops = $set;
        }
    };
}
pub(crate) use stop_set;

/// [`run_len`] for the set `S`.
#[inline(always)]
pub(crate) fn run_len_of<S: StopSet>(bytes: &[u8]) -> usize {
    let stops = S::STOPS;
    run_len(bytes, &stops)
}

/// The length of the run at the start of `bytes`: the offset of the first member
/// of `stops`, or `bytes.len()`.
///
/// Blocks of 16 bytes are tested at once ([`Lanes`]); the last part of the input
/// shorter than a block is tested as the last 16 bytes (overlapping bytes already
/// seen, whose bits are dropped), so only an input shorter than a block is looked
/// at byte by byte.
#[inline(always)]
pub(crate) fn run_len(bytes: &[u8], stops: &Stops) -> usize {
    if !stops.block || bytes.len() < WIDTH {
        return bytes
            .iter()
            .position(|&b| stops.contains(b))
            .unwrap_or(bytes.len());
    }
    let mut at = 0;
    while let Some(block) = block_at(bytes, at) {
        let bits = stops.candidates(block);
        if bits != 0
            && let Some(i) = stops.first_in(block, bits)
        {
            return at + i;
        }
        at += WIDTH;
    }
    if at < bytes.len() {
        let last = bytes.len() - WIDTH;
        if let Some(block) = block_at(bytes, last) {
            // Bytes before `at` were seen in the previous block.
            let seen = at - last;
            let bits = stops.candidates(block) & (u32::MAX << seen);
            if bits != 0
                && let Some(i) = stops.first_in(block, bits)
            {
                return last + i;
            }
        }
    }
    bytes.len()
}

/// The number of whitespace bytes (tab, LF, FF, CR, space) at the start of
/// `bytes`: sixteen at a time, for the long runs of indentation some pages put
/// between attributes (the usual single space is tested by the caller).
#[inline]
pub(crate) fn gap_len(bytes: &[u8]) -> usize {
    let mut at = 0;
    while let Some(block) = block_at(bytes, at) {
        let lanes = Lanes::load(block);
        let gaps = lanes
            .eq(b' ')
            .or(lanes.eq(b'\n'))
            .or(lanes.eq(b'\t'))
            .or(lanes.eq(b'\r'))
            .or(lanes.eq(0x0C))
            .bits();
        let other = !gaps & 0xFFFF;
        if other != 0 {
            return at + other.trailing_zeros() as usize;
        }
        at += WIDTH;
    }
    let rest = bytes.get(at..).unwrap_or_default();
    at + rest
        .iter()
        .take_while(|&&b| matches!(b, b' ' | b'\n' | b'\t' | b'\r' | 0x0C))
        .count()
}

/// The offset of the first `b` in `bytes`, if any: the first block tested
/// inline (most runs this is asked about, text between tags and attribute
/// values, are shorter), the rest with `memchr`.
#[inline(always)]
pub(crate) fn find_byte(b: u8, bytes: &[u8]) -> Option<usize> {
    let Some(block) = bytes.first_chunk::<WIDTH>() else {
        return memchr::memchr(b, bytes);
    };
    let bits = Lanes::load(block).eq(b).bits();
    if bits != 0 {
        return Some(bits.trailing_zeros() as usize);
    }
    memchr::memchr(b, bytes.get(WIDTH..).unwrap_or_default()).map(|i| i + WIDTH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_byte_is_memchr() {
        for len in 0..40 {
            for at in 0..=len {
                let mut bytes = vec![b'a'; len];
                if let Some(x) = bytes.get_mut(at) {
                    *x = b'<';
                }
                // A second one later never wins.
                if let Some(x) = bytes.get_mut(at + 17) {
                    *x = b'<';
                }
                assert_eq!(
                    find_byte(b'<', &bytes),
                    memchr::memchr(b'<', &bytes),
                    "{len} {at}"
                );
            }
        }
    }

    #[test]
    fn gap_len_counts_leading_whitespace() {
        for len in 0..50 {
            for stop_at in 0..=len {
                for &gap in b" \n\t\r\x0C" {
                    for &stop in b"a>/\0\x0B\x80=" {
                        let mut bytes = vec![gap; len];
                        if let Some(b) = bytes.get_mut(stop_at) {
                            *b = stop;
                        }
                        // A gap after the stop does not count; with no stop,
                        // every byte is a gap.
                        bytes.push(b' ');
                        let want = if stop_at < len { stop_at } else { len + 1 };
                        assert_eq!(gap_len(&bytes), want, "{bytes:?}");
                    }
                }
            }
        }
    }

    /// The obvious definition.
    fn naive(bytes: &[u8], stops: &Stops) -> usize {
        bytes
            .iter()
            .position(|&b| stops.contains(b))
            .unwrap_or(bytes.len())
    }

    #[test]
    fn sets_hold_their_bytes_and_cr() {
        let s = Stops::new(b"<&\0");
        assert!(s.contains(b'<') && s.contains(b'&') && s.contains(0) && s.contains(b'\r'));
        assert!(!s.contains(b'a') && !s.contains(b'\n') && !s.contains(0x80));
        assert!(s.exact && s.block && s.eq_len == 4);
        let names = Stops::new(b" >").with_uppercase();
        assert!(names.contains(b'A') && names.contains(b'Z') && !names.contains(b'a'));
        assert!(names.upper && names.low && !names.exact && names.block);
        // Every set the states use has a block scan.
        for set in [
            Stops::new(b"\t\n\x0C />=\0\"'<").with_uppercase(),
            Stops::new(b"\t\n\x0C &>\0\"'<=`"),
            Stops::new(b"\t\n\x0C />="),
            Stops::new(b"\t\n\x0C >\0").with_uppercase(),
            Stops::new(b"\"&\0"),
            Stops::new(b"<-\0"),
        ] {
            assert!(set.block, "{set:?}");
        }
        // Too many scattered members: the table alone.
        assert!(!Stops::new(b"!#$%&()*+,-.:;").block);
    }

    #[test]
    fn finds_the_first_stop_at_every_offset_and_length() {
        let sets = [
            Stops::new(b""),
            Stops::new(b"\0"),
            Stops::new(b"<&\0"),
            Stops::new(b"-<\0"),
            Stops::new(b"\t\n\x0C />\0").with_uppercase(),
            Stops::new(b"\t\n\x0C &>\0\"'<=`"),
            Stops::new(b"!#$%&()*+,-.:;"),
        ];
        // Bytes next to the members in value (a wrong borrow would show there),
        // non-ASCII bytes and the members themselves.
        let alphabet = b"a;=%',.\x01\x0E\x7F\x80\xFF\xC3\xA9\r\0<&-/ >AZ@[";
        for stops in &sets {
            for len in 0..50 {
                for stop_at in 0..=len {
                    for &filler in b"a\x01\xFF\x80" {
                        for &stop in alphabet {
                            let mut bytes = vec![filler; len];
                            if let Some(b) = bytes.get_mut(stop_at) {
                                *b = stop;
                            }
                            assert_eq!(
                                run_len(&bytes, stops),
                                naive(&bytes, stops),
                                "{bytes:?} {stops:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_stop_after_another_is_not_reported_first() {
        // A zero byte borrows from the byte above it: the lower one must win.
        let stops = Stops::new(b"\0\x01");
        for first in 0..8 {
            let mut bytes = [b'x'; 16];
            bytes[first] = 0;
            bytes[first + 1] = 1;
            assert_eq!(run_len(&bytes, &stops), first);
        }
    }
}

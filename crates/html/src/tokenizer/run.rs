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
//! Cost: a set of at most four bytes (the text, comment, attribute-value and DOCTYPE
//! identifier states) is tested eight bytes at a time with word arithmetic (about
//! twice the speed of a byte loop on long runs, and no slower on the bench corpus
//! than the memchr scans it replaced); a larger set (tag and attribute names,
//! unquoted values: short runs) is looked up byte by byte in a table.

/// A set of bytes that end a run. CR is always a member.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stops {
    /// Membership of every byte value.
    table: [bool; 256],
    /// The members, when there are at most four (the first repeated to fill the
    /// array), for the word-at-a-time scan.
    few: Option<[u8; 4]>,
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
        // List the distinct members, if they fit.
        let mut members = [b'\r'; 4];
        let mut count = 0;
        let mut b = 0;
        while b < 256 {
            if table[b] {
                if count < 4 {
                    members[count] = b as u8;
                }
                count += 1;
            }
            b += 1;
        }
        Stops {
            table,
            few: if count <= 4 { Some(members) } else { None },
        }
    }

    /// This set plus the ASCII uppercase letters (which names must lowercase).
    pub(crate) const fn with_uppercase(mut self) -> Stops {
        let mut b = b'A';
        while b <= b'Z' {
            self.table[b as usize] = true;
            b += 1;
        }
        self.few = None;
        self
    }

    /// Whether `b` ends a run.
    #[inline]
    pub(crate) fn contains(&self, b: u8) -> bool {
        self.table[usize::from(b)]
    }
}

/// The length of the run at the start of `bytes`: the offset of the first member
/// of `stops`, or `bytes.len()`.
#[inline]
pub(crate) fn run_len(bytes: &[u8], stops: &Stops) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut at = 0;
    if let Some(members) = stops.few {
        let splats = members.map(|m| ONES * u64::from(m));
        while let Some(word) = bytes.get(at..at + 8) {
            let Ok(word) = <[u8; 8]>::try_from(word) else {
                break;
            };
            let w = u64::from_le_bytes(word);
            // A byte equal to a member is zero after the XOR; `(x - 1) & !x` sets
            // the high bit of every zero byte. It may also set it in bytes above a
            // zero byte (the borrow), never below, so the lowest bit set is exact.
            let mut hits = 0;
            for splat in splats {
                let x = w ^ splat;
                hits |= x.wrapping_sub(ONES) & !x;
            }
            hits &= HIGHS;
            if hits != 0 {
                return at + (hits.trailing_zeros() / 8) as usize;
            }
            at += 8;
        }
    }
    let rest = bytes.get(at..).unwrap_or(&[]);
    at + rest
        .iter()
        .position(|&b| stops.contains(b))
        .unwrap_or(rest.len())
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(s.few.map(|m| m.len()), Some(4));
        assert!(Stops::new(b"<&\0-").few.is_none());
        let names = Stops::new(b" >").with_uppercase();
        assert!(names.contains(b'A') && names.contains(b'Z') && !names.contains(b'a'));
        assert!(names.few.is_none());
    }

    #[test]
    fn finds_the_first_stop_at_every_offset_and_length() {
        let sets = [
            Stops::new(b""),
            Stops::new(b"\0"),
            Stops::new(b"<&\0"),
            Stops::new(b"-<\0"),
            Stops::new(b"\t\n\x0C />\0").with_uppercase(),
        ];
        // Bytes next to the members in value (a wrong borrow would show there),
        // non-ASCII bytes and the members themselves.
        let alphabet = b"a;=%',.\x01\x0E\x7F\x80\xFF\xC3\xA9\r\0<&-/ >AZ@[";
        for stops in &sets {
            for len in 0..40 {
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

//! The search for the end of a run of plain text (see `Tokenizer::text_run`)
//! and for the end of a line:
//! sixteen (then eight) bytes at a time while they are all common text bytes
//! (lower-case letters, digits, `(`…`/` punctuation, spaces), which no syntax
//! starts with; each other byte of the block is looked up in the stop table
//! on its own.

use tagloom_html::tokenizer::lanes::{self, Lanes};

/// Each byte's high bit.
const HIGH: u64 = 0x8080_8080_8080_8080;
/// One in each byte.
const ONES: u64 = 0x0101_0101_0101_0101;

/// The high bit of each byte of `low` (every byte below 0x80) that is at
/// least `c` (1 to 0x80). No byte's sum carries into the next.
const fn at_least(low: u64, c: u8) -> u64 {
    (low + (0x80 - c as u64) * ONES) & HIGH
}

/// The high bit of each byte of `w` that is a space, a lower-case ASCII
/// letter, or one of `()*+,-./0123456789` (none of them starts syntax).
const fn plain_bytes(w: u64) -> u64 {
    let low = w & !HIGH;
    let lower = at_least(low, b'a') & !at_least(low, b'{');
    let digits = at_least(low, b'(') & !at_least(low, b':');
    // A byte of `low ^ spaces` is zero where `w` has a space.
    let not_space = at_least(low ^ (0x20 * ONES), 1);
    (lower | digits | (!not_space & HIGH)) & !(w & HIGH)
}

/// The lanes of `v` that [`plain_bytes`] marks: the same class, sixteen
/// bytes at once.
#[inline(always)]
fn plain_lanes(v: Lanes) -> Lanes {
    v.between(b'a', b'z')
        .or(v.between(b'(', b'9'))
        .or(v.eq(b' '))
}

/// Whether `s` holds the byte `b`, for the short strings (link targets) a
/// vector search's set-up costs more on than it saves: eight bytes at a
/// time by the zero-byte test of `word ^ b…b`; the tail of a string of at
/// least eight bytes as its last eight (overlapping bytes tested twice),
/// a shorter string padded to a word.
pub(crate) fn has_byte(s: &[u8], b: u8) -> bool {
    let pattern = ONES * u64::from(b);
    let holds = |word: &[u8; 8]| {
        let v = u64::from_le_bytes(*word) ^ pattern;
        v.wrapping_sub(ONES) & !v & HIGH != 0
    };
    let mut chunks = s.chunks_exact(8);
    for chunk in chunks.by_ref() {
        if <&[u8; 8]>::try_from(chunk).is_ok_and(holds) {
            return true;
        }
    }
    if chunks.remainder().is_empty() {
        return false;
    }
    match s.last_chunk::<8>() {
        Some(last) => holds(last),
        None => {
            // Padded with a byte that is not `b` (no call to core's memchr,
            // whose set-up outweighs seven bytes).
            let mut word = [!b; 8];
            for (to, &c) in word.iter_mut().zip(s) {
                *to = c;
            }
            holds(&word)
        }
    }
}

/// The position of `s`'s first newline. Line ends are searched for from
/// each table line and cell: memchr's vector search rather than
/// `str::find(char)`'s generic one, whose setup alone costs more than a short
/// line's search.
pub(crate) fn newline(s: &str) -> Option<usize> {
    memchr::memchr(b'\n', s.as_bytes())
}

/// The first position from `from` on whose byte is in `stops` (`run.len()`
/// if none is). `stops` holds no byte [`plain_bytes`] marks.
///
/// Sixteen bytes a step while there are that many (`tagloom_html`'s SSE2
/// blocks: the plain test in a dozen instructions a block where the word
/// test took about as many a word), then words, then bytes. The text runs
/// between stops average 17 bytes: most searches end in their first or
/// second block.
pub(crate) fn next_stop(run: &[u8], mut from: usize, stops: &[bool; 256]) -> usize {
    while let Some(block) = lanes::block_at(run, from) {
        let mut other = !plain_lanes(Lanes::load(block)).bits() & 0xFFFF;
        while other != 0 {
            let k = other.trailing_zeros() as usize;
            if block.get(k).is_some_and(|&b| stops[usize::from(b)]) {
                return from + k;
            }
            other &= other - 1;
        }
        from += lanes::WIDTH;
    }
    while let Some(chunk) = run.get(from..from.saturating_add(8)) {
        let Ok(word) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        // The bytes that are not plain, each looked up in `stops` in turn
        // from this one word (capitals and UTF-8 make half of the words hold
        // one: the word is not read again after each of them).
        let mut other = !plain_bytes(u64::from_le_bytes(word)) & HIGH;
        while other != 0 {
            let k = (other.trailing_zeros() / 8) as usize;
            if word.get(k).is_some_and(|&b| stops[usize::from(b)]) {
                return from + k;
            }
            other &= other - 1;
        }
        from += 8;
    }
    run.get(from..)
        .and_then(|rest| rest.iter().position(|&b| stops[usize::from(b)]))
        .map_or(run.len(), |at| from + at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_bytes_are_exactly_the_common_ones() {
        for b in 0..=255u8 {
            let plain = b == b' ' || b.is_ascii_lowercase() || (b'('..=b'9').contains(&b);
            for at in 0..8 {
                // The byte among others of every kind.
                for fill in [b'a', b' ', 0xC3, b'A', 0] {
                    let mut word = [fill; 8];
                    word[at] = b;
                    let marks = plain_bytes(u64::from_le_bytes(word));
                    assert_eq!(
                        marks >> (at * 8 + 7) & 1 == 1,
                        plain,
                        "{b:#x} at {at} among {fill:#x}"
                    );
                }
            }
        }
    }

    /// The block test of `next_stop` marks the bytes `plain_bytes` marks,
    /// every byte value at every lane.
    #[test]
    fn block_plain_class_is_plain_bytes() {
        for b in 0..=255u8 {
            let plain = plain_bytes(u64::from(b)) & 0x80 != 0;
            for at in 0..16 {
                let mut block = [b'A'; 16];
                block[at] = b;
                let bits = plain_lanes(Lanes::load(&block)).bits();
                assert_eq!(bits == 1 << at, plain, "{b:#x} at {at}");
            }
        }
    }

    #[test]
    fn has_byte_is_contains() {
        let long = "a&b".repeat(9);
        for s in [
            "",
            "&",
            "abc",
            "abcdefgh&",
            "&bcdefghijk",
            "abcdefghijklmnop",
            &long,
        ] {
            for b in [b'&', b'a', 0x80, 0] {
                assert_eq!(
                    has_byte(s.as_bytes(), b),
                    s.as_bytes().contains(&b),
                    "{s:?} {b}"
                );
            }
        }
        // Every byte value at every position of a word and of the tail.
        for b in 0..=255u8 {
            for at in 0..11 {
                let mut s = [b'x'; 11];
                s[at] = b;
                assert!(has_byte(&s, b));
                assert_eq!(has_byte(&s, b.wrapping_add(1)), b.wrapping_add(1) == b'x');
            }
        }
    }

    #[test]
    fn newline_is_str_find() {
        let long = format!("{}\n{}", "é x".repeat(30), "y\n");
        for s in ["", "\n", "a", "ab\ncd\n", "ü|| x", long.as_str()] {
            assert_eq!(newline(s), s.find('\n'), "{s:?}");
        }
    }

    #[test]
    fn next_stop_finds_what_a_byte_search_finds() {
        let stops = super::super::STOP;
        // Every stop table the tokenizer searches with.
        let tables = [
            stops,
            super::super::table::CELL_STOP,
            super::super::table::BARS,
        ];
        for table in tables {
            for b in 0..=255u8 {
                let plain = plain_bytes(u64::from(b)) & 0x80 != 0;
                assert!(
                    !(plain && table[usize::from(b)]),
                    "{b:#x} is plain and a stop"
                );
            }
        }
        let text = "Anarchism is a political philosophy (1840–1890), see [[Peter Kropotkin|Kropotkin]]'s \
                    ''Mutual Aid'': a_b {{cite}} | x ! y RFC 1 PMID 2 ISBN 3 <ref>é\u{E000}</ref>\n\
                    plain lower-case words and 1234567890 digits, then the end";
        let bytes = text.as_bytes();
        for from in 0..=bytes.len() {
            for end in from..=bytes.len() {
                let run = &bytes[..end];
                let expected = run[from..]
                    .iter()
                    .position(|&b| stops[usize::from(b)])
                    .map_or(run.len(), |at| from + at);
                assert_eq!(next_stop(run, from, &stops), expected, "{from}..{end}");
            }
        }
    }
}

//! "Escaping a string" (HTML §13.3, current text in `spec/parsing.md` A.8): the one
//! escaping routine shared by the DOM serializer and the token serializer.
//!
//! `&` → `&amp;`, U+00A0 → `&nbsp;`, `<` → `&lt;`, `>` → `&gt;`; in attribute mode
//! also the quote character (`"` → `&quot;`, or `'` → `&#39;` for the token
//! serializer's single-quoted values). Since 2025 `<` and `>` are escaped in
//! attribute values too.
//!
//! Long text (from [`VECTOR_MIN`] bytes) is first searched with `memchr`'s
//! vectorized searches: text without U+00A0 is escaped from one three-byte
//! search, an attribute value with nothing to escape is copied whole. Otherwise
//! the text is scanned eight bytes at a time (one `u64` compared with every byte
//! the mode escapes, [`next_special`]), the tail byte by byte against a lookup
//! table, and copied in runs: nothing is allocated, and unescaped text costs a
//! few word operations per eight bytes.

use std::fmt::{self, Write};

/// What is being escaped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EscapeMode {
    /// Text content (and unquoted attribute values): `&`, U+00A0, `<`, `>`.
    Text,
    /// A double-quoted attribute value: the text set plus `"`.
    DoubleQuoted,
    /// A single-quoted attribute value: the text set plus `'`.
    SingleQuoted,
}

impl EscapeMode {
    const fn mask(self) -> u8 {
        match self {
            EscapeMode::Text => TEXT,
            EscapeMode::DoubleQuoted => TEXT | DOUBLE,
            EscapeMode::SingleQuoted => TEXT | SINGLE,
        }
    }
}

const TEXT: u8 = 1;
const DOUBLE: u8 = 2;
const SINGLE: u8 = 4;

/// Per byte: which modes escape it. `0xA0` stands for U+00A0, whose UTF-8 form is
/// `C2 A0` (a `0xA0` byte right after `0xC2` is always that character).
static SPECIAL: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'&' as usize] = TEXT;
    t[b'<' as usize] = TEXT;
    t[b'>' as usize] = TEXT;
    t[0xA0] = TEXT;
    t[b'"' as usize] = DOUBLE;
    t[b'\'' as usize] = SINGLE;
    t
};

/// Writes `s` escaped for `mode` (the one escaping routine of tagloom: the DOM and
/// token serializers and the streaming rewriter use it).
pub fn write_escaped<W: Write + ?Sized>(out: &mut W, s: &str, mode: EscapeMode) -> fmt::Result {
    let bytes = s.as_bytes();
    if bytes.len() >= VECTOR_MIN {
        match mode {
            // No U+00A0 (no 0xC2 byte at all): the three others found by one
            // vectorized search, the runs between them copied.
            EscapeMode::Text if memchr::memchr(0xC2, bytes).is_none() => {
                let mut start = 0;
                for i in memchr::memchr3_iter(b'&', b'<', b'>', bytes) {
                    out.write_str(s.get(start..i).unwrap_or_default())?;
                    out.write_str(match bytes.get(i) {
                        Some(b'&') => "&amp;",
                        Some(b'<') => "&lt;",
                        _ => "&gt;",
                    })?;
                    start = i + 1;
                }
                return out.write_str(s.get(start..).unwrap_or_default());
            }
            // The usual value, with nothing to escape: two vectorized searches.
            EscapeMode::DoubleQuoted | EscapeMode::SingleQuoted
                if memchr::memchr3(b'&', quote_byte(mode), 0xC2, bytes).is_none()
                    && memchr::memchr2(b'<', b'>', bytes).is_none() =>
            {
                return out.write_str(s);
            }
            _ => {}
        }
    }
    let mask = mode.mask();
    // Text mode has no quote to escape: `&` stands in for it (searched twice).
    let quote = splat(quote_byte(mode));
    let mut start = 0;
    let mut from = 0;
    while let Some(i) = next_special(bytes, from, mask, quote) {
        from = i + 1;
        let (run_end, replacement) = match bytes.get(i) {
            Some(b'&') => (i, "&amp;"),
            Some(b'<') => (i, "&lt;"),
            Some(b'>') => (i, "&gt;"),
            Some(b'"') => (i, "&quot;"),
            Some(b'\'') => (i, "&#39;"),
            // U+00A0: only when the byte before is its lead byte 0xC2.
            _ if i > 0 && bytes.get(i - 1) == Some(&0xC2) => (i - 1, "&nbsp;"),
            _ => continue,
        };
        out.write_str(s.get(start..run_end).unwrap_or_default())?;
        out.write_str(replacement)?;
        start = i + 1;
    }
    out.write_str(s.get(start..).unwrap_or_default())
}

/// Texts at least this long are first searched with `memchr`'s vectorized
/// searches (16 or 32 bytes at a time), which pay off past a few words.
const VECTOR_MIN: usize = 32;

/// The mode's quote byte; `&` in text mode, which has none (a search for it
/// then only repeats the search for `&`).
const fn quote_byte(mode: EscapeMode) -> u8 {
    match mode {
        EscapeMode::Text => b'&',
        EscapeMode::DoubleQuoted => b'"',
        EscapeMode::SingleQuoted => b'\'',
    }
}

/// Every byte of a word set to `b`.
const fn splat(b: u8) -> u64 {
    u64::from_ne_bytes([b; 8])
}

/// The high bit of each byte of `x` that is zero. The lowest set bit is always a
/// zero byte's (a borrow can only mark bytes above a zero byte), which is all
/// [`next_special`] reads.
const fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(splat(1)) & !x & splat(0x80)
}

/// The index of the first byte at or after `from` that `mask` escapes (`0xA0`
/// included: the caller checks its lead byte), eight bytes at a time: each word
/// is compared with `&`, `<`, `>`, `0xA0` and `quote` (the mode's quote, or `&`
/// again in text mode), then the tail against [`SPECIAL`].
fn next_special(bytes: &[u8], from: usize, mask: u8, quote: u64) -> Option<usize> {
    let rest = bytes.get(from..)?;
    let mut chunks = rest.chunks_exact(8);
    let mut at = from;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        // Little-endian: the first byte in memory is the lowest.
        let w = u64::from_le_bytes(word);
        let hits = zero_bytes(w ^ splat(b'&'))
            | zero_bytes(w ^ splat(b'<'))
            | zero_bytes(w ^ splat(b'>'))
            | zero_bytes(w ^ splat(0xA0))
            | zero_bytes(w ^ quote);
        if hits != 0 {
            return Some(at + (hits.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| SPECIAL[b as usize] & mask != 0)
        .map(|p| at + p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn esc(s: &str, mode: EscapeMode) -> String {
        let mut out = String::new();
        write_escaped(&mut out, s, mode).unwrap();
        out
    }

    #[test]
    fn text_mode() {
        assert_eq!(
            esc("a<b>c&d\"e'f", EscapeMode::Text),
            "a&lt;b&gt;c&amp;d\"e'f"
        );
        assert_eq!(esc("\u{a0}x\u{a0}", EscapeMode::Text), "&nbsp;x&nbsp;");
        // Other characters with an 0xA0 continuation byte are left alone.
        assert_eq!(
            esc("\u{1a0}\u{20a0}é", EscapeMode::Text),
            "\u{1a0}\u{20a0}é"
        );
        assert_eq!(esc("", EscapeMode::Text), "");
        assert_eq!(esc("plain", EscapeMode::Text), "plain");
    }

    #[test]
    fn attribute_modes() {
        assert_eq!(
            esc("a<b>\"c'&", EscapeMode::DoubleQuoted),
            "a&lt;b&gt;&quot;c'&amp;"
        );
        assert_eq!(
            esc("a<b>\"c'&", EscapeMode::SingleQuoted),
            "a&lt;b&gt;\"c&#39;&amp;"
        );
    }

    /// The escaping written out per character, as the spec says it.
    fn reference(s: &str, mode: EscapeMode) -> String {
        let mut out = String::new();
        for c in s.chars() {
            match (c, mode) {
                ('&', _) => out.push_str("&amp;"),
                ('\u{a0}', _) => out.push_str("&nbsp;"),
                ('<', _) => out.push_str("&lt;"),
                ('>', _) => out.push_str("&gt;"),
                ('"', EscapeMode::DoubleQuoted) => out.push_str("&quot;"),
                ('\'', EscapeMode::SingleQuoted) => out.push_str("&#39;"),
                _ => out.push(c),
            }
        }
        out
    }

    /// Every special character (and look-alike bytes: other characters with an
    /// 0xA0 or 0xC2 byte) at every offset of the word scan and its tail, alone
    /// and in pairs, in every mode.
    #[test]
    fn word_scan_agrees_with_the_reference_at_every_offset() {
        let pieces = [
            "&", "<", ">", "\"", "'", "\u{a0}", "\u{1a0}", "\u{20a0}", "\u{a9}", "é", "x",
        ];
        let modes = [
            EscapeMode::Text,
            EscapeMode::DoubleQuoted,
            EscapeMode::SingleQuoted,
        ];
        for len in 0..40 {
            for a in pieces {
                for b in pieces {
                    for gap in [0, 1, 7, 8, 9] {
                        let s = format!(
                            "{}{a}{}{b}{}",
                            "x".repeat(len),
                            "y".repeat(gap),
                            "z".repeat(len % 9)
                        );
                        for mode in modes {
                            assert_eq!(esc(&s, mode), reference(&s, mode), "{s:?} {mode:?}");
                        }
                    }
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn any_text_escapes_as_the_reference(s in "[a&<>\"'\u{a0}\u{1a0}\u{c2}\u{a9}é ]{0,80}") {
            for mode in [EscapeMode::Text, EscapeMode::DoubleQuoted, EscapeMode::SingleQuoted] {
                proptest::prop_assert_eq!(esc(&s, mode), reference(&s, mode));
            }
        }
    }
}

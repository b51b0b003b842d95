//! "Escaping a string" (HTML §13.3, current text in `spec/parsing.md` A.8): the one
//! escaping routine shared by the DOM serializer and the token serializer.
//!
//! `&` → `&amp;`, U+00A0 → `&nbsp;`, `<` → `&lt;`, `>` → `&gt;`; in attribute mode
//! also the quote character (`"` → `&quot;`, or `'` → `&#39;` for the token
//! serializer's single-quoted values). Since 2025 `<` and `>` are escaped in
//! attribute values too.
//!
//! The text is scanned byte by byte against a lookup table and copied in runs, so
//! nothing is allocated and unescaped text costs one table load per byte.

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
    let mask = mode.mask();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if SPECIAL[b as usize] & mask == 0 {
            continue;
        }
        let (run_end, replacement) = match b {
            b'&' => (i, "&amp;"),
            b'<' => (i, "&lt;"),
            b'>' => (i, "&gt;"),
            b'"' => (i, "&quot;"),
            b'\'' => (i, "&#39;"),
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
}

//! "Escaping a string" (HTML §13.3, current text in `spec/parsing.md` A.8): the one
//! escaping routine shared by the DOM serializer and the token serializer.
//!
//! `&` → `&amp;`, U+00A0 → `&nbsp;`, `<` → `&lt;`, `>` → `&gt;`; in attribute mode
//! also the quote character (`"` → `&quot;`, or `'` → `&#39;` for the token
//! serializer's single-quoted values). Since 2025 `<` and `>` are escaped in
//! attribute values too.
//!
//! The text is tested sixteen bytes at a time (the tokenizer's [`Lanes`]: one
//! comparison per escaped byte and block), the bytes found are replaced and the
//! runs between them copied whole: nothing is allocated, and unescaped text
//! costs a handful of instructions per sixteen bytes.

use std::fmt::{self, Write};

use crate::tokenizer::lanes::{Lanes, WIDTH, block_at};

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

/// Writes `s` escaped for `mode` (the one escaping routine of tagloom: the DOM and
/// token serializers and the streaming rewriter use it).
pub fn write_escaped<W: Write + ?Sized>(out: &mut W, s: &str, mode: EscapeMode) -> fmt::Result {
    escape(&mut Formatter(out), s, mode)
}

/// [`write_escaped`] onto UTF-8 bytes (valid when `out` was: only whole
/// characters are added), for serializers that build their output as bytes:
/// the runs are copied without a call each. Inlined into the serializer's
/// loop (its constants set up once, no call per string).
#[inline]
pub fn escape_into(out: &mut Vec<u8>, s: &str, mode: EscapeMode) {
    // Writing into a `Vec` cannot fail.
    let _ = escape(out, s, mode);
}

/// Where [`escape`] writes: the runs of `s` left as they are, and replacements.
trait Sink {
    /// Writes `s[from..to]` (character boundaries).
    fn run(&mut self, s: &str, from: usize, to: usize) -> fmt::Result;
    /// Writes a replacement.
    fn text(&mut self, text: &'static str) -> fmt::Result;
}

/// A [`fmt::Write`] as a [`Sink`].
struct Formatter<'a, W: ?Sized>(&'a mut W);

impl<W: Write + ?Sized> Sink for Formatter<'_, W> {
    #[inline(always)]
    fn run(&mut self, s: &str, from: usize, to: usize) -> fmt::Result {
        self.0.write_str(s.get(from..to).unwrap_or_default())
    }

    #[inline(always)]
    fn text(&mut self, text: &'static str) -> fmt::Result {
        self.0.write_str(text)
    }
}

impl Sink for Vec<u8> {
    /// A short run is copied as the whole block that starts with it (one
    /// fixed-size copy, no call), the bytes past the run cut off again.
    #[inline(always)]
    fn run(&mut self, s: &str, from: usize, to: usize) -> fmt::Result {
        let bytes = s.as_bytes();
        let len = to.saturating_sub(from);
        match block_at(bytes, from) {
            Some(block) if len <= WIDTH => {
                let keep = self.len() + len;
                self.extend_from_slice(block);
                self.truncate(keep);
            }
            _ => self.extend_from_slice(bytes.get(from..to).unwrap_or_default()),
        }
        Ok(())
    }

    #[inline(always)]
    fn text(&mut self, text: &'static str) -> fmt::Result {
        self.extend_from_slice(text.as_bytes());
        Ok(())
    }
}

/// The escaping: `s` tested a block at a time, the bytes found replaced, the
/// runs between them written whole.
#[inline(always)]
fn escape<S: Sink + ?Sized>(out: &mut S, s: &str, mode: EscapeMode) -> fmt::Result {
    let bytes = s.as_bytes();
    let quote = quote_byte(mode);
    // `start`: the first byte not written yet; `at`: the block tested.
    let mut start = 0;
    let mut at = 0;
    while at < bytes.len() {
        let mut hits = match block_at(bytes, at) {
            Some(block) => specials(block, quote),
            None => tail_specials(bytes, at, quote),
        };
        while hits != 0 {
            let i = at + hits.trailing_zeros() as usize;
            hits &= hits - 1;
            let byte = bytes.get(i).copied().unwrap_or_default();
            // U+00A0: only when the byte before is its lead byte 0xC2.
            let run_end = match byte {
                0xA0 if i > 0 && bytes.get(i - 1) == Some(&0xC2) => i - 1,
                0xA0 => continue,
                _ => i,
            };
            if run_end > start {
                out.run(s, start, run_end)?;
            }
            // One write per replacement: each of known length.
            match byte {
                b'&' => out.text("&amp;"),
                b'<' => out.text("&lt;"),
                b'>' => out.text("&gt;"),
                b'"' => out.text("&quot;"),
                b'\'' => out.text("&#39;"),
                _ => out.text("&nbsp;"),
            }?;
            start = i + 1;
        }
        at += WIDTH;
    }
    if start < bytes.len() {
        out.run(s, start, bytes.len())?;
    }
    Ok(())
}

/// The mode's quote byte; `&` in text mode, which has none (a search for it
/// then only repeats the search for `&`).
const fn quote_byte(mode: EscapeMode) -> u8 {
    match mode {
        EscapeMode::Text => b'&',
        EscapeMode::DoubleQuoted => b'"',
        EscapeMode::SingleQuoted => b'\'',
    }
}

/// One bit per byte of `block` (bit *i* for byte *i*) that the mode escapes:
/// `&`, `<`, `>`, `quote`, and `0xA0` (U+00A0's second byte: the caller checks
/// the byte before it).
#[inline(always)]
fn specials(block: &[u8; WIDTH], quote: u8) -> u32 {
    let lanes = Lanes::load(block);
    lanes
        .eq(b'&')
        .or(lanes.eq(b'<'))
        .or(lanes.eq(b'>'))
        .or(lanes.eq(0xA0))
        .or(lanes.eq(quote))
        .bits()
}

/// [`specials`] for the last bytes of `bytes`, from `at` (fewer than a
/// block): the block that ends with them when the text is that long (the
/// bits of the bytes before `at` shifted out), else the bytes padded with
/// zeros (never escaped).
fn tail_specials(bytes: &[u8], at: usize, quote: u8) -> u32 {
    let tail = bytes.len().saturating_sub(at);
    if let Some(block) = bytes
        .len()
        .checked_sub(WIDTH)
        .and_then(|from| block_at(bytes, from))
    {
        return specials(block, quote) >> (WIDTH - tail);
    }
    let mut padded = [0u8; WIDTH];
    if let (Some(to), Some(from)) = (padded.get_mut(..tail), bytes.get(at..)) {
        to.copy_from_slice(from);
    }
    specials(&padded, quote)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `s` escaped by both entry points, which must agree.
    fn esc(s: &str, mode: EscapeMode) -> String {
        let mut out = String::new();
        write_escaped(&mut out, s, mode).unwrap();
        let mut bytes = b"<".to_vec();
        escape_into(&mut bytes, s, mode);
        assert_eq!(bytes.get(1..), Some(out.as_bytes()), "{s:?} {mode:?}");
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

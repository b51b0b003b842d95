//! An output buffer of bytes that only ever takes whole UTF-8 text, so that
//! it becomes a `String` without a second look at every byte.
//!
//! A serializer that writes its output as bytes (for [`escape_into`]'s
//! fixed-size copies) and hands out a `String` would otherwise validate the
//! whole output again at the end (`String::from_utf8`: ≈ 0.5 instructions a
//! byte, 14.5 M of the wikitext renderer's 1 020 M for 28 MB of HTML). Every
//! way into [`Utf8Bytes`] appends whole characters: `&str`s, ASCII bytes,
//! [`escape_into`]'s output (whole characters of its text and ASCII
//! replacements), an ASCII byte replaced by another; the one `unsafe` block
//! ([`Utf8Bytes::into_string`]) relies on nothing else.

use super::escape::{EscapeMode, escape_into, padded, push_prefix};
use crate::tokenizer::lanes::{WIDTH, block_at};

/// `block` with each byte `from` as `to` (no branch: it vectorizes).
#[inline(always)]
fn replaced(mut block: [u8; WIDTH], from: u8, to: u8) -> [u8; WIDTH] {
    for b in &mut block {
        *b = if *b == from { to } else { *b };
    }
    block
}

/// Bytes that are valid UTF-8 after every call (the type's invariant), built
/// by appending text; [`into_string`](Self::into_string) makes the `String`
/// without validating it again.
///
/// ```
/// use tagloom_html::serializer::{EscapeMode, Utf8Bytes};
///
/// let mut out = Utf8Bytes::from(String::from("<p"));
/// out.push_str(" title=\"");
/// out.push_escaped("«a & b»", EscapeMode::DoubleQuoted);
/// out.push_ascii(b'"');
/// out.push_ascii(b'>');
/// assert_eq!(out.into_string(), "<p title=\"«a &amp; b»\">");
/// ```
#[derive(Debug, Default)]
pub struct Utf8Bytes {
    bytes: Vec<u8>,
}

impl From<String> for Utf8Bytes {
    /// The string's bytes and capacity, appended to.
    fn from(text: String) -> Self {
        Utf8Bytes {
            bytes: text.into_bytes(),
        }
    }
}

impl Utf8Bytes {
    /// The bytes written so far.
    #[inline]
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether nothing is written.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The bytes written so far (valid UTF-8).
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Appends `text`.
    #[inline(always)]
    pub fn push_str(&mut self, text: &str) {
        self.bytes.extend_from_slice(text.as_bytes());
    }

    /// Appends the ASCII byte `byte`; any other byte is not written (it would
    /// not be a whole character). Free for a constant byte.
    #[inline(always)]
    pub fn push_ascii(&mut self, byte: u8) {
        if byte.is_ascii() {
            self.bytes.push(byte);
        }
    }

    /// Appends `text` escaped for `mode` ([`escape_into`]).
    #[inline(always)]
    pub fn push_escaped(&mut self, text: &str, mode: EscapeMode) {
        escape_into(&mut self.bytes, text, mode);
    }

    /// Appends `text` with each ASCII byte `from` written as the ASCII byte
    /// `to` (e.g. a title's spaces as `_`); when either is not ASCII, `text`
    /// as it is. A block of sixteen bytes at a time, each byte chosen without
    /// a branch (one vector select a block) and the block appended as one
    /// piece; the last bytes as a zero-padded block cut off again (no call,
    /// no byte loop: ≈ 86 → 40 instructions for a red link's title).
    #[inline]
    pub fn push_str_replacing(&mut self, text: &str, from: u8, to: u8) {
        if !(from.is_ascii() && to.is_ascii()) {
            self.push_str(text);
            return;
        }
        let bytes = text.as_bytes();
        let mut at = 0;
        while let Some(block) = block_at(bytes, at) {
            self.bytes.extend_from_slice(&replaced(*block, from, to));
            at += WIDTH;
        }
        if let Some(rest) = bytes.get(at..).filter(|rest| !rest.is_empty()) {
            push_prefix(
                &mut self.bytes,
                &replaced(padded(rest), from, to),
                rest.len(),
            );
        }
    }

    /// The text written, as a `String` (no copy, no validation).
    #[allow(unsafe_code)]
    pub fn into_string(self) -> String {
        // Checked where it costs nothing in a release build: the tests.
        debug_assert!(std::str::from_utf8(&self.bytes).is_ok());
        // SAFETY: the bytes are valid UTF-8. `From<String>` starts from a
        // `String`'s bytes; every method appends whole characters: `push_str`
        // a `&str`, `push_ascii` an ASCII byte (others are refused),
        // `push_str_replacing` a `&str` in which ASCII bytes (each a whole
        // character in UTF-8) are replaced by ASCII bytes (its last block
        // zero-padded and cut off again at the `&str`'s end), `push_escaped`
        // `escape_into`'s output, which is runs of its `&str` cut at ASCII
        // bytes or before the two-byte U+00A0 (character boundaries) and ASCII
        // replacements (its fixed-size copies write bytes past a run that are
        // cut off again before it returns). Nothing else writes to `bytes`.
        // The tests check every method's output with `from_utf8`.
        unsafe { String::from_utf8_unchecked(self.bytes) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the pieces make, validated as a `String` would be.
    fn checked(out: &Utf8Bytes) -> &str {
        std::str::from_utf8(out.as_bytes()).unwrap()
    }

    #[test]
    fn every_method_appends_whole_characters() {
        let mut out = Utf8Bytes::from(String::from("é"));
        out.push_str("«x»");
        out.push_ascii(b'"');
        out.push_ascii(0xC2);
        out.push_str_replacing("a b\u{a0}c", b' ', b'_');
        out.push_str_replacing("a b", b' ', 0xA0);
        out.push_escaped("\u{a0}<\"\u{20a0}&", EscapeMode::DoubleQuoted);
        assert_eq!(
            checked(&out),
            "é«x»\"a_b\u{a0}ca b&nbsp;&lt;&quot;\u{20a0}&amp;"
        );
        assert_eq!(out.len(), checked(&out).len());
        assert!(!out.is_empty() && Utf8Bytes::default().is_empty());
        let text = checked(&out).to_owned();
        assert_eq!(out.into_string(), text);
    }

    proptest::proptest! {
        /// Text of any length (whole blocks, the padded rest, characters
        /// across blocks): as a byte-by-byte replacement makes it.
        #[test]
        fn replacing_is_the_byte_by_byte_replacement(
            text in "[a _\u{a0}é«\u{20a0}]{0,70}",
            from in proptest::sample::select(vec![b' ', b'_', b'a', 0]),
        ) {
            let mut out = Utf8Bytes::from(String::from("x"));
            out.push_str_replacing(&text, from, b'_');
            let expected: Vec<u8> = std::iter::once(b'x')
                .chain(text.bytes().map(|b| if b == from { b'_' } else { b }))
                .collect();
            proptest::prop_assert_eq!(out.as_bytes(), &expected[..]);
            proptest::prop_assert!(std::str::from_utf8(out.as_bytes()).is_ok());
        }

        /// Escaped text of any length (every path of `escape_into`), pieces
        /// appended one after the other: always valid, as the pieces say.
        #[test]
        fn escaped_pieces_stay_valid(
            pieces in proptest::collection::vec("[a&<>\"'\u{a0}\u{1a0}\u{c2}é ]{0,70}", 0..6)
        ) {
            let mut out = Utf8Bytes::default();
            let mut expected = String::new();
            for (n, piece) in pieces.iter().enumerate() {
                let mode = if n % 2 == 0 { EscapeMode::Text } else { EscapeMode::DoubleQuoted };
                out.push_escaped(piece, mode);
                crate::serializer::write_escaped(&mut expected, piece, mode).unwrap();
                proptest::prop_assert!(std::str::from_utf8(out.as_bytes()).is_ok());
            }
            proptest::prop_assert_eq!(out.into_string(), expected);
        }
    }
}

//! The tokenizer's input buffer (§13.2.3.5 "Preprocessing the input stream").
//!
//! Decoded text is appended to one `String`; tokens borrow from it. Text before the
//! last committed token is dropped when it grows large, so memory is bounded by the
//! largest token plus one chunk, not by the document.
//!
//! Preprocessing is done lazily: CR and CR LF are turned into LF by the states as
//! they read (so spans keep addressing the real source bytes), while the parse errors
//! for control characters and noncharacters in the input stream are found here, once
//! per pushed chunk, and queued by offset (at most the tokenizer's `max_errors`;
//! further ones are only counted, so 10 MiB of control characters cannot queue ten
//! million errors).

use std::collections::VecDeque;

use crate::error::ErrorCode;

/// Bytes that may start an input-stream error: C0 controls other than TAB, LF, FF,
/// CR and NUL; DEL; and the lead bytes of C1 controls (C2) and noncharacters (EF for
/// U+FDD0..U+FDEF and U+FFFE/U+FFFF, F0..F4 for the other planes).
const SUSPECT: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 1;
    while b < 0x20 {
        table[b] = !matches!(b as u8, b'\t' | b'\n' | 0x0C | b'\r');
        b += 1;
    }
    table[0x7F] = true;
    table[0xC2] = true;
    table[0xEF] = true;
    let mut b = 0xF0;
    while b <= 0xF4 {
        table[b] = true;
        b += 1;
    }
    table
};

/// Whether every byte of `w` is in 0x20..=0x7E.
#[inline]
fn is_printable_ascii(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // A byte below 0x20 borrows when 0x20 is subtracted from it.
    let below_space = w.wrapping_sub(ONES * 0x20) & !w & HIGHS;
    // A byte of 0x7F or more has its high bit set after adding 1 (or before).
    let del_or_high = (w.wrapping_add(ONES) | w) & HIGHS;
    below_space | del_or_high == 0
}

#[derive(Default)]
pub(crate) struct InputBuffer {
    /// Decoded text from `base` on.
    pub(crate) buf: String,
    /// Absolute offset of `buf[0]`.
    pub(crate) base: usize,
    /// Input-stream parse errors not yet reported, by absolute offset.
    pub(crate) stream_errors: VecDeque<(usize, ErrorCode)>,
    /// Whether to look for input-stream errors at all.
    pub(crate) check_errors: bool,
    /// How many errors `stream_errors` may hold (the tokenizer's `max_errors`):
    /// past it, an error found is counted in `dropped_errors`. The ones queued
    /// come first in the input, so they fill the tokenizer's list before any
    /// error dropped here could have been stored.
    pub(crate) max_queued_errors: usize,
    /// Input-stream errors counted but not queued.
    pub(crate) dropped_errors: usize,
}

impl InputBuffer {
    /// Appends `chunk`, scanning it for input-stream errors.
    pub(crate) fn push(&mut self, chunk: &str) {
        let start = self.base + self.buf.len();
        if self.check_errors {
            self.scan_stream_errors(chunk.as_bytes(), start);
        }
        self.buf.push_str(chunk);
    }

    fn scan_stream_errors(&mut self, bytes: &[u8], start: usize) {
        let mut i = 0;
        while i < bytes.len() {
            // Fast path: skip 8 printable ASCII bytes (0x20..=0x7E) at a time. A word
            // with any other byte is looked at byte by byte below.
            if let Some(word) = bytes.get(i..i + 8) {
                let mut w = [0; 8];
                w.copy_from_slice(word);
                if is_printable_ascii(u64::from_le_bytes(w)) {
                    i += 8;
                    continue;
                }
            }
            let b = bytes[i];
            if !SUSPECT[b as usize] {
                i += 1;
                continue;
            }
            let code = match b {
                0x01..=0x7F => Some(ErrorCode::ControlCharacterInInputStream),
                0xC2 => match bytes.get(i + 1) {
                    // U+0080..U+009F
                    Some(0x80..=0x9F) => Some(ErrorCode::ControlCharacterInInputStream),
                    _ => None,
                },
                0xEF => match (bytes.get(i + 1), bytes.get(i + 2)) {
                    // U+FDD0..U+FDEF
                    (Some(0xB7), Some(0x90..=0xAF)) => Some(ErrorCode::NoncharacterInInputStream),
                    // U+FFFE, U+FFFF
                    (Some(0xBF), Some(0xBE | 0xBF)) => Some(ErrorCode::NoncharacterInInputStream),
                    _ => None,
                },
                _ => match (bytes.get(i + 1), bytes.get(i + 2), bytes.get(i + 3)) {
                    // U+xFFFE and U+xFFFF in planes 1..16: the last two bytes are
                    // BF BE/BF and the second byte's low nibble is 0xF.
                    (Some(&b1), Some(0xBF), Some(0xBE | 0xBF)) if b1 & 0x0F == 0x0F => {
                        Some(ErrorCode::NoncharacterInInputStream)
                    }
                    _ => None,
                },
            };
            if let Some(code) = code {
                if self.stream_errors.len() < self.max_queued_errors {
                    self.stream_errors.push_back((start + i, code));
                } else {
                    self.dropped_errors += 1;
                }
            }
            i += 1;
        }
    }

    /// Drops the text before absolute offset `keep_from`.
    pub(crate) fn discard_before(&mut self, keep_from: usize) {
        let n = keep_from.saturating_sub(self.base).min(self.buf.len());
        if n == 0 {
            return;
        }
        self.buf.drain(..n);
        self.base += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(s: &str) -> Vec<(usize, ErrorCode)> {
        let mut input = InputBuffer {
            check_errors: true,
            max_queued_errors: usize::MAX,
            ..Default::default()
        };
        input.push(s);
        input.stream_errors.into_iter().collect()
    }

    #[test]
    fn finds_controls_and_noncharacters() {
        use ErrorCode::*;
        assert_eq!(errors("a\u{1}b"), vec![(1, ControlCharacterInInputStream)]);
        assert_eq!(
            errors("\u{7F}\u{9F}\u{A0}"),
            vec![
                (0, ControlCharacterInInputStream),
                (1, ControlCharacterInInputStream)
            ]
        );
        assert_eq!(
            errors("\u{FDD0}\u{FDEF}\u{FDF0}"),
            vec![
                (0, NoncharacterInInputStream),
                (3, NoncharacterInInputStream)
            ]
        );
        assert_eq!(
            errors("\u{FFFE}\u{1FFFF}\u{10FFFE}\u{1FFFD}"),
            vec![
                (0, NoncharacterInInputStream),
                (3, NoncharacterInInputStream),
                (7, NoncharacterInInputStream)
            ]
        );
        assert!(errors("\t\n\x0C\r\0 é€😀").is_empty());
    }

    #[test]
    fn printable_ascii_words() {
        let word = |s: &[u8; 8]| is_printable_ascii(u64::from_le_bytes(*s));
        assert!(word(b"abcd~ XY"));
        for bad in [0x00, 0x01, 0x09, 0x0A, 0x1F, 0x7F, 0x80, 0xC2, 0xFF] {
            for pos in 0..8 {
                let mut w = *b"abcdefgh";
                w[pos] = bad;
                assert!(!word(&w), "{bad:#x} at {pos}");
            }
        }
    }

    #[test]
    fn discards_prefix() {
        let mut input = InputBuffer::default();
        input.push("hello");
        input.push(" world");
        input.discard_before(6);
        assert_eq!(input.buf, "world");
        assert_eq!(input.base, 6);
        assert_eq!(input.base + input.buf.len(), 11);
    }
}

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

use super::lanes::{Lanes, WIDTH, block_at};
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

/// The rough test: controls other than TAB, LF and CR, DEL, and every non-ASCII
/// byte (a superset of [`SUSPECT`]). A block of printable ASCII and whitespace,
/// most of a page, has none.
#[inline(always)]
fn rough(block: &[u8; WIDTH]) -> Lanes {
    let lanes = Lanes::load(block);
    let common_space = lanes.eq(b'\t').or(lanes.eq(b'\n')).or(lanes.eq(b'\r'));
    lanes
        .lt_signed(0x20)
        .or(lanes.eq(0x7F))
        .and_not(common_space)
}

/// The bytes of `block` that may start an input-stream error: a superset of
/// [`SUSPECT`] (every control but TAB, LF and CR, which are common), one bit per byte.
/// A block passing the [`rough`] test is ruled out; others get the exact
/// lead-byte tests.
#[inline(always)]
pub(crate) fn suspects(block: &[u8; WIDTH]) -> u32 {
    if rough(block).bits() == 0 {
        return 0;
    }
    let lanes = Lanes::load(block);
    let common_space = lanes.eq(b'\t').or(lanes.eq(b'\n')).or(lanes.eq(b'\r'));
    lanes
        .le(0x1F)
        .and_not(common_space)
        .or(lanes.eq(0x7F))
        .or(lanes.eq(0xC2))
        .or(lanes.eq(0xEF))
        .or(lanes.between(0xF0, 0xF4))
        .bits()
}

/// The [`rough`] test's bits (for the tests of the AVX2 scan).
#[cfg(test)]
pub(crate) fn rough_bits(block: &[u8; WIDTH]) -> u32 {
    rough(block).bits()
}

/// Blocks the scan rules out together with one rough test.
const ROUND: usize = 4;

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
    /// The length of the last chunk pushed after other input (a stream: its next
    /// chunk is about as long, so a release leaves room for it,
    /// [`InputBuffer::room_to_keep`]); 0 while the first push is all there is.
    pub(crate) last_push: usize,
    /// Input kept from this absolute offset on for the caller
    /// ([`super::Tokenizer::hold_from`]).
    pub(crate) hold: Option<usize>,
}

impl InputBuffer {
    /// Appends `chunk`, scanning it for input-stream errors.
    pub(crate) fn push(&mut self, chunk: &str) {
        let start = self.base + self.buf.len();
        if self.check_errors {
            self.scan_stream_errors(chunk.as_bytes(), start);
        }
        self.buf.push_str(chunk);
        if start > 0 {
            self.last_push = chunk.len();
        }
    }

    /// The capacity worth keeping beyond the text held, once consumed text is
    /// released: half the text, or room for the next chunk of a stream (as long
    /// as the last one, up to 256 KiB). Shrinking below that would only have the
    /// next push grow the buffer back, a copy each way per chunk. A page pushed
    /// whole (or in chunks over 256 KiB) is released as before.
    pub(crate) fn room_to_keep(&self) -> usize {
        const CHUNK_ROOM_MAX: usize = 256 * 1024;
        let chunk = if self.last_push <= CHUNK_ROOM_MAX {
            self.last_push
        } else {
            0
        };
        (self.buf.len() / 2).max(chunk)
    }

    /// Queues the input-stream errors of `bytes` (which start at absolute offset
    /// `start`). Blocks of 16 bytes (64 with AVX2, `wide.rs`) are tested at
    /// once; only the bytes that may start an error are looked at one by one.
    fn scan_stream_errors(&mut self, bytes: &[u8], start: usize) {
        let mut at = 0;
        #[cfg(target_arch = "x86_64")]
        if bytes.len() >= 64 && super::wide::available() {
            // SAFETY: the processor has AVX2 (checked just above), the only
            // requirement of the target-feature function.
            #[allow(unsafe_code)]
            let end = unsafe {
                super::wide::avx2::scan_groups(bytes, |i| self.check_byte(bytes, i, start))
            };
            at = end;
        }
        while let Some(group) = bytes
            .get(at..)
            .and_then(<[u8]>::first_chunk::<{ ROUND * WIDTH }>)
        {
            let mut any = Lanes::none();
            for k in 0..ROUND {
                if let Some(block) = block_at(group, k * WIDTH) {
                    any = any.or(rough(block));
                }
            }
            if any.bits() != 0 {
                for k in 0..ROUND {
                    let block_start = at + k * WIDTH;
                    if let Some(block) = block_at(bytes, block_start) {
                        let mut bits = suspects(block);
                        while bits != 0 {
                            self.check_byte(
                                bytes,
                                block_start + bits.trailing_zeros() as usize,
                                start,
                            );
                            bits &= bits - 1;
                        }
                    }
                }
            }
            at += ROUND * WIDTH;
        }
        while let Some(block) = block_at(bytes, at) {
            let mut bits = suspects(block);
            while bits != 0 {
                self.check_byte(bytes, at + bits.trailing_zeros() as usize, start);
                bits &= bits - 1;
            }
            at += WIDTH;
        }
        for i in at..bytes.len() {
            self.check_byte(bytes, i, start);
        }
    }

    /// Queues the input-stream error of the character starting at `bytes[i]`, if any.
    #[inline]
    fn check_byte(&mut self, bytes: &[u8], i: usize, start: usize) {
        let Some(&b) = bytes.get(i) else {
            return;
        };
        if !SUSPECT[usize::from(b)] {
            return;
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
    }

    /// Splits off the text from `at` (relative to `buf`) on, forgetting its
    /// queued input-stream errors: pushing it back with [`Self::push`] finds
    /// them again at their new offsets (see `tokenizer/insertion.rs`).
    pub(crate) fn split_tail(&mut self, at: usize) -> String {
        let from = self.base + at;
        while self
            .stream_errors
            .back()
            .is_some_and(|&(offset, _)| offset >= from)
        {
            self.stream_errors.pop_back();
        }
        if self.buf.is_char_boundary(at) {
            self.buf.split_off(at)
        } else {
            String::new()
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
    fn every_suspect_byte_is_a_block_candidate() {
        for b in 0..=255u8 {
            let mut block = [b'a'; WIDTH];
            block[5] = b;
            if SUSPECT[usize::from(b)] {
                assert_eq!(suspects(&block) & (1 << 5), 1 << 5, "{b:#x}");
            }
        }
        assert_eq!(suspects(b"plain text\t\r\n<a>"), 0);
    }

    /// The block scan finds the same errors as the one-character definitions, at
    /// every alignment and across block boundaries.
    #[test]
    fn block_scan_matches_short_scans_at_every_offset() {
        let samples = [
            "\u{1}",
            "\u{7F}",
            "\u{9F}",
            "\u{FDD0}",
            "\u{FFFF}",
            "\u{10FFFE}",
            "\u{C2}",
            "é",
        ];
        for pad in 0..140 {
            for sample in samples {
                let text = format!(
                    "{}{sample}{}{sample}",
                    "a".repeat(pad),
                    "\n".repeat(pad % 7)
                );
                let expected: Vec<_> = errors(sample)
                    .into_iter()
                    .flat_map(|(at, code)| {
                        [(at + pad, code), (at + pad + sample.len() + pad % 7, code)]
                    })
                    .collect();
                assert_eq!(errors(&text), expected, "{text:?}");
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

    #[test]
    fn room_is_kept_for_a_streams_next_chunk() {
        let chunk = "a".repeat(64 * 1024);
        let mut whole = InputBuffer::default();
        whole.push(&chunk);
        assert_eq!(whole.room_to_keep(), 32 * 1024, "a page pushed whole");
        let mut stream = InputBuffer::default();
        stream.push("<p>");
        stream.push(&chunk);
        stream.discard_before(60 * 1024);
        assert_eq!(stream.room_to_keep(), 64 * 1024, "a stream's chunk");
        let mut large = InputBuffer::default();
        large.push("<p>");
        large.push(&"a".repeat(300 * 1024));
        assert_eq!(
            large.room_to_keep(),
            large.buf.len() / 2,
            "chunks past 256 KiB"
        );
    }
}

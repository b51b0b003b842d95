//! Line and column numbers for parse errors, computed lazily.
//!
//! Positions are kept as byte offsets while tokenizing; only an error needs a line
//! and column. The tracker walks forward from its last checkpoint, so the total work
//! is one pass over the input (memchr for the newlines, a char count for the last
//! line) however many errors there are. Lines follow the preprocessed input stream:
//! CR LF and a lone CR are each one newline. Columns count UTF-16 code units (a
//! character outside the BMP counts two), as html5lib-tests and browsers' developer
//! tools do.

use memchr::memchr2_iter;

#[derive(Clone, Copy, Debug)]
pub(crate) struct LineTracker {
    /// Absolute offset the counts below describe.
    offset: usize,
    /// One-based line at `offset`.
    line: u32,
    /// UTF-16 code units between the start of the line and `offset`.
    col: u32,
    /// Whether the byte just before `offset` is a CR (so an LF at `offset` does not
    /// start another line).
    after_cr: bool,
}

impl Default for LineTracker {
    fn default() -> Self {
        LineTracker {
            offset: 0,
            line: 1,
            col: 0,
            after_cr: false,
        }
    }
}

impl LineTracker {
    /// The absolute offset of the checkpoint.
    pub(crate) fn offset(&self) -> usize {
        self.offset
    }

    /// Moves the checkpoint to `target`, reading `buf` (which starts at absolute
    /// offset `base` and must cover `self.offset..target`).
    pub(crate) fn advance(&mut self, buf: &[u8], base: usize, target: usize) {
        if target <= self.offset {
            return;
        }
        let from = self.offset.saturating_sub(base);
        let to = (target - base).min(buf.len());
        let Some(bytes) = buf.get(from..to) else {
            self.offset = target;
            return;
        };
        let mut line_start = 0;
        let mut after_cr = self.after_cr;
        let mut newline_seen = false;
        for i in memchr2_iter(b'\n', b'\r', bytes) {
            let is_crlf_tail = bytes[i] == b'\n'
                && if i == 0 {
                    after_cr
                } else {
                    bytes[i - 1] == b'\r'
                };
            if !is_crlf_tail {
                self.line += 1;
            }
            newline_seen = true;
            line_start = i + 1;
            after_cr = bytes[i] == b'\r';
        }
        let tail = &bytes[line_start..];
        // Code points, plus one more for each 4-byte sequence (a surrogate pair).
        let tail_chars = tail.iter().filter(|&&b| (b as i8) >= -0x40).count() as u32
            + tail.iter().filter(|&&b| b >= 0xF0).count() as u32;
        if newline_seen {
            self.col = tail_chars;
        } else {
            self.col += tail_chars;
        }
        self.after_cr = match bytes.last() {
            Some(&b) => b == b'\r',
            None => after_cr,
        };
        self.offset = base + to;
    }

    /// The one-based (line, column) of the character at `target`, advancing the
    /// checkpoint to it.
    pub(crate) fn locate(&mut self, buf: &[u8], base: usize, target: usize) -> (u32, u32) {
        self.advance(buf, base, target);
        // An LF right after a CR is the same newline: it is at the CR's position.
        let at_crlf_tail = self.after_cr && buf.get(target.wrapping_sub(base)) == Some(&b'\n');
        if at_crlf_tail {
            return (self.line, self.col + 1);
        }
        (self.line, self.col + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc(s: &str, at: usize) -> (u32, u32) {
        LineTracker::default().locate(s.as_bytes(), 0, at)
    }

    #[test]
    fn counts_lines_and_code_points() {
        assert_eq!(loc("abc", 0), (1, 1));
        assert_eq!(loc("abc", 2), (1, 3));
        assert_eq!(loc("a\nbc", 3), (2, 2));
        assert_eq!(loc("a\r\nbc", 4), (2, 2));
        assert_eq!(loc("a\rbc", 3), (2, 2));
        assert_eq!(loc("\r\0", 1), (2, 1));
        assert_eq!(loc("é\nxé!", 6), (2, 3));
        assert_eq!(loc("a\u{100000}b", 5), (1, 4));
    }

    #[test]
    fn incremental_matches_one_shot() {
        let s = "ab\r\n\r\ncd\ref\ngh";
        for split in 0..=s.len() {
            for target in split..=s.len() {
                let mut t = LineTracker::default();
                t.advance(s.as_bytes(), 0, split);
                assert_eq!(
                    t.locate(s.as_bytes(), 0, target),
                    loc(s, target),
                    "{split} {target}"
                );
            }
        }
    }
}

//! Line and column numbers for parse errors, computed lazily.
//!
//! Positions are kept as byte offsets while tokenizing; only an error needs a line
//! and column. The tracker walks forward from its last checkpoint, so the total work
//! is one pass over the input (newlines counted 16 bytes at a time, a char count for the last
//! line) however many errors there are. Lines follow the preprocessed input stream:
//! CR LF and a lone CR are each one newline. Columns count UTF-16 code units (a
//! character outside the BMP counts two), as html5lib-tests and browsers' developer
//! tools do.

use memchr::memrchr2;

use super::lanes::{Lanes, WIDTH, block_at};

/// The newline lanes of the block `cur`, whose bytes are each one after those of
/// `prev`: a CR, or an LF not right after a CR.
#[inline(always)]
fn newline_lanes(cur: &[u8; WIDTH], prev: &[u8; WIDTH]) -> Lanes {
    let cur = Lanes::load(cur);
    cur.eq(b'\r')
        .or(cur.eq(b'\n').and_not(Lanes::load(prev).eq(b'\r')))
}

/// Blocks per round of [`count_newlines`].
const ROUND: usize = 4;

/// The number of newlines in `bytes` (CR, LF and CR LF each one; an LF first in
/// `bytes` is the tail of a CR LF when `after_cr`), a block at a time.
///
/// Each block is compared with the bytes one before it (an overlapping load), so
/// a block costs a few lane operations and no branch; the lanes count up to 255
/// and are summed before they can wrap.
fn count_newlines(bytes: &[u8], after_cr: bool) -> usize {
    let Some(&first) = bytes.first() else {
        return 0;
    };
    let mut n = usize::from(first == b'\r' || (first == b'\n' && !after_cr));
    let mut counts = Lanes::none();
    let mut pending = 0;
    // From here on, the byte before `at` is in `bytes`.
    let mut at = 1;
    #[cfg(target_arch = "x86_64")]
    if bytes.len() >= 64 && super::wide::available() {
        // SAFETY: the processor has AVX2 (checked just above), the only
        // requirement of the target-feature function.
        #[allow(unsafe_code)]
        let (found, end) = unsafe { super::wide::avx2::count_newlines_from(bytes, at) };
        n += found;
        at = end;
    }
    while let Some(group) = bytes
        .get(at - 1..)
        .and_then(<[u8]>::first_chunk::<{ ROUND * WIDTH + 1 }>)
    {
        for k in 0..ROUND {
            if let (Some(prev), Some(cur)) =
                (block_at(group, k * WIDTH), block_at(group, k * WIDTH + 1))
            {
                counts = counts.count(newline_lanes(cur, prev));
            }
        }
        at += ROUND * WIDTH;
        pending += ROUND;
        if pending > 255 - ROUND {
            n += counts.sum() as usize;
            counts = Lanes::none();
            pending = 0;
        }
    }
    n += counts.sum() as usize;
    counts = Lanes::none();
    while let (Some(prev), Some(cur)) = (block_at(bytes, at - 1), block_at(bytes, at)) {
        counts = counts.count(newline_lanes(cur, prev));
        at += WIDTH;
    }
    n += counts.sum() as usize;
    for pair in bytes.get(at - 1..).unwrap_or_default().windows(2) {
        if let [prev, b] = *pair {
            n += usize::from(b == b'\r' || (b == b'\n' && prev != b'\r'));
        }
    }
    n
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct LineTracker {
    /// Absolute offset the counts below describe.
    offset: usize,
    /// One-based line at `offset`.
    line: u32,
    /// UTF-16 code units between the start of the line and `col_at`.
    col: u32,
    /// Absolute offset `col` describes: at most `offset`, with no newline
    /// between the two (the code units after it are counted only when a
    /// column is asked for, or before the input there is dropped: see
    /// [`LineTracker::settle_col`]).
    col_at: usize,
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
            col_at: 0,
            after_cr: false,
        }
    }
}

impl LineTracker {
    /// The absolute offset of the checkpoint.
    pub(crate) fn offset(&self) -> usize {
        self.offset
    }

    /// Takes `other`'s checkpoint when it lies between this one and `target`: both
    /// describe the same input, so a checkpoint further on is as good as the walk
    /// to it. The tokenizer keeps two (its own errors and the tree builder's, each
    /// in offset order but interleaved); without this, each walked the input
    /// between the errors again.
    #[inline]
    pub(crate) fn catch_up(&mut self, other: &LineTracker, target: usize) {
        if other.offset > self.offset && other.offset <= target {
            *self = *other;
        }
    }

    /// Moves the checkpoint to `target`, reading `buf` (which starts at absolute
    /// offset `base` and must cover `self.offset..target`). Counts newlines only:
    /// the column is brought up to date by [`Self::settle_col`].
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
        let newlines = count_newlines(bytes, self.after_cr);
        self.line = self
            .line
            .saturating_add(u32::try_from(newlines).unwrap_or(u32::MAX));
        if let Some(i) = memrchr2(b'\n', b'\r', bytes) {
            self.col = 0;
            self.col_at = base + from + i + 1;
        }
        if let Some(&b) = bytes.last() {
            self.after_cr = b == b'\r';
        }
        self.offset = base + to;
    }

    /// Counts the column up to the checkpoint: call it before the input from
    /// `col_at` on leaves `buf` (which starts at absolute offset `base`).
    pub(crate) fn settle_col(&mut self, buf: &[u8], base: usize) {
        let from = self.col_at.saturating_sub(base);
        let to = self.offset.saturating_sub(base).min(buf.len());
        if let Some(tail) = buf.get(from..to) {
            // Code points, plus one more for each 4-byte sequence (a surrogate pair).
            let chars = tail.iter().filter(|&&b| (b as i8) >= -0x40).count()
                + tail.iter().filter(|&&b| b >= 0xF0).count();
            self.col = self
                .col
                .saturating_add(u32::try_from(chars).unwrap_or(u32::MAX));
        }
        self.col_at = self.offset;
    }

    /// The one-based (line, column) of the character at `target`, advancing the
    /// checkpoint to it.
    pub(crate) fn locate(&mut self, buf: &[u8], base: usize, target: usize) -> (u32, u32) {
        self.advance(buf, base, target);
        self.settle_col(buf, base);
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

    // The byte-walk oracle the integration tests use too.
    include!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/support/walked_position.rs"
    ));
    use walked_position as naive;

    #[test]
    fn newline_counts_match_a_byte_walk_at_every_length() {
        let mut seed = 0x9E37_79B9u32;
        for len in 0..300 {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    [b'\r', b'\n', b'a', 0xC3][(seed >> 24) as usize % 4]
                })
                .collect();
            for after_cr in [false, true] {
                let mut prev = if after_cr { b'\r' } else { 0 };
                let mut expected = 0;
                for &b in &bytes {
                    expected += usize::from(b == b'\r' || (b == b'\n' && prev != b'\r'));
                    prev = b;
                }
                assert_eq!(count_newlines(&bytes, after_cr), expected, "{bytes:?}");
            }
        }
    }

    #[test]
    fn long_inputs_count_past_the_lane_counters_range() {
        assert_eq!(count_newlines(&[b'\n'; 5000], false), 5000);
        assert_eq!(count_newlines(&[b'\n'; 5000], true), 4999);
        assert_eq!(count_newlines(&[b'\r'; 5001], false), 5001);
        assert_eq!(count_newlines("\r\n".repeat(3000).as_bytes(), false), 3000);
        // Past the wide counters' range too (32-byte blocks, 255 a lane).
        assert_eq!(count_newlines(&[b'\n'; 40_000], false), 40_000);
        assert_eq!(
            count_newlines("\r\n".repeat(20_001).as_bytes(), true),
            20_001
        );
        assert_eq!(
            count_newlines("a\r\nb\n\rc".repeat(700).as_bytes(), false),
            2100
        );
    }

    #[test]
    fn block_counts_match_a_byte_walk() {
        let pieces = [
            "abc",
            "\n",
            "\r\n",
            "\r",
            "é",
            "😀",
            "0123456789abcdef",
            "\n\n\n",
        ];
        let mut text = String::new();
        for round in 0..120 {
            text.push_str(pieces[(round * 7 + round / 5) % pieces.len()]);
            let bytes = text.as_bytes();
            let targets: Vec<usize> = (0..=bytes.len())
                .filter(|&t| text.is_char_boundary(t))
                .collect();
            for &split in targets.iter().step_by(5) {
                for &target in targets.iter().filter(|&&t| t >= split).step_by(3) {
                    let mut t = LineTracker::default();
                    t.advance(bytes, 0, split);
                    assert_eq!(
                        t.locate(bytes, 0, target),
                        naive(bytes, target),
                        "{text:?} {split} {target}"
                    );
                }
            }
        }
    }

    /// Two checkpoints located alternately at increasing offsets, each catching
    /// up with the other first (as the tokenizer's two do), answer what one walk
    /// over the input answers, CR LF pairs and multibyte characters included.
    #[test]
    fn interleaved_checkpoints_that_catch_up_match_a_byte_walk() {
        let text = "ab\r\ncd\n\u{e9}\r\u{1F600}x\r\n\r\n".repeat(9);
        let bytes = text.as_bytes();
        let targets: Vec<usize> = (0..=bytes.len())
            .filter(|&t| text.is_char_boundary(t))
            .collect();
        for stride in 1..6 {
            let (mut own, mut other) = (LineTracker::default(), LineTracker::default());
            for (i, &target) in targets.iter().step_by(stride).enumerate() {
                let (walker, ahead) = if i % 3 == 0 {
                    (&mut other, &own)
                } else {
                    (&mut own, &other)
                };
                walker.catch_up(ahead, target);
                assert_eq!(
                    walker.locate(bytes, 0, target),
                    naive(bytes, target),
                    "stride {stride}, target {target}"
                );
            }
        }
    }
}

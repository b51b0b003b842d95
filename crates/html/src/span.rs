//! Byte ranges into the decoded input.

/// A half-open byte range `start..end` into the decoded input stream, counted from
/// the first byte ever pushed into the tokenizer (not from the current buffer).
///
/// For UTF-8 input without invalid sequences the decoded stream *is* the source, so
/// a span addresses the exact source bytes of a token; for other encodings it
/// addresses the decoded UTF-8 text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Span {
    /// First byte of the range.
    pub start: usize,
    /// One past the last byte of the range.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end`.
    #[inline]
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// Length in bytes.
    #[inline]
    pub const fn len(&self) -> usize {
        self.end - self.start
    }

    /// Whether the span covers no bytes.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

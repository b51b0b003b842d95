//! Where the rewritten document goes: the sink, the retained source and the
//! byte-for-byte copy of untouched input.
//!
//! The rewriter never writes a token it did not change: it keeps a cursor
//! (`flushed`) into the source and copies the source up to the next change (or to
//! the end of each `write`) in one piece. Changed tokens are skipped in the source
//! and their new text written instead. While an element's content is dropped
//! (`remove`, `set_inner_content`) everything written is discarded; while an
//! element's content is captured for a content handler it goes to a buffer.

use std::io;

/// Receives the rewritten output, in pieces.
///
/// Any `FnMut(&[u8])` is a sink (as in lol-html); wrap an [`io::Write`] in
/// [`IoSink`] to have its errors reported as [`RewriteError::Output`](super::RewriteError::Output).
pub trait OutputSink {
    /// Takes the next piece of output.
    fn write_chunk(&mut self, chunk: &[u8]) -> io::Result<()>;
}

impl<F: FnMut(&[u8])> OutputSink for F {
    fn write_chunk(&mut self, chunk: &[u8]) -> io::Result<()> {
        self(chunk);
        Ok(())
    }
}

/// An [`OutputSink`] over any [`io::Write`].
#[derive(Debug)]
pub struct IoSink<W: io::Write>(pub W);

impl<W: io::Write> OutputSink for IoSink<W> {
    fn write_chunk(&mut self, chunk: &[u8]) -> io::Result<()> {
        self.0.write_all(chunk)
    }
}

/// A capture frame: an element whose output is held until its end.
#[derive(Debug)]
pub(crate) struct Frame {
    /// Where the element's start tag begins in `cap`.
    pub(crate) tag_start: usize,
    /// Where its content begins in `cap`.
    pub(crate) content_start: usize,
    /// Where its text begins in `cap_text`.
    pub(crate) text_start: usize,
    /// The most content bytes allowed.
    pub(crate) budget: usize,
    /// The element's name and start offset, for the error.
    pub(crate) element: String,
    pub(crate) offset: usize,
}

pub(crate) struct Output<O> {
    sink: O,
    /// The input not yet written or skipped (and whatever a buffered text node
    /// still needs), from absolute offset `base`.
    pub(crate) src: String,
    pub(crate) base: usize,
    /// Absolute offset up to which the source has been written or skipped.
    pub(crate) flushed: usize,
    /// Open elements whose content is being dropped.
    pub(crate) suppress: u32,
    /// Output held for content handlers (see [`Frame`]).
    pub(crate) cap: String,
    pub(crate) cap_text: String,
    pub(crate) frames: Vec<Frame>,
    /// `cap` may not grow past this (the tightest frame's budget).
    pub(crate) cap_limit: usize,
}

impl<O: OutputSink> Output<O> {
    pub(crate) fn new(sink: O) -> Self {
        Output {
            sink,
            src: String::new(),
            base: 0,
            flushed: 0,
            suppress: 0,
            cap: String::new(),
            cap_text: String::new(),
            frames: Vec::new(),
            cap_limit: usize::MAX,
        }
    }

    /// The source text at absolute `start..end` (empty if no longer retained).
    #[inline]
    pub(crate) fn source(&self, start: usize, end: usize) -> &str {
        self.src
            .get(start.saturating_sub(self.base)..end.saturating_sub(self.base))
            .unwrap_or("")
    }

    /// Writes the source up to absolute `pos`.
    #[inline]
    pub(crate) fn emit_to(&mut self, pos: usize) -> io::Result<()> {
        if pos <= self.flushed {
            return Ok(());
        }
        if self.suppress == 0 {
            let from = self.flushed - self.base;
            let to = pos - self.base;
            if let Some(text) = self.src.get(from..to) {
                if self.frames.is_empty() {
                    self.sink.write_chunk(text.as_bytes())?;
                } else {
                    self.cap.push_str(text);
                }
            }
        }
        self.flushed = pos;
        Ok(())
    }

    /// Writes the source at absolute `start..end` without moving the cursor (the
    /// unchanged attributes of a changed tag).
    pub(crate) fn put_source(&mut self, start: usize, end: usize) -> io::Result<()> {
        if self.suppress > 0 || end <= start {
            return Ok(());
        }
        let range = start.saturating_sub(self.base)..end.saturating_sub(self.base);
        if let Some(text) = self.src.get(range) {
            if self.frames.is_empty() {
                self.sink.write_chunk(text.as_bytes())?;
            } else {
                self.cap.push_str(text);
            }
        }
        Ok(())
    }

    /// Skips the source up to absolute `pos` (a changed token).
    #[inline]
    pub(crate) fn skip_to(&mut self, pos: usize) {
        self.flushed = self.flushed.max(pos);
    }

    /// Writes new text.
    #[inline]
    pub(crate) fn put(&mut self, text: &str) -> io::Result<()> {
        if self.suppress > 0 || text.is_empty() {
            return Ok(());
        }
        if self.frames.is_empty() {
            self.sink.write_chunk(text.as_bytes())
        } else {
            self.cap.push_str(text);
            Ok(())
        }
    }

    /// Drops the retained source before `keep` (absolute) once that is worth a move.
    pub(crate) fn compact(&mut self, keep: usize) {
        let drop = keep.min(self.flushed).saturating_sub(self.base);
        if drop > 0 && (drop >= self.src.len() / 2 || drop >= 1 << 16) {
            self.src.drain(..drop);
            self.base += drop;
        }
    }

    /// Opens a capture frame at the current output position.
    pub(crate) fn open_frame(&mut self, budget: usize, element: &str, offset: usize) {
        let tag_start = self.cap.len();
        self.frames.push(Frame {
            tag_start,
            content_start: tag_start,
            text_start: self.cap_text.len(),
            budget,
            element: element.to_owned(),
            offset,
        });
        self.recompute_limit();
    }

    pub(crate) fn recompute_limit(&mut self) {
        self.cap_limit = self
            .frames
            .iter()
            .map(|f| f.content_start.saturating_add(f.budget))
            .min()
            .unwrap_or(usize::MAX);
    }

    /// Closes the innermost frame; the outermost one hands its output on.
    pub(crate) fn close_frame(&mut self) -> io::Result<()> {
        self.frames.pop();
        self.recompute_limit();
        if self.frames.is_empty() {
            let cap = std::mem::take(&mut self.cap);
            self.cap_text.clear();
            if !cap.is_empty() {
                self.sink.write_chunk(cap.as_bytes())?;
            }
            self.cap = cap;
            self.cap.clear();
        }
        Ok(())
    }

    /// Sends buffered output of the sink (nothing is buffered here today).
    pub(crate) fn into_sink(self) -> O {
        self.sink
    }
}

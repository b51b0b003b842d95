//! A buffered reader that can look ahead a given number of bytes across reads
//! (`std::io::BufReader` cannot refill before its buffer is empty) and counts what
//! was consumed. The reader uses it twice: over the raw file (to find the next gzip
//! member's magic bytes) and over the decompressed stream (header lines).

use std::io::{self, BufRead, Read};

/// The bytes read from the inner reader at a time.
const READ_SIZE: usize = 64 * 1024;

/// How far behind the read position a mark is kept (see [`LookBuf::set_mark`]).
const MARK_CAP: usize = 256 * 1024;

/// See the [module docs](self).
#[derive(Debug)]
pub(crate) struct LookBuf<R> {
    inner: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// Bytes consumed since the start of the stream.
    consumed: u64,
    eof: bool,
    /// A read error met while bytes before it were still buffered: handed out once
    /// those are consumed, so reading ahead never loses good bytes to a later error.
    deferred: Option<io::Error>,
    /// A buffer index that reading can go back to (see [`LookBuf::set_mark`]).
    mark: Option<usize>,
}

impl<R: Read> LookBuf<R> {
    pub(crate) fn new(inner: R) -> Self {
        LookBuf {
            inner,
            buf: Vec::new(),
            start: 0,
            end: 0,
            consumed: 0,
            eof: false,
            deferred: None,
            mark: None,
        }
    }

    /// Bytes consumed so far: the stream offset of the next byte.
    pub(crate) fn offset(&self) -> u64 {
        self.consumed
    }

    /// The buffered bytes.
    pub(crate) fn buffered(&self) -> &[u8] {
        self.buf.get(self.start..self.end).unwrap_or(&[])
    }

    /// Reads until at least `n` bytes are buffered or the stream ends; returns the
    /// buffered bytes (fewer than `n` only at the end of the stream).
    pub(crate) fn look(&mut self, n: usize) -> io::Result<&[u8]> {
        if self.start == self.end
            && let Some(e) = self.deferred.take()
        {
            self.eof = false;
            return Err(e);
        }
        while self.end - self.start < n && !self.eof {
            let keep = match self.mark {
                Some(m) if self.start - m <= MARK_CAP => m,
                _ => {
                    self.mark = None;
                    self.start
                }
            };
            if keep > 0 {
                self.buf.copy_within(keep..self.end, 0);
                self.end -= keep;
                self.start -= keep;
                self.mark = self.mark.map(|m| m - keep);
            }
            let want = self.end + (n - (self.end - self.start)).max(READ_SIZE);
            if self.buf.len() < want {
                self.buf.resize(want, 0);
            }
            let Some(space) = self.buf.get_mut(self.end..) else {
                break;
            };
            match self.inner.read(space) {
                Ok(0) => self.eof = true,
                Ok(read) => self.end += read,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if self.end > self.start => {
                    self.deferred = Some(e);
                    self.eof = true;
                }
                Err(e) => return Err(e),
            }
        }
        Ok(self.buffered())
    }

    /// Drops the buffered bytes (after the layer below moved on) and clears the end
    /// of stream, keeping the offset.
    pub(crate) fn discard_buffer(&mut self) {
        self.consumed += (self.end - self.start) as u64;
        self.start = 0;
        self.end = 0;
        self.eof = false;
        self.deferred = None;
        self.mark = None;
    }

    /// Remembers the read position, so that [`rewind_to_mark`](Self::rewind_to_mark)
    /// can go back to it while reading has not moved more than 256 KiB past it.
    pub(crate) fn set_mark(&mut self) {
        self.mark = Some(self.start);
    }

    /// Forgets the mark.
    pub(crate) fn clear_mark(&mut self) {
        self.mark = None;
    }

    /// Goes back to the mark (and forgets it); false when there is none (any more).
    pub(crate) fn rewind_to_mark(&mut self) -> bool {
        match self.mark.take() {
            Some(m) if self.start - m <= MARK_CAP => {
                self.consumed -= (self.start - m) as u64;
                self.start = m;
                true
            }
            _ => false,
        }
    }

    /// The inner reader.
    pub(crate) fn inner(&self) -> &R {
        &self.inner
    }

    /// The inner reader.
    pub(crate) fn inner_mut(&mut self) -> &mut R {
        &mut self.inner
    }
}

impl<R: Read> Read for LookBuf<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.start == self.end && self.deferred.is_none() && out.len() >= READ_SIZE {
            // Large reads bypass the buffer.
            let n = self.inner.read(out)?;
            self.consumed += n as u64;
            return Ok(n);
        }
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        if let (Some(dst), Some(src)) = (out.get_mut(..n), avail.get(..n)) {
            dst.copy_from_slice(src);
        }
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for LookBuf<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.start == self.end {
            self.look(1)
        } else {
            Ok(self.buffered())
        }
    }

    fn consume(&mut self, amt: usize) {
        let amt = amt.min(self.end - self.start);
        self.start += amt;
        self.consumed += amt as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out at most `step` bytes per read.
    struct Trickle<'a>(&'a [u8], usize);
    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(out.len()).min(self.1);
            let (head, tail) = self.0.split_at(n);
            out[..n].copy_from_slice(head);
            self.0 = tail;
            Ok(n)
        }
    }

    #[test]
    fn look_reads_across_small_reads_and_counts_consumed_bytes() {
        let mut b = LookBuf::new(Trickle(b"abcdefgh", 3));
        assert_eq!(b.look(5).unwrap(), b"abcdef");
        b.consume(4);
        assert_eq!(b.offset(), 4);
        assert_eq!(b.look(4).unwrap(), b"efgh");
        assert_eq!(b.look(10).unwrap(), b"efgh");
        let mut rest = Vec::new();
        b.read_to_end(&mut rest).unwrap();
        assert_eq!(rest, b"efgh");
        assert_eq!(b.offset(), 8);
    }

    #[test]
    fn a_mark_survives_compaction_and_reads_go_back_to_it() {
        let data: Vec<u8> = (0..200_000u32).map(|i| i as u8).collect();
        let mut b = LookBuf::new(Trickle(&data, 10_000));
        b.look(5).unwrap();
        b.consume(5);
        b.set_mark();
        while b.offset() < 100_005 {
            let n = b.fill_buf().unwrap().len().min(1000);
            b.consume(n.min((100_005 - b.offset()) as usize));
        }
        assert_eq!(b.offset(), 100_005);
        assert!(b.rewind_to_mark());
        assert_eq!(b.offset(), 5);
        assert_eq!(b.look(3).unwrap()[..3], data[5..8]);
        assert!(!b.rewind_to_mark());
    }
}

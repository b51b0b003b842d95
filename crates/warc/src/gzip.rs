//! The decompressed stream of a file: plain bytes, or gzip members one after the
//! other (one member per record, as crawlers write, or one for the whole file).
//!
//! Members are decoded one at a time with `flate2`'s `bufread::GzDecoder`, which
//! stops exactly at a member's end, so the raw offset of every member is known
//! (crawl indexes address records by it). When a member is corrupt, [`Input::resync`]
//! drops it and scans the raw bytes for the next gzip header (`1f 8b 08`): with one
//! member per record, reading goes on at the next record.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read};

use flate2::bufread::GzDecoder;

use crate::buf::LookBuf;

/// The first bytes of a gzip member (magic and the deflate method).
pub(crate) const GZIP_MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

/// How many recent members' offsets are remembered (for a record's member offset).
const MEMBERS_KEPT: usize = 256;

enum State<R> {
    Plain(LookBuf<R>),
    /// Between members.
    Between(LookBuf<R>),
    Member(GzDecoder<LookBuf<R>>),
    /// Only while switching states.
    Gone,
}

/// See the [module docs](self).
pub(crate) struct Input<R> {
    state: State<R>,
    /// Decompressed bytes handed out so far.
    out_pos: u64,
    /// (decompressed offset, raw offset) of recent member starts.
    members: VecDeque<(u64, u64)>,
}

impl<R: Read> Input<R> {
    /// Looks at the first bytes of `inner`: gzip or plain.
    pub(crate) fn new(inner: R) -> io::Result<Self> {
        let mut raw = LookBuf::new(inner);
        let gzip = raw.look(2)?.starts_with(&GZIP_MAGIC[..2]);
        let state = if gzip {
            State::Between(raw)
        } else {
            State::Plain(raw)
        };
        Ok(Input {
            state,
            out_pos: 0,
            members: VecDeque::new(),
        })
    }

    /// Whether the file is gzip.
    pub(crate) fn is_gzip(&self) -> bool {
        !matches!(self.state, State::Plain(_))
    }

    /// The raw offset of the gzip member whose data starts at decompressed offset
    /// `pos`, if a member starts there (and is recent).
    pub(crate) fn member_at(&self, pos: u64) -> Option<u64> {
        self.members
            .iter()
            .rev()
            .find(|(out, _)| *out == pos)
            .map(|&(_, raw)| raw)
    }

    /// Raw bytes consumed from the file so far.
    pub(crate) fn raw_offset(&self) -> u64 {
        match &self.state {
            State::Plain(raw) | State::Between(raw) => raw.offset(),
            State::Member(decoder) => decoder.get_ref().offset(),
            State::Gone => 0,
        }
    }

    /// After a read error: drops the current member and moves to the next gzip
    /// header in the raw bytes. Returns how many raw bytes were skipped. A plain
    /// file has nothing to skip here.
    pub(crate) fn resync(&mut self) -> io::Result<u64> {
        let mut raw = match std::mem::replace(&mut self.state, State::Gone) {
            State::Member(decoder) => {
                let mut raw = decoder.into_inner();
                // Scan again from just after the failed member's start when its
                // bytes are still buffered (a corrupt header may have swallowed the
                // next member's start); never find the same start again.
                if raw.rewind_to_mark()
                    || self
                        .members
                        .back()
                        .is_some_and(|&(_, at)| at == raw.offset())
                {
                    raw.consume(1);
                }
                raw
            }
            State::Between(raw) => raw,
            State::Plain(raw) => {
                self.state = State::Plain(raw);
                return Ok(0);
            }
            State::Gone => return Ok(0),
        };
        let from = raw.offset();
        let result = skip_to_magic(&mut raw);
        let skipped = raw.offset() - from;
        self.state = State::Between(raw);
        result.map(|()| skipped)
    }
}

/// Consumes bytes up to the next [`GZIP_MAGIC`] (or the end).
fn skip_to_magic<R: Read>(raw: &mut LookBuf<R>) -> io::Result<()> {
    loop {
        let buf = raw.look(GZIP_MAGIC.len())?;
        if buf.len() < GZIP_MAGIC.len() {
            let n = buf.len();
            raw.consume(n);
            return Ok(());
        }
        if buf.starts_with(&GZIP_MAGIC) {
            return Ok(());
        }
        // Skip to the next candidate first byte (not the current one).
        let skip =
            memchr::memchr(GZIP_MAGIC[0], buf.get(1..).unwrap_or(&[])).map_or(buf.len(), |i| i + 1);
        raw.consume(skip);
    }
}

impl<R: Read> Read for Input<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            match &mut self.state {
                State::Plain(raw) => {
                    let n = raw.read(out)?;
                    self.out_pos += n as u64;
                    return Ok(n);
                }
                State::Member(decoder) => match decoder.read(out) {
                    Ok(0) if !out.is_empty() => {
                        let State::Member(decoder) =
                            std::mem::replace(&mut self.state, State::Gone)
                        else {
                            return Ok(0);
                        };
                        let mut raw = decoder.into_inner();
                        raw.clear_mark();
                        self.state = State::Between(raw);
                    }
                    Ok(n) => {
                        self.out_pos += n as u64;
                        return Ok(n);
                    }
                    Err(e) => return Err(e),
                },
                State::Between(raw) => {
                    let head = raw.look(GZIP_MAGIC.len())?;
                    if head.is_empty() {
                        return Ok(0);
                    }
                    if !head.starts_with(&GZIP_MAGIC) {
                        // Padding between members (zeros, line ends) is tolerated.
                        if head.iter().all(|&b| matches!(b, 0 | b'\r' | b'\n')) {
                            let n = head.len();
                            raw.consume(n);
                            continue;
                        }
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidData,
                            "bytes between gzip members that are not a gzip member",
                        ));
                    }
                    if self.members.len() == MEMBERS_KEPT {
                        self.members.pop_front();
                    }
                    self.members.push_back((self.out_pos, raw.offset()));
                    let State::Between(mut raw) = std::mem::replace(&mut self.state, State::Gone)
                    else {
                        return Ok(0);
                    };
                    raw.set_mark();
                    self.state = State::Member(GzDecoder::new(raw));
                }
                State::Gone => return Ok(0),
            }
        }
    }
}

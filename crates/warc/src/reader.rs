//! The record reader: [`WarcReader`] streams records (header parsed, block read
//! as a stream), [`Records`] hands out owned records with their block in memory.
//!
//! How it recovers, so that one bad record never ends a file:
//!
//! * bytes that do not start a record are skipped line by line up to the next line
//!   that does (`WARC/…` or an ARC header line), reported once as
//!   [`RecordErrorKind::NotARecord`];
//! * a header without a usable `Content-Length` is reported and skipped the same way;
//! * a corrupt gzip member is reported ([`RecordErrorKind::Gzip`]) and reading goes on
//!   at the next gzip member in the raw bytes;
//! * a file that ends inside a record reports [`RecordErrorKind::Truncated`] and ends.
//!
//! Memory: a header block up to [`Limits::max_header_bytes`], the read-ahead buffers
//! (64 KiB each for the raw and the decompressed stream), and for owned records the
//! block up to [`Limits::max_body_bytes`].

use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::Path;

use crate::buf::LookBuf;
use crate::error::{OpenError, RecordError, RecordErrorKind};
use crate::gzip::Input;
use crate::header::{self, RecordHeader};
use crate::limits::Limits;

/// Line ends and padding skipped between records.
fn is_separator(b: u8) -> bool {
    matches!(b, b'\r' | b'\n' | b'\0' | b' ' | b'\t')
}

/// A streaming WARC/ARC reader over plain or gzip input (see the
/// [module docs](self)).
///
/// ```
/// use std::io::Read;
/// use tagloom_warc::{Limits, WarcReader};
///
/// let warc = b"WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 5\r\n\r\nhello\r\n\r\n";
/// let mut reader = WarcReader::new(&warc[..], Limits::default()).unwrap();
/// let mut record = reader.next_record().unwrap().unwrap();
/// let mut body = String::new();
/// record.body().read_to_string(&mut body).unwrap();
/// assert_eq!((record.header().record_type.as_str(), body.as_str()), ("resource", "hello"));
/// assert!(reader.next_record().is_none());
/// ```
pub struct WarcReader<R> {
    buf: LookBuf<Input<R>>,
    limits: Limits,
    /// Unread bytes of the current record's block.
    remaining: u64,
    /// The offset of the current record.
    current: u64,
    /// A gzip error happened: drop the member before reading on.
    needs_resync: bool,
}

impl WarcReader<File> {
    /// Opens the file at `path` (plain or gzip, found by its first bytes).
    pub fn open(path: &Path, limits: Limits) -> Result<Self, OpenError> {
        let error = |source| OpenError {
            path: path.to_path_buf(),
            source,
        };
        let file = File::open(path).map_err(error)?;
        WarcReader::new(file, limits).map_err(error)
    }
}

impl<R: Read> WarcReader<R> {
    /// A reader over `inner` (plain or gzip, found by its first bytes).
    pub fn new(inner: R, limits: Limits) -> io::Result<Self> {
        Ok(WarcReader {
            buf: LookBuf::new(Input::new(inner)?),
            limits,
            remaining: 0,
            current: 0,
            needs_resync: false,
        })
    }

    /// The limits this reader applies.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Bytes of the input read so far (compressed bytes for gzip; the reader reads
    /// ahead by up to 64 KiB).
    pub fn raw_position(&self) -> u64 {
        self.buf.inner().raw_offset()
    }

    /// Whether the input is gzip.
    pub fn is_gzip(&self) -> bool {
        self.buf.inner().is_gzip()
    }

    /// The next record, an error for a record that could not be read (reading can
    /// go on), or `None` at the end. The previous record's unread block is skipped
    /// without being held.
    pub fn next_record(&mut self) -> Option<Result<Record<'_, R>, RecordError>> {
        if self.needs_resync {
            self.resync();
        }
        if self.remaining > 0 {
            let offset = self.current;
            if let Err(kind) = self.skip_block() {
                return Some(Err(RecordError { offset, kind }));
            }
        }
        match self.read_header() {
            Ok(None) => None,
            Ok(Some(header)) => {
                self.current = header.offset;
                self.remaining = header.content_length;
                Some(Ok(Record {
                    header,
                    reader: self,
                }))
            }
            Err(error) => Some(Err(error)),
        }
    }

    /// An iterator of owned records (blocks in memory, up to the limits).
    pub fn into_records(self) -> Records<R> {
        Records { reader: self }
    }

    fn resync(&mut self) {
        self.needs_resync = false;
        self.remaining = 0;
        self.buf.discard_buffer();
        // An error here shows up again at the next read.
        let _ = self.buf.inner_mut().resync();
    }

    /// The kind of a read error; a gzip error makes the next call resync.
    fn classify(&mut self, e: io::Error, missing: u64) -> RecordErrorKind {
        if self.is_gzip() {
            self.needs_resync = true;
        }
        match e.kind() {
            io::ErrorKind::UnexpectedEof => RecordErrorKind::Truncated { missing },
            io::ErrorKind::InvalidData | io::ErrorKind::InvalidInput if self.is_gzip() => {
                RecordErrorKind::Gzip(e.to_string())
            }
            _ => RecordErrorKind::Io(e),
        }
    }

    /// Skips the rest of the current block.
    fn skip_block(&mut self) -> Result<(), RecordErrorKind> {
        while self.remaining > 0 {
            let available = match self.buf.fill_buf() {
                Ok(b) => b.len(),
                Err(e) => {
                    let missing = std::mem::take(&mut self.remaining);
                    return Err(self.classify(e, missing));
                }
            };
            if available == 0 {
                let missing = std::mem::take(&mut self.remaining);
                return Err(RecordErrorKind::Truncated { missing });
            }
            let n = available.min(usize::try_from(self.remaining).unwrap_or(usize::MAX));
            self.buf.consume(n);
            self.remaining -= n as u64;
        }
        Ok(())
    }

    /// The length of the next line (with its line end), or of what is left at the
    /// end of the input; `None` when no line end comes within the header limit.
    fn line_len(&mut self) -> io::Result<Option<usize>> {
        let limit = self.limits.max_header_bytes.max(16);
        let mut want = 4096.min(limit);
        loop {
            let b = self.buf.look(want)?;
            if let Some(i) = memchr::memchr(b'\n', b) {
                return Ok(Some(i + 1));
            }
            if b.len() < want {
                return Ok(Some(b.len()));
            }
            if want >= limit {
                return Ok(None);
            }
            want = want.saturating_mul(4).min(limit);
        }
    }

    /// Skips lines up to the next one that starts a record; returns the bytes skipped.
    fn skip_to_record_start(&mut self) -> io::Result<u64> {
        let from = self.buf.offset();
        loop {
            match self.line_len()? {
                Some(0) => break,
                Some(n) => {
                    let line = self.buf.buffered().get(..n).unwrap_or(&[]);
                    if header::is_record_start(trim_line_end(line)) {
                        break;
                    }
                    self.buf.consume(n);
                }
                None => {
                    let n = self.buf.buffered().len();
                    self.buf.consume(n);
                }
            }
        }
        Ok(self.buf.offset() - from)
    }

    /// Reads the next record's header, leaving the stream at its block.
    fn read_header(&mut self) -> Result<Option<RecordHeader>, RecordError> {
        let mut offset = self.buf.offset();
        let result = self.read_header_inner(&mut offset);
        result.map_err(|kind| RecordError { offset, kind })
    }

    fn read_header_inner(
        &mut self,
        offset: &mut u64,
    ) -> Result<Option<RecordHeader>, RecordErrorKind> {
        // Separators between records.
        loop {
            let b = match self.buf.fill_buf() {
                Ok(b) => b,
                Err(e) => return Err(self.classify(e, 0)),
            };
            if b.is_empty() {
                return Ok(None);
            }
            let n = b.iter().take_while(|&&b| is_separator(b)).count();
            let all = n == b.len();
            self.buf.consume(n);
            if !all {
                break;
            }
        }
        *offset = self.buf.offset();
        let first = match self.line_len() {
            Ok(n) => n,
            Err(e) => return Err(self.classify(e, 0)),
        };
        let line = first
            .and_then(|n| self.buf.buffered().get(..n))
            .map(trim_line_end)
            .unwrap_or(&[]);
        let mut header = if header::is_warc_version(line) {
            self.read_warc_header()?
        } else if let Some(header) = header::parse_arc_line(line) {
            let n = first.unwrap_or(0);
            self.buf.consume(n);
            header
        } else {
            let skipped = match self.skip_to_record_start() {
                Ok(n) => n,
                Err(e) => return Err(self.classify(e, 0)),
            };
            return Err(RecordErrorKind::NotARecord { skipped });
        };
        header.offset = *offset;
        header.member_offset = self.buf.inner().member_at(*offset);
        Ok(Some(header))
    }

    /// Reads a WARC header block (the version line is buffered at the start).
    fn read_warc_header(&mut self) -> Result<RecordHeader, RecordErrorKind> {
        let limit = self.limits.max_header_bytes.max(16);
        // Look ahead as far as the header needs, up to the limit.
        let mut want = 8192.min(limit);
        let end = loop {
            let block = match self.buf.look(want) {
                Ok(b) => b,
                Err(e) => return Err(self.classify(e, 0)),
            };
            let window = block.get(..limit).unwrap_or(block);
            let end = [&b"\n\r\n"[..], b"\n\n"]
                .iter()
                .filter_map(|sep| memchr::memmem::find(window, sep).map(|i| (i, i + sep.len())))
                .min();
            if end.is_some() || window.len() < want || want >= limit {
                break end;
            }
            want = want.saturating_mul(4).min(limit);
        };
        let block = self.buf.buffered();
        let window = block.get(..limit).unwrap_or(block);
        let Some((fields_end, header_len)) = end else {
            let truncated = window.len() < limit;
            // Skip the version line, then look for the next record.
            let first = memchr::memchr(b'\n', window).map_or(window.len(), |i| i + 1);
            self.buf.consume(first);
            if let Err(e) = self.skip_to_record_start() {
                return Err(self.classify(e, 0));
            }
            return Err(if truncated {
                RecordErrorKind::Truncated { missing: 0 }
            } else {
                RecordErrorKind::HeaderTooLarge { limit }
            });
        };
        let version_end = memchr::memchr(b'\n', window).unwrap_or(0);
        let version = window.get(..version_end).map(trim_line_end).unwrap_or(&[]);
        let fields = header::parse_fields(window.get(version_end..fields_end).unwrap_or(&[]));
        let result = header::warc_header(version, fields);
        self.buf.consume(header_len);
        match result {
            Ok(header) => Ok(header),
            Err(found) => {
                if let Err(e) = self.skip_to_record_start() {
                    return Err(self.classify(e, 0));
                }
                Err(RecordErrorKind::BadContentLength { found })
            }
        }
    }
}

fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// A record of a [`WarcReader`]: its header and its block as a stream.
pub struct Record<'a, R> {
    header: RecordHeader,
    reader: &'a mut WarcReader<R>,
}

impl<'a, R: Read> Record<'a, R> {
    /// The record's header.
    pub fn header(&self) -> &RecordHeader {
        &self.header
    }

    /// The block, read as a stream (an `UnexpectedEof` error if the file ends
    /// inside it). What is not read is skipped by the next
    /// [`next_record`](WarcReader::next_record).
    pub fn body(&mut self) -> Body<'_, R> {
        Body {
            reader: self.reader,
        }
    }

    /// The header and the whole block in memory; a block over
    /// [`Limits::max_body_bytes`] is not read ([`RecordErrorKind::BodyTooLarge`],
    /// skipped by the next call).
    pub fn into_owned(self) -> Result<OwnedRecord, RecordError> {
        let Record { header, reader } = self;
        let offset = header.offset;
        let limit = reader.limits.max_body_bytes;
        if header.content_length > limit {
            return Err(RecordError {
                offset,
                kind: RecordErrorKind::BodyTooLarge {
                    length: header.content_length,
                    limit,
                },
            });
        }
        let mut body = Vec::with_capacity(usize::try_from(header.content_length).unwrap_or(0));
        match (Body {
            reader: &mut *reader,
        })
        .read_to_end(&mut body)
        {
            Ok(_) => Ok(OwnedRecord { header, body }),
            Err(e) => {
                let missing = header.content_length.saturating_sub(body.len() as u64);
                Err(RecordError {
                    offset,
                    kind: reader.classify(e, missing),
                })
            }
        }
    }
}

/// The block of a [`Record`], as a stream.
pub struct Body<'a, R> {
    reader: &'a mut WarcReader<R>,
}

impl<R: Read> Read for Body<'_, R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let r = &mut *self.reader;
        if r.remaining == 0 || out.is_empty() {
            return Ok(0);
        }
        let n = out
            .len()
            .min(usize::try_from(r.remaining).unwrap_or(usize::MAX));
        let Some(out) = out.get_mut(..n) else {
            return Ok(0);
        };
        match r.buf.read(out) {
            Ok(0) => {
                r.remaining = 0;
                Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the file ends inside the record",
                ))
            }
            Ok(k) => {
                r.remaining -= k as u64;
                Ok(k)
            }
            Err(e) => {
                r.remaining = 0;
                if r.is_gzip() {
                    r.needs_resync = true;
                }
                Err(e)
            }
        }
    }
}

/// A record with its block in memory.
#[derive(Clone, Debug)]
pub struct OwnedRecord {
    /// The header.
    pub header: RecordHeader,
    /// The block (for a `response` record: the HTTP response, see
    /// [`HttpResponse`](crate::HttpResponse)).
    pub body: Vec<u8>,
}

/// An iterator of owned records ([`WarcReader::into_records`], [`records`]).
pub struct Records<R> {
    reader: WarcReader<R>,
}

impl<R: Read> Iterator for Records<R> {
    type Item = Result<OwnedRecord, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(self.reader.next_record()?.and_then(Record::into_owned))
    }
}

impl<R: Read> Records<R> {
    /// The reader (to ask whether the input is gzip, or for its limits).
    pub fn reader(&self) -> &WarcReader<R> {
        &self.reader
    }
}

/// The owned records of the file at `path`, default limits.
///
/// ```no_run
/// for record in tagloom_warc::records(std::path::Path::new("crawl.warc.gz"))? {
///     match record {
///         Ok(r) => println!("{} {:?}", r.header.record_type.as_str(), r.header.target_uri()),
///         Err(e) => eprintln!("{e}"),
///     }
/// }
/// # Ok::<(), tagloom_warc::OpenError>(())
/// ```
pub fn records(path: &Path) -> Result<Records<File>, OpenError> {
    Ok(WarcReader::open(path, Limits::default())?.into_records())
}

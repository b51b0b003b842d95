//! Web archives for tagloom: a lenient, streaming WARC/ARC reader, and the jobs
//! tagloom runs over every HTML page of an archive (`tagloom warc`, and the Python
//! package's `tagloom.warc`).
//!
//! Which API for which job:
//!
//! * [`WarcReader`] streams records: the header parsed, the block read as a stream
//!   (a 1 GB record is never held). [`records`] / [`Records`] hand out owned records
//!   with the block in memory, up to [`Limits::max_body_bytes`].
//! * [`HttpResponse`] reads the HTTP response of a `response` record: status,
//!   headers, the payload with `chunked`, `gzip`, `deflate` and `br` undone, and the
//!   `charset` as the transport encoding for the HTML decoder.
//! * [`job`] runs a [`Job`] (text, links, word counts, sanitize) over files and
//!   streams result [`Row`]s, records in parallel in a bounded pipeline.
//!
//! Input: plain files, one gzip member per record (as crawlers write them) or one
//! for the whole file; WARC 1.0 and 1.1 (and older drafts), ARC versions 1 and 2.
//! A bad record is a [`RecordError`] and reading goes on with the next one (see
//! [`reader`] for how); nothing in the input makes the reader panic.
//!
//! Why not an existing crate: the `warc` crate (nom, chrono, uuid, url) rejects a
//! file at the first malformed header and cannot resynchronize; real crawls need
//! a reader that reports a bad record and goes on.
//!
//! ```
//! use tagloom_warc::{HttpResponse, Limits, WarcReader};
//!
//! let page = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>Hi";
//! let mut warc = format!(
//!     "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://example.com/\r\nContent-Length: {}\r\n\r\n",
//!     page.len()
//! )
//! .into_bytes();
//! warc.extend_from_slice(page);
//! warc.extend_from_slice(b"\r\n\r\n");
//! let limits = Limits::default();
//! for record in WarcReader::new(&warc[..], limits).unwrap().into_records() {
//!     let record = record.unwrap();
//!     let http = HttpResponse::parse(&record.body, &limits).unwrap();
//!     assert_eq!(record.header.target_uri(), Some("http://example.com/"));
//!     assert_eq!(&*http.payload(&limits).unwrap(), b"<p>Hi");
//! }
//! ```

#![forbid(unsafe_code)]

mod buf;
mod error;
mod gzip;
pub mod header;
pub mod http;
pub mod job;
mod limits;
pub mod reader;

pub use error::{OpenError, RecordError, RecordErrorKind};
pub use header::{Format, RecordHeader, RecordType};
pub use http::{HttpError, HttpResponse};
pub use job::{ArchiveSource, Job, JobKind, Row, RowResult, RunError, Summary, run, run_sources};
pub use limits::Limits;
pub use reader::{OwnedRecord, Record, Records, WarcReader, records};

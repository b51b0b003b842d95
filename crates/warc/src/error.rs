//! The reader's errors: [`RecordError`] for one record (reading goes on with the
//! next one), [`OpenError`] for a file that cannot be read at all.

use std::path::PathBuf;

/// Why one record could not be read whole. The reader reports it at the record's
/// offset and then looks for the next record (the next gzip member, the next line
/// that starts a record), so one bad record never ends the file.
#[derive(Debug, thiserror::Error)]
#[error("record at offset {offset}: {kind}")]
pub struct RecordError {
    /// Where the record (or the bytes that should have been one) starts: the offset
    /// in the file for a plain file or a file of one gzip member per record (the
    /// member's offset, as crawl indexes give it), else in the decompressed stream.
    pub offset: u64,
    /// What went wrong.
    pub kind: RecordErrorKind,
}

/// What went wrong with a record.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RecordErrorKind {
    /// Bytes that do not start a record (neither `WARC/…` nor an ARC header line);
    /// they were skipped up to the next record.
    #[error("{skipped} bytes that are not a record were skipped")]
    NotARecord {
        /// How many bytes were skipped.
        skipped: u64,
    },
    /// The header block is longer than [`Limits::max_header_bytes`](crate::Limits).
    #[error("the header is longer than {limit} bytes")]
    HeaderTooLarge {
        /// The limit.
        limit: usize,
    },
    /// The header has no usable `Content-Length`.
    #[error("no valid Content-Length ({found:?})")]
    BadContentLength {
        /// The value found, if any.
        found: Option<String>,
    },
    /// The file ended inside the record.
    #[error("truncated: {}", truncated(*missing))]
    Truncated {
        /// Bytes of the block that were missing (0: the header was cut).
        missing: u64,
    },
    /// The block is larger than the caller asked to hold in memory
    /// ([`Limits::max_body_bytes`](crate::Limits)); it was skipped without being held.
    #[error("the block is {length} bytes, more than the {limit} held in memory")]
    BodyTooLarge {
        /// The block's length.
        length: u64,
        /// The limit.
        limit: u64,
    },
    /// A gzip member is corrupt; reading went on at the next member.
    #[error("corrupt gzip data: {0}")]
    Gzip(String),
    /// Reading the file failed.
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
}

fn truncated(missing: u64) -> String {
    if missing == 0 {
        "the file ends inside the record's header".to_string()
    } else {
        format!("the file ends {missing} bytes before the record does")
    }
}

impl RecordErrorKind {
    /// A short stable name for this kind (`"truncated"`, `"gzip"`…), for output rows.
    pub fn name(&self) -> &'static str {
        match self {
            RecordErrorKind::NotARecord { .. } => "not-a-record",
            RecordErrorKind::HeaderTooLarge { .. } => "header-too-large",
            RecordErrorKind::BadContentLength { .. } => "bad-content-length",
            RecordErrorKind::Truncated { .. } => "truncated",
            RecordErrorKind::BodyTooLarge { .. } => "body-too-large",
            RecordErrorKind::Gzip(_) => "gzip",
            RecordErrorKind::Io(_) => "io",
        }
    }
}

/// A file that cannot be opened or read at all.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}: {source}", path.display())]
pub struct OpenError {
    /// The file.
    pub path: PathBuf,
    /// Why.
    #[source]
    pub source: std::io::Error,
}

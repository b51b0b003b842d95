//! The reader's limits: what one record may cost in memory.

/// How much of a record the reader (and a job) holds in memory at once.
///
/// The streaming reader ([`WarcReader::next_record`](crate::WarcReader::next_record))
/// holds only a record's header; its block is read through as a stream. The owned
/// records of [`Records`](crate::Records) and the jobs hold a block up to
/// `max_body_bytes` and skip a larger one (without holding it) with
/// [`RecordErrorKind::BodyTooLarge`](crate::RecordErrorKind::BodyTooLarge).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most bytes of a WARC or ARC header block, and of an HTTP header block.
    /// Default 256 KiB (real headers are a few KiB).
    pub max_header_bytes: usize,
    /// The most bytes of a record's block held in memory. Default 16 MiB (crawlers
    /// usually cut pages at 1 MiB or a few).
    pub max_body_bytes: u64,
    /// The most bytes an HTTP payload may decode to (chunked, gzip, deflate): a
    /// bound on decompression bombs. Default 64 MiB.
    pub max_decoded_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_header_bytes: 256 * 1024,
            max_body_bytes: 16 * 1024 * 1024,
            max_decoded_bytes: 64 * 1024 * 1024,
        }
    }
}

//! Jobs over web archives: one [`Row`] per HTML page (or per record that could not
//! be read), for `tagloom warc JOB` and the Python package.
//!
//! A [`Job`] turns one record into a row ([`Job::run_record`]); [`run`] does that
//! for every record of a list of files, records in parallel (rayon) in a bounded
//! pipeline, rows handed out in file and record order.
//!
//! Every page is decoded the way `tagloom parse` decodes a file: the `charset` of
//! the HTTP `Content-Type` is the transport encoding (only a BOM overrides it), else
//! the `<meta>` pre-scan, else a statistical guess, else windows-1252.
//!
//! ```
//! use tagloom_warc::{Job, JobKind, Limits, WarcReader};
//!
//! let page = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<title>T</title><p>Hello <b>you";
//! let mut warc = format!(
//!     "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://a.example/\r\nContent-Length: {}\r\n\r\n",
//!     page.len()
//! )
//! .into_bytes();
//! warc.extend_from_slice(page);
//! let job = Job::new(JobKind::Text);
//! let record = WarcReader::new(&warc[..], Limits::default()).unwrap().into_records().next().unwrap();
//! let row = job.run_record("mem.warc", record).unwrap();
//! assert_eq!(
//!     serde_json::to_string(&row).unwrap(),
//!     r#"{"file":"mem.warc","offset":0,"uri":"http://a.example/","status":200,"encoding":"windows-1252","title":"T","text":"Hello you"}"#
//! );
//! ```

mod links;
mod page;
mod run;
mod text;

use std::sync::Arc;

use tagloom_html::DomStore;
use tagloom_html::decoder::{Autodetect, DecoderConfig};
use tagloom_html::driver::{Driver, ParseConfig};
use tagloom_html::session::SessionConfig;
use tagloom_l10n::Rules;
use tagloom_l10n::count::{Counts, runs_text};
use tagloom_transform::sanitize::{Policy, Sanitizer};

use crate::error::RecordError;
use crate::limits::Limits;
use crate::reader::OwnedRecord;

pub use run::{ArchiveSource, RunError, Summary, run, run_sources};

/// What a job computes for each HTML page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JobKind {
    /// The page's title and text (blocks on their own lines; see the `text` rules
    /// in the [module docs](self)): fields `title`, `text`.
    Text,
    /// The `href` of every `a` and `area`, resolved against the base URL: `links`.
    Links,
    /// Translation units, words and characters as `tagloom l10n count` counts them
    /// (the l10n reader's blocks, `tagloom_l10n::count`): `units`, `words`, `chars`.
    L10nWords,
    /// The page sanitized as body content by the default (or given) policy: `html`.
    Sanitize,
}

impl JobKind {
    /// The job's name on the command line (`text`, `links`, `l10n-words`, `sanitize`).
    pub fn name(self) -> &'static str {
        match self {
            JobKind::Text => "text",
            JobKind::Links => "links",
            JobKind::L10nWords => "l10n-words",
            JobKind::Sanitize => "sanitize",
        }
    }
}

/// A job and its settings. Cheap to share between threads (`&Job` is `Sync`).
pub struct Job {
    kind: JobKind,
    limits: Limits,
    sanitizer: Option<Sanitizer>,
    rules: Rules,
}

impl Job {
    /// A job of `kind` with default limits, the default sanitizer policy and the
    /// default l10n rules.
    pub fn new(kind: JobKind) -> Job {
        Job {
            kind,
            limits: Limits::default(),
            sanitizer: (kind == JobKind::Sanitize)
                .then(|| Sanitizer::new(Arc::new(Policy::default()))),
            rules: Rules::default(),
        }
    }

    /// The same job with other limits (for reading records and decoding payloads).
    pub fn with_limits(mut self, limits: Limits) -> Job {
        self.limits = limits;
        self
    }

    /// The same job with a sanitizer policy (used by [`JobKind::Sanitize`]).
    pub fn with_policy(mut self, policy: Policy) -> Job {
        self.sanitizer = Some(Sanitizer::new(Arc::new(policy)));
        self
    }

    /// The job's kind.
    pub fn kind(&self) -> JobKind {
        self.kind
    }

    /// The job's limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The row of one record read from `file` (a name for the row only): `None`
    /// when the record is no HTML page (request, metadata, images…), an error row
    /// when it could not be read or decoded.
    pub fn run_record(&self, file: &str, record: Result<OwnedRecord, RecordError>) -> Option<Row> {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                return Some(Row {
                    file: file.to_string(),
                    offset: e.offset,
                    member_offset: None,
                    uri: None,
                    record_id: None,
                    status: None,
                    result: RowResult::error(e.kind.name(), e.kind.to_string()),
                });
            }
        };
        let header = &record.header;
        let mut row = Row {
            file: file.to_string(),
            offset: header.offset,
            member_offset: header.member_offset,
            uri: header.target_uri().map(str::to_string),
            record_id: header.record_id().map(str::to_string),
            status: None,
            result: RowResult::error("", String::new()),
        };
        let page = match page::html_page(&record, &self.limits) {
            Ok(Some(page)) => page,
            Ok(None) => return None,
            Err(e) => {
                row.result = RowResult::error(e.name(), e.to_string());
                return Some(row);
            }
        };
        row.status = page.status;
        row.result = self.page_result(&page.payload, page.transport, row.uri.as_deref());
        Some(row)
    }

    fn page_result(
        &self,
        payload: &[u8],
        transport: Option<&'static encoding_rs::Encoding>,
        uri: Option<&str>,
    ) -> RowResult {
        let decoder = DecoderConfig {
            transport,
            autodetect: Autodetect::Statistical,
            ..DecoderConfig::default()
        };
        match self.kind {
            JobKind::Text | JobKind::Links => {
                let (store, encoding) = match parse(payload, decoder) {
                    Ok(parsed) => parsed,
                    Err(message) => return RowResult::error("parse", message),
                };
                if self.kind == JobKind::Text {
                    let (title, text) = text::page_text(&store);
                    RowResult::Text {
                        encoding,
                        title,
                        text,
                    }
                } else {
                    RowResult::Links {
                        links: links::page_links(&store, uri),
                    }
                }
            }
            JobKind::L10nWords => self.word_counts(payload, transport),
            JobKind::Sanitize => {
                let sniffed = tagloom_html::sniff::sniff_encoding_with(payload, decoder);
                let body = payload.get(sniffed.bom_len..).unwrap_or(&[]);
                let text = sniffed.encoding.decode_without_bom_handling(body).0;
                let html = match &self.sanitizer {
                    Some(s) => s.sanitize(&text).html,
                    None => {
                        Sanitizer::new(Arc::new(Policy::default()))
                            .sanitize(&text)
                            .html
                    }
                };
                RowResult::Sanitized {
                    encoding: sniffed.encoding.name(),
                    html,
                }
            }
        }
    }

    fn word_counts(
        &self,
        payload: &[u8],
        transport: Option<&'static encoding_rs::Encoding>,
    ) -> RowResult {
        use tagloom_l10n::reader::{BlockSink, ReadOptions, read_document};
        let mut counts = Counts::default();
        let mut sink = |block: &tagloom_l10n::Block| -> tagloom_l10n::Result<()> {
            for b in std::iter::once(block).chain(&block.subs) {
                counts.add_text(&runs_text(&b.runs));
            }
            Ok(())
        };
        let options = ReadOptions {
            rules: &self.rules,
            encoding: transport,
        };
        let report = read_document(
            payload,
            std::path::Path::new("page"),
            &options,
            None,
            Some(&mut sink as &mut dyn BlockSink),
        );
        match report {
            Ok(report) => RowResult::Words {
                encoding: report.encoding.name(),
                units: counts.units,
                words: counts.words,
                chars: counts.chars,
            },
            Err(e) => RowResult::error("l10n", e.to_string()),
        }
    }
}

/// Parses `payload` into a store; returns it and the encoding used.
fn parse(payload: &[u8], decoder: DecoderConfig) -> Result<(DomStore, &'static str), String> {
    let config = ParseConfig {
        session: SessionConfig {
            decoder,
            ..ParseConfig::default().session
        },
        chunk_size: usize::MAX,
    };
    let mut store = DomStore::new();
    let mut driver = Driver::new(&config);
    driver
        .push_into(payload, &mut store)
        .and_then(|()| driver.finish_into(&mut store))
        .map_err(|e| e.to_string())?;
    let encoding = driver
        .session()
        .decoder()
        .encoding()
        .unwrap_or(encoding_rs::WINDOWS_1252)
        .name();
    Ok((store, encoding))
}

/// One output row: where the record is, and the job's result or an error.
/// Serialized (serde) as one flat JSON object: the fields below, then those of the
/// result (`error` is an object `{"kind", "message"}`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Row {
    /// The file, as given.
    pub file: String,
    /// The record's offset ([`RecordHeader::offset`](crate::RecordHeader::offset)).
    pub offset: u64,
    /// The record's gzip member offset, when it has its own member.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member_offset: Option<u64>,
    /// `WARC-Target-URI`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
    /// `WARC-Record-ID`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_id: Option<String>,
    /// The HTTP status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// The job's result.
    #[serde(flatten)]
    pub result: RowResult,
}

impl Row {
    /// Whether this is an error row.
    pub fn is_error(&self) -> bool {
        matches!(self.result, RowResult::Error { .. })
    }
}

/// A job's result for one record.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum RowResult {
    /// [`JobKind::Text`].
    Text {
        /// The encoding the page was decoded with (WHATWG name).
        encoding: &'static str,
        /// The title, when the page has a non-empty one.
        #[serde(skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// The text.
        text: String,
    },
    /// [`JobKind::Links`].
    Links {
        /// The links in document order.
        links: Vec<String>,
    },
    /// [`JobKind::L10nWords`].
    Words {
        /// The encoding the page was decoded with.
        encoding: &'static str,
        /// Translation units.
        units: usize,
        /// Words.
        words: usize,
        /// Characters that are not white space.
        chars: usize,
    },
    /// [`JobKind::Sanitize`].
    Sanitized {
        /// The encoding the page was decoded with.
        encoding: &'static str,
        /// The sanitized HTML (body content).
        html: String,
    },
    /// The record could not be read or decoded.
    Error {
        /// What went wrong.
        error: RowError,
    },
}

impl RowResult {
    fn error(kind: &'static str, message: String) -> RowResult {
        RowResult::Error {
            error: RowError { kind, message },
        }
    }
}

/// An error in a row.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RowError {
    /// A short stable name (`truncated`, `gzip`, `not-http`…).
    pub kind: &'static str,
    /// The message.
    pub message: String,
}

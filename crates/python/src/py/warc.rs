//! `tagloom.warc`'s Rust side: the records of a WARC/ARC file and the jobs of
//! `tagloom-warc`, for `tagloom/warc.py` (which documents the Python API).
//!
//! Two ways in:
//! - [`warc_records`]: an iterator of [`WarcRecord`]s, one owned record read per
//!   `next()` with the GIL released; a bad record is a `RecordError` value (or
//!   raised, with `errors="raise"`), and reading goes on with the next one.
//! - [`warc_rows`]: a job over files, run by `tagloom_warc::run` on a thread of
//!   its own (records in parallel on a rayon pool of `threads`), rows handed to
//!   Python through a bounded channel: what a Spark or Dask partition calls. Memory
//!   is the job's two batches plus [`ROW_QUEUE`] rows, whatever the file size;
//!   dropping the iterator stops the run at its next row.
//!   [`warc_rows_html`] runs a job over HTML documents given as bytes (each one a
//!   `resource` record of type `text/html`), on `threads` threads.

use std::fs::File;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, sync_channel};
use std::thread::JoinHandle;

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use tagloom_html::decoder::{Autodetect, DecoderConfig};
use tagloom_html::sniff::sniff_encoding_with;
use tagloom_warc::{
    Format, HttpResponse, Job, JobKind, Limits, OpenError, OwnedRecord, RecordError, RecordHeader,
    RecordType, Records, Row, RowResult, RunError, WarcReader,
};

use super::errors::TagloomError;
use super::input;
use crate::pool;

create_exception!(
    tagloom.warc,
    WarcError,
    TagloomError,
    "A WARC record or payload that cannot be read (the Rust reader's message)."
);

/// How many finished rows wait for Python at most (the job blocks beyond).
const ROW_QUEUE: usize = 1024;

/// Adds the `warc_*` functions and classes to the extension module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("WarcError", m.py().get_type::<WarcError>())?;
    m.add_class::<WarcRecord>()?;
    m.add_class::<RecordIter>()?;
    m.add_class::<RowIter>()?;
    m.add_function(wrap_pyfunction!(warc_records, m)?)?;
    m.add_function(wrap_pyfunction!(warc_rows, m)?)?;
    m.add_function(wrap_pyfunction!(warc_rows_html, m)?)?;
    Ok(())
}

/// The reader's limits: the defaults, with the ones Python gave.
fn limits(max_body_bytes: Option<u64>) -> Limits {
    let mut limits = Limits::default();
    if let Some(max) = max_body_bytes {
        limits.max_body_bytes = max;
    }
    limits
}

/// A job kind from its command-line name (`tagloom/warc.py` checks it first).
fn job_kind(name: &str) -> PyResult<JobKind> {
    [
        JobKind::Text,
        JobKind::Links,
        JobKind::L10nWords,
        JobKind::Sanitize,
    ]
    .into_iter()
    .find(|k| k.name() == name)
    .ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown job {name:?} (text, links, l10n-words, sanitize)"
        ))
    })
}

/// `OSError` (its errno subclass, e.g. `FileNotFoundError`) for a file that
/// cannot be read.
fn open_error(e: OpenError) -> PyErr {
    let path = e.path.display().to_string();
    match e.source.raw_os_error() {
        Some(errno) => PyOSError::new_err((errno, e.source.to_string(), path)),
        None => PyOSError::new_err(format!("cannot read {path}: {}", e.source)),
    }
}

/// A `WarcError` for a record, with `kind` and `offset` attributes.
fn record_error(py: Python<'_>, e: &RecordError) -> PyResult<PyErr> {
    let err = WarcError::new_err(e.to_string());
    let value = err.value(py);
    value.setattr("kind", e.kind.name())?;
    value.setattr("offset", e.offset)?;
    Ok(err)
}

/// One record of a WARC or ARC file, its block in memory. See `tagloom/warc.py`.
#[pyclass(frozen, module = "tagloom.warc", name = "Record")]
pub(crate) struct WarcRecord {
    record: OwnedRecord,
    limits: Limits,
}

impl WarcRecord {
    fn header(&self) -> &RecordHeader {
        &self.record.header
    }

    /// The HTTP response of a `response` record (`None` for other types).
    fn http(&self) -> Option<Result<HttpResponse<'_>, tagloom_warc::HttpError>> {
        (self.header().record_type == RecordType::Response)
            .then(|| HttpResponse::parse(&self.record.body, &self.limits))
    }

    /// The payload and the encoding its `Content-Type` names.
    fn payload_and_transport(
        &self,
    ) -> PyResult<(
        std::borrow::Cow<'_, [u8]>,
        Option<&'static encoding_rs::Encoding>,
    )> {
        match self.http() {
            Some(Ok(http)) => {
                let payload = http
                    .payload(&self.limits)
                    .map_err(|e| WarcError::new_err(e.to_string()))?;
                Ok((payload, http.transport_encoding()))
            }
            Some(Err(e)) => Err(WarcError::new_err(e.to_string())),
            None => Ok((std::borrow::Cow::Borrowed(&self.record.body), None)),
        }
    }
}

#[pymethods]
impl WarcRecord {
    /// `WARC-Type` (`response`, `request`, `warcinfo`…).
    #[getter(r#type)]
    fn record_type(&self) -> &str {
        self.header().record_type.as_str()
    }

    /// `"warc"` or `"arc"`.
    #[getter]
    fn format(&self) -> &'static str {
        match self.header().format {
            Format::Warc => "warc",
            Format::Arc => "arc",
        }
    }

    /// `WARC-Target-URI`.
    #[getter]
    fn target_uri(&self) -> Option<&str> {
        self.header().target_uri()
    }

    /// `WARC-Record-ID`.
    #[getter]
    fn record_id(&self) -> Option<&str> {
        self.header().record_id()
    }

    /// `WARC-Date`.
    #[getter]
    fn date(&self) -> Option<&str> {
        self.header().date()
    }

    /// The record's offset in the (decompressed) stream.
    #[getter]
    fn offset(&self) -> u64 {
        self.header().offset
    }

    /// The file offset of the gzip member that starts with this record.
    #[getter]
    fn member_offset(&self) -> Option<u64> {
        self.header().member_offset
    }

    /// The WARC header's named fields, in order.
    #[getter]
    fn headers(&self) -> Vec<(String, String)> {
        self.header().fields.clone()
    }

    /// The first WARC header field named `name` (any case).
    fn header_value(&self, name: &str) -> Option<&str> {
        self.header().get(name)
    }

    /// The record's block as stored.
    #[getter]
    fn block<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.record.body)
    }

    /// The HTTP status of a `response` record (`None` otherwise or unreadable).
    #[getter]
    fn http_status(&self) -> Option<u16> {
        self.http().and_then(Result::ok).and_then(|h| h.status)
    }

    /// The HTTP headers of a `response` record (`None` for other records).
    #[getter]
    fn http_headers(&self) -> PyResult<Option<Vec<(String, String)>>> {
        match self.http() {
            Some(Ok(http)) => Ok(Some(http.headers)),
            Some(Err(e)) => Err(WarcError::new_err(e.to_string())),
            None => Ok(None),
        }
    }

    /// The payload: for a `response`, the HTTP body with `chunked` and
    /// `gzip`/`deflate` undone; for other records, the block.
    #[getter]
    fn payload<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let (payload, _) = self.payload_and_transport()?;
        Ok(PyBytes::new(py, &payload))
    }

    /// The payload decoded as an HTML page would be (`charset` of the HTTP
    /// `Content-Type` as the transport encoding, then BOM, `<meta>`, guess).
    #[getter]
    fn text(&self, py: Python<'_>) -> PyResult<String> {
        let (payload, transport) = self.payload_and_transport()?;
        Ok(py.detach(|| decode(&payload, transport).0))
    }

    /// The encoding [`text`](Self::text) decodes with (WHATWG name).
    #[getter]
    fn encoding(&self) -> PyResult<&'static str> {
        let (payload, transport) = self.payload_and_transport()?;
        Ok(decode_encoding(&payload, transport).0.name())
    }

    fn __repr__(&self) -> String {
        format!(
            "<tagloom.warc.Record {} {} at {}>",
            self.header().record_type.as_str(),
            self.header().target_uri().unwrap_or("-"),
            self.header().offset
        )
    }
}

/// The encoding of `payload` and the length of its BOM.
fn decode_encoding(
    payload: &[u8],
    transport: Option<&'static encoding_rs::Encoding>,
) -> (&'static encoding_rs::Encoding, usize) {
    let sniffed = sniff_encoding_with(
        payload,
        DecoderConfig {
            transport,
            autodetect: Autodetect::Statistical,
            ..DecoderConfig::default()
        },
    );
    (sniffed.encoding, sniffed.bom_len)
}

/// `payload` decoded, and the encoding used.
fn decode(
    payload: &[u8],
    transport: Option<&'static encoding_rs::Encoding>,
) -> (String, &'static encoding_rs::Encoding) {
    let (encoding, bom) = decode_encoding(payload, transport);
    let body = payload.get(bom..).unwrap_or(&[]);
    (
        encoding.decode_without_bom_handling(body).0.into_owned(),
        encoding,
    )
}

/// The records of a file. See `tagloom/warc.py`.
#[pyclass(module = "tagloom.warc")]
pub(crate) struct RecordIter {
    records: Mutex<Option<Records<File>>>,
    limits: Limits,
    raise_errors: bool,
}

#[pymethods]
impl RecordIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let next = py.detach(|| {
            let mut guard = self.records.lock().ok()?;
            let next = guard.as_mut()?.next();
            if next.is_none() {
                // Closes the file as soon as it is read.
                *guard = None;
            }
            next
        });
        match next {
            None => Ok(None),
            Some(Ok(record)) => {
                let record = WarcRecord {
                    record,
                    limits: self.limits,
                };
                Ok(Some(Py::new(py, record)?.into_any()))
            }
            Some(Err(e)) => {
                let err = record_error(py, &e)?;
                if self.raise_errors {
                    Err(err)
                } else {
                    Ok(Some(err.into_value(py).into_any()))
                }
            }
        }
    }
}

/// Opens `path` for record iteration. See `tagloom.warc.records`.
#[pyfunction]
#[pyo3(signature = (path, *, raise_errors=false, max_body_bytes=None))]
pub(crate) fn warc_records(
    py: Python<'_>,
    path: PathBuf,
    raise_errors: bool,
    max_body_bytes: Option<u64>,
) -> PyResult<RecordIter> {
    let limits = limits(max_body_bytes);
    let reader = py
        .detach(|| WarcReader::open(&path, limits))
        .map_err(open_error)?;
    Ok(RecordIter {
        records: Mutex::new(Some(reader.into_records())),
        limits,
        raise_errors,
    })
}

/// The rows of a job, streamed from its run thread. See `tagloom.warc.iter_rows`.
#[pyclass(module = "tagloom.warc")]
pub(crate) struct RowIter {
    rows: Mutex<Option<Receiver<Row>>>,
    run: Mutex<Option<JoinHandle<Result<(), RunError>>>>,
    kind: JobKind,
}

#[pymethods]
impl RowIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyDict>>> {
        let row = py.detach(|| {
            let guard = self.rows.lock().ok()?;
            guard.as_ref()?.recv().ok()
        });
        if let Some(row) = row {
            return row_dict(py, &row, self.kind).map(Some);
        }
        // The run is over: hand out its error, once.
        if let Ok(mut rows) = self.rows.lock() {
            *rows = None;
        }
        let handle = self.run.lock().ok().and_then(|mut h| h.take());
        match handle.map(|h| py.detach(|| h.join())) {
            Some(Ok(Err(RunError::Open(e)))) => Err(open_error(e)),
            Some(Ok(Err(e))) => Err(WarcError::new_err(e.to_string())),
            Some(Err(_)) => Err(WarcError::new_err("the WARC job failed (a panic)")),
            Some(Ok(Ok(()))) | None => Ok(None),
        }
    }
}

/// A rayon pool of `threads` threads (0: one per core).
fn rayon_pool(threads: usize) -> PyResult<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("tagloom-warc-{i}"))
        .build()
        .map_err(|e| WarcError::new_err(format!("cannot start the job's threads: {e}")))
}

/// Starts `job` over `paths`. See `tagloom.warc.iter_rows`.
#[pyfunction]
#[pyo3(signature = (paths, job, *, threads=0, max_body_bytes=None))]
pub(crate) fn warc_rows(
    paths: Vec<PathBuf>,
    job: &str,
    threads: usize,
    max_body_bytes: Option<u64>,
) -> PyResult<RowIter> {
    let kind = job_kind(job)?;
    let job = Job::new(kind).with_limits(limits(max_body_bytes));
    let pool = rayon_pool(threads)?;
    let (send, receive) = sync_channel::<Row>(ROW_QUEUE);
    let handle = std::thread::Builder::new()
        .name("tagloom-warc-run".into())
        .spawn(move || {
            tagloom_warc::run(
                &paths,
                &job,
                Some(&pool),
                |row| {
                    // The receiver is gone when Python dropped the iterator: stop.
                    send.send(row.clone()).map_err(|_| {
                        std::io::Error::new(std::io::ErrorKind::BrokenPipe, "rows dropped")
                    })
                },
                &|_| {},
            )
            .map(|_| ())
            .or_else(|e| match e {
                RunError::Sink(_) => Ok(()),
                e => Err(e),
            })
        })
        .map_err(|e| WarcError::new_err(format!("cannot start the job: {e}")))?;
    Ok(RowIter {
        rows: Mutex::new(Some(receive)),
        run: Mutex::new(Some(handle)),
        kind,
    })
}

/// `job` over HTML documents (`bytes`/`str`, or `(uri, document)` pairs), each a
/// `resource` record; rows in input order. See `tagloom.warc.run_html`.
#[pyfunction]
#[pyo3(signature = (docs, job, *, threads=0))]
pub(crate) fn warc_rows_html(
    py: Python<'_>,
    docs: &Bound<'_, PyAny>,
    job: &str,
    threads: usize,
) -> PyResult<Py<PyList>> {
    let kind = job_kind(job)?;
    let job = Job::new(kind);
    // One cell per document: a thread takes its record out (no copy of the body).
    let mut records = Vec::new();
    for (index, doc) in docs.try_iter()?.enumerate() {
        let doc = doc?;
        let (uri, body) = match doc.extract::<(Option<String>, Bound<'_, PyAny>)>() {
            Ok((uri, body)) => (uri, body),
            Err(_) => (None, doc),
        };
        let data = input::data(&body)?;
        let record = html_record(index as u64, uri, data.bytes.into_owned(), data.is_text);
        records.push(Mutex::new(Some(record)));
    }
    let rows = py.detach(|| {
        pool::map(&records, threads, |cell| {
            let record = cell.lock().ok()?.take()?;
            job.run_record("", Ok(record))
        })
    })?;
    let out = PyList::empty(py);
    for row in rows.into_iter().flatten() {
        out.append(row_dict(py, &row, kind)?)?;
    }
    Ok(out.unbind())
}

/// An HTML document as a `resource` record (`offset`: its index in the input;
/// `utf8`: the bytes are the UTF-8 of a `str`, whatever the page declares).
fn html_record(offset: u64, uri: Option<String>, body: Vec<u8>, utf8: bool) -> OwnedRecord {
    let mut fields = vec![("WARC-Type".to_string(), "resource".to_string())];
    if let Some(uri) = uri {
        fields.push(("WARC-Target-URI".to_string(), uri));
    }
    let content_type = if utf8 {
        "text/html; charset=utf-8"
    } else {
        "text/html"
    };
    fields.push(("Content-Type".to_string(), content_type.to_string()));
    OwnedRecord {
        header: RecordHeader {
            format: Format::Warc,
            version: "WARC/1.1".to_string(),
            fields,
            record_type: RecordType::Resource,
            content_length: body.len() as u64,
            offset,
            member_offset: None,
        },
        body,
    }
}

/// A row as a dict with the same keys for every row of a job: `file`, `offset`,
/// `member_offset`, `uri`, `record_id`, `status`, the job's fields (`None` in an
/// error row), and `error` (`None`, or `{"kind", "message"}`).
fn row_dict(py: Python<'_>, row: &Row, kind: JobKind) -> PyResult<Py<PyDict>> {
    let d = PyDict::new(py);
    d.set_item("file", &row.file)?;
    d.set_item("offset", row.offset)?;
    d.set_item("member_offset", row.member_offset)?;
    d.set_item("uri", row.uri.as_deref())?;
    d.set_item("record_id", row.record_id.as_deref())?;
    d.set_item("status", row.status)?;
    let none = py.None();
    for field in job_fields(kind) {
        d.set_item(*field, &none)?;
    }
    d.set_item("error", &none)?;
    match &row.result {
        RowResult::Text {
            encoding,
            title,
            text,
        } => {
            d.set_item("encoding", *encoding)?;
            d.set_item("title", title.as_deref())?;
            d.set_item("text", text)?;
        }
        RowResult::Links { links } => d.set_item("links", links)?,
        RowResult::Words {
            encoding,
            units,
            words,
            chars,
        } => {
            d.set_item("encoding", *encoding)?;
            d.set_item("units", units)?;
            d.set_item("words", words)?;
            d.set_item("chars", chars)?;
        }
        RowResult::Sanitized { encoding, html } => {
            d.set_item("encoding", *encoding)?;
            d.set_item("html", html)?;
        }
        RowResult::Error { error } => {
            let e = PyDict::new(py);
            e.set_item("kind", error.kind)?;
            e.set_item("message", &error.message)?;
            d.set_item("error", e)?;
        }
    }
    Ok(d.unbind())
}

/// The fields a job adds to a row.
fn job_fields(kind: JobKind) -> &'static [&'static str] {
    match kind {
        JobKind::Text => &["encoding", "title", "text"],
        JobKind::Links => &["links"],
        JobKind::L10nWords => &["encoding", "units", "words", "chars"],
        JobKind::Sanitize => &["encoding", "html"],
    }
}

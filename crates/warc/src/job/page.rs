//! Which records are HTML pages, and their payload: `response` records whose HTTP
//! `Content-Type` is HTML (or, when absent, whose payload starts like an HTML
//! document), and `resource` records whose WARC `Content-Type` is HTML.

use std::borrow::Cow;

use encoding_rs::Encoding;

use crate::header::RecordType;
use crate::http::{HttpError, HttpResponse, charset_param};
use crate::limits::Limits;
use crate::reader::OwnedRecord;

/// An HTML page found in a record.
pub(crate) struct Page<'a> {
    /// The HTTP status (none for a `resource` record).
    pub(crate) status: Option<u16>,
    /// The payload, transfer and content codings undone.
    pub(crate) payload: Cow<'a, [u8]>,
    /// The encoding named by the `charset` of the `Content-Type`.
    pub(crate) transport: Option<&'static Encoding>,
}

fn is_html_mime(mime: &str) -> bool {
    matches!(mime, "text/html" | "application/xhtml+xml")
}

/// Whether `payload` starts like an HTML document (for a response without a type).
fn looks_like_html(payload: &[u8]) -> bool {
    let start = payload
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(payload.len());
    let head = payload
        .get(start..(start + 14).min(payload.len()))
        .unwrap_or(&[]);
    let head = head.to_ascii_lowercase();
    head.starts_with(b"<!doctype html") || head.starts_with(b"<html")
}

/// The HTML page of `record`: `Ok(None)` when the record is no HTML page.
pub(crate) fn html_page<'a>(
    record: &'a OwnedRecord,
    limits: &Limits,
) -> Result<Option<Page<'a>>, HttpError> {
    let header = &record.header;
    match header.record_type {
        RecordType::Response => {
            let http = match HttpResponse::parse(&record.body, limits) {
                Ok(http) => http,
                // A response record that says it holds HTTP must hold it.
                Err(HttpError::NotHttp)
                    if !header
                        .content_type()
                        .is_some_and(|t| t.to_ascii_lowercase().contains("application/http")) =>
                {
                    return Ok(None);
                }
                Err(e) => return Err(e),
            };
            let html = match http.mime_type() {
                Some(mime) => is_html_mime(&mime),
                None => looks_like_html(http.raw_payload()),
            };
            if !html {
                return Ok(None);
            }
            Ok(Some(Page {
                status: http.status,
                transport: http.transport_encoding(),
                payload: http.payload(limits)?,
            }))
        }
        RecordType::Resource => {
            let Some(content_type) = header.content_type() else {
                return Ok(None);
            };
            let mime = content_type
                .split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            if !is_html_mime(&mime) {
                return Ok(None);
            }
            Ok(Some(Page {
                status: None,
                transport: charset_param(content_type)
                    .and_then(|l| tagloom_html::decoder::resolve_label(l).ok()),
                payload: Cow::Borrowed(&record.body),
            }))
        }
        _ => Ok(None),
    }
}

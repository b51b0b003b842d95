//! A tiny WARC writer for tests (this crate's and `tagloom warc`'s, through
//! `#[path]`): records, HTTP responses, chunked and gzip bodies, plain or gzip
//! files; and the bench pages (`../shared/bench-corpus` or `$TAGLOOM_BENCH_CORPUS`).
#![allow(dead_code)]

use std::io::Write;

/// How a file is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Plain.
    None,
    /// One gzip member per record.
    PerRecord,
    /// One gzip member for the whole file.
    Whole,
}

/// A WARC 1.1 record of `kind` for `uri` with `block`.
pub fn record(kind: &str, uri: &str, block: &[u8]) -> Vec<u8> {
    record_with(kind, uri, block, &[])
}

/// A record with extra header fields.
pub fn record_with(kind: &str, uri: &str, block: &[u8], extra: &[(&str, &str)]) -> Vec<u8> {
    let content_type = match kind {
        "response" => "application/http; msgtype=response",
        "request" => "application/http; msgtype=request",
        _ => "text/html",
    };
    let mut out = format!(
        "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{:08x}-0000-4000-8000-000000000000>\r\n\
         WARC-Date: 2026-11-22T00:00:00Z\r\nWARC-Target-URI: {uri}\r\nContent-Type: {content_type}\r\n",
        block.len() ^ uri.len()
    );
    for (name, value) in extra {
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    out.push_str(&format!("Content-Length: {}\r\n\r\n", block.len()));
    let mut out = out.into_bytes();
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

/// A warcinfo record.
pub fn warcinfo() -> Vec<u8> {
    let block = b"software: tagloom-tests\r\nformat: WARC File Format 1.1\r\n";
    let mut out = format!(
        "WARC/1.1\r\nWARC-Type: warcinfo\r\nWARC-Date: 2026-11-22T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\nContent-Type: application/warc-fields\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

/// An HTTP/1.1 200 response with `headers` and `payload` (as given: chunk or
/// compress it first).
pub fn http(headers: &[(&str, &str)], payload: &[u8]) -> Vec<u8> {
    let mut out = b"HTTP/1.1 200 OK\r\n".to_vec();
    for (name, value) in headers {
        out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(payload);
    out
}

/// An HTML response with `Content-Type: text/html` (plus `; charset=…`).
pub fn html_response(payload: &[u8], charset: Option<&str>) -> Vec<u8> {
    let content_type = match charset {
        Some(c) => format!("text/html; charset={c}"),
        None => "text/html".to_string(),
    };
    http(&[("Content-Type", &content_type)], payload)
}

/// `payload` in chunks of `size` bytes (`Transfer-Encoding: chunked`).
pub fn chunked(payload: &[u8], size: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in payload.chunks(size.max(1)) {
        out.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        out.extend_from_slice(chunk);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

/// One gzip member of `bytes`.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(bytes).expect("gzip");
    gz.finish().expect("gzip")
}

/// A file of `records`, compressed as asked.
pub fn file(records: &[Vec<u8>], compression: Compression) -> Vec<u8> {
    match compression {
        Compression::None => records.concat(),
        Compression::PerRecord => records.iter().flat_map(|r| gzip(r)).collect(),
        Compression::Whole => gzip(&records.concat()),
    }
}

/// The bench pages (name, bytes); empty, with a note on stderr, when absent.
pub fn bench_pages() -> Vec<(String, Vec<u8>)> {
    tagloom_testdata::Shared::BenchCorpus.pages("the bench pages")
}

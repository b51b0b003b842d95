//! HTTP responses inside `response` records: the status line, the headers (bad
//! lines tolerated and counted), and the payload with its transfer and content
//! codings undone (`chunked`; `gzip`, `x-gzip`, `deflate`, `br`).
//!
//! Leniency: crawlers often store a payload already de-chunked or decompressed while
//! keeping the original headers, so a body that does not look chunked (or gzip) is
//! taken as it is; a chunked or compressed payload cut short (pages cut at a size
//! limit) gives what was decoded up to the cut. Decoding never yields more than
//! [`Limits::max_decoded_bytes`].

use std::borrow::Cow;
use std::io::Read;

use encoding_rs::Encoding;
use flate2::bufread::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};

use crate::gzip::GZIP_MAGIC;
use crate::limits::Limits;

/// Why an HTTP response could not be read.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HttpError {
    /// The block does not start with an HTTP status line.
    #[error("not an HTTP response")]
    NotHttp,
    /// The header block is longer than [`Limits::max_header_bytes`].
    #[error("the HTTP header is longer than {limit} bytes")]
    HeaderTooLarge {
        /// The limit.
        limit: usize,
    },
    /// A content coding this reader does not decode (`compress`, `zstd`…).
    #[error("unsupported Content-Encoding {0:?}")]
    UnsupportedEncoding(String),
    /// The payload's content coding is corrupt.
    #[error("corrupt {coding} payload: {message}")]
    BadEncoding {
        /// The coding.
        coding: String,
        /// The decoder's message.
        message: String,
    },
    /// The decoded payload would be larger than [`Limits::max_decoded_bytes`].
    #[error("the decoded payload is larger than {limit} bytes")]
    TooLarge {
        /// The limit.
        limit: u64,
    },
}

impl HttpError {
    /// A short stable name for this error (`"not-http"`…), for output rows.
    pub fn name(&self) -> &'static str {
        match self {
            HttpError::NotHttp => "not-http",
            HttpError::HeaderTooLarge { .. } => "http-header-too-large",
            HttpError::UnsupportedEncoding(_) => "unsupported-content-encoding",
            HttpError::BadEncoding { .. } => "bad-content-encoding",
            HttpError::TooLarge { .. } => "payload-too-large",
        }
    }
}

/// An HTTP response read from a record's block.
///
/// ```
/// use tagloom_warc::{HttpResponse, Limits};
///
/// let block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=\"Shift_JIS\"\r\n\
///               Transfer-Encoding: chunked\r\n\r\n3\r\n<p>\r\n0\r\n\r\n";
/// let response = HttpResponse::parse(block, &Limits::default()).unwrap();
/// assert_eq!(response.status, Some(200));
/// assert_eq!(response.transport_encoding(), Some(encoding_rs::SHIFT_JIS));
/// assert_eq!(&*response.payload(&Limits::default()).unwrap(), b"<p>");
/// ```
#[derive(Clone, Debug)]
pub struct HttpResponse<'a> {
    /// The status code, if the status line has a valid one.
    pub status: Option<u16>,
    /// The header fields in order, names as written.
    pub headers: Vec<(String, String)>,
    /// Header lines that were not `name: value` and were dropped.
    pub bad_header_lines: usize,
    raw_payload: &'a [u8],
}

impl<'a> HttpResponse<'a> {
    /// Reads the status line and headers of `block`.
    pub fn parse(block: &'a [u8], limits: &Limits) -> Result<Self, HttpError> {
        let limit = limits.max_header_bytes;
        let window = block.get(..limit).unwrap_or(block);
        let end = [&b"\r\n\r\n"[..], b"\n\n", b"\n\r\n"]
            .iter()
            .filter_map(|sep| memchr::memmem::find(window, sep).map(|i| (i, i + sep.len())))
            .min();
        let (head_end, payload_start) = match end {
            Some(e) => e,
            // Headers cut short: no payload.
            None if block.len() <= limit => (block.len(), block.len()),
            None => return Err(HttpError::HeaderTooLarge { limit }),
        };
        let head = block.get(..head_end).unwrap_or(&[]);
        let mut lines = head.split(|&b| b == b'\n');
        let status_line = lines.next().unwrap_or(&[]);
        if !status_line
            .get(..5)
            .is_some_and(|p| p.eq_ignore_ascii_case(b"HTTP/"))
        {
            return Err(HttpError::NotHttp);
        }
        let status = std::str::from_utf8(status_line)
            .ok()
            .and_then(|l| l.split_ascii_whitespace().nth(1))
            .and_then(|s| s.parse::<u16>().ok());
        let mut headers: Vec<(String, String)> = Vec::new();
        let mut bad_header_lines = 0;
        for line in lines {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.is_empty() {
                continue;
            }
            let text = String::from_utf8_lossy(line);
            if matches!(line.first(), Some(b' ' | b'\t')) {
                match headers.last_mut() {
                    Some((_, value)) => {
                        value.push(' ');
                        value.push_str(text.trim());
                    }
                    None => bad_header_lines += 1,
                }
                continue;
            }
            match text.split_once(':') {
                Some((name, value)) if !name.trim().is_empty() => {
                    headers.push((name.trim().to_string(), value.trim().to_string()));
                }
                _ => bad_header_lines += 1,
            }
        }
        Ok(HttpResponse {
            status,
            headers,
            bad_header_lines,
            raw_payload: block.get(payload_start..).unwrap_or(&[]),
        })
    }

    /// The first header named `name` (ASCII case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The media type of `Content-Type`, lower case, without parameters.
    pub fn mime_type(&self) -> Option<String> {
        let value = self.header("Content-Type")?;
        let mime = value.split(';').next().unwrap_or("").trim();
        (!mime.is_empty()).then(|| mime.to_ascii_lowercase())
    }

    /// The `charset` parameter of `Content-Type`, unquoted.
    pub fn charset(&self) -> Option<&str> {
        charset_param(self.header("Content-Type")?)
    }

    /// The encoding `charset` names (WHATWG labels): what the HTML decoder takes as
    /// the transport encoding (`DecoderConfig::transport`).
    pub fn transport_encoding(&self) -> Option<&'static Encoding> {
        tagloom_html::decoder::resolve_label(self.charset()?).ok()
    }

    /// The payload as stored (after the header block).
    pub fn raw_payload(&self) -> &'a [u8] {
        self.raw_payload
    }

    /// The payload with `Transfer-Encoding: chunked` and `Content-Encoding` undone
    /// (borrowed when there was nothing to undo).
    pub fn payload(&self, limits: &Limits) -> Result<Cow<'a, [u8]>, HttpError> {
        let mut body = Cow::Borrowed(self.raw_payload);
        let chunked = self
            .header("Transfer-Encoding")
            .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
        if chunked && let Some(data) = dechunk(self.raw_payload, limits.max_decoded_bytes)? {
            body = Cow::Owned(data);
        }
        let codings: Vec<String> = self
            .header("Content-Encoding")
            .map(|v| {
                v.split(',')
                    .map(|c| c.trim().to_ascii_lowercase())
                    .filter(|c| !c.is_empty() && c != "identity")
                    .collect()
            })
            .unwrap_or_default();
        for coding in codings.iter().rev() {
            if let Some(data) = decode(coding, &body, limits.max_decoded_bytes)? {
                body = Cow::Owned(data);
            }
        }
        Ok(body)
    }
}

/// The `charset` parameter of a `Content-Type` value.
pub(crate) fn charset_param(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| value.trim().trim_matches(|c| c == '"' || c == '\''))
            .filter(|v| !v.is_empty())
    })
}

/// Undoes `chunked`; `None` when the body does not start like a chunked body (a
/// crawler stored it de-chunked). A body cut short gives the chunks up to the cut.
fn dechunk(mut rest: &[u8], limit: u64) -> Result<Option<Vec<u8>>, HttpError> {
    let mut out = Vec::new();
    let mut first = true;
    while let Some(eol) = memchr::memchr(b'\n', rest) {
        let line = rest.get(..eol).unwrap_or(&[]);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let size_text = line.split(|&b| b == b';').next().unwrap_or(&[]);
        let size = std::str::from_utf8(size_text)
            .ok()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .and_then(|s| u64::from_str_radix(s, 16).ok());
        let Some(size) = size else {
            if first {
                return Ok(None);
            }
            break;
        };
        first = false;
        rest = rest.get(eol + 1..).unwrap_or(&[]);
        if size == 0 {
            break;
        }
        if out.len() as u64 + size > limit {
            return Err(HttpError::TooLarge { limit });
        }
        let take = usize::try_from(size).unwrap_or(usize::MAX).min(rest.len());
        out.extend_from_slice(rest.get(..take).unwrap_or(&[]));
        rest = rest.get(take..).unwrap_or(&[]);
        rest = rest.strip_prefix(b"\r").unwrap_or(rest);
        rest = rest.strip_prefix(b"\n").unwrap_or(rest);
    }
    if first {
        return Ok(None);
    }
    Ok(Some(out))
}

/// Undoes one content coding; `None` when the data does not look coded (a crawler
/// stored it decoded).
fn decode(coding: &str, data: &[u8], limit: u64) -> Result<Option<Vec<u8>>, HttpError> {
    match coding {
        "gzip" | "x-gzip" => {
            if !data.starts_with(&GZIP_MAGIC[..2]) {
                return Ok(None);
            }
            read_limited(coding, MultiGzDecoder::new(data), limit).map(Some)
        }
        "deflate" => {
            // RFC 9110's deflate is zlib; some servers send raw deflate.
            let zlib = matches!(data, [a, b, ..]
                if a & 0x0f == 8 && u16::from_be_bytes([*a, *b]) % 31 == 0);
            if zlib {
                read_limited(coding, ZlibDecoder::new(data), limit).map(Some)
            } else {
                read_limited(coding, DeflateDecoder::new(data), limit).map(Some)
            }
        }
        "br" => read_limited(
            coding,
            brotli_decompressor::Decompressor::new(data, 16 * 1024),
            limit,
        )
        .map(Some),
        other => Err(HttpError::UnsupportedEncoding(other.to_string())),
    }
}

/// Reads a decoder to the end, at most `limit` bytes; a stream cut short gives
/// what was decoded, a corrupt one with nothing decoded is an error.
fn read_limited(coding: &str, decoder: impl Read, limit: u64) -> Result<Vec<u8>, HttpError> {
    let mut out = Vec::new();
    let mut taken = decoder.take(limit.saturating_add(1));
    match taken.read_to_end(&mut out) {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof || !out.is_empty() => {}
        Err(e) => {
            return Err(HttpError::BadEncoding {
                coding: coding.to_string(),
                message: e.to_string(),
            });
        }
    }
    if out.len() as u64 > limit {
        return Err(HttpError::TooLarge { limit });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(block: &[u8]) -> HttpResponse<'_> {
        HttpResponse::parse(block, &Limits::default()).unwrap()
    }

    #[test]
    fn bad_header_lines_are_counted_and_skipped() {
        let r = parse(b"HTTP/1.0 404\nbogus line\n: empty name\nX-A: 1\n folded\n\nbody");
        assert_eq!(r.status, Some(404));
        assert_eq!(r.bad_header_lines, 2);
        assert_eq!(r.header("x-a"), Some("1 folded"));
        assert_eq!(r.raw_payload(), b"body");
        assert_eq!(
            HttpResponse::parse(b"GET / HTTP/1.1\r\n\r\n", &Limits::default()).unwrap_err(),
            HttpError::NotHttp
        );
    }

    #[test]
    fn chunked_bodies_and_stored_dechunked_ones() {
        let chunked = parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n");
        assert_eq!(&*chunked.payload(&Limits::default()).unwrap(), b"Wikipedia");
        let stored = parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n<html>");
        assert_eq!(&*stored.payload(&Limits::default()).unwrap(), b"<html>");
        let cut = parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc");
        assert_eq!(&*cut.payload(&Limits::default()).unwrap(), b"abc");
    }

    const BROTLI_P: [u8; 17] = [
        11, 6, 128, 60, 112, 62, 98, 114, 111, 116, 108, 105, 60, 47, 112, 62, 3,
    ];

    #[test]
    fn brotli_payloads() {
        // "<p>brotli</p>" as a brotli encoder writes it (an uncompressed
        // meta-block: the bytes stored as they are).
        let mut block = b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n".to_vec();
        block.extend_from_slice(&BROTLI_P);
        let r = parse(&block);
        assert_eq!(&*r.payload(&Limits::default()).unwrap(), b"<p>brotli</p>");
    }

    #[test]
    fn charset_parameter() {
        assert_eq!(
            charset_param("text/html; Charset=\"koi8-r\""),
            Some("koi8-r")
        );
        assert_eq!(charset_param("text/html;charset="), None);
        assert_eq!(charset_param("text/html"), None);
    }

    #[test]
    fn unknown_codings_are_errors_and_bombs_are_bounded() {
        let zstd = parse(b"HTTP/1.1 200 OK\r\nContent-Encoding: zstd\r\n\r\nxx");
        assert!(matches!(
            zstd.payload(&Limits::default()),
            Err(HttpError::UnsupportedEncoding(_))
        ));
        let bad_br = parse(b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n\xff\xff\xff");
        assert!(matches!(
            bad_br.payload(&Limits::default()),
            Err(HttpError::BadEncoding { .. })
        ));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, &vec![b'a'; 100_000]).unwrap();
        let mut block = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
        block.extend(gz.finish().unwrap());
        let r = parse(&block);
        let small = Limits {
            max_decoded_bytes: 1000,
            ..Limits::default()
        };
        assert_eq!(r.payload(&small), Err(HttpError::TooLarge { limit: 1000 }));
        assert_eq!(r.payload(&Limits::default()).unwrap().len(), 100_000);
    }
}

//! Record headers: WARC named fields (WARC 1.0 and 1.1, ISO 28500) and ARC header
//! lines (versions 1 and 2), read leniently.
//!
//! Leniency, as crawls need it: header names are matched without regard to case;
//! a line without a colon is dropped; a line starting with a space or tab continues
//! the previous value; line ends may be CR LF or LF alone; bytes that are not UTF-8
//! are replaced; a `WARC-Target-URI` in angle brackets (as some writers of WARC
//! 0.18/1.0 wrote it) loses them.

/// The format of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// A WARC record (`WARC/1.0`, `WARC/1.1`, older drafts too).
    Warc,
    /// An ARC record (version 1 or 2); its named fields are made from the header
    /// line (`WARC-Target-URI`, `WARC-Date`, `Content-Type`, `Content-Length`).
    Arc,
}

/// A record's `WARC-Type`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordType {
    /// `warcinfo` (and an ARC file's `filedesc://` record).
    Warcinfo,
    /// `response`: usually a full HTTP response (status line, headers, payload).
    Response,
    /// `resource`: a resource without its protocol headers.
    Resource,
    /// `request`.
    Request,
    /// `metadata`.
    Metadata,
    /// `revisit`: a record that refers to an earlier one (usually no payload).
    Revisit,
    /// `conversion`.
    Conversion,
    /// `continuation` (a segment of a segmented record).
    Continuation,
    /// Any other value, as written (an absent `WARC-Type` is an empty one).
    Other(String),
}

impl RecordType {
    fn parse(value: &str) -> RecordType {
        match value.to_ascii_lowercase().as_str() {
            "warcinfo" => RecordType::Warcinfo,
            "response" => RecordType::Response,
            "resource" => RecordType::Resource,
            "request" => RecordType::Request,
            "metadata" => RecordType::Metadata,
            "revisit" => RecordType::Revisit,
            "conversion" => RecordType::Conversion,
            "continuation" => RecordType::Continuation,
            _ => RecordType::Other(value.to_string()),
        }
    }

    /// The type's name as WARC writes it.
    pub fn as_str(&self) -> &str {
        match self {
            RecordType::Warcinfo => "warcinfo",
            RecordType::Response => "response",
            RecordType::Resource => "resource",
            RecordType::Request => "request",
            RecordType::Metadata => "metadata",
            RecordType::Revisit => "revisit",
            RecordType::Conversion => "conversion",
            RecordType::Continuation => "continuation",
            RecordType::Other(s) => s,
        }
    }
}

/// A record's header: its named fields and where the record is.
#[derive(Clone, Debug)]
pub struct RecordHeader {
    /// WARC or ARC.
    pub format: Format,
    /// The version line (`WARC/1.1`), or `ARC` for an ARC record.
    pub version: String,
    /// The named fields in order, names as written.
    pub fields: Vec<(String, String)>,
    /// The record's type (from `WARC-Type`; for ARC, from the URL's scheme).
    pub record_type: RecordType,
    /// The length of the record's block (`Content-Length`).
    pub content_length: u64,
    /// Where the record starts in the decompressed stream (the file offset for a
    /// plain file).
    pub offset: u64,
    /// For a gzip file: the file offset of the gzip member that starts with this
    /// record (what crawl indexes give), when one does.
    pub member_offset: Option<u64>,
}

impl RecordHeader {
    /// The first field named `name` (ASCII case-insensitive).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// `WARC-Target-URI` (without angle brackets).
    pub fn target_uri(&self) -> Option<&str> {
        self.get("WARC-Target-URI")
            .map(|v| v.trim_start_matches('<').trim_end_matches('>'))
    }

    /// `WARC-Record-ID`.
    pub fn record_id(&self) -> Option<&str> {
        self.get("WARC-Record-ID")
    }

    /// `WARC-Date`.
    pub fn date(&self) -> Option<&str> {
        self.get("WARC-Date")
    }

    /// `Content-Type` of the block (`application/http; msgtype=response` for an
    /// HTTP response record).
    pub fn content_type(&self) -> Option<&str> {
        self.get("Content-Type")
    }
}

/// Whether `line` (without its line end) starts a record: a WARC version line or
/// an ARC header line.
pub(crate) fn is_record_start(line: &[u8]) -> bool {
    is_warc_version(line) || parse_arc_line(line).is_some()
}

/// `WARC/` followed by a digit.
pub(crate) fn is_warc_version(line: &[u8]) -> bool {
    line.strip_prefix(b"WARC/")
        .and_then(|rest| rest.first())
        .is_some_and(u8::is_ascii_digit)
}

/// The named fields of a WARC header block (the lines after the version line, up
/// to and without the empty line).
pub(crate) fn parse_fields(block: &[u8]) -> Vec<(String, String)> {
    let mut fields: Vec<(String, String)> = Vec::new();
    for line in block.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            continue;
        }
        let text = String::from_utf8_lossy(line);
        if matches!(line.first(), Some(b' ' | b'\t')) {
            if let Some((_, value)) = fields.last_mut() {
                value.push(' ');
                value.push_str(text.trim());
            }
            continue;
        }
        if let Some((name, value)) = text.split_once(':') {
            fields.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    fields
}

/// Builds a WARC record header from the version line and fields.
pub(crate) fn warc_header(
    version: &[u8],
    fields: Vec<(String, String)>,
) -> Result<RecordHeader, Option<String>> {
    let length = fields
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("Content-Length"))
        .map(|(_, v)| v.clone());
    let content_length = match &length {
        Some(v) => v.parse::<u64>().map_err(|_| Some(v.clone()))?,
        None => return Err(None),
    };
    let record_type = RecordType::parse(
        fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("WARC-Type"))
            .map_or("", |(_, v)| v.as_str()),
    );
    Ok(RecordHeader {
        format: Format::Warc,
        version: String::from_utf8_lossy(version).trim().to_string(),
        fields,
        record_type,
        content_length,
        offset: 0,
        member_offset: None,
    })
}

/// An ARC header line: `URL IP-address Archive-date Content-type Archive-length`
/// (version 1) or ten fields ending with the length (version 2).
pub(crate) fn parse_arc_line(line: &[u8]) -> Option<RecordHeader> {
    let text = std::str::from_utf8(line).ok()?;
    let parts: Vec<&str> = text.split(' ').filter(|p| !p.is_empty()).collect();
    if !matches!(parts.len(), 5 | 10) {
        return None;
    }
    let url = *parts.first()?;
    if !url.contains(':') {
        return None;
    }
    let content_length: u64 = parts.last()?.parse().ok()?;
    let date = parts.get(2).copied().unwrap_or("");
    let content_type = parts.get(3).copied().unwrap_or("");
    let record_type = if url.starts_with("filedesc:") {
        RecordType::Warcinfo
    } else if url.starts_with("dns:") {
        RecordType::Resource
    } else {
        RecordType::Response
    };
    let fields = vec![
        ("WARC-Target-URI".to_string(), url.to_string()),
        ("WARC-Date".to_string(), date.to_string()),
        ("Content-Type".to_string(), content_type.to_string()),
        ("Content-Length".to_string(), content_length.to_string()),
    ];
    Some(RecordHeader {
        format: Format::Arc,
        version: "ARC".to_string(),
        fields,
        record_type,
        content_length,
        offset: 0,
        member_offset: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_read_leniently() {
        let f = parse_fields(
            b"WARC-Type: response\r\nno colon here\nX-Long: a\r\n  b\r\nwarc-target-uri: <http://x/>\r\n",
        );
        let h = warc_header(b"WARC/1.0", {
            let mut f = f.clone();
            f.push(("Content-Length".into(), "12".into()));
            f
        })
        .unwrap();
        assert_eq!(h.get("x-long"), Some("a b"));
        assert_eq!(h.target_uri(), Some("http://x/"));
        assert_eq!(h.record_type, RecordType::Response);
        assert_eq!(h.content_length, 12);
        assert_eq!(warc_header(b"WARC/1.0", f).unwrap_err(), None);
    }

    #[test]
    fn arc_lines() {
        let h = parse_arc_line(b"http://a.example/ 1.2.3.4 20200101000000 text/html 42").unwrap();
        assert_eq!(h.content_length, 42);
        assert_eq!(h.record_type, RecordType::Response);
        assert!(parse_arc_line(b"Content-Type: text/html").is_none());
        assert!(is_record_start(b"WARC/1.1"));
        assert!(!is_record_start(b"WARC/x"));
    }
}

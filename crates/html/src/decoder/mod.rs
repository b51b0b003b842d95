//! Bytes to text: the HTML encoding sniffing algorithm and a streaming decoder
//! (HTML §13.2.3 "The input byte stream").
//!
//! # Why this module exists
//!
//! HTML arrives as bytes, and the bytes rarely say plainly how they are encoded. The
//! HTML Standard fixes the order in which the evidence is weighed — a byte order
//! mark, then the transport layer's `charset`, then a `<meta>` declaration found by
//! a byte-level pre-scan of the first 1024 bytes, then a default — and attaches a
//! *confidence* to the answer. A *tentative* answer may still be overturned by a
//! `<meta>` the tree builder meets later ("change the encoding"), which means
//! re-decoding the document from its first byte. Getting this exactly right matters
//! for security as well as for correctness: decoders that disagree about where a
//! tag starts are an XSS vector.
//!
//! # What is here
//!
//! - [`sniff`]: the encoding sniffing algorithm over the bytes available (BOM,
//!   transport charset, [`prescan`], default windows-1252), returning a [`Sniffed`].
//! - [`ByteStreamDecoder`]: the streaming decoder the parser reads from. It buffers
//!   the first [`PRESCAN_LEN`] bytes so the pre-scan can run, then decodes chunks of
//!   any size with `encoding_rs` (malformed sequences become U+FFFD, the BOM is
//!   removed), keeps the raw bytes while the confidence is tentative, and implements
//!   "change the encoding" ([`ByteStreamDecoder::change_encoding`], or
//!   [`ByteStreamDecoder::change_encoding_at`] when the `<meta>`'s text offset is
//!   known) with an explicit restart. The restart window is bounded
//!   ([`DecoderConfig::restart_window_limit`], default 1 MiB); a `<meta>` beyond it
//!   is ignored, the same way whatever the chunking.
//! - [`Autodetect`]: the optional step 8, a statistical guess (`chardetng`, and a
//!   NUL-pattern check for UTF-16 without a BOM) for documents that declare nothing;
//!   off by default, so the default stays windows-1252 as html5lib-tests expect.
//! - [`extract_encoding_from_meta_content`] and [`meta_declared_encoding`], for the
//!   tree builder's `<meta>` rule.
//! - The whole-document answer `tagloom sniff` prints is
//!   [`sniff_encoding`](crate::sniff::sniff_encoding): it runs the real parse, so a
//!   `<meta>` the tree builder meets after the first 1024 bytes counts exactly as it
//!   does when parsing.
//!
//! # Example
//!
//! ```
//! use tagloom_html::decoder::{ByteStreamDecoder, ChangeOutcome, Confidence, DecoderConfig};
//!
//! // windows-1252 bytes, fed in two chunks with no declaration in the first 1024 bytes.
//! let mut head = b"<!DOCTYPE html><title>caf\xE9</title>".to_vec();
//! head.resize(1100, b' ');
//! let tail = b"<meta charset=iso-8859-2><p>\xB1";
//!
//! let mut dec = ByteStreamDecoder::new(DecoderConfig::default());
//! let mut text = String::new();
//! dec.push(&head, &mut text)?;
//! dec.push(tail, &mut text)?;
//! dec.finish(&mut text)?;
//! assert_eq!(dec.encoding().map(|e| e.name()), Some("windows-1252"));
//! assert_eq!(dec.confidence(), Some(Confidence::Tentative));
//! assert!(text.contains("café"));
//!
//! // The tree builder meets the <meta> and asks to change the encoding.
//! let late = tagloom_html::decoder::meta_declared_encoding(Some("iso-8859-2"), None, None);
//! let outcome = dec.change_encoding(late.unwrap())?;
//! assert_eq!(outcome, ChangeOutcome::Restart);
//! // Throw away what was parsed and read the text again from the start.
//! text.clear();
//! dec.replay(&mut text);
//! assert_eq!(dec.encoding().map(|e| e.name()), Some("ISO-8859-2"));
//! assert_eq!(dec.confidence(), Some(Confidence::Certain));
//! assert!(text.ends_with("<p>ą"));
//! # Ok::<(), tagloom_html::decoder::DecoderError>(())
//! ```

mod autodetect;
mod bom;
mod prescan;
mod stream;

pub use autodetect::Autodetect;
pub use bom::{bom_undecided, sniff_bom};
pub use encoding_rs::Encoding;
pub use prescan::{
    adjust_declared_encoding, extract_encoding_from_meta_content, meta_declared_encoding, prescan,
};
pub use stream::{ByteStreamDecoder, ChangeOutcome, DecoderConfig};

use encoding_rs::{UTF_16BE, UTF_16LE, WINDOWS_1252};

/// How many leading bytes the pre-scan looks at (the spec's suggested end
/// condition), and how many the streaming decoder waits for before it sniffs.
pub const PRESCAN_LEN: usize = 1024;

/// The default size of the restart window: how many raw bytes a
/// [`ByteStreamDecoder`] keeps, while the confidence is tentative, so that it can
/// re-decode the document after "change the encoding". See
/// [`DecoderConfig::restart_window_limit`].
pub const DEFAULT_RESTART_WINDOW_LIMIT: usize = 1 << 20;

/// The encoding used when nothing else decides (§13.2.3.2 step 9: the suggested
/// default for most locales).
pub const DEFAULT_ENCODING: &Encoding = WINDOWS_1252;

/// How sure the parser is of the encoding (§13.2.3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Confidence {
    /// The encoding may still be changed by a `<meta>` found while parsing.
    Tentative,
    /// The encoding is final.
    Certain,
    /// No decoding happens: the input was already text.
    Irrelevant,
}

/// Where the encoding came from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EncodingSource {
    /// A byte order mark.
    Bom,
    /// The transport layer (e.g. HTTP `Content-Type`), or an encoding the caller
    /// knows to be right.
    Transport,
    /// A `<meta>` or XML declaration found by the pre-scan.
    Prescan,
    /// Nothing was found: [`DEFAULT_ENCODING`].
    Default,
    /// Nothing was declared and [`Autodetect::Statistical`] guessed from the bytes
    /// (tentative: a `<meta>` the tree builder meets can still change it).
    Autodetected,
    /// A `<meta>` the tree builder met while parsing ("change the encoding").
    ParserMeta,
}

/// The result of sniffing: the encoding to decode with, how sure that is, and how
/// many BOM bytes to skip.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Sniffed {
    /// The encoding. Its [`Encoding::name`] is the WHATWG name.
    pub encoding: &'static Encoding,
    /// Tentative unless a BOM or the transport layer decided.
    pub confidence: Confidence,
    /// Length of the byte order mark at the start of the input (0, 2 or 3).
    pub bom_len: usize,
    /// What decided.
    pub source: EncodingSource,
}

/// Errors of this module.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DecoderError {
    /// A label that names no encoding of the Encoding Standard.
    #[error("unknown encoding label {0:?}")]
    UnknownLabel(String),
    /// [`ByteStreamDecoder::push`] after [`ByteStreamDecoder::finish`].
    #[error("bytes pushed after the end of the stream")]
    PushAfterFinish,
    /// [`ByteStreamDecoder::change_encoding`] before any text was decoded: there is
    /// no encoding to change yet.
    #[error("the encoding cannot change before decoding has started")]
    NotStarted,
}

/// The encoding for a label such as `"latin1"` or `" UTF-8 "` (the Encoding
/// Standard's "get an encoding": surrounding whitespace ignored, ASCII
/// case-insensitive).
pub fn resolve_label(label: &str) -> Result<&'static Encoding, DecoderError> {
    Encoding::for_label(label.as_bytes()).ok_or_else(|| DecoderError::UnknownLabel(label.into()))
}

/// Whether `encoding` is UTF-16BE or UTF-16LE ("UTF-16BE/LE" in the spec).
pub fn is_utf16(encoding: &Encoding) -> bool {
    encoding == UTF_16BE || encoding == UTF_16LE
}

/// The encoding sniffing algorithm (§13.2.3.2) over `bytes`, the bytes available
/// so far (at most the first [`PRESCAN_LEN`] are pre-scanned).
///
/// In order: a BOM gives its encoding, certain; else `transport` (the transport
/// layer's encoding, already resolved from its label) is used as is, certain; else
/// the pre-scan's result, tentative; else [`DEFAULT_ENCODING`], tentative.
pub fn sniff(bytes: &[u8], transport: Option<&'static Encoding>) -> Sniffed {
    sniff_with_limit(bytes, transport, PRESCAN_LEN)
}

/// [`sniff`] with a pre-scan end condition of `prescan_len` bytes.
pub(crate) fn sniff_with_limit(
    bytes: &[u8],
    transport: Option<&'static Encoding>,
    prescan_len: usize,
) -> Sniffed {
    if let Some((encoding, bom_len)) = sniff_bom(bytes) {
        return Sniffed {
            encoding,
            confidence: Confidence::Certain,
            bom_len,
            source: EncodingSource::Bom,
        };
    }
    if let Some(encoding) = transport {
        return Sniffed {
            encoding,
            confidence: Confidence::Certain,
            bom_len: 0,
            source: EncodingSource::Transport,
        };
    }
    let window = bytes.get(..prescan_len).unwrap_or(bytes);
    match prescan(window) {
        Some(encoding) => Sniffed {
            encoding,
            confidence: Confidence::Tentative,
            bom_len: 0,
            source: EncodingSource::Prescan,
        },
        None => Sniffed {
            encoding: DEFAULT_ENCODING,
            confidence: Confidence::Tentative,
            bom_len: 0,
            source: EncodingSource::Default,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{EUC_JP, SHIFT_JIS, UTF_8};

    #[test]
    fn bom_beats_transport_and_meta() {
        let s = sniff(b"\xEF\xBB\xBF<meta charset=euc-jp>", Some(SHIFT_JIS));
        assert_eq!(
            s,
            Sniffed {
                encoding: UTF_8,
                confidence: Confidence::Certain,
                bom_len: 3,
                source: EncodingSource::Bom
            }
        );
        let s = sniff(b"\xFE\xFF\0<", None);
        assert_eq!((s.encoding, s.bom_len), (UTF_16BE, 2));
    }

    #[test]
    fn transport_beats_meta_and_is_used_as_is() {
        let s = sniff(b"<meta charset=euc-jp>", Some(SHIFT_JIS));
        assert_eq!(s.encoding, SHIFT_JIS);
        assert_eq!(s.confidence, Confidence::Certain);
        assert_eq!(s.source, EncodingSource::Transport);
        // A transport "utf-16" means UTF-16LE and is not adjusted.
        let s = sniff(b"<\0", Some(resolve_label("utf-16").unwrap_or(UTF_8)));
        assert_eq!(s.encoding, UTF_16LE);
    }

    #[test]
    fn prescan_then_default() {
        let s = sniff(b"<meta charset=euc-jp>", None);
        assert_eq!((s.encoding, s.confidence), (EUC_JP, Confidence::Tentative));
        assert_eq!(s.source, EncodingSource::Prescan);
        let s = sniff(b"<p>hello", None);
        assert_eq!(
            (s.encoding, s.source),
            (WINDOWS_1252, EncodingSource::Default)
        );
    }

    #[test]
    fn prescan_stops_at_1024_bytes() {
        let mut doc = vec![b' '; PRESCAN_LEN - 10];
        doc.extend_from_slice(b"<meta charset=euc-jp>");
        assert_eq!(sniff(&doc, None).encoding, WINDOWS_1252);
    }

    #[test]
    fn labels() {
        assert_eq!(resolve_label(" Latin1 "), Ok(WINDOWS_1252));
        assert_eq!(
            resolve_label("utf-7"),
            Err(DecoderError::UnknownLabel("utf-7".into()))
        );
        assert!(is_utf16(UTF_16BE));
        assert!(!is_utf16(UTF_8));
    }
}

//! The encoding a document ends up parsed with: what `tagloom sniff` prints.
//!
//! The byte-level [`decoder::sniff`](crate::decoder::sniff) answers from the BOM,
//! the transport charset and the pre-scan of the first 1024 bytes. A parser can
//! still change its mind: while the confidence is tentative, the first `<meta>` the
//! tree builder meets that declares an encoding triggers "change the encoding"
//! (§13.2.3.4) — after the first 1024 bytes too, and only where the tree builder
//! really sees a `<meta>` start tag (not inside a comment, a script or `<title>`).
//! [`sniff_encoding`] gets that answer by running the real parse, so it can never
//! disagree with what [`Html5ParseSession`](crate::session::Html5ParseSession) does.
//!
//! [`EncodingSniffer`] does the same on a stream and says when it may stop: once the
//! answer is final, more bytes cannot change it, so a caller reads only the prefix
//! that decides (see [`EncodingSniffer::push`] for when that is).
//!
//! With [`Autodetect::Statistical`](crate::decoder::Autodetect) in the
//! [`DecoderConfig`], a document that declares nothing is guessed from its first
//! bytes (the restart window) before the parse; the answer's source is then
//! [`EncodingSource::Autodetected`], unless a `<meta>` the tree builder meets later
//! changes or confirms it. Every tagloom command that sniffs (`sniff`, `parse`,
//! `demo`, the l10n reader) asks this module with that setting, so they agree.
//!
//! ```
//! use tagloom_html::sniff::sniff_encoding;
//! let mut page = b"<!DOCTYPE html><title>".to_vec();
//! page.resize(2000, b'x'); // nothing in the first 1024 bytes
//! page.extend_from_slice(b"</title><meta charset=iso-8859-2>");
//! assert_eq!(sniff_encoding(&page, None).encoding.name(), "ISO-8859-2");
//! ```

use encoding_rs::Encoding;

use crate::decoder::{DecoderConfig, EncodingSource, PRESCAN_LEN, Sniffed, sniff};
use crate::driver::{Driver, ParseConfig};
use crate::session::{BatchPolicy, SessionConfig};
use crate::tree_builder::TreeBuilderConfig;

/// The encoding the parser uses for `bytes`, with `transport` as the transport
/// layer's charset (scripting on, as in a browser: `<noscript>` content is raw text).
pub fn sniff_encoding(bytes: &[u8], transport: Option<&'static Encoding>) -> Sniffed {
    sniff_encoding_with(
        bytes,
        DecoderConfig {
            transport,
            ..DecoderConfig::default()
        },
    )
}

/// [`sniff_encoding`] with every decoder setting (pre-scan length, restart window).
pub fn sniff_encoding_with(bytes: &[u8], decoder: DecoderConfig) -> Sniffed {
    let mut sniffer = EncodingSniffer::new(decoder);
    sniffer.push(bytes);
    sniffer.finish()
}

/// [`sniff_encoding`] over a stream: push the document piece by piece until
/// [`push`](Self::push) says the answer is final (or the input ends), then
/// [`finish`](Self::finish). Memory is bounded by what was read (at most about the
/// restart window), not by the document.
///
/// ```
/// use tagloom_html::decoder::DecoderConfig;
/// use tagloom_html::sniff::EncodingSniffer;
///
/// let mut sniffer = EncodingSniffer::new(DecoderConfig::default());
/// let mut page = b"<!DOCTYPE html><meta charset=utf-8><title>".to_vec();
/// page.resize(4096, b'x');
/// // The tree builder confirms the pre-scan's answer at the <meta>: nothing after it
/// // can change the encoding, so the rest of a long page need not be read.
/// assert!(sniffer.push(&page));
/// assert_eq!(sniffer.finish().encoding.name(), "UTF-8");
/// ```
pub struct EncodingSniffer {
    driver: Driver,
    /// The first [`PRESCAN_LEN`] bytes: what the encoding was before the parse.
    prefix: Vec<u8>,
    transport: Option<&'static Encoding>,
    /// The answer can no longer change.
    decided: bool,
}

impl std::fmt::Debug for EncodingSniffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EncodingSniffer")
            .field("decoder", self.driver.session().decoder())
            .field("decided", &self.decided)
            .finish_non_exhaustive()
    }
}

impl EncodingSniffer {
    /// The most bytes handed to the parse between two checks of the answer: the
    /// parse runs after each slice, so the tree builder meets every `<meta>` of the
    /// restart window before the decoder drops that window, whatever the caller's
    /// chunking.
    const SLICE: usize = 8 * 1024;

    /// A sniffer with the given decoder settings (transport encoding, pre-scan length,
    /// restart window).
    pub fn new(decoder: DecoderConfig) -> Self {
        let config = ParseConfig {
            session: SessionConfig {
                tree: TreeBuilderConfig {
                    scripting: true,
                    ..TreeBuilderConfig::default()
                },
                decoder,
                batching: BatchPolicy::Bounded(4096),
                ..SessionConfig::default()
            },
            chunk_size: Self::SLICE,
        };
        EncodingSniffer {
            driver: Driver::new(&config),
            prefix: Vec::new(),
            transport: decoder.transport,
            decided: false,
        }
    }

    /// Feeds the next bytes of the document and returns whether the answer is final,
    /// that is, whether the rest of the document cannot change it. It is final once
    /// the confidence is certain: a BOM or the transport charset decided, or the tree
    /// builder met a `<meta>` that confirmed or changed the encoding, or it has parsed
    /// all the text of the restart window
    /// ([`DecoderConfig::restart_window_limit`], 1 MiB by default) without meeting
    /// one (a later `<meta>` is ignored). An engine failure also ends the parse. Bytes
    /// pushed after that are ignored. With autodetection on, an undeclared
    /// document's bytes are held until the restart window is full (or the input
    /// ends), so such a document is read that far whatever it holds.
    pub fn push(&mut self, bytes: &[u8]) -> bool {
        for slice in bytes.chunks(Self::SLICE) {
            if self.decided {
                break;
            }
            let room = PRESCAN_LEN.saturating_sub(self.prefix.len());
            self.prefix
                .extend_from_slice(slice.get(..room).unwrap_or(slice));
            // Parse errors never stop a parse; an engine failure ends it early, and
            // the encoding in use at that point is still the parser's answer.
            let parsed = self.driver.push(slice, drop_batch);
            self.decided = parsed.is_err() || self.driver.session().encoding_is_final();
        }
        self.decided
    }

    /// Whether the answer is final (see [`push`](Self::push)).
    pub fn is_final(&self) -> bool {
        self.decided
    }

    /// The encoding the parser ends up using, taking the input to end here unless
    /// the answer was already final.
    pub fn finish(mut self) -> Sniffed {
        if !self.decided {
            let _ = self.driver.finish(drop_batch);
        }
        let initial = sniff(&self.prefix, self.transport);
        let session = self.driver.session();
        let decoder = session.decoder();
        let state = decoder.sniffed().unwrap_or(initial);
        // The decoder's first answer may be a guess (autodetection), which the
        // byte-level `initial` cannot know; a change from either is the parser's.
        let guessed = state.source == EncodingSource::Autodetected;
        let source = if session.restarts() > 0 || (!guessed && state.encoding != initial.encoding) {
            EncodingSource::ParserMeta
        } else {
            state.source
        };
        Sniffed { source, ..state }
    }
}

/// The batch closure of the sniffer: only the decoder's state matters here.
fn drop_batch(_: crate::batch::PatchBatch) -> Result<(), std::convert::Infallible> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decoder::Confidence;
    use encoding_rs::{EUC_JP, ISO_8859_2, SHIFT_JIS, UTF_8, UTF_16LE, WINDOWS_1252};

    #[test]
    fn a_meta_after_the_prescan_changes_the_encoding() {
        let mut doc = vec![b' '; 1024 - 10];
        doc.extend_from_slice(b"<meta charset=euc-jp>");
        let s = sniff_encoding(&doc, None);
        assert_eq!(
            (s.encoding, s.confidence, s.source),
            (EUC_JP, Confidence::Certain, EncodingSource::ParserMeta)
        );
    }

    #[test]
    fn only_metas_the_tree_builder_sees_count() {
        // The first effective <meta> confirms the pre-scan result.
        let s = sniff_encoding(b"<meta charset=latin1><meta charset=euc-jp>", None);
        assert_eq!(
            (s.encoding, s.confidence, s.source),
            (WINDOWS_1252, Confidence::Certain, EncodingSource::Prescan)
        );
        // A pre-scan hit inside a script is overruled by a real <meta>.
        let s = sniff_encoding(
            b"<script>'<meta charset=euc-jp>'</script><meta charset=iso-8859-2>",
            None,
        );
        assert_eq!(s.encoding, ISO_8859_2);
        // Inside a comment or <title> after the first 1024 bytes: not a <meta>.
        let mut doc = b"<title>".to_vec();
        doc.resize(1500, b'x');
        doc.extend_from_slice(b"<meta charset=euc-jp></title><!-- <meta charset=euc-jp> -->");
        assert_eq!(sniff_encoding(&doc, None).encoding, WINDOWS_1252);
    }

    #[test]
    fn transport_and_utf16_are_certain_or_kept() {
        let s = sniff_encoding(b"<meta charset=euc-jp>", Some(SHIFT_JIS));
        assert_eq!(
            (s.encoding, s.source),
            (SHIFT_JIS, EncodingSource::Transport)
        );
        // A tentative UTF-16 (from a UTF-16 "<?x" declaration) is not changed.
        let s = sniff_encoding(b"<\0?\0x\0<\0m\0", None);
        assert_eq!(s.encoding, UTF_16LE);
    }

    /// Pushes `doc` in `piece`-byte pieces until the answer is final; returns the
    /// answer and how many bytes were pushed.
    fn sniff_streamed(doc: &[u8], piece: usize) -> (Sniffed, usize) {
        let mut sniffer = EncodingSniffer::new(DecoderConfig::default());
        let mut pushed = 0;
        for chunk in doc.chunks(piece) {
            pushed += chunk.len();
            if sniffer.push(chunk) {
                break;
            }
        }
        (sniffer.finish(), pushed)
    }

    #[test]
    fn streaming_stops_once_the_answer_is_final() {
        let big = |head: &[u8]| {
            let mut doc = head.to_vec();
            doc.resize(3 << 20, b'x');
            doc
        };
        // Confirmed by the tree builder at the <meta>: the first piece decides.
        let doc = big(b"<!DOCTYPE html><meta charset=utf-8><p>");
        let (s, pushed) = sniff_streamed(&doc, 64 * 1024);
        assert_eq!((s.encoding, s.confidence), (UTF_8, Confidence::Certain));
        assert_eq!(pushed, 64 * 1024);
        // A BOM or the transport charset decide before any parse.
        let (s, pushed) = sniff_streamed(&big(b"\xEF\xBB\xBF<p>"), 4096);
        assert_eq!((s.encoding, pushed), (UTF_8, 4096));
        // Nothing declared: final once the restart window (1 MiB) has been parsed.
        let (s, pushed) = sniff_streamed(&big(b"<p>"), 64 * 1024);
        assert_eq!(
            (s.encoding, s.source),
            (WINDOWS_1252, EncodingSource::Default)
        );
        assert!(
            pushed > 1 << 20 && pushed <= (1 << 20) + 64 * 1024,
            "{pushed}"
        );
        // A document that ends before that is sniffed whole.
        let (s, pushed) = sniff_streamed(b"<p>short", 3);
        assert_eq!(
            (s.encoding, s.confidence, pushed),
            (WINDOWS_1252, Confidence::Tentative, 8)
        );
    }

    #[test]
    fn a_late_meta_in_a_long_document_counts_whatever_the_chunking() {
        // The <meta> is inside the restart window, the document far longer than it:
        // pushed whole or in pieces, the tree builder meets it before the window goes.
        let mut doc = b"<title>".to_vec();
        doc.resize(3000, b'x');
        doc.extend_from_slice(b"</title><meta charset=euc-jp><p>");
        doc.resize(3 << 20, b'y');
        for piece in [doc.len(), 1 << 20, 65_536, 1000] {
            let (s, _) = sniff_streamed(&doc, piece);
            assert_eq!(
                (s.encoding, s.source),
                (EUC_JP, EncodingSource::ParserMeta),
                "{piece}"
            );
        }
    }

    #[test]
    fn the_restart_window_limits_late_metas() {
        let mut doc = b"<p>\xE9".to_vec();
        doc.resize(40, b' ');
        doc.extend_from_slice(b"<meta charset=euc-jp>");
        let limited = |limit| DecoderConfig {
            prescan_len: 4,
            restart_window_limit: limit,
            ..DecoderConfig::default()
        };
        assert_eq!(sniff_encoding_with(&doc, limited(4096)).encoding, EUC_JP);
        assert_eq!(
            sniff_encoding_with(&doc, limited(40)).encoding,
            WINDOWS_1252
        );
    }

    #[test]
    fn a_guess_is_reported_and_a_late_meta_still_wins() {
        use crate::decoder::Autodetect;
        let guessing = DecoderConfig {
            autodetect: Autodetect::Statistical,
            ..DecoderConfig::default()
        };
        let mut doc = b"<!DOCTYPE html><title>".to_vec();
        doc.resize(3000, b'x');
        doc.extend_from_slice("</title><p>Привет, мир: это проверка.</p>".as_bytes());
        let s = sniff_encoding_with(&doc, guessing);
        assert_eq!(
            (s.encoding, s.source),
            (UTF_8, EncodingSource::Autodetected)
        );
        let mut declared = doc.clone();
        declared.extend_from_slice(b"<meta charset=iso-8859-2>");
        let s = sniff_encoding_with(&declared, guessing);
        assert_eq!(
            (s.encoding, s.source),
            (ISO_8859_2, EncodingSource::ParserMeta)
        );
        let mut confirmed = doc;
        confirmed.extend_from_slice(b"<meta charset=utf-8>");
        let s = sniff_encoding_with(&confirmed, guessing);
        assert_eq!((s.encoding, s.source), (UTF_8, EncodingSource::ParserMeta));
    }
}

//! The encoding a document ends up parsed with: what `tagloom sniff` prints.
//!
//! The byte-level [`decoder::sniff`](crate::decoder::sniff) answers from the BOM,
//! the transport charset and the pre-scan of the first 1024 bytes. A parser can
//! still change its mind: while the confidence is tentative, the first `<meta>` the
//! tree builder meets that declares an encoding triggers "change the encoding"
//! (§13.2.3.4) — after the first 1024 bytes too, and only where the tree builder
//! really sees a `<meta>` start tag (not inside a comment, a script or `<title>`).
//! [`sniff_encoding`] gets that answer by running the real parse, so it can never
//! disagree with what [`Html5ParseSession`] does.
//!
//! ```
//! use tagloom_html::sniff::sniff_encoding;
//! let mut page = b"<!DOCTYPE html><title>".to_vec();
//! page.resize(2000, b'x'); // nothing in the first 1024 bytes
//! page.extend_from_slice(b"</title><meta charset=iso-8859-2>");
//! assert_eq!(sniff_encoding(&page, None).encoding.name(), "ISO-8859-2");
//! ```

use encoding_rs::Encoding;

use crate::decoder::{DecoderConfig, EncodingSource, Sniffed, sniff};
use crate::session::{BatchPolicy, Html5ParseSession, PumpStatus, SessionConfig};
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
    let initial = sniff(bytes, decoder.transport);
    let config = SessionConfig {
        tree: TreeBuilderConfig {
            scripting: true,
            ..TreeBuilderConfig::default()
        },
        decoder,
        batching: BatchPolicy::Bounded(4096),
        ..SessionConfig::default()
    };
    let mut session = Html5ParseSession::new(config);
    // Parse errors never stop a parse; an engine failure ends it early, and the
    // encoding in use at that point is still the parser's answer.
    let run = |session: &mut Html5ParseSession| -> Result<(), crate::session::SessionError> {
        session.push_bytes(bytes)?;
        let mut status = session.finish()?;
        loop {
            // The patches are not needed, only the decoder's final state.
            drop(session.take_batches());
            match status {
                PumpStatus::Suspended(_) => status = session.pump()?,
                PumpStatus::NeedInput | PumpStatus::Finished => return Ok(()),
            }
        }
    };
    let _ = run(&mut session);
    let decoder = session.decoder();
    let encoding = decoder.encoding().unwrap_or(initial.encoding);
    let confidence = decoder.confidence().unwrap_or(initial.confidence);
    let source = if session.restarts() > 0 || (encoding != initial.encoding) {
        EncodingSource::ParserMeta
    } else {
        decoder.sniffed().map_or(initial.source, |s| s.source)
    };
    Sniffed {
        encoding,
        confidence,
        source,
        ..decoder.sniffed().unwrap_or(initial)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decoder::Confidence;
    use encoding_rs::{EUC_JP, ISO_8859_2, SHIFT_JIS, UTF_16LE, WINDOWS_1252};

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
}

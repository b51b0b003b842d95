//! The streaming byte decoder the parser reads from, with the restart window that
//! "change the encoding" (§13.2.3.4) needs.

use encoding_rs::{CoderResult, Decoder, Encoding};

use super::autodetect::{self, Autodetect};
use super::{
    Confidence, DEFAULT_RESTART_WINDOW_LIMIT, DecoderError, EncodingSource, PRESCAN_LEN, Sniffed,
    adjust_declared_encoding, bom_undecided, is_utf16, sniff_with_limit,
};

/// Settings of a [`ByteStreamDecoder`].
#[derive(Clone, Copy, Debug)]
pub struct DecoderConfig {
    /// The transport layer's encoding (e.g. from HTTP `Content-Type`), already
    /// resolved from its label (see [`resolve_label`](super::resolve_label)). When
    /// set, only a BOM overrides it and the confidence is certain from the start.
    pub transport: Option<&'static Encoding>,
    /// The pre-scan's end condition: the decoder waits for this many bytes (or the
    /// end of the stream) before it sniffs. Default [`PRESCAN_LEN`] (1024).
    pub prescan_len: usize,
    /// The restart window: how many leading raw bytes of the document can still
    /// be re-decoded after "change the encoding". Default
    /// [`DEFAULT_RESTART_WINDOW_LIMIT`] (1 MiB).
    ///
    /// A `<meta>` that starts in the text decoded from the first
    /// `restart_window_limit` bytes can change the encoding; one that starts
    /// later cannot (the spec's fallback for a user agent that can no longer
    /// re-read the input: the confidence becomes certain and the new encoding is
    /// ignored). Pass the `<meta>`'s text offset to
    /// [`change_encoding_at`](ByteStreamDecoder::change_encoding_at) to apply this
    /// rule exactly, independent of how the input was chunked. Memory: the decoder
    /// keeps at most this many bytes plus the chunk that crossed the limit; it
    /// [locks](ByteStreamDecoder::lock) and frees them at the next
    /// [`push`](ByteStreamDecoder::push) after the limit was crossed (so the
    /// caller must hand the text of each push to the tree builder before pushing
    /// again, as a streaming parser does anyway).
    pub restart_window_limit: usize,
    /// Whether to guess the encoding of a document that declares none (no BOM, no
    /// transport encoding, no `<meta>` in the pre-scan). Default
    /// [`Autodetect::Off`]. With [`Autodetect::Statistical`] such a document's
    /// first bytes are held back until the restart window
    /// ([`restart_window_limit`](Self::restart_window_limit), at least
    /// [`prescan_len`](Self::prescan_len)) is full or the stream ends, and the
    /// guess is made over exactly that prefix: the same whatever the chunking.
    pub autodetect: Autodetect,
}

impl Default for DecoderConfig {
    fn default() -> Self {
        DecoderConfig {
            transport: None,
            prescan_len: PRESCAN_LEN,
            restart_window_limit: DEFAULT_RESTART_WINDOW_LIMIT,
            autodetect: Autodetect::Off,
        }
    }
}

impl DecoderConfig {
    /// The default settings with a transport-layer encoding.
    pub fn with_transport(transport: &'static Encoding) -> Self {
        DecoderConfig {
            transport: Some(transport),
            ..DecoderConfig::default()
        }
    }
}

/// What [`ByteStreamDecoder::change_encoding`] did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ChangeOutcome {
    /// The confidence was already certain (or the restart window had been dropped,
    /// which makes it certain): the request is ignored.
    AlreadyCertain,
    /// The `<meta>` starts after the restart window
    /// ([`DecoderConfig::restart_window_limit`]): the confidence is now certain
    /// and the new encoding is ignored (the spec's fallback when the input cannot
    /// be re-read).
    BeyondRestartWindow,
    /// The current encoding is UTF-16BE/LE: the confidence is now certain and the
    /// new encoding is ignored (step 1).
    KeptUtf16,
    /// The (adjusted) new encoding is the current one: the confidence is now
    /// certain (step 4).
    Confirmed,
    /// Everything decoded so far was ASCII and reads the same in both encodings, so
    /// the decoder switched to the new encoding on the fly; the text already
    /// handed out stays valid and the confidence is now certain (step 5).
    SwitchedInPlace,
    /// The text handed out so far is wrong: the caller must discard it together
    /// with everything parsed from it, then read the document again from the start
    /// with [`ByteStreamDecoder::replay`] (or the next `push`/`finish`, which replay
    /// first). The decoder now uses the new encoding with confidence certain
    /// (step 6, re-parsing from memory).
    Restart,
}

/// Decodes a byte stream pushed in chunks of any size into UTF-8 text, sniffing
/// the encoding first (§13.2.3.2) and supporting "change the encoding" (§13.2.3.4).
///
/// Text is appended to a `String` the caller passes in; the decoder keeps no copy
/// of it. The first [`DecoderConfig::prescan_len`] bytes are held back until they
/// have all arrived (or [`finish`](Self::finish) is called) unless a transport
/// encoding makes the pre-scan unnecessary, in which case only a possible BOM is
/// waited for. While the confidence is tentative the raw bytes are kept (the
/// restart window, bounded by [`DecoderConfig::restart_window_limit`]).
pub struct ByteStreamDecoder {
    config: DecoderConfig,
    /// Bytes held back before sniffing.
    pending: Vec<u8>,
    /// The sniffing algorithm's answer without autodetection, once the pre-scan's
    /// bytes are all in (it cannot change after that), while autodetection waits
    /// for more.
    presniffed: Option<Sniffed>,
    /// The sniffing result as changed since; `None` before sniffing.
    state: Option<Sniffed>,
    decoder: Option<Decoder>,
    /// Every raw byte so far, kept while the confidence is tentative.
    window: Vec<u8>,
    /// Bytes to decode again after a restart, before anything new.
    replay: Option<Vec<u8>>,
    /// `lock` was called before sniffing.
    lock_requested: bool,
    /// The restart window limit was crossed: lock at the next push.
    lock_pending: bool,
    /// Length of the text handed out since the start (or the restart).
    text_len: usize,
    /// Text offset at which the bytes of the restart window end, once known.
    window_text_end: Option<usize>,
    finished: bool,
    malformed: bool,
}

impl std::fmt::Debug for ByteStreamDecoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ByteStreamDecoder")
            .field("config", &self.config)
            .field("pending", &self.pending.len())
            .field("state", &self.state)
            .field("window", &self.window.len())
            .field("replay", &self.replay.as_ref().map(Vec::len))
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}

impl ByteStreamDecoder {
    /// A decoder that has seen no bytes yet.
    pub fn new(config: DecoderConfig) -> Self {
        ByteStreamDecoder {
            config,
            pending: Vec::new(),
            presniffed: None,
            state: None,
            decoder: None,
            window: Vec::new(),
            replay: None,
            lock_requested: false,
            lock_pending: false,
            text_len: 0,
            window_text_end: None,
            finished: false,
            malformed: false,
        }
    }

    /// The encoding in use; `None` until enough bytes have arrived to sniff.
    pub fn encoding(&self) -> Option<&'static Encoding> {
        self.state.map(|s| s.encoding)
    }

    /// The confidence in [`encoding`](Self::encoding); `None` until sniffed.
    pub fn confidence(&self) -> Option<Confidence> {
        self.state.map(|s| s.confidence)
    }

    /// The full sniffing state (encoding, confidence, BOM length, source).
    pub fn sniffed(&self) -> Option<Sniffed> {
        self.state
    }

    /// Whether a malformed byte sequence was replaced with U+FFFD so far (since the
    /// last restart).
    pub fn had_malformed_input(&self) -> bool {
        self.malformed
    }

    /// How many raw bytes the restart window holds now.
    pub fn restart_window_len(&self) -> usize {
        self.window.len()
    }

    /// Whether [`finish`](Self::finish) has been called.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Feeds the next chunk of the stream, appending whatever text can be decoded
    /// to `out`. A pending [replay](Self::replay) is appended first.
    pub fn push(&mut self, bytes: &[u8], out: &mut String) -> Result<(), DecoderError> {
        if self.finished {
            return Err(DecoderError::PushAfterFinish);
        }
        if self.lock_pending {
            self.lock();
        }
        self.replay(out);
        if self.decoder.is_none() {
            self.pending.extend_from_slice(bytes);
            if self.ready_to_sniff() {
                self.start(out);
            }
            return Ok(());
        }
        self.decode_and_keep(bytes, out, false);
        Ok(())
    }

    /// Ends the stream: sniffs if that has not happened yet and flushes the
    /// decoder (an incomplete trailing sequence becomes U+FFFD). Calling it again
    /// does nothing.
    pub fn finish(&mut self, out: &mut String) -> Result<(), DecoderError> {
        if self.finished {
            return Ok(());
        }
        self.finished = true;
        if self.replay.is_some() {
            self.replay(out);
            return Ok(());
        }
        if self.decoder.is_none() {
            self.start(out);
        } else {
            self.decode(&[], out, true);
        }
        Ok(())
    }

    /// After [`ChangeOutcome::Restart`]: appends the text of everything received so
    /// far, decoded with the new encoding, to `out` (which should normally be
    /// empty: the old text is void). Returns `false` if there was nothing to
    /// replay. `push` and `finish` call this first, so calling it is only needed
    /// to get the text back before more bytes arrive or after the end.
    pub fn replay(&mut self, out: &mut String) -> bool {
        let Some(bytes) = self.replay.take() else {
            return false;
        };
        let last = self.finished;
        self.decode(&bytes, out, last);
        true
    }

    /// The text offset (in the text handed out since the start or the last
    /// restart) where the text decoded from the restart window ends, once the
    /// stream has grown past [`DecoderConfig::restart_window_limit`].
    pub fn restart_window_text_end(&self) -> Option<usize> {
        self.window_text_end
    }

    /// [`change_encoding`](Self::change_encoding) for a `<meta>` whose `<` is at
    /// `text_offset` in the text handed out since the start (or the last restart).
    /// A `<meta>` at or after [`restart_window_text_end`](Self::restart_window_text_end)
    /// gives [`ChangeOutcome::BeyondRestartWindow`]; the outcome therefore depends
    /// only on the document, not on how it was chunked.
    pub fn change_encoding_at(
        &mut self,
        new: &'static Encoding,
        text_offset: usize,
    ) -> Result<ChangeOutcome, DecoderError> {
        let tentative = self.confidence() == Some(Confidence::Tentative);
        if tentative && self.window_text_end.is_some_and(|end| text_offset >= end) {
            self.lock();
            return Ok(ChangeOutcome::BeyondRestartWindow);
        }
        self.change_encoding(new)
    }

    /// "Change the encoding" (§13.2.3.4), called by the tree builder when a
    /// `<meta>` declares `new` while the confidence is tentative.
    ///
    /// UTF-16BE/LE in `new` means UTF-8 and x-user-defined means windows-1252. See
    /// [`ChangeOutcome`] for what the caller must do next. Fails with
    /// [`DecoderError::NotStarted`] if called before decoding has started. Prefer
    /// [`change_encoding_at`](Self::change_encoding_at) when the `<meta>`'s
    /// position is known.
    pub fn change_encoding(
        &mut self,
        new: &'static Encoding,
    ) -> Result<ChangeOutcome, DecoderError> {
        let Some(state) = self.state.as_mut() else {
            return Err(DecoderError::NotStarted);
        };
        if state.confidence != Confidence::Tentative {
            return Ok(ChangeOutcome::AlreadyCertain);
        }
        state.confidence = Confidence::Certain;
        self.lock_pending = false;
        let window = std::mem::take(&mut self.window);
        if is_utf16(state.encoding) {
            return Ok(ChangeOutcome::KeptUtf16);
        }
        let new = adjust_declared_encoding(new);
        if new == state.encoding {
            if matches!(
                state.source,
                EncodingSource::Default | EncodingSource::Autodetected
            ) {
                // A declaration now says what was only a default or a guess.
                state.source = EncodingSource::ParserMeta;
            }
            return Ok(ChangeOutcome::Confirmed);
        }
        let old = state.encoding;
        state.encoding = new;
        state.source = EncodingSource::ParserMeta;
        self.decoder = Some(new.new_decoder_without_bom_handling());
        // Step 5: ASCII bytes mean the same in any two ASCII-compatible encodings,
        // and leave no partial sequence in the old decoder.
        let in_place = old.is_ascii_compatible()
            && new.is_ascii_compatible()
            && Encoding::ascii_valid_up_to(&window) == window.len();
        if in_place {
            return Ok(ChangeOutcome::SwitchedInPlace);
        }
        self.malformed = false;
        self.text_len = 0;
        self.window_text_end = None;
        // The tentative encoding was never BOM-derived, so there is nothing to skip.
        self.replay = Some(window);
        Ok(ChangeOutcome::Restart)
    }

    /// Makes the confidence certain and drops the restart window: no restart can
    /// happen after this. Before sniffing, the sniffed encoding will be certain.
    pub fn lock(&mut self) {
        match self.state.as_mut() {
            Some(state) => {
                if state.confidence == Confidence::Tentative {
                    state.confidence = Confidence::Certain;
                }
                self.window = Vec::new();
                self.lock_pending = false;
            }
            None => self.lock_requested = true,
        }
    }

    fn ready_to_sniff(&mut self) -> bool {
        if self.config.transport.is_some() {
            return !bom_undecided(&self.pending);
        }
        if self.pending.len() < self.config.prescan_len.max(3) {
            return false;
        }
        if self.config.autodetect == Autodetect::Off {
            return true;
        }
        let sniffed = *self
            .presniffed
            .get_or_insert_with(|| sniff_with_limit(&self.pending, None, self.config.prescan_len));
        sniffed.source != EncodingSource::Default || self.pending.len() >= self.autodetect_len()
    }

    /// How many leading bytes autodetection looks at: the restart window, so the
    /// guess sees what a late `<meta>` could still overrule.
    fn autodetect_len(&self) -> usize {
        self.config
            .restart_window_limit
            .max(self.config.prescan_len)
    }

    /// Sniffs the held-back bytes and decodes them.
    fn start(&mut self, out: &mut String) {
        let pending = std::mem::take(&mut self.pending);
        let mut sniffed = match self.presniffed.take() {
            Some(sniffed) => sniffed,
            None => sniff_with_limit(&pending, self.config.transport, self.config.prescan_len),
        };
        if sniffed.source == EncodingSource::Default && self.config.autodetect != Autodetect::Off {
            let len = self.autodetect_len();
            let complete = self.finished && pending.len() <= len;
            let prefix = pending.get(..len).unwrap_or(&pending);
            if let Some(guess) = autodetect::guess(prefix, complete) {
                sniffed.encoding = guess;
                sniffed.source = EncodingSource::Autodetected;
            }
        }
        self.decoder = Some(sniffed.encoding.new_decoder_without_bom_handling());
        if self.lock_requested {
            sniffed.confidence = Confidence::Certain;
        }
        self.state = Some(sniffed);
        let body = pending.get(sniffed.bom_len..).unwrap_or_default();
        self.decode_and_keep(body, out, self.finished);
    }

    /// Decodes `bytes` and, while the confidence is tentative, keeps them in the
    /// restart window; notes where the window's text ends when `bytes` cross the
    /// limit (and schedules the lock for the next push).
    fn decode_and_keep(&mut self, bytes: &[u8], out: &mut String, last: bool) {
        if self.confidence() != Some(Confidence::Tentative) {
            self.decode(bytes, out, last);
            return;
        }
        let room = self
            .config
            .restart_window_limit
            .saturating_sub(self.window.len());
        self.window.extend_from_slice(bytes);
        match (bytes.get(..room), bytes.get(room..)) {
            (Some(inside), Some(beyond)) if !beyond.is_empty() && !self.lock_pending => {
                self.decode(inside, out, false);
                self.window_text_end = Some(self.text_len);
                self.lock_pending = true;
                self.decode(beyond, out, last);
            }
            _ => self.decode(bytes, out, last),
        }
    }

    /// Decodes `src` onto `out`, growing `out` as needed.
    fn decode(&mut self, src: &[u8], out: &mut String, last: bool) {
        let Some(decoder) = self.decoder.as_mut() else {
            return;
        };
        if src.is_empty() && !last {
            // Nothing to do, and encoding_rs 0.8.35's Shift_JIS decoder drops a
            // pending lead byte on an empty non-final call.
            return;
        }
        let before = out.len();
        let mut src = src;
        loop {
            let needed = decoder
                .max_utf8_buffer_length(src.len())
                .unwrap_or(src.len().saturating_mul(3))
                .max(4);
            out.reserve(needed);
            let (result, read, replaced) = decoder.decode_to_string(src, out, last);
            self.malformed |= replaced;
            src = src.get(read..).unwrap_or_default();
            match result {
                CoderResult::InputEmpty => break,
                CoderResult::OutputFull => continue,
            }
        }
        self.text_len += out.len().saturating_sub(before);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{DEFAULT_ENCODING, sniff};
    use super::*;
    use encoding_rs::{EUC_JP, ISO_8859_2, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};

    /// Decodes `bytes` pushed in chunks of `chunk` bytes.
    fn decode_chunked(config: DecoderConfig, bytes: &[u8], chunk: usize) -> (String, Sniffed) {
        let mut dec = ByteStreamDecoder::new(config);
        let mut out = String::new();
        for piece in bytes.chunks(chunk.max(1)) {
            dec.push(piece, &mut out).expect("push");
        }
        dec.finish(&mut out).expect("finish");
        (out, dec.sniffed().expect("sniffed"))
    }

    fn sample_documents() -> Vec<(DecoderConfig, Vec<u8>)> {
        let mut long = b"<!DOCTYPE html><meta charset=euc-jp><p>".to_vec();
        long.extend_from_slice("日本語のテキスト".repeat(80).as_bytes());
        let euc = EUC_JP
            .encode(&String::from_utf8_lossy(&long))
            .0
            .into_owned();
        vec![
            (
                DecoderConfig::default(),
                b"\xEF\xBB\xBFcaf\xC3\xA9 \xF0\x9F\x98\x80!".to_vec(),
            ),
            (
                DecoderConfig::default(),
                b"\xFF\xFEa\x00\x3D\xD8\x00\xDE".to_vec(),
            ),
            (
                DecoderConfig::default(),
                b"\xFE\xFF\x00a\xD8\x3D\xDE\x00\xD8".to_vec(),
            ),
            (DecoderConfig::default(), b"caf\xE9 \x80 \x81".to_vec()),
            (DecoderConfig::default(), euc),
            (
                DecoderConfig::with_transport(UTF_8),
                b"ok \xC3\xA9 bad \xC3 \xE2\x82 end \xF0".to_vec(),
            ),
            (
                DecoderConfig::with_transport(SHIFT_JIS),
                b"\x82\xA0\x82\xA2 \x82".to_vec(),
            ),
            (
                DecoderConfig::with_transport(UTF_16BE),
                b"\x00h\x00i\x00".to_vec(),
            ),
        ]
    }

    #[test]
    fn every_chunk_size_gives_the_same_text() {
        for (config, bytes) in sample_documents() {
            let (whole, sniffed) = decode_chunked(config, &bytes, bytes.len());
            let expected_sniff = sniff(&bytes, config.transport);
            assert_eq!(sniffed.encoding, expected_sniff.encoding);
            let (reference, _) = expected_sniff
                .encoding
                .decode_without_bom_handling(bytes.get(expected_sniff.bom_len..).unwrap_or(&[]));
            assert_eq!(whole, reference);
            for chunk in 1..=bytes.len().min(40) {
                assert_eq!(
                    decode_chunked(config, &bytes, chunk).0,
                    whole,
                    "chunk {chunk}"
                );
            }
        }
    }

    #[test]
    fn split_at_every_byte_boundary() {
        for (config, bytes) in sample_documents() {
            let (whole, _) = decode_chunked(config, &bytes, bytes.len());
            for split in 0..=bytes.len() {
                let (a, b) = bytes.split_at(split);
                let mut dec = ByteStreamDecoder::new(config);
                let mut out = String::new();
                dec.push(a, &mut out).expect("push a");
                dec.push(b, &mut out).expect("push b");
                dec.finish(&mut out).expect("finish");
                assert_eq!(out, whole, "split at {split}");
            }
        }
    }

    #[test]
    fn bom_is_removed_and_certain() {
        let (text, s) = decode_chunked(DecoderConfig::default(), b"\xEF\xBB\xBFhi", 1);
        assert_eq!(text, "hi");
        assert_eq!(
            (s.encoding, s.confidence, s.bom_len),
            (UTF_8, Confidence::Certain, 3)
        );
        let (text, s) = decode_chunked(DecoderConfig::with_transport(SHIFT_JIS), b"\xFF\xFEh\0", 1);
        assert_eq!((text.as_str(), s.encoding), ("h", UTF_16LE));
    }

    #[test]
    fn waits_for_the_prescan_window() {
        let mut dec = ByteStreamDecoder::new(DecoderConfig::default());
        let mut out = String::new();
        dec.push(b"<meta charset=iso-8859-2>\xB1", &mut out)
            .expect("push");
        assert_eq!(out, "");
        assert_eq!(dec.encoding(), None);
        dec.finish(&mut out).expect("finish");
        assert_eq!(out, "<meta charset=iso-8859-2>ą");
        assert_eq!(dec.encoding(), Some(ISO_8859_2));
        assert_eq!(dec.confidence(), Some(Confidence::Tentative));
        assert_eq!(dec.push(b"x", &mut out), Err(DecoderError::PushAfterFinish));
        assert_eq!(dec.finish(&mut out), Ok(()));
    }

    #[test]
    fn transport_starts_without_waiting() {
        let mut dec = ByteStreamDecoder::new(DecoderConfig::with_transport(WINDOWS_1252));
        let mut out = String::new();
        dec.push(b"\xEF", &mut out).expect("push");
        assert_eq!(out, "");
        dec.push(b"x", &mut out).expect("push");
        assert_eq!(out, "ïx");
        assert_eq!(dec.confidence(), Some(Confidence::Certain));
        assert_eq!(dec.restart_window_len(), 0);
    }

    #[test]
    fn malformed_input_is_replaced() {
        let (text, _) = decode_chunked(DecoderConfig::with_transport(UTF_8), b"a\xFFb\xE2\x82", 1);
        assert_eq!(text, "a\u{FFFD}b\u{FFFD}");
    }

    fn tentative_decoder(bytes: &[u8]) -> (ByteStreamDecoder, String) {
        let mut dec = ByteStreamDecoder::new(DecoderConfig::default());
        let mut out = String::new();
        dec.push(bytes, &mut out).expect("push");
        dec.finish(&mut out).expect("finish");
        (dec, out)
    }

    #[test]
    fn restart_redecodes_everything() {
        let (mut dec, text) = tentative_decoder(b"<p>\xB1\xB1</p>");
        assert_eq!(text, "<p>±±</p>");
        assert_eq!(
            dec.sniffed().map(|s| s.source),
            Some(EncodingSource::Default)
        );
        assert_eq!(dec.change_encoding(ISO_8859_2), Ok(ChangeOutcome::Restart));
        assert_eq!(dec.confidence(), Some(Confidence::Certain));
        let mut again = String::new();
        assert!(dec.replay(&mut again));
        assert!(!dec.replay(&mut again));
        assert_eq!(again, "<p>ąą</p>");
        assert_eq!(
            dec.change_encoding(EUC_JP),
            Ok(ChangeOutcome::AlreadyCertain)
        );
        assert_eq!(dec.restart_window_len(), 0);
    }

    #[test]
    fn restart_mid_stream_then_continue() {
        let mut dec = ByteStreamDecoder::new(DecoderConfig {
            prescan_len: 4,
            ..DecoderConfig::default()
        });
        let mut out = String::new();
        dec.push(b"ab\xA4", &mut out).expect("push");
        dec.push(b"\xA2cd\xA4", &mut out).expect("push");
        assert_eq!(dec.encoding(), Some(DEFAULT_ENCODING));
        assert_eq!(dec.change_encoding(EUC_JP), Ok(ChangeOutcome::Restart));
        out.clear();
        // The replay comes first; the trailing lead byte waits for its pair.
        dec.push(b"\xA2", &mut out).expect("push");
        dec.finish(&mut out).expect("finish");
        assert_eq!(out, "abあcdあ");
    }

    #[test]
    fn change_to_same_or_adjusted_encoding_confirms() {
        let (mut dec, _) = tentative_decoder(b"<meta charset=utf-8>\xC3\xA9");
        assert_eq!(dec.change_encoding(UTF_16BE), Ok(ChangeOutcome::Confirmed));
        assert_eq!(dec.encoding(), Some(UTF_8));
        let (mut dec, _) = tentative_decoder(b"plain");
        assert_eq!(
            dec.change_encoding(encoding_rs::X_USER_DEFINED),
            Ok(ChangeOutcome::Confirmed)
        );
        assert_eq!(dec.encoding(), Some(WINDOWS_1252));
    }

    #[test]
    fn ascii_only_so_far_switches_in_place() {
        let mut dec = ByteStreamDecoder::new(DecoderConfig::default());
        let mut out = String::new();
        dec.push(b"<head><meta charset=euc-jp>", &mut out)
            .expect("push");
        dec.finish(&mut out).expect("finish");
        // Pre-scan found euc-jp; pretend the tree builder sees shift_jis instead.
        assert_eq!(
            dec.change_encoding(SHIFT_JIS),
            Ok(ChangeOutcome::SwitchedInPlace)
        );
        assert_eq!(dec.encoding(), Some(SHIFT_JIS));
        assert!(!dec.replay(&mut out));
    }

    #[test]
    fn utf16_tentative_is_kept() {
        let (mut dec, _) = tentative_decoder(b"<\0?\0x\0m\0l\0");
        assert_eq!(dec.encoding(), Some(UTF_16LE));
        assert_eq!(dec.change_encoding(EUC_JP), Ok(ChangeOutcome::KeptUtf16));
        assert_eq!(dec.confidence(), Some(Confidence::Certain));
    }

    #[test]
    fn certain_encodings_do_not_change() {
        let mut dec = ByteStreamDecoder::new(DecoderConfig::with_transport(UTF_8));
        let mut out = String::new();
        assert_eq!(dec.change_encoding(EUC_JP), Err(DecoderError::NotStarted));
        dec.push(b"abc", &mut out).expect("push");
        assert_eq!(
            dec.change_encoding(EUC_JP),
            Ok(ChangeOutcome::AlreadyCertain)
        );
    }

    #[test]
    fn lock_and_window_limit() {
        let (mut dec, _) = tentative_decoder(b"abc");
        assert_eq!(dec.restart_window_len(), 3);
        dec.lock();
        assert_eq!(dec.confidence(), Some(Confidence::Certain));
        assert_eq!(dec.restart_window_len(), 0);

        let mut dec = ByteStreamDecoder::new(DecoderConfig {
            prescan_len: 4,
            restart_window_limit: 10,
            ..DecoderConfig::default()
        });
        let mut out = String::new();
        dec.push(b"0123456", &mut out).expect("push");
        assert_eq!(dec.confidence(), Some(Confidence::Tentative));
        dec.push(b"789", &mut out).expect("push");
        assert_eq!(dec.restart_window_len(), 10);
        assert_eq!(dec.restart_window_text_end(), None);
        dec.push(b"ab", &mut out).expect("push");
        // Crossing the limit: the window's text ends at offset 10; the lock waits
        // for the next push so the text of this one can still be parsed.
        assert_eq!(dec.restart_window_text_end(), Some(10));
        assert_eq!(dec.confidence(), Some(Confidence::Tentative));
        let mut probe = ByteStreamDecoder::new(dec.config);
        let mut probe_out = String::new();
        probe.push(b"0123456789ab", &mut probe_out).expect("push");
        assert_eq!(probe.restart_window_text_end(), Some(10));
        assert_eq!(
            probe.change_encoding_at(EUC_JP, 10),
            Ok(ChangeOutcome::BeyondRestartWindow)
        );
        assert_eq!(probe.confidence(), Some(Confidence::Certain));
        dec.push(b"c", &mut out).expect("push");
        assert_eq!(dec.confidence(), Some(Confidence::Certain));
        assert_eq!(dec.restart_window_len(), 0);
        assert_eq!(
            dec.change_encoding(EUC_JP),
            Ok(ChangeOutcome::AlreadyCertain)
        );
        assert_eq!(out, "0123456789abc");

        // A <meta> inside the window still restarts, however the bytes came.
        for chunk in [1, 3, 12] {
            let mut dec = ByteStreamDecoder::new(DecoderConfig {
                prescan_len: 4,
                restart_window_limit: 10,
                ..DecoderConfig::default()
            });
            let mut out = String::new();
            for piece in b"0123\xA4\xA26789ab".chunks(chunk) {
                dec.push(piece, &mut out).expect("push");
                if out.len() > 5 && dec.confidence() == Some(Confidence::Tentative) {
                    assert_eq!(
                        dec.change_encoding_at(EUC_JP, 5),
                        Ok(ChangeOutcome::Restart)
                    );
                }
            }
            assert_eq!(dec.encoding(), Some(EUC_JP), "chunk {chunk}");
        }

        let mut dec = ByteStreamDecoder::new(DecoderConfig::default());
        dec.lock();
        let mut out = String::new();
        dec.push(b"x", &mut out).expect("push");
        dec.finish(&mut out).expect("finish");
        assert_eq!(dec.confidence(), Some(Confidence::Certain));
    }

    fn guessing(restart_window_limit: usize) -> DecoderConfig {
        DecoderConfig {
            autodetect: Autodetect::Statistical,
            restart_window_limit,
            ..DecoderConfig::default()
        }
    }

    #[test]
    fn autodetection_guesses_over_a_fixed_prefix_whatever_the_chunking() {
        let page = "<!DOCTYPE html><p>Жили-были дед да баба, и была у них курочка Ряба.</p>";
        let bytes = encoding_rs::WINDOWS_1251.encode(page).0.into_owned();
        for chunk in [1, 7, 100, bytes.len()] {
            let (text, sniffed) = decode_chunked(guessing(1 << 20), &bytes, chunk);
            assert_eq!(text, page, "chunk {chunk}");
            assert_eq!(
                (sniffed.encoding, sniffed.confidence, sniffed.source),
                (
                    encoding_rs::WINDOWS_1251,
                    Confidence::Tentative,
                    EncodingSource::Autodetected
                ),
                "chunk {chunk}"
            );
        }
        // Off (the default): windows-1252, as html5lib-tests expect.
        let (_, sniffed) = decode_chunked(DecoderConfig::default(), &bytes, 7);
        assert_eq!(sniffed.source, EncodingSource::Default);
        // All ASCII: no evidence, the default stands.
        let (_, sniffed) = decode_chunked(guessing(1 << 20), b"<p>plain", 3);
        assert_eq!(
            (sniffed.encoding, sniffed.source),
            (WINDOWS_1252, EncodingSource::Default)
        );
        // The guess sees the restart window only (at least the pre-scan's bytes):
        // non-ASCII after it is no evidence.
        let mut late = vec![b' '; 2048];
        late.extend_from_slice(&bytes);
        let (_, sniffed) = decode_chunked(guessing(1500), &late, 64);
        assert_eq!(sniffed.source, EncodingSource::Default);
        let (_, sniffed) = decode_chunked(guessing(4096), &late, 64);
        assert_eq!(sniffed.source, EncodingSource::Autodetected);
    }

    #[test]
    fn declarations_beat_the_guess() {
        let text = "<p>日本語のテキストです。吾輩は猫である。</p>";
        let sjis = SHIFT_JIS.encode(text).0.into_owned();
        // A pre-scanned <meta> or a transport encoding: no guess is made.
        let mut declared = b"<meta charset=euc-jp>".to_vec();
        declared.extend_from_slice(&sjis);
        let (_, sniffed) = decode_chunked(guessing(1 << 20), &declared, 5);
        assert_eq!(
            (sniffed.encoding, sniffed.source),
            (EUC_JP, EncodingSource::Prescan)
        );
        let config = DecoderConfig {
            transport: Some(UTF_8),
            ..guessing(1 << 20)
        };
        let (_, sniffed) = decode_chunked(config, &sjis, 5);
        assert_eq!(sniffed.source, EncodingSource::Transport);
        // A guess is tentative: a <meta> the tree builder meets changes it, and one
        // that names the guessed encoding makes it a declaration.
        let mut dec = ByteStreamDecoder::new(guessing(1 << 20));
        let mut out = String::new();
        dec.push(&sjis, &mut out).expect("push");
        dec.finish(&mut out).expect("finish");
        assert_eq!(dec.encoding(), Some(SHIFT_JIS));
        assert_eq!(dec.change_encoding(SHIFT_JIS), Ok(ChangeOutcome::Confirmed));
        assert_eq!(
            dec.sniffed().map(|s| s.source),
            Some(EncodingSource::ParserMeta)
        );
        let mut dec = ByteStreamDecoder::new(guessing(1 << 20));
        dec.push(&sjis, &mut out).expect("push");
        dec.finish(&mut out).expect("finish");
        assert_eq!(dec.change_encoding(EUC_JP), Ok(ChangeOutcome::Restart));
        assert_eq!(dec.encoding(), Some(EUC_JP));
    }

    mod properties {
        use super::super::super::prescan;
        use super::*;
        use proptest::prelude::*;

        fn interesting_bytes() -> impl Strategy<Value = Vec<u8>> {
            let pieces = prop::sample::select(vec![
                &b"<meta charset=euc-jp>"[..],
                b"<meta http-equiv=content-type content='charset=shift_jis'>",
                b"<!--",
                b"-->",
                b"<script>",
                b"</script>",
                b"<title>",
                b"\xEF\xBB\xBF",
                b"\xFF\xFE",
                b"\xA4\xA2",
                b"\xC3\xA9",
                b"\x82",
                b"\"",
                b"'",
                b"=",
                b" ",
                b">",
                b"<",
                b"abc",
            ]);
            prop::collection::vec(pieces, 0..60).prop_map(|v| v.concat())
        }

        proptest! {
            #[test]
            fn chunking_never_changes_the_text(
                bytes in interesting_bytes(),
                chunk in 1usize..50,
                prescan_len in 1usize..64,
                guess in any::<bool>(),
            ) {
                let autodetect = if guess { Autodetect::Statistical } else { Autodetect::Off };
                let config = DecoderConfig {
                    prescan_len,
                    autodetect,
                    ..DecoderConfig::default()
                };
                let (whole, s1) = decode_chunked(config, &bytes, bytes.len().max(1));
                let (chunked, s2) = decode_chunked(config, &bytes, chunk);
                prop_assert_eq!(whole, chunked);
                prop_assert_eq!(s1, s2);
            }

            #[test]
            fn scanners_accept_any_input(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
                let _ = prescan(&bytes);
                let _ = crate::sniff::sniff_encoding(&bytes, None);
            }

            #[test]
            fn restart_equals_decoding_with_the_new_encoding(bytes in interesting_bytes()) {
                let (mut dec, _) = tentative_decoder(&bytes);
                let mut again = String::new();
                if dec.change_encoding(EUC_JP) == Ok(ChangeOutcome::Restart) {
                    dec.replay(&mut again);
                    let (expected, _) = EUC_JP.decode_without_bom_handling(&bytes);
                    prop_assert_eq!(again, expected);
                }
            }
        }
    }
}

//! Reading the source in chunks: decoding to UTF-8 for the tokenizer while keeping a
//! map from decoded offsets back to source byte offsets, so the skeleton can hold the
//! ORIGINAL bytes of any decoded range — whatever the encoding, invalid bytes included.
//!
//! ## The offset map
//!
//! The map is a list of checkpoints `(decoded offset, source offset, linear)`. Between
//! a checkpoint and the next one the text is either *linear* — valid UTF-8 copied as
//! is, or ASCII bytes of an ASCII-compatible encoding, where one source byte is one
//! decoded byte — or one *piece*: the output of the decoder for a few source bytes
//! (a windows-1252 byte `E1` → `á`, a UTF-16 code unit pair, an invalid sequence →
//! U+FFFD). Non-UTF-8 input is fed to the decoder one byte at a time to find the
//! pieces (exact, and still tens of MB/s); valid UTF-8 is one linear run per chunk.
//!
//! A decoded offset inside a piece (which tokens never produce for a whole character;
//! only the rare decoder output of two characters for one byte can split) maps to the
//! piece's end, so consecutive ranges always get consecutive, complete source ranges:
//! concatenating the source bytes of a tiling of the decoded text gives the source.
//!
//! Memory: only the window not yet consumed by the reader is kept (the chunk being
//! tokenized plus the forward-scan lookahead); [`SourceWindow::release`] drops the rest.
//!
//! The decoded text is the tokenizer's: the window pushes it there and reads it
//! back by offset, the tokenizer holding it from the window's start on
//! ([`Tokenizer::hold_from`]), so the page is not copied a second time.
//!
//! Valid UTF-8 (the common input) is its own source: while every byte read so far
//! was valid, the window keeps one copy, the text, and serves source ranges from it
//! (*mirrored*); a read's valid bytes go to the tokenizer straight from the read
//! buffer. The first invalid sequence (or a character cut where it cannot be
//! completed) copies the retained text into a separate source buffer, and from
//! there on both are kept as for any other encoding.

use std::collections::VecDeque;
use std::io::Read;

use encoding_rs::{Decoder, Encoding, UTF_8};
use tagloom_html::tokenizer::Tokenizer;

/// Bytes read from the source per call.
pub(crate) const CHUNK: usize = 64 * 1024;

#[derive(Clone, Copy, Debug)]
struct Checkpoint {
    dec: u64,
    src: u64,
    linear: bool,
}

/// The decoded text and source bytes not yet released, with the offset map.
pub(crate) struct SourceWindow<R: Read> {
    input: R,
    encoding: &'static Encoding,
    decoder: Decoder,
    utf8_pending: Vec<u8>,
    /// Source bytes fed to the byte-wise decoder without output yet.
    piece_src_start: u64,
    /// The tokenizer, which holds the decoded text from `text_base` on.
    pub(super) tok: Tokenizer,
    /// Decoded text not pushed to the tokenizer yet (pieces and runs of a read,
    /// pushed at its end).
    staging: String,
    text_base: u64,
    /// The source bytes from `src_base`; empty while `mirrored`.
    src: Vec<u8>,
    src_base: u64,
    /// The source bytes of the window are the text's own (UTF-8 input, valid so far:
    /// one linear run), so `src` is not kept; an incomplete character at the end of
    /// the last read waits in `utf8_pending`, as without mirroring.
    mirrored: bool,
    /// Next source offset to read.
    src_end: u64,
    dec_end: u64,
    map: VecDeque<Checkpoint>,
    eof: bool,
    had_invalid: bool,
    scratch: String,
    read_buf: Vec<u8>,
}

impl<R: Read> SourceWindow<R> {
    /// `prefix` holds bytes already read (for sniffing), `skip` of them (a BOM) are
    /// not decoded; decoded offset 0 is source offset `skip`. The decoded text goes
    /// to `tok`.
    pub(crate) fn new(
        input: R,
        encoding: &'static Encoding,
        prefix: Vec<u8>,
        skip: usize,
        mut tok: Tokenizer,
    ) -> Self {
        tok.hold_from(0);
        let mut window = SourceWindow {
            input,
            encoding,
            decoder: encoding.new_decoder_without_bom_handling(),
            utf8_pending: Vec::new(),
            piece_src_start: skip as u64,
            tok,
            staging: String::new(),
            text_base: 0,
            src: Vec::new(),
            src_base: skip as u64,
            mirrored: encoding == UTF_8,
            src_end: skip as u64,
            dec_end: 0,
            map: VecDeque::new(),
            eof: false,
            had_invalid: false,
            scratch: String::with_capacity(64),
            read_buf: vec![0; CHUNK],
        };
        let rest = prefix.get(skip..).unwrap_or_default().to_vec();
        window.decode_chunk(&rest, false);
        window
    }

    pub(crate) fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// Whether the input had bytes the decoder replaced with U+FFFD.
    pub(crate) fn had_invalid(&self) -> bool {
        self.had_invalid
    }

    /// Absolute decoded offset of the end of the decoded text.
    pub(crate) fn dec_end(&self) -> u64 {
        self.dec_end
    }

    /// Reads and decodes the next chunk into the tokenizer (at the end of the
    /// input, the final flush, and the tokenizer's input is finished); `false` when
    /// the input had ended already.
    pub(crate) fn fill(&mut self) -> std::io::Result<bool> {
        if self.eof {
            self.tok.finish();
            return Ok(false);
        }
        let start = self.dec_end;
        loop {
            let mut buf = std::mem::take(&mut self.read_buf);
            let n = loop {
                match self.input.read(&mut buf) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        self.read_buf = buf;
                        return Err(e);
                    }
                }
            };
            if n == 0 {
                self.eof = true;
                self.decode_chunk(&[], true);
                self.read_buf = buf;
                self.tok.finish();
                return Ok(true);
            }
            self.decode_chunk(&buf[..n], false);
            self.read_buf = buf;
            if self.dec_end > start {
                return Ok(true);
            }
        }
    }

    /// Decoded text of the absolute decoded range.
    pub(crate) fn text(&self, start: u64, end: u64) -> &str {
        let a = start.max(self.text_base) as usize;
        let b = end.max(self.text_base) as usize;
        self.tok.held_text(a, b).unwrap_or("")
    }

    /// The decoded text held, from `text_base` to `dec_end`.
    fn held(&self) -> &str {
        self.text(self.text_base, self.dec_end)
    }

    /// Absolute source offset of absolute decoded offset `dec`.
    pub(crate) fn src_offset(&self, dec: u64) -> u64 {
        // One linear run (valid UTF-8, the common case): no search.
        if self.map.len() == 1
            && let Some(cp) = self.map.front()
            && cp.linear
            && dec >= cp.dec
        {
            let end = self.src_end - self.pending_src_len();
            return (cp.src + (dec - cp.dec)).min(end);
        }
        // Binary search the last checkpoint at or before `dec`.
        let idx = self.map.partition_point(|cp| cp.dec <= dec);
        if idx == 0 {
            return self.map.front().map_or(self.src_base, |cp| cp.src);
        }
        let cp = self.map[idx - 1];
        let next = self.map.get(idx).map_or(
            Checkpoint {
                dec: self.dec_end,
                src: self.src_end - self.pending_src_len(),
                linear: true,
            },
            |c| *c,
        );
        if dec == cp.dec {
            cp.src
        } else if cp.linear {
            (cp.src + (dec - cp.dec)).min(next.src)
        } else {
            next.src
        }
    }

    fn pending_src_len(&self) -> u64 {
        if self.encoding == UTF_8 {
            self.utf8_pending.len() as u64
        } else {
            self.src_end - self.piece_src_start
        }
    }

    /// Source bytes of the absolute decoded range.
    pub(crate) fn source(&self, start: u64, end: u64) -> &[u8] {
        let a = self.src_offset(start).saturating_sub(self.src_base) as usize;
        let b = self.src_offset(end).saturating_sub(self.src_base) as usize;
        self.src_bytes().get(a..b.max(a)).unwrap_or_default()
    }

    /// Source bytes after the last decoded offset (an undecodable tail at EOF is
    /// already a U+FFFD piece, so this is empty once the input is finished).
    pub(crate) fn source_tail(&self, dec: u64) -> &[u8] {
        let a = self.src_offset(dec).saturating_sub(self.src_base) as usize;
        self.src_bytes().get(a..).unwrap_or_default()
    }

    /// The source bytes from `src_base` (up to the last decoded one when mirrored:
    /// pending bytes of a cut character are not in the text yet).
    fn src_bytes(&self) -> &[u8] {
        if self.mirrored {
            self.held().as_bytes()
        } else {
            &self.src
        }
    }

    /// Forgets everything before absolute decoded offset `dec`.
    pub(crate) fn release(&mut self, dec: u64) {
        let dec = dec.min(self.dec_end);
        let consumed_text = (dec - self.text_base) as usize;
        if consumed_text < 256 * 1024
            || consumed_text * 2 < (self.dec_end - self.text_base) as usize
        {
            return;
        }
        let src = self.src_offset(dec);
        // Keep the checkpoint that covers `dec`, rebased to start exactly there.
        let idx = self.map.partition_point(|cp| cp.dec <= dec);
        if idx > 0 {
            let cp = self.map[idx - 1];
            if cp.linear || cp.dec == dec {
                self.map.drain(..idx - 1);
                self.map[0] = Checkpoint {
                    dec,
                    src,
                    linear: cp.linear,
                };
            } else {
                // Inside a piece: the piece's bytes were attributed to what came
                // before; what follows starts at the next checkpoint.
                self.map.drain(..idx - 1);
                self.map[0] = Checkpoint {
                    dec,
                    src,
                    linear: true,
                };
            }
        }
        self.tok.hold_from(dec as usize);
        self.text_base = dec;
        let consumed_src = (src - self.src_base) as usize;
        self.src.drain(..consumed_src.min(self.src.len()));
        self.src_base = src;
    }

    fn push_checkpoint(&mut self, dec: u64, src: u64, linear: bool) {
        if linear
            && let Some(last) = self.map.back()
            && last.linear
            && last.src.wrapping_sub(last.dec) == src.wrapping_sub(dec)
        {
            return; // continues the previous linear run
        }
        self.map.push_back(Checkpoint { dec, src, linear });
    }

    fn decode_chunk(&mut self, bytes: &[u8], last: bool) {
        if self.mirrored {
            if self.decode_mirrored(bytes, last) {
                self.src_end += bytes.len() as u64;
                return;
            }
            // The source and the text part here: the source bytes retained so
            // far are the text's and the pending ones.
            self.mirrored = false;
            let mut src = std::mem::take(&mut self.src);
            src.clear();
            src.extend_from_slice(self.held().as_bytes());
            src.extend_from_slice(&self.utf8_pending);
            self.src = src;
        }
        self.src.extend_from_slice(bytes);
        if self.encoding == UTF_8 {
            self.decode_utf8(bytes, last);
        } else {
            self.decode_bytewise(bytes, last);
        }
        self.flush_staging();
        self.src_end += bytes.len() as u64;
    }

    fn decode_utf8(&mut self, bytes: &[u8], last: bool) {
        if self.utf8_pending.is_empty() {
            let at = self.src_end;
            self.decode_utf8_slice(bytes, at, last);
        } else {
            let mut joined = std::mem::take(&mut self.utf8_pending);
            let at = self.src_end - joined.len() as u64;
            joined.extend_from_slice(bytes);
            self.decode_utf8_slice(&joined, at, last);
        }
    }

    fn decode_utf8_slice(&mut self, mut input: &[u8], mut at: u64, last: bool) {
        loop {
            match std::str::from_utf8(input) {
                Ok(valid) => {
                    self.push_linear(valid, at);
                    return;
                }
                Err(e) => {
                    let good = e.valid_up_to();
                    // SAFETY-free: the prefix was validated.
                    let valid = std::str::from_utf8(&input[..good]).unwrap_or_default();
                    self.push_linear(valid, at);
                    at += good as u64;
                    match e.error_len() {
                        Some(bad) => {
                            self.push_piece("\u{FFFD}", at);
                            at += bad as u64;
                            input = &input[good + bad..];
                        }
                        None if last => {
                            self.push_piece("\u{FFFD}", at);
                            return;
                        }
                        None => {
                            self.utf8_pending = input[good..].to_vec();
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Decodes `bytes` while mirrored if the text stays the source: the pending
    /// character completed by their first bytes, the rest valid up to, unless
    /// `last`, a character cut at their end (which waits in `utf8_pending`).
    /// `false`, with nothing changed, otherwise.
    fn decode_mirrored(&mut self, bytes: &[u8], last: bool) -> bool {
        let pending = self.utf8_pending.len();
        let mut head = [0u8; 4];
        let mut width = 0;
        let mut rest = bytes;
        if let Some(&lead) = self.utf8_pending.first() {
            width = utf8_width(lead);
            let Some(more) = width.checked_sub(pending).filter(|&m| m > 0) else {
                return false;
            };
            let (Some(head), Some(tail)) = (head.get_mut(..width), bytes.get(..more)) else {
                return false;
            };
            head[..pending].copy_from_slice(&self.utf8_pending);
            head[pending..].copy_from_slice(tail);
            if std::str::from_utf8(head).is_err() {
                return false;
            }
            rest = &bytes[more..];
        }
        let cut = if last {
            rest.len()
        } else {
            rest.len() - cut_tail_len(rest)
        };
        let Ok(text) = std::str::from_utf8(&rest[..cut]) else {
            return false;
        };
        let at = self.src_end - pending as u64;
        if let Ok(first) = std::str::from_utf8(&head[..width]) {
            self.push_linear(first, at);
        }
        self.flush_staging();
        // Straight from the read: the text's only copy is the tokenizer's.
        if !text.is_empty() {
            self.push_checkpoint(self.dec_end, at + width as u64, true);
            self.tok.push_str(text);
            self.dec_end += text.len() as u64;
        }
        self.utf8_pending.clear();
        self.utf8_pending.extend_from_slice(&rest[cut..]);
        true
    }

    fn push_linear(&mut self, text: &str, src: u64) {
        if text.is_empty() {
            return;
        }
        self.push_checkpoint(self.dec_end, src, true);
        self.staging.push_str(text);
        self.dec_end += text.len() as u64;
    }

    fn push_piece(&mut self, text: &str, src: u64) {
        self.had_invalid |= text.contains('\u{FFFD}');
        self.push_checkpoint(self.dec_end, src, false);
        self.staging.push_str(text);
        self.dec_end += text.len() as u64;
    }

    /// Pushes the staged text to the tokenizer.
    fn flush_staging(&mut self) {
        if !self.staging.is_empty() {
            self.tok.push_str(&self.staging);
            self.staging.clear();
        }
    }

    fn decode_bytewise(&mut self, bytes: &[u8], last: bool) {
        let ascii_compatible =
            self.encoding.is_ascii_compatible() && self.encoding != encoding_rs::ISO_2022_JP;
        let mut i = 0;
        while i < bytes.len() {
            let src_pos = self.src_end + i as u64;
            // Fast path: a run of ASCII bytes with no piece pending.
            if ascii_compatible && self.piece_src_start == src_pos && bytes[i] < 0x80 {
                let run = bytes[i..].iter().take_while(|b| **b < 0x80).count();
                // Let the decoder see them too (keeps its state consistent).
                let chunk = &bytes[i..i + run];
                self.scratch.clear();
                self.scratch.reserve(run + 16);
                let (_r, _read, _had) =
                    self.decoder
                        .decode_to_string(chunk, &mut self.scratch, false);
                let text = std::mem::take(&mut self.scratch);
                if text.len() == run {
                    self.push_linear(&text, src_pos);
                } else {
                    self.push_piece(&text, src_pos);
                }
                self.scratch = text;
                i += run;
                self.piece_src_start = self.src_end + i as u64;
                continue;
            }
            self.scratch.clear();
            self.scratch.reserve(32);
            let (_r, _read, had) =
                self.decoder
                    .decode_to_string(&bytes[i..i + 1], &mut self.scratch, false);
            i += 1;
            if !self.scratch.is_empty() {
                let text = std::mem::take(&mut self.scratch);
                let start = self.piece_src_start;
                self.push_piece(&text, start);
                self.had_invalid |= had;
                self.scratch = text;
                self.piece_src_start = self.src_end + i as u64;
            }
        }
        if last {
            self.scratch.clear();
            self.scratch.reserve(32);
            let (_r, _read, had) = self.decoder.decode_to_string(&[], &mut self.scratch, true);
            if !self.scratch.is_empty() {
                let text = std::mem::take(&mut self.scratch);
                let start = self.piece_src_start;
                self.push_piece(&text, start);
                self.had_invalid |= had;
                self.piece_src_start = self.src_end + bytes.len() as u64;
            }
        }
    }
}

/// The length of the UTF-8 sequence `lead` starts; 0 for a byte no sequence
/// starts with.
fn utf8_width(lead: u8) -> usize {
    match lead {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 0,
    }
}

/// How many bytes at the end of `bytes` are the start of a character cut by the
/// end of the read (0 when the last character is complete or the end is not a
/// character's start: validation tells then).
fn cut_tail_len(bytes: &[u8]) -> usize {
    for back in 1..=3.min(bytes.len()) {
        let b = bytes[bytes.len() - back];
        if (0x80..0xC0).contains(&b) {
            continue;
        }
        return if utf8_width(b) > back { back } else { 0 };
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokenizer() -> Tokenizer {
        Tokenizer::new(tagloom_html::tokenizer::TokenizerConfig::default())
    }

    /// Reads the tokens of what the window pushed (the tokenizer releases
    /// nothing it has not read).
    fn tokenize<R: Read>(w: &mut SourceWindow<R>) {
        while let Ok(Some(_)) = w.tok.next_token() {}
    }

    fn window<'a>(bytes: &'a [u8], enc: &'static Encoding) -> SourceWindow<&'a [u8]> {
        let mut w = SourceWindow::new(bytes, enc, Vec::new(), 0, tokenizer());
        while w.fill().unwrap() {}
        w
    }

    fn check_tiling(w: &SourceWindow<&[u8]>, original: &[u8]) {
        let text_len = w.dec_end;
        // every char boundary split keeps the tiling
        let text = w.text(0, text_len).to_string();
        let mut out = Vec::new();
        let mut prev = 0u64;
        for (i, _) in text.char_indices().skip(1) {
            out.extend_from_slice(w.source(prev, i as u64));
            prev = i as u64;
        }
        out.extend_from_slice(w.source(prev, text_len));
        out.extend_from_slice(w.source_tail(text_len));
        assert_eq!(out, original);
    }

    #[test]
    fn utf8_with_invalid_bytes() {
        let input = b"a\xff\xc3\xa9b\xe2\x82";
        let w = window(input, UTF_8);
        assert_eq!(w.text(0, w.dec_end), "a\u{FFFD}éb\u{FFFD}");
        check_tiling(&w, input);
    }

    #[test]
    fn windows_1252_and_utf16() {
        let input = b"<p>caf\xe9 \x80</p>";
        let w = window(input, encoding_rs::WINDOWS_1252);
        assert_eq!(w.text(0, w.dec_end), "<p>café €</p>");
        check_tiling(&w, input);
        let input = b"<\x00p\x00>\x00\xe9\x00\x00\xd8\x00\xdc";
        let w = window(input, encoding_rs::UTF_16LE);
        assert_eq!(w.text(0, w.dec_end), "<p>é\u{10000}");
        check_tiling(&w, input);
        let odd = b"<\x00p";
        let w = window(odd, encoding_rs::UTF_16LE);
        check_tiling(&w, odd);
        let sjis = b"a\x82<b";
        let w = window(sjis, encoding_rs::SHIFT_JIS);
        check_tiling(&w, sjis);
    }

    /// A reader that returns at most `step` bytes per read.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// Reads `input` `step` bytes at a time, releasing as it goes; returns the text,
    /// the source rebuilt from ranges, and whether the window was still mirrored.
    fn trickle(input: &[u8], step: usize) -> (String, Vec<u8>, bool) {
        let reader = Trickle { bytes: input, step };
        let mut w = SourceWindow::new(reader, UTF_8, Vec::new(), 0, tokenizer());
        let (mut text, mut out, mut done) = (String::new(), Vec::new(), 0u64);
        while w.fill().unwrap() {
            tokenize(&mut w);
            let end = w.dec_end;
            text.push_str(w.text(done, end));
            out.extend_from_slice(w.source(done, end));
            done = end;
            w.release(done);
        }
        out.extend_from_slice(w.source_tail(done));
        (text, out, w.mirrored)
    }

    #[test]
    fn mirrored_utf8_through_cut_characters_and_invalid_bytes() {
        let mut valid = Vec::new();
        for i in 0..30_000 {
            valid.extend_from_slice(format!("<p>caf\u{e9} \u{20ac}{i} \u{10348}</p>").as_bytes());
        }
        let short = valid.len() / 300;
        let short = (0..short)
            .rev()
            .find(|&i| std::str::from_utf8(&valid[..i]).is_ok())
            .unwrap();
        for step in [1, 2, 3, 5, 7, 4096, CHUNK] {
            let input = &valid[..if step < 8 { short } else { valid.len() }];
            let (text, out, mirrored) = trickle(input, step);
            assert_eq!(text.as_bytes(), input, "step {step}");
            assert_eq!(out, input, "step {step}");
            // A read of 3 bytes or more completes any cut character; one of
            // 1 byte cannot complete a 4-byte character cut after its first.
            assert!(mirrored == (step >= 3) || step == 2, "step {step}");
        }
        // Invalid bytes after a mirrored stretch, and a character cut at the end.
        let mut input = valid.clone();
        input.extend_from_slice(b"x\xff\xc3(\xe2\x82");
        input.extend_from_slice(&valid[..5000]);
        input.extend_from_slice(b"\xf0\x90\x8d");
        for step in [3, 4096, CHUNK] {
            let (text, out, mirrored) = trickle(&input, step);
            assert_eq!(out, input, "step {step}");
            assert!(!mirrored);
            assert_eq!(text, String::from_utf8_lossy(&input), "step {step}");
        }
    }

    #[test]
    fn chunked_and_released() {
        let mut input = Vec::new();
        for i in 0..40_000 {
            input.extend_from_slice(format!("<p>caf\u{e9} {i}</p>").as_bytes());
        }
        let mut w = SourceWindow::new(&input[..], UTF_8, Vec::new(), 0, tokenizer());
        let mut out = Vec::new();
        let mut done = 0u64;
        let mut most = 0;
        while w.fill().unwrap() {
            tokenize(&mut w);
            most = most.max(w.tok.buffered_len());
            let end = w.dec_end;
            out.extend_from_slice(w.source(done, end));
            done = end;
            w.release(done);
        }
        assert_eq!(out, input);
        // The text is held once, by the tokenizer: released with the window.
        assert!(most < 400 * 1024, "{most}");
    }
}

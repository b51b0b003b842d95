//! The page reader's work on two threads: a token producer (read, decode,
//! tokenize, simulate: [`TokenStream`]'s fetch side) on one, the reader proper
//! (classification, block building, ids) on the other.
//!
//! The tokens cross in batches ([`TokBatch`]) through a bounded queue; the text
//! they refer to does not: the reader's thread reads and decodes the same input
//! again into a window that only holds the text ([`SourceWindow::replica`]).
//! Decoding is deterministic, so a token's decoded offsets are the same on both
//! sides, and decoding costs a few percent of tokenizing: cheaper than copying
//! the text into every batch and keeping a second offset map in step. The
//! spent tags go back with the emptied batches, so the producer reuses their
//! buffers (no allocation on one thread freed on the other).
//!
//! Ends: the producer sends the end-of-input token, or its error, in its last
//! batch; the reader's side dropped (it failed) makes the producer's next send
//! fail and it stops.

use std::io::Read;
use std::sync::mpsc::{Receiver, Sender, channel};

use super::tokens::{SpentTags, Tok, TokenStream};
use crate::error::{IoContext, L10nError, Result};
use crate::queue::{QueueReceiver, QueueSender, queue};

/// Tokens per batch at most.
pub(super) const TOK_BATCH: usize = 128;
/// Batches waiting at most.
const BATCHES: usize = 8;

/// Tokens in document order, with the producer's error after them (its last
/// batch); on the way back, spent tags for reuse.
#[derive(Default)]
pub(crate) struct TokBatch {
    toks: Vec<Tok>,
    error: Option<L10nError>,
    spare: SpentTags,
}

/// The reader's end.
pub(crate) struct Remote {
    batches: QueueReceiver<TokBatch>,
    back: Sender<TokBatch>,
}

/// The producer's end.
pub(crate) struct Producer {
    batches: QueueSender<TokBatch>,
    back: Receiver<TokBatch>,
    /// Tokens per batch at most ([`TOK_BATCH`]; fewer in tests).
    batch: usize,
}

/// A connected pair, `batch` tokens per batch at most.
pub(crate) fn split(batch: usize) -> (Producer, Remote) {
    let (tx, rx) = queue(BATCHES, BATCHES / 2, 2);
    let (back_tx, back_rx) = channel();
    (
        Producer {
            batches: tx,
            back: back_rx,
            batch: batch.max(1),
        },
        Remote {
            batches: rx,
            back: back_tx,
        },
    )
}

impl Remote {
    /// Queues received batches in `ts` until `need` tokens are buffered (or the
    /// end); the window reads the text through the last token received.
    pub(super) fn receive<R: Read>(
        &mut self,
        ts: &mut TokenStream<'_, R>,
        need: usize,
    ) -> Result<()> {
        while ts.buffered() < need && !ts.eof_queued() {
            let Some(mut batch) = self.batches.recv() else {
                return Err(L10nError::io(
                    "tokenizing the page",
                    std::io::Error::other("the tokenizer's thread stopped"),
                ));
            };
            let end = batch.toks.iter().map(Tok::end).max().unwrap_or(0);
            ts.extend_received(&mut batch.toks);
            while ts.window.dec_end() < end || ts.eof_queued() {
                if ts.window.at_eof() {
                    break;
                }
                let read = ts.window.fill();
                read.ctx(|| format!("reading {}", ts.path().display()))?;
            }
            ts.give_spare(&mut batch.spare);
            let error = batch.error.take();
            // A producer gone no longer wants its batches back.
            let _ = self.back.send(batch);
            if let Some(e) = error {
                if ts.buffered() < need {
                    return Err(e);
                }
                ts.deferred = Some(e);
                return Ok(());
            }
        }
        Ok(())
    }
}

impl Producer {
    /// Fetches `ts`'s tokens and sends them in batches until the end of the
    /// input, its error, or the reader's end dropped.
    pub(super) fn run<R: Read>(self, mut ts: TokenStream<'_, R>) {
        let mut spent: Vec<TokBatch> = Vec::new();
        loop {
            for mut back in self.back.try_iter() {
                ts.absorb_spare(&mut back.spare);
                spent.push(back);
            }
            let mut batch = spent.pop().unwrap_or_default();
            let fetched = ts.fetch_batch(&mut batch.toks, self.batch);
            let eof = |t: &Tok| matches!(t.kind(), tagloom_html::token::TokenKind::Eof);
            let done = batch.toks.last().is_none_or(eof);
            let end = batch.toks.iter().map(Tok::end).max().unwrap_or(0);
            if let Err(e) = fetched {
                batch.error = Some(e);
            }
            let done = done || batch.error.is_some();
            // Nothing here reads the text of tokens sent.
            ts.window.release(end);
            if self.batches.send(batch).is_err() || done {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::super::{Out, ReadOptions, ReadReport, read, read_with};
    use crate::block::Block;
    use crate::error::Result;
    use crate::rules::Rules;

    /// The blocks (debug form) and report of reading `bytes` on one thread, or
    /// with the tokens made on a second one in batches of `batch`.
    fn blocks(bytes: &[u8], rules: &Rules, batch: Option<usize>) -> Result<(Vec<String>, String)> {
        let io = |e| crate::error::L10nError::io("test file", e);
        let mut file = tempfile::NamedTempFile::new().map_err(io)?;
        file.write_all(bytes).map_err(io)?;
        let path = file.path();
        let mut got = Vec::new();
        let mut sink = |b: &Block| -> Result<()> {
            got.push(format!("{b:?}"));
            Ok(())
        };
        let options = ReadOptions::new(rules);
        let out = Some(Out::Sink(&mut sink));
        let input = std::fs::File::open(path).map_err(io)?;
        let report: ReadReport = match batch {
            None => read(input, path, &options, None, out, true)?,
            Some(n) => read_with(input, path, &options, None, out, true, Some((path, n)))?,
        };
        Ok((got, format!("{report:?}")))
    }

    fn page() -> Vec<u8> {
        let mut page = String::from("<!DOCTYPE html><html lang=en><head><title>T</title>");
        page.push_str("<script>if (a < b) { x(\"</p>\"); }</script></head><body>");
        for i in 0..300 {
            page.push_str(&format!(
                "<div id=d{i}><p title=\"Tip {i}\">Caf\u{e9} &amp; <b>bold {i}</b> text\
                 <!-- c --><li>one<li>two</div><table><tr><td>cell {i}</table>"
            ));
        }
        page.push_str("<svg><text>s</text></svg><textarea>x</textarea></body></html>");
        page.into_bytes()
    }

    fn same(bytes: &[u8], rules: &Rules) {
        let one = blocks(bytes, rules, None).ok();
        assert!(one.as_ref().is_some_and(|(b, _)| !b.is_empty()));
        for batch in [1, 2, 3, 7, 64, super::TOK_BATCH] {
            assert_eq!(blocks(bytes, rules, Some(batch)).ok(), one, "batch {batch}");
        }
    }

    #[test]
    fn the_same_blocks_at_every_batch_size() {
        same(&page(), &Rules::default());
    }

    #[test]
    fn non_utf8_and_invalid_input() {
        // windows-1252 (declared), then UTF-8 with invalid bytes cut anywhere.
        let mut latin = b"<meta charset=windows-1252><p>caf\xe9 \x80</p>".to_vec();
        latin.extend_from_slice(&page().iter().map(|&b| b & 0x7f).collect::<Vec<u8>>());
        same(&latin, &Rules::default());
        let mut bad = page();
        for at in (100..bad.len()).step_by(977) {
            if let Some(b) = bad.get_mut(at) {
                *b = 0xff;
            }
        }
        same(&bad, &Rules::default());
    }

    #[test]
    fn the_producers_error_reaches_the_reader() {
        let mut rules = Rules::default();
        rules.max_token_bytes = 64;
        // A comment too large for the tokenizer across the end of a read: the
        // blocks before it are handed on, then the read fails.
        let mut page = String::from("<meta charset=utf-8><body>");
        let mut n = 0;
        while page.len() < 3 * super::super::CHUNK - 100 {
            page.push_str(&format!("<p>Paragraph {n}.</p>\n"));
            n += 1;
        }
        page.push_str(&format!("<!--{}--><p>After.</p>", "x".repeat(200)));
        let seen = |batch: Option<usize>| {
            let mut file = tempfile::NamedTempFile::new().ok()?;
            file.write_all(page.as_bytes()).ok()?;
            let path = file.path();
            let mut texts = Vec::new();
            let mut sink = |b: &Block| -> Result<()> {
                texts.push(b.plain_text());
                Ok(())
            };
            let options = ReadOptions::new(&rules);
            let out = Some(Out::Sink(&mut sink));
            let input = std::fs::File::open(path).ok()?;
            let read = match batch {
                None => read(input, path, &options, None, out, true),
                Some(n) => read_with(input, path, &options, None, out, true, Some((path, n))),
            };
            let failed = matches!(read, Err(crate::error::L10nError::Tokenizer { .. }));
            Some((failed, texts))
        };
        let one = seen(None);
        assert!(
            one.as_ref()
                .is_some_and(|(failed, texts)| *failed && texts.len() > 1000)
        );
        for batch in [1, 5, super::TOK_BATCH] {
            assert_eq!(seen(Some(batch)), one, "batch {batch}");
        }
    }

    #[test]
    fn a_failed_reader_stops_the_producer() {
        let rules = Rules::default();
        let mut file = tempfile::NamedTempFile::new().ok();
        let written = file.as_mut().map(|f| f.write_all(&page().repeat(20)));
        assert!(matches!(written, Some(Ok(()))));
        let Some(path) = file.as_ref().map(|f| f.path().to_path_buf()) else {
            return;
        };
        let mut seen = 0;
        let mut sink = |_: &Block| -> Result<()> {
            seen += 1;
            if seen > 10 {
                return Err(crate::error::L10nError::Usage("full".into()));
            }
            Ok(())
        };
        let input = std::fs::File::open(&path);
        assert!(input.is_ok());
        let Ok(input) = input else { return };
        let options = ReadOptions::new(&rules);
        let out = Some(Out::Sink(&mut sink));
        // Returns (the producer, blocked on a full queue, sees the reader gone).
        let read = read_with(input, &path, &options, None, out, true, Some((&path, 1)));
        assert!(matches!(read, Err(crate::error::L10nError::Usage(_))));
    }
}

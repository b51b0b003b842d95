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

use tagloom_html::token::OwnedTag;

use super::tokens::{Tok, TokenStream};
use crate::error::{IoContext, L10nError, Result};
use crate::queue::{QueueReceiver, QueueSender, queue};

/// Tokens per batch at most.
pub(super) const TOK_BATCH: usize = 512;
/// Batches waiting at most.
const BATCHES: usize = 8;

/// Tokens in document order, with the producer's error after them (its last
/// batch); on the way back, spent tags for reuse.
#[derive(Default)]
pub(crate) struct TokBatch {
    toks: Vec<Tok>,
    error: Option<L10nError>,
    // The boxes are what is reused.
    #[allow(clippy::vec_box)]
    spare: Vec<Box<OwnedTag>>,
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
}

/// A connected pair.
pub(crate) fn split() -> (Producer, Remote) {
    let (tx, rx) = queue(BATCHES, BATCHES / 2, 2);
    let (back_tx, back_rx) = channel();
    (
        Producer {
            batches: tx,
            back: back_rx,
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
            let mut end = 0;
            for tok in batch.toks.drain(..) {
                end = end.max(tok.end());
                ts.push_received(tok);
            }
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
            let mut done = false;
            let mut end = 0;
            while batch.toks.len() < TOK_BATCH {
                match ts.next() {
                    Ok(Some(tok)) => {
                        end = end.max(tok.end());
                        let eof = matches!(tok.kind(), tagloom_html::token::TokenKind::Eof);
                        batch.toks.push(tok);
                        if eof {
                            done = true;
                            break;
                        }
                    }
                    Ok(None) => {
                        done = true;
                        break;
                    }
                    Err(e) => {
                        batch.error = Some(e);
                        done = true;
                        break;
                    }
                }
            }
            // Nothing here reads the text of tokens sent.
            ts.window.release(end);
            if self.batches.send(batch).is_err() || done {
                return;
            }
        }
    }
}

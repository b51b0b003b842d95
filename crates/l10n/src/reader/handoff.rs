//! Blocks handed from the page reader's thread to a sink on another thread
//! ([`handoff`]): an extraction reads the page on one core while the other writes
//! the interchange file (the merge's skeleton pipe, `skeleton/pipe.rs`, is the
//! same idea for the skeleton).
//!
//! The reader's side ([`BlockSender::send_block`]) takes each block by value, with
//! what only the page can tell about its id (whether its key is an element id's,
//! [`ContentIds::anchored`]), and sends them in batches through a bounded
//! channel; the sink's side ([`BlockReceiver::drain`]) names them (content ids:
//! a digest of the text, [`ContentIds::assign_anchored`]), counts their words and
//! gives them to the real sink in the same order, then takes the blocks apart
//! into the batch's [`Spare`] and sends the batch back, so the reader reuses the
//! blocks' buffers as it does without a second thread, without the work of taking
//! them apart on its own thread (the sender moves them into the reader's spare
//! buffers whole, [`Spare::absorb`]).
//!
//! Memory is bounded: at most [`BATCHES`] batches wait in the channel (the reader
//! waits while it is full), each of at most [`BATCH_BLOCKS`] blocks or about
//! [`BATCH_BYTES`] of original bytes (a block itself is bounded by the rules' scan
//! budgets); a batch that comes back holds at most its own blocks' buffers.
//!
//! Ends: the sender finished ([`BlockSender::finish`]) or dropped is the end of
//! the blocks for the receiver; the receiver dropped (the sink failed) makes the
//! sender's next send fail with [`std::io::ErrorKind::BrokenPipe`]
//! ([`sink_stopped`]), so the reader never waits for a sink that is gone.

use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};

use super::BlockSink;
use super::build::Spare;
use crate::block::Block;
use crate::error::{L10nError, Result};
use crate::ids::ContentIds;

/// Blocks per batch at most.
pub(super) const BATCH_BLOCKS: usize = 64;
/// A batch is sent once its blocks' original bytes reach this.
const BATCH_BYTES: usize = 64 * 1024;
/// Batches waiting in the channel at most.
const BATCHES: usize = 8;

/// Blocks in document order and, for each block then each of its sub-blocks,
/// whether its key is anchored ([`ContentIds::anchored`]); on the way back, the
/// buffers of its blocks.
#[derive(Default)]
struct Batch {
    blocks: Vec<Block>,
    anchored: Vec<bool>,
    spare: Spare,
}

/// The reader's end.
pub(crate) struct BlockSender {
    batch: Batch,
    bytes: usize,
    batches: SyncSender<Batch>,
    /// Batches the sink is done with (their buffers, to reuse).
    back: Receiver<Batch>,
    /// Batches that came back, to fill next (at most as many as were ever out).
    spent: Vec<Batch>,
}

/// The sink's end.
pub(crate) struct BlockReceiver {
    batches: Receiver<Batch>,
    back: Sender<Batch>,
}

/// A connected pair.
pub(crate) fn handoff() -> (BlockSender, BlockReceiver) {
    let (batches_tx, batches_rx) = sync_channel(BATCHES);
    let (back_tx, back_rx) = channel();
    let sender = BlockSender {
        batch: Batch::default(),
        bytes: 0,
        batches: batches_tx,
        back: back_rx,
        spent: Vec::new(),
    };
    let receiver = BlockReceiver {
        batches: batches_rx,
        back: back_tx,
    };
    (sender, receiver)
}

/// The sender's error when the receiving end is gone (the sink stopped).
pub(crate) fn sink_stopped() -> L10nError {
    L10nError::io(
        "handing blocks to the writer",
        std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the writer stopped"),
    )
}

/// Whether `e` is [`sink_stopped`]'s error: the reader stopped only because the
/// sink had (the sink's own error says why).
pub(crate) fn is_sink_stopped(e: &L10nError) -> bool {
    matches!(e, L10nError::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
}

impl BlockSender {
    /// Sends the batch being filled (when it holds anything); the buffers of the
    /// batches the sink is done with go to `spare` (when given).
    fn send(&mut self, mut spare: Option<&mut Spare>) -> Result<()> {
        if self.batch.blocks.is_empty() {
            return Ok(());
        }
        // The batches the sink is done with: their buffers to reuse, and the
        // batches kept to fill next (what the spare buffers had no room for stays
        // in them: the sink's thread drops it, not this one).
        while let Some(spare) = spare.as_deref_mut()
            && let Ok(mut spent) = self.back.try_recv()
        {
            spare.absorb(&mut spent.spare);
            spent.anchored.clear();
            self.spent.push(spent);
        }
        let next = self.spent.pop().unwrap_or_default();
        let full = std::mem::replace(&mut self.batch, next);
        self.bytes = 0;
        self.batches.send(full).map_err(|_| sink_stopped())
    }

    /// Hands `block` over, `bytes` its size for the batch's bound (about its
    /// original bytes); `anchored` pushes what the sink's thread needs to name it
    /// ([`ContentIds::anchored`]). The buffers of blocks the sink is done with go
    /// to `spare`.
    pub(crate) fn send_block(
        &mut self,
        block: Block,
        bytes: usize,
        anchored: impl FnOnce(&Block, &mut Vec<bool>),
        spare: &mut Spare,
    ) -> Result<()> {
        anchored(&block, &mut self.batch.anchored);
        self.bytes += bytes;
        self.batch.blocks.push(block);
        if self.batch.blocks.len() >= BATCH_BLOCKS || self.bytes >= BATCH_BYTES {
            self.send(Some(spare))?;
        }
        Ok(())
    }

    /// Sends what is left; the receiver then sees the end of the blocks.
    pub(crate) fn finish(mut self) -> Result<()> {
        self.send(None)
    }
}

impl BlockReceiver {
    /// Gives every block the sender sends to `sink`, in order, until the sender
    /// is finished or dropped: named by `ids` first (as the reader names them
    /// when it has no second thread), and, with `count_words`, counted (the
    /// reader's [`super::ReadReport::words`], counted here off the reader's
    /// thread: the count is returned; 0 without). On `sink`'s error the receiver is dropped (the sender's
    /// next send fails) and the error returned.
    pub(crate) fn drain(
        self,
        sink: &mut dyn BlockSink,
        ids: &mut ContentIds,
        count_words: bool,
    ) -> Result<usize> {
        let mut words = 0;
        for mut batch in &self.batches {
            let mut anchored = batch.anchored.as_slice();
            for block in &mut batch.blocks {
                ids.assign_anchored(block, &mut anchored);
                sink.block(block)?;
                if count_words {
                    words += super::block_words(block);
                }
            }
            // What the reader did not take back last time goes now (off its
            // thread), then these blocks' buffers, taken apart here.
            batch.spare.clear();
            for block in batch.blocks.drain(..) {
                batch.spare.recycle(block);
            }
            // A sender gone no longer wants its blocks back.
            let _ = self.back.send(batch);
        }
        Ok(words)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::Anchors;
    use crate::rules::IdScheme;

    fn block(id: &str, text: &str) -> Block {
        let mut b = Block::paragraph(id, text);
        b.subs.push(Block::attribute(
            format!("{id}:title"),
            "",
            String::new(),
            b'"',
            "Title",
            Vec::new(),
        ));
        b
    }

    /// Sends `blocks` through a handoff (the reader's side on this thread) and
    /// returns the ids the sink saw, and the words counted (with `count_words`).
    fn through(blocks: Vec<Block>, anchors: &Anchors, count_words: bool) -> (Vec<String>, usize) {
        let (mut tx, rx) = handoff();
        std::thread::scope(|scope| {
            let writer = scope.spawn(move || {
                let mut got = Vec::new();
                let mut sink = |b: &Block| -> Result<()> {
                    got.push(b.id.clone());
                    got.extend(b.subs.iter().map(|s| s.id.clone()));
                    Ok(())
                };
                let mut ids = ContentIds::new(IdScheme::Content);
                rx.drain(&mut sink, &mut ids, count_words)
                    .map(|words| (got, words))
            });
            let ids = ContentIds::new(IdScheme::Content);
            for b in blocks {
                let sent = tx.send_block(
                    b,
                    100,
                    |b, flags| ids.anchored(b, anchors, flags),
                    &mut Spare::default(),
                );
                assert!(sent.is_ok());
            }
            assert!(tx.finish().is_ok());
            writer.join().ok().and_then(|r| r.ok()).unwrap_or_default()
        })
    }

    #[test]
    fn blocks_arrive_in_order_named_as_without_a_thread() {
        let mut anchors = Anchors::default();
        assert!(anchors.insert("id.intro"));
        let blocks: Vec<Block> = (0..1000)
            .map(|i| match i % 3 {
                0 => block("id.intro", "Same text"),
                1 => block(&format!("html-1.p-{i}"), "Same text"),
                _ => block(&format!("html-1.div-{i}"), &format!("Text {i}")),
            })
            .collect();
        let mut direct = Vec::new();
        let mut ids = ContentIds::new(IdScheme::Content);
        let mut words = 0;
        for b in &blocks {
            let mut b = b.clone();
            ids.assign(&mut b, &anchors);
            words += super::super::block_words(&b);
            direct.push(b.id.clone());
            direct.extend(b.subs.iter().map(|s| s.id.clone()));
        }
        assert_eq!(
            through(blocks.clone(), &anchors, true),
            (direct.clone(), words)
        );
        assert!(words > 0);
        // Not counted: the same blocks, named the same.
        assert_eq!(through(blocks, &anchors, false), (direct, 0));
    }

    #[test]
    fn a_failed_sink_stops_the_sender() {
        let (mut tx, rx) = handoff();
        std::thread::scope(|scope| {
            let writer = scope.spawn(move || {
                let mut sink = |_: &Block| -> Result<()> { Err(L10nError::Usage("full".into())) };
                rx.drain(&mut sink, &mut ContentIds::new(IdScheme::Content), true)
            });
            let mut stopped = None;
            for i in 0..100_000 {
                if let Err(e) = tx.send_block(
                    block(&format!("u{i}"), "x"),
                    1,
                    |_, _| {},
                    &mut Spare::default(),
                ) {
                    stopped = Some(e);
                    break;
                }
            }
            assert!(stopped.as_ref().is_some_and(is_sink_stopped));
            assert!(matches!(writer.join(), Ok(Err(L10nError::Usage(_)))));
        });
    }
}

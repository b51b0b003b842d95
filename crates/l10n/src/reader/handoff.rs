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
//! Memory is bounded: at most [`BATCHES`] batches or about [`QUEUE_BYTES`] of
//! original bytes wait in the queue (the reader waits while it is full), each
//! batch of at most [`BATCH_BLOCKS`] blocks or about [`BATCH_BYTES`] (a block
//! itself is bounded by the rules' scan budgets); a batch that comes back holds
//! at most its own blocks' buffers.
//!
//! Wake-ups ([`crate::queue`]'s hysteresis): the sink, finding the queue empty,
//! sleeps until it is full again (or the end), and the reader, finding it full,
//! until it is half empty, not until one batch arrives or leaves
//! (`std::sync::mpsc` woke a waiting receiver on every send): the sink, the
//! faster side, then names and writes a queue's worth of batches a wake-up, and
//! the reader pays for a futex wake (on a virtual machine an interrupt to the
//! other core) once per [`BATCHES`] batches or so instead of about once a
//! batch. The batches coming back go through a plain channel the reader only
//! polls (it never waits on it, so no send on it wakes anyone).
//!
//! Ends: the sender finished ([`BlockSender::finish`]) or dropped is the end of
//! the blocks for the receiver; the receiver dropped (the sink failed) makes the
//! sender's next send fail with [`std::io::ErrorKind::BrokenPipe`]
//! ([`sink_stopped`]), so the reader never waits for a sink that is gone.

use std::sync::mpsc::{Receiver, Sender, channel};

use super::BlockSink;
use super::build::Spare;
use crate::block::Block;
use crate::error::{L10nError, Result};
use crate::ids::ContentIds;
use crate::queue::{QueueReceiver, QueueSender, weighted};

/// Blocks per batch at most.
pub(super) const BATCH_BLOCKS: usize = 64;
/// A batch is sent once its blocks' original bytes reach this.
const BATCH_BYTES: usize = 64 * 1024;
/// Batches waiting in the queue at most: small blocks (a page of short
/// paragraphs fills a batch with 64 blocks of about 70 bytes) fill many batches
/// before [`QUEUE_BYTES`]. More batches, fewer wake-ups, more memory: on the
/// first 200 MB of the generated 1 GB page, about 11 000 voluntary context
/// switches at 8, 2 000 at 12, 1 700 at 16; peak RSS 13.9 MB at 12, 14.6 at 16.
const BATCHES: usize = 12;
/// Original bytes of the batches waiting in the queue at most (about; the
/// batch that passes it is queued): the bound for pages of larger blocks.
const QUEUE_BYTES: usize = 4 * BATCH_BYTES;

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
    batches: QueueSender<Batch>,
    /// Batches the sink is done with (their buffers, to reuse).
    back: Receiver<Batch>,
    /// Batches that came back, to fill next (at most as many as were ever out).
    spent: Vec<Batch>,
}

/// The sink's end.
pub(crate) struct BlockReceiver {
    batches: QueueReceiver<Batch>,
    back: Sender<Batch>,
}

/// A connected pair.
pub(crate) fn handoff() -> (BlockSender, BlockReceiver) {
    // The reader waits while `BATCHES` batches or `QUEUE_BYTES` wait, until at
    // most half of either is left; the sink, finding none, until it is full.
    let (batches_tx, batches_rx) = weighted(BATCHES, BATCHES / 2 - 1, BATCHES, QUEUE_BYTES);
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
    fn send(&mut self, spare: Option<&mut Spare>) -> Result<()> {
        if self.batch.blocks.is_empty() {
            return Ok(());
        }
        let full = std::mem::take(&mut self.batch);
        let bytes = std::mem::take(&mut self.bytes);
        self.batches
            .send_weighted(full, bytes)
            .map_err(|_| sink_stopped())?;
        // The batches the sink is done with: their buffers to reuse, and the
        // batches kept to fill next. The sink hands back several at a time, so
        // the spare buffers may have no room for all: the rest stays in its
        // batch and is taken in when that batch is filled again (what is left
        // then, the sink's thread drops, not this one). Taking in only the
        // batch filled next held every batch's buffers until then (concat peak
        // RSS 15.3 MB against 13.8); taking in all and leaving the rest to the
        // sink's thread cost it 23 M instructions on the concat (frees of this
        // thread's buffers) and this one 5 M (allocating them again).
        if let Some(spare) = spare {
            for mut spent in self.back.try_iter() {
                spare.absorb(&mut spent.spare);
                spent.anchored.clear();
                self.spent.push(spent);
            }
            if let Some(next) = self.spent.last_mut() {
                spare.absorb(&mut next.spare);
            }
        }
        self.batch = self.spent.pop().unwrap_or_default();
        Ok(())
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
        while let Some(mut batch) = self.batches.recv() {
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
    fn a_dropped_sender_ends_the_blocks() {
        // Fewer batches than wake the sink, then the sender dropped unfinished
        // (the reader failed): the sink still gets them and stops.
        let (mut tx, rx) = handoff();
        std::thread::scope(|scope| {
            let writer = scope.spawn(move || {
                let mut seen = 0;
                let mut sink = |_: &Block| -> Result<()> {
                    seen += 1;
                    Ok(())
                };
                let drained = rx.drain(&mut sink, &mut ContentIds::new(IdScheme::Content), false);
                drained.map(|_| seen)
            });
            for i in 0..3 * BATCH_BLOCKS {
                let sent = tx.send_block(
                    block(&format!("u{i}"), "x"),
                    1,
                    |_, _| {},
                    &mut Spare::default(),
                );
                assert!(sent.is_ok());
            }
            drop(tx);
            assert!(matches!(writer.join(), Ok(Ok(n)) if n == 3 * BATCH_BLOCKS));
        });
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

//! The skeleton in memory between two threads ([`super::SkeletonStore::pipeline`]):
//! the page reader writes entries into 64 KiB pieces sent through a bounded
//! channel, the replay reads them as they come, so a merge reads and writes the page
//! at once (two cores) with no temp file.
//!
//! **Blocks travel whole.** A block is not encoded: its entry in the piece is a
//! mark (`codec::encode_mark`) and the block itself rides with the piece
//! ([`PipeWriter::put_block`]), with what the replay needs to name it; the replay
//! takes it in the order of the marks ([`PipeReader::take_block`]), leaving the
//! block it is done with in its place, and the piece brings those back to the page
//! reader, which reuses their buffers (as it reuses the buffers of the blocks it
//! encoded before). No encoding on one thread, no decoding on the other.
//!
//! Memory is bounded: at most [`PIECES`] pieces wait in the channel (the reader
//! waits while it is full), one is being filled and one read; a piece holds at
//! most about [`PIECE`] bytes of entries and [`BLOCKS`] of blocks (a block counts
//! its span of the page, its names and a share for its buffers,
//! [`PipeWriter::put_block`]); the pieces read go back to the writer to be filled
//! again, and the blocks in them to the page reader. The encoding the reader settles on travels on
//! its own one-shot channel (the replay needs it before the first entry).
//!
//! Ends: the writer dropped (its read done, or failed) is the end of the entries
//! for the reader; the reader dropped (the replay failed) makes the writer's next
//! send fail with [`std::io::ErrorKind::BrokenPipe`] ([`replay_stopped`]), so a
//! reader never waits for a replay that is gone.

use std::io::{BufRead, Read, Write};
use std::sync::mpsc::{Receiver, Sender, channel};

use encoding_rs::Encoding;

use crate::block::Block;
use crate::queue::{QueueReceiver, QueueSender, queue};

/// Bytes per piece.
pub(super) const PIECE: usize = 64 * 1024;
/// Pieces waiting in the channel at most (a bounded share of the 16 MB a run may
/// use, whatever the page's size: 256 KiB of entries, or of blocks, as many
/// again in the pieces on their way back). Few, large pieces: each one that
/// arrives may wake the replay.
pub(super) const PIECES: usize = 4;
/// Pieces the replay, when it found none, waits for before it is woken: the page
/// reader (the slower side) wakes it once per this many pieces, not per piece
/// (`crate::queue`).
const WAKE_PIECES: usize = 3;
/// Pieces left when the page reader, which found the channel full, is woken.
const LOW_PIECES: usize = 1;
/// What the blocks of a piece count at most ([`PipeWriter::put_block`]).
const BLOCKS: usize = PIECE;
/// Room an entry encoded into the piece ([`PipeWriter::put_encoded`]) is
/// expected to need at most: a piece with less left is sent first.
const ROOM: usize = 4 * 1024;
/// What a block counts for a piece's bound besides its span and names: its
/// other strings, its lists and their slack (about what its buffers take).
const BLOCK_WEIGHT: usize = 640;

/// What goes through the channel: entries, and the blocks their marks stand for.
#[derive(Default)]
pub(super) struct Piece {
    bytes: Vec<u8>,
    /// The blocks of the marks in `bytes`, in order; on the way back, the blocks
    /// the replay is done with.
    blocks: Vec<Block>,
    /// For each block that is named on read, then each of its sub-blocks, whether
    /// its key is anchored (`ContentIds::anchored`).
    anchored: Vec<bool>,
}

impl Piece {
    fn with_capacity(bytes: usize) -> Piece {
        Piece {
            bytes: Vec::with_capacity(bytes),
            ..Piece::default()
        }
    }
}

/// The writing end (the page reader's thread).
pub(super) struct PipeWriter {
    piece: Piece,
    /// What the blocks in `piece` count for its bound.
    weight: usize,
    pieces: QueueSender<Piece>,
    /// Pieces the reader is done with, to fill again.
    spare: Receiver<Piece>,
    /// Pieces that came back, to fill next; their blocks go to the page reader
    /// ([`PipeWriter::put_block`]).
    spent: Vec<Piece>,
    /// Blocks that came back in a piece filled again before they were taken.
    back: Vec<Block>,
    encoding: Option<Sender<&'static Encoding>>,
}

/// The reading end (the replay's thread).
pub(super) struct PipeReader {
    piece: Piece,
    pos: usize,
    /// The next of the piece's blocks and anchored flags to take.
    next_block: usize,
    next_anchored: usize,
    pieces: QueueReceiver<Piece>,
    spare: Sender<Piece>,
    encoding: Receiver<&'static Encoding>,
}

/// A connected pair.
pub(super) fn pipe() -> (PipeWriter, PipeReader) {
    let (pieces_tx, pieces_rx) = queue(PIECES, LOW_PIECES, WAKE_PIECES);
    let (spare_tx, spare_rx) = channel();
    let (encoding_tx, encoding_rx) = channel();
    let writer = PipeWriter {
        piece: Piece::with_capacity(PIECE),
        weight: 0,
        pieces: pieces_tx,
        spare: spare_rx,
        back: Vec::new(),
        spent: Vec::new(),
        encoding: Some(encoding_tx),
    };
    let reader = PipeReader {
        piece: Piece::default(),
        pos: 0,
        next_block: 0,
        next_anchored: 0,
        pieces: pieces_rx,
        spare: spare_tx,
        encoding: encoding_rx,
    };
    (writer, reader)
}

/// The writer's error when the reading end is gone (the replay stopped).
fn replay_stopped() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the replay stopped")
}

impl PipeWriter {
    /// Tells the reading end the document's encoding (the first call only).
    pub(super) fn set_encoding(&mut self, encoding: &'static Encoding) {
        if let Some(tx) = self.encoding.take() {
            // A reader gone is told by the next send.
            let _ = tx.send(encoding);
        }
    }

    /// Sends the piece being filled (when it holds anything), and takes in the
    /// pieces that came back (their blocks go to the page reader in the next
    /// [`PipeWriter::put_block`]).
    fn send(&mut self) -> std::io::Result<()> {
        if self.piece.bytes.is_empty() {
            return Ok(());
        }
        // One whose blocks were taken already, else one that just came back
        // (rare: its blocks then wait in `back`).
        let spent = self.spent.pop();
        self.spent.extend(self.spare.try_iter());
        let mut next = spent
            .or_else(|| self.spent.pop())
            .unwrap_or_else(|| Piece::with_capacity(PIECE));
        self.back.append(&mut next.blocks);
        next.anchored.clear();
        next.bytes.clear();
        next.bytes.reserve(PIECE);
        self.weight = 0;
        let full = std::mem::replace(&mut self.piece, next);
        self.pieces.send(full).map_err(|_| replay_stopped())
    }

    /// Hands `block` over whole: `mark` (its entry, header included: a few
    /// bytes) goes into the piece, the block with it, and `anchored`, what the
    /// replay needs to name it. `span`: its bytes of the page. The blocks the
    /// replay is done with go to `recycle`.
    pub(super) fn put_block(
        &mut self,
        mark: &[u8],
        block: Block,
        span: usize,
        anchored: &[bool],
        recycle: &mut dyn FnMut(Block),
    ) -> std::io::Result<()> {
        let weight = span
            .saturating_add(block.id.len() + block.path.len())
            .saturating_add(BLOCK_WEIGHT);
        if self.piece.bytes.len() + mark.len() > PIECE
            || self.weight.saturating_add(weight) > BLOCKS
        {
            self.send()?;
            // What came back with the pieces the send took in.
            self.back.drain(..).for_each(&mut *recycle);
            for piece in &mut self.spent {
                piece.blocks.drain(..).for_each(&mut *recycle);
            }
        }
        self.piece.bytes.extend_from_slice(mark);
        self.piece.anchored.extend_from_slice(anchored);
        self.piece.blocks.push(block);
        self.weight = self.weight.saturating_add(weight);
        Ok(())
    }
}

impl PipeWriter {
    /// Writes `header` then `data` (an entry): straight into the piece when both
    /// fit, else as two writes.
    pub(super) fn put(&mut self, header: &[u8], data: &[u8]) -> std::io::Result<()> {
        if self.piece.bytes.len() + header.len() + data.len() <= PIECE {
            self.piece.bytes.extend_from_slice(header);
            self.piece.bytes.extend_from_slice(data);
            return Ok(());
        }
        self.write_all(header)?;
        self.write_all(data)
    }
}

impl PipeWriter {
    /// Writes an entry of type `tag` whose data `encode` appends to the piece
    /// itself (one pass, no copy): the length goes in front afterwards, one byte
    /// kept for it and the data moved up when it needs more. Returns the entry's
    /// bytes, header included. A piece near full is sent first; an entry larger
    /// than what is left makes the piece longer than [`PIECE`] (sent as it is).
    pub(super) fn put_encoded(
        &mut self,
        tag: u8,
        encode: impl FnOnce(&mut Vec<u8>),
    ) -> std::io::Result<u64> {
        if self.piece.bytes.len() + ROOM > PIECE {
            self.send()?;
        }
        let piece = &mut self.piece.bytes;
        let start = piece.len();
        piece.extend_from_slice(&[tag, 0]);
        encode(piece);
        let data = start + 2;
        let end = piece.len();
        let (len, n) = super::codec::varint_array((end - data) as u64);
        if n > 1 {
            piece.resize(end + n - 1, 0);
            piece.copy_within(data..end, data + n - 1);
        }
        if let (Some(to), Some(from)) = (piece.get_mut(start + 1..=start + n), len.get(..n)) {
            to.copy_from_slice(from);
        }
        let total = (piece.len() - start) as u64;
        if piece.len() >= PIECE {
            self.send()?;
        }
        Ok(total)
    }
}

impl Write for PipeWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        if self.piece.bytes.len() + data.len() > PIECE {
            self.send()?;
        }
        if data.len() >= PIECE {
            // A large entry goes as it is (a piece of its own).
            let piece = Piece {
                bytes: data.to_vec(),
                ..Piece::default()
            };
            self.pieces.send(piece).map_err(|_| replay_stopped())?;
        } else {
            self.piece.bytes.extend_from_slice(data);
        }
        Ok(data.len())
    }

    /// Sends what is buffered (the end of the entries is the writer's drop).
    fn flush(&mut self) -> std::io::Result<()> {
        self.send()
    }
}

impl PipeReader {
    /// The document's encoding, once the page reader knows it; `None` when it
    /// stopped before (its error says why).
    pub(super) fn encoding(&self) -> Option<&'static Encoding> {
        self.encoding.recv().ok()
    }
}

impl PipeReader {
    /// The block of the mark just read (in the piece the mark was in), swapped
    /// with `block` (which goes back to the writer in its place; `in_source`:
    /// the block's original bytes are to be read from the source, into the
    /// buffer `block` had); then, when `named`, the anchored flags of it and its
    /// sub-blocks. `None` when the piece has no block left (a corrupt skeleton).
    pub(super) fn take_block(
        &mut self,
        block: &mut Block,
        named: bool,
        in_source: bool,
    ) -> Option<&[bool]> {
        let slot = self.piece.blocks.get_mut(self.next_block)?;
        std::mem::swap(slot, block);
        if in_source {
            std::mem::swap(&mut slot.original, &mut block.original);
        }
        self.next_block += 1;
        let n = if named { 1 + block.subs.len() } else { 0 };
        let from = self.next_anchored;
        self.next_anchored += n;
        self.piece.anchored.get(from..from + n)
    }
}

impl BufRead for PipeReader {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.pos >= self.piece.bytes.len() {
            match self.pieces.recv() {
                Some(next) => {
                    let mut done = std::mem::replace(&mut self.piece, next);
                    if done.bytes.capacity() != PIECE {
                        // A piece of one large entry: its buffer is not kept.
                        done.bytes = Vec::new();
                    }
                    if done.bytes.capacity() == PIECE || !done.blocks.is_empty() {
                        // The writer may be gone: then the piece is just dropped.
                        let _ = self.spare.send(done);
                    }
                    self.pos = 0;
                    self.next_block = 0;
                    self.next_anchored = 0;
                }
                // The writer is gone: the end of the entries.
                None => {
                    self.piece.bytes.clear();
                    self.pos = 0;
                }
            }
        }
        Ok(self.piece.bytes.get(self.pos..).unwrap_or_default())
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.piece.bytes.len());
    }
}

impl Read for PipeReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        if let (Some(to), Some(from)) = (out.get_mut(..n), available.get(..n)) {
            to.copy_from_slice(from);
        }
        self.consume(n);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_arrive_in_order_across_pieces_and_threads() {
        let (mut w, mut r) = pipe();
        let data: Vec<u8> = (0..1_000_000u32).map(|i| (i % 251) as u8).collect();
        let sent = data.clone();
        let thread = std::thread::spawn(move || {
            w.set_encoding(encoding_rs::UTF_8);
            // Small writes, a large one, small ones again.
            for chunk in sent[..300_000].chunks(7) {
                w.write_all(chunk).unwrap();
            }
            w.write_all(&sent[300_000..700_000]).unwrap();
            for chunk in sent[700_000..].chunks(1000) {
                w.write_all(chunk).unwrap();
            }
            w.flush().unwrap();
        });
        assert_eq!(r.encoding(), Some(encoding_rs::UTF_8));
        let mut got = Vec::new();
        r.read_to_end(&mut got).unwrap();
        thread.join().unwrap();
        assert_eq!(got.len(), data.len());
        assert!(got == data);
    }

    #[test]
    fn blocks_travel_with_their_piece_and_come_back_to_be_reused() {
        let (mut w, mut r) = pipe();
        let mut back = Vec::new();
        let block = |id: &str| Block {
            id: id.into(),
            ..crate::skeleton::empty_block()
        };
        // A span of a piece's worth: each block goes in a piece of its own.
        let put = |w: &mut PipeWriter, id: &str, back: &mut Vec<String>| {
            let mut recycle = |b: Block| back.push(b.id);
            w.put_block(b"m", block(id), BLOCKS, &[false], &mut recycle)
                .unwrap();
        };
        put(&mut w, "a", &mut back);
        put(&mut w, "b", &mut back);
        w.flush().unwrap();
        let mut taken = block("replay's own");
        for (mark, id) in [(b'm', "a"), (b'm', "b")] {
            assert_eq!(r.fill_buf().unwrap().first(), Some(&mark));
            r.consume(1);
            assert_eq!(r.take_block(&mut taken, true, false), Some(&[false][..]));
            assert_eq!(taken.id, id);
        }
        // No block left in the piece: a corrupt skeleton, not a panic.
        assert_eq!(r.take_block(&mut taken, false, false), None);
        // The first piece came back (the replay moved on) with the block the
        // replay held before "a": the writer's next send takes it in.
        put(&mut w, "c", &mut back);
        assert!(back.is_empty());
        put(&mut w, "d", &mut back);
        assert_eq!(back, ["replay's own"]);
    }

    #[test]
    fn a_reader_gone_stops_the_writer() {
        let (mut w, r) = pipe();
        drop(r);
        let err = (0..PIECES + 2)
            .try_for_each(|_| w.write_all(&[0; PIECE]))
            .unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::BrokenPipe);
    }

    #[test]
    fn a_writer_gone_is_the_end() {
        let (mut w, mut r) = pipe();
        w.write_all(b"abc").unwrap();
        w.flush().unwrap();
        drop(w);
        assert_eq!(r.encoding(), None);
        let mut got = Vec::new();
        r.read_to_end(&mut got).unwrap();
        assert_eq!(got, b"abc");
    }
}

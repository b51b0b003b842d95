//! The skeleton in memory between two threads ([`super::SkeletonStore::pipeline`]):
//! the page reader writes entries into 64 KiB pieces sent through a bounded
//! channel, the replay reads them as they come, so a merge reads and writes the page
//! at once (two cores) with no temp file.
//!
//! Memory is bounded: at most [`PIECES`] pieces wait in the channel (the reader
//! waits while it is full), one is being filled and one read; the pieces read go
//! back to the writer to be filled again. The encoding the reader settles on
//! travels on its own one-shot channel (the replay needs it before the first entry).
//!
//! Ends: the writer dropped (its read done, or failed) is the end of the entries
//! for the reader; the reader dropped (the replay failed) makes the writer's next
//! send fail with [`std::io::ErrorKind::BrokenPipe`] ([`replay_stopped`]), so a
//! reader never waits for a replay that is gone.

use std::io::{BufRead, Read, Write};
use std::sync::mpsc::{Receiver, Sender, SyncSender, TryRecvError, channel, sync_channel};

use encoding_rs::Encoding;

/// Bytes per piece.
pub(super) const PIECE: usize = 64 * 1024;
/// Pieces waiting in the channel at most (1.5 MiB: a bounded share of the 16 MB a
/// run may use, whatever the page's size).
pub(super) const PIECES: usize = 24;
/// Room an entry encoded into the piece ([`PipeWriter::put_encoded`]) is
/// expected to need at most: a piece with less left is sent first.
const ROOM: usize = 4 * 1024;

/// The writing end (the page reader's thread).
pub(super) struct PipeWriter {
    piece: Vec<u8>,
    pieces: SyncSender<Vec<u8>>,
    /// Pieces the reader is done with, to fill again.
    spare: Receiver<Vec<u8>>,
    encoding: Option<Sender<&'static Encoding>>,
}

/// The reading end (the replay's thread).
pub(super) struct PipeReader {
    piece: Vec<u8>,
    pos: usize,
    pieces: Receiver<Vec<u8>>,
    spare: Sender<Vec<u8>>,
    encoding: Receiver<&'static Encoding>,
}

/// A connected pair.
pub(super) fn pipe() -> (PipeWriter, PipeReader) {
    let (pieces_tx, pieces_rx) = sync_channel(PIECES);
    let (spare_tx, spare_rx) = channel();
    let (encoding_tx, encoding_rx) = channel();
    let writer = PipeWriter {
        piece: Vec::with_capacity(PIECE),
        pieces: pieces_tx,
        spare: spare_rx,
        encoding: Some(encoding_tx),
    };
    let reader = PipeReader {
        piece: Vec::new(),
        pos: 0,
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

    /// Sends the piece being filled (when it holds anything).
    fn send(&mut self) -> std::io::Result<()> {
        if self.piece.is_empty() {
            return Ok(());
        }
        let next = match self.spare.try_recv() {
            Ok(mut spare) => {
                spare.clear();
                spare
            }
            Err(TryRecvError::Empty | TryRecvError::Disconnected) => Vec::with_capacity(PIECE),
        };
        let full = std::mem::replace(&mut self.piece, next);
        self.pieces.send(full).map_err(|_| replay_stopped())
    }
}

impl PipeWriter {
    /// Writes `header` then `data` (an entry): straight into the piece when both
    /// fit, else as two writes.
    pub(super) fn put(&mut self, header: &[u8], data: &[u8]) -> std::io::Result<()> {
        if self.piece.len() + header.len() + data.len() <= PIECE {
            self.piece.extend_from_slice(header);
            self.piece.extend_from_slice(data);
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
        if self.piece.len() + ROOM > PIECE {
            self.send()?;
        }
        let start = self.piece.len();
        self.piece.extend_from_slice(&[tag, 0]);
        encode(&mut self.piece);
        let data = start + 2;
        let end = self.piece.len();
        let (len, n) = super::codec::varint_array((end - data) as u64);
        if n > 1 {
            self.piece.resize(end + n - 1, 0);
            self.piece.copy_within(data..end, data + n - 1);
        }
        if let (Some(to), Some(from)) = (self.piece.get_mut(start + 1..=start + n), len.get(..n)) {
            to.copy_from_slice(from);
        }
        let total = (self.piece.len() - start) as u64;
        if self.piece.len() >= PIECE {
            self.send()?;
        }
        Ok(total)
    }
}

impl Write for PipeWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        if self.piece.len() + data.len() > PIECE {
            self.send()?;
        }
        if data.len() >= PIECE {
            // A large entry goes as it is (a piece of its own).
            self.pieces
                .send(data.to_vec())
                .map_err(|_| replay_stopped())?;
        } else {
            self.piece.extend_from_slice(data);
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

impl BufRead for PipeReader {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.pos >= self.piece.len() {
            match self.pieces.recv() {
                Ok(next) => {
                    let done = std::mem::replace(&mut self.piece, next);
                    if done.capacity() == PIECE {
                        // The writer may be gone: then the piece is just dropped.
                        let _ = self.spare.send(done);
                    }
                    self.pos = 0;
                }
                // The writer is gone: the end of the entries.
                Err(_) => {
                    self.piece.clear();
                    self.pos = 0;
                }
            }
        }
        Ok(self.piece.get(self.pos..).unwrap_or_default())
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.piece.len());
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

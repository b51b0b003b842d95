//! One event stream: read a file (throttled), parse as the bytes arrive, and send
//! every batch as a server-sent event. Nothing but the parse session and one piece
//! of input is held; a batch is written out as soon as the session hands it over.
//!
//! Events: `batch` (data: [`PatchBatch::json`]), then `end` (data:
//! `{"doc":D,"version":V,"batches":N,"bytes":B}`) or `failure` (data: one line).

use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use tagloom_html::PatchBatch;
use tagloom_html::driver::{DriveError, Driver, ParseConfig};
use tagloom_html::tree_builder::MirrorCompaction;

/// The largest piece read at once.
const MAX_PIECE: usize = 64 * 1024;
/// The smallest piece read at once under a throttle.
const MIN_PIECE: usize = 512;
/// New nodes between two compactions of the tree builder's mirror, at least
/// (about 150 KiB of mirror).
const COMPACT_AFTER: usize = 4096;

/// What a stream wrote, for its `end` event.
#[derive(Default)]
struct Summary {
    batches: u64,
    bytes: u64,
    doc: u64,
    version: u64,
}

/// Why a stream stopped early.
enum Stop {
    /// The client went away (a write failed): nothing more to say.
    Gone,
    /// The file could not be read or the parse failed: said in a `failure` event.
    Failure(String),
}

/// Streams `file`'s batches to `writer` (the raw connection: this writes the
/// response head too, and the body in HTTP/1.1 chunks, one per flush, so each
/// piece's events reach the page at once and the response still ends cleanly on
/// a kept-alive connection). `throttle`: KiB per second.
pub(super) fn serve(writer: Box<dyn Write + Send>, file: &Path, throttle: Option<u64>) {
    let mut raw = writer;
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n\
                Cache-Control: no-store\r\nTransfer-Encoding: chunked\r\n\r\n";
    if raw
        .write_all(head.as_bytes())
        .and_then(|()| raw.flush())
        .is_err()
    {
        return;
    }
    let mut out = Chunked::new(raw);
    let mut summary = Summary::default();
    let result = out
        .write_all(b": tagloom\n\n")
        .and_then(|()| out.flush())
        .map_err(|_| Stop::Gone)
        .and_then(|()| stream(&mut out, file, throttle, &mut summary));
    let result = match result {
        Ok(()) => writeln!(
            out,
            "event: end\ndata: {{\"doc\":{},\"version\":{},\"batches\":{},\"bytes\":{}}}\n",
            summary.doc, summary.version, summary.batches, summary.bytes
        ),
        Err(Stop::Gone) => return,
        Err(Stop::Failure(message)) => writeln!(
            out,
            "event: failure\ndata: {}\n",
            message.replace(['\r', '\n'], " ")
        ),
    };
    let _ = result.and_then(|()| out.finish());
}

/// An HTTP/1.1 chunked body: what is written is held until [`flush`](Write::flush),
/// which sends it as one chunk.
struct Chunked<W: Write> {
    inner: W,
    pending: Vec<u8>,
}

impl<W: Write> Chunked<W> {
    fn new(inner: W) -> Chunked<W> {
        Chunked {
            inner,
            pending: Vec::with_capacity(MAX_PIECE),
        }
    }

    /// Sends what is pending and the last chunk.
    fn finish(mut self) -> std::io::Result<()> {
        self.flush()?;
        self.inner.write_all(b"0\r\n\r\n")?;
        self.inner.flush()
    }
}

impl<W: Write> Write for Chunked<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        if self.pending.len() >= MAX_PIECE {
            self.flush()?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.pending.is_empty() {
            write!(self.inner, "{:x}\r\n", self.pending.len())?;
            self.inner.write_all(&self.pending)?;
            self.inner.write_all(b"\r\n")?;
            self.pending.clear();
        }
        self.inner.flush()
    }
}

fn stream(
    out: &mut impl Write,
    file: &Path,
    throttle: Option<u64>,
    summary: &mut Summary,
) -> Result<(), Stop> {
    let mut input = File::open(file)
        .map_err(|e| Stop::Failure(format!("cannot read {}: {e}", file.display())))?;
    // The sniffing algorithm without its optional statistical guess (which would
    // hold an undeclared document's first MiB back): rendering starts after the
    // 1024-byte prescan, as in a browser.
    // The server keeps no tree, so the tree builder's mirror need not either:
    // compacting it keeps the memory of a stream flat however long the page.
    let mut config = ParseConfig::default();
    config.session.tree.mirror_compaction = MirrorCompaction::After(COMPACT_AFTER);
    let mut driver = Driver::new(&config);
    let mut pace = Pace::new(throttle);
    let mut buffer = vec![0; pace.piece];
    loop {
        pace.wait();
        let read = match input.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                return Err(Stop::Failure(format!(
                    "cannot read {}: {e}",
                    file.display()
                )));
            }
        };
        pace.sent(read);
        summary.bytes += read as u64;
        driver
            .push(buffer.get(..read).unwrap_or_default(), |batch| {
                send(out, summary, &batch)
            })
            .map_err(stop)?;
        // Each piece's batches leave at once (the point of the throttle).
        out.flush().map_err(|_| Stop::Gone)?;
    }
    driver
        .finish(|batch| send(out, summary, &batch))
        .map_err(stop)?;
    Ok(())
}

/// Writes one `batch` event.
fn send(out: &mut impl Write, summary: &mut Summary, batch: &PatchBatch) -> std::io::Result<()> {
    writeln!(out, "event: batch\ndata: {}\n", batch.json())?;
    summary.batches += 1;
    summary.doc = batch.doc.get();
    summary.version = batch.to;
    Ok(())
}

fn stop(err: DriveError<std::io::Error>) -> Stop {
    match err {
        DriveError::Sink(_) => Stop::Gone,
        other => Stop::Failure(format!("the parse failed: {other}")),
    }
}

/// The reading pace of a throttled stream: piece size and when to read the next.
struct Pace {
    /// Bytes per second (`None`: as fast as the disk).
    rate: Option<u64>,
    piece: usize,
    start: Instant,
    sent: u64,
}

impl Pace {
    fn new(kib_per_second: Option<u64>) -> Pace {
        let rate = kib_per_second.map(|k| k.saturating_mul(1024));
        // About 16 pieces a second under a throttle: smooth, few wake-ups.
        let piece = rate.map_or(MAX_PIECE, |r| {
            usize::try_from(r / 16)
                .unwrap_or(MAX_PIECE)
                .clamp(MIN_PIECE, MAX_PIECE)
        });
        Pace {
            rate,
            piece,
            start: Instant::now(),
            sent: 0,
        }
    }

    fn sent(&mut self, n: usize) {
        self.sent += n as u64;
    }

    /// Sleeps until the bytes sent so far are due at the rate.
    fn wait(&self) {
        let Some(rate) = self.rate else { return };
        let due = Duration::from_secs_f64(self.sent as f64 / rate as f64);
        if let Some(left) = due.checked_sub(self.start.elapsed()) {
            std::thread::sleep(left);
        }
    }
}

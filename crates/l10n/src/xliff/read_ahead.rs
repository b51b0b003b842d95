//! Reading a merge's XLIFF on a second thread ([`super::XliffTranslations::open_read_ahead`]):
//! the first pass (is any unit translated?) runs beside the page reader, and the
//! units are read while the replay writes the page, instead of between its blocks.
//!
//! Memory stays bounded: the units travel in batches through a channel of
//! [`UNITS_AHEAD`] units (the thread waits while it is full, e.g. during the whole
//! page read of a translated merge). Errors are sent as values and returned where the direct
//! reader would return them; a thread that stopped without saying why (a panic)
//! is an error too, never a silently shorter file.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};

use super::pool::Spare;
use super::read::{Unit, XliffReader};
use crate::block::Run;
use crate::error::{L10nError, Result};
use crate::import::{AnyTarget, EntryReader};
use crate::queue::{QueueReceiver, QueueSender, queue};

/// Units read ahead at most (each a few hundred bytes to a few KB: a bounded
/// fraction of the 16 MB a run may use, whatever the file's size).
pub(super) const UNITS_AHEAD: usize = 256;

/// Units sent at once: one hand-over (and at most one wake-up of the other
/// thread) per batch, not per unit.
const BATCH: usize = 64;

/// Batches left in the channel when the thread, which found it full, is woken
/// to refill it (`crate::queue`): one wake-up per two batches, not one per batch,
/// and early enough that the replay seldom finds the channel empty.
const LOW_BATCHES: usize = 2;

/// Spent strings sent back to the thread at once (`pool.rs`).
const SPENT: usize = 256;

/// What the first pass found.
#[derive(Clone, Copy, Debug)]
pub(super) struct Scanned {
    pub(super) any: AnyTarget,
    /// No unit has a target and the fast path read the whole file: the merge
    /// takes nothing from it (no units follow).
    pub(super) untranslated: bool,
}

/// One message of the unit channel.
pub(super) enum Message {
    /// The next units, in order (at most [`BATCH`]).
    Units(Vec<Unit>),
    /// After the last unit.
    End,
    Failed(L10nError),
}

/// The units of a merge: from the reader itself, or from the thread reading ahead.
pub(super) enum Units {
    Direct(Box<XliffReader>),
    Ahead {
        units: QueueReceiver<Message>,
        /// The batch being handed out.
        batch: std::vec::IntoIter<Unit>,
        path: PathBuf,
        done: bool,
        /// Spent buffers collected, and where they go back.
        spent: Spare,
        back: Sender<Spare>,
    },
}

impl Units {
    /// Hands back a unit's spent runs: to the reader's pool, or collected and
    /// sent back to the thread reading ahead.
    pub(super) fn recycle_runs(&mut self, runs: Vec<Run>) {
        match self {
            Units::Direct(reader) => reader.recycle_runs(runs),
            Units::Ahead { spent, .. } => spent.runs(runs),
        }
        self.send_spent();
    }

    /// [`Units::recycle_runs`] for a string.
    pub(super) fn recycle_string(&mut self, s: String) {
        match self {
            Units::Direct(reader) => reader.recycle_string(s),
            Units::Ahead { spent, .. } => spent.string(s),
        }
    }

    fn send_spent(&mut self) {
        if let Units::Ahead { spent, back, .. } = self
            && spent.len() >= SPENT
        {
            // The thread gone (its read is over): the buffers are just dropped.
            let _ = back.send(std::mem::take(spent));
        }
    }
}

impl EntryReader for Units {
    type Entry = Unit;
    fn next(&mut self) -> Result<Option<Unit>> {
        match self {
            Units::Direct(reader) => reader.next_unit(),
            Units::Ahead { batch, .. } if !batch.as_slice().is_empty() => Ok(batch.next()),
            Units::Ahead { done: true, .. } => Ok(None),
            Units::Ahead {
                units,
                batch,
                path,
                done,
                ..
            } => match units.recv() {
                Some(Message::Units(next)) => {
                    *batch = next.into_iter();
                    Ok(batch.next())
                }
                Some(Message::End) => {
                    *done = true;
                    Ok(None)
                }
                Some(Message::Failed(e)) => {
                    *done = true;
                    Err(e)
                }
                // No `End`: the thread died (a panic).
                None => {
                    *done = true;
                    Err(stopped(path))
                }
            },
        }
    }
}

/// The thread's answer to the first pass.
pub(super) struct Ahead {
    scanned: Receiver<Result<Scanned>>,
    path: PathBuf,
}

impl Ahead {
    /// Starts the thread: it finishes the first pass `scan` began (`any` so far),
    /// then, unless the file is untranslated, reads every unit with a new reader.
    /// `None` when no thread could be started (the caller reads directly).
    pub(super) fn spawn(scan: XliffReader, any: AnyTarget, path: &Path) -> Option<(Self, Units)> {
        let (scan_tx, scanned) = sync_channel(1);
        let (unit_tx, units) = queue(UNITS_AHEAD / BATCH, LOW_BATCHES, 1);
        let (back, spent) = channel();
        let owned = path.to_path_buf();
        std::thread::Builder::new()
            .name("xliff-read-ahead".into())
            .spawn(move || run(scan, any, &owned, &scan_tx, (&unit_tx, spent)))
            .ok()?;
        let ahead = Ahead {
            scanned,
            path: path.to_path_buf(),
        };
        let units = Units::Ahead {
            units,
            batch: Vec::new().into_iter(),
            path: path.to_path_buf(),
            done: false,
            spent: Spare::default(),
            back,
        };
        Some((ahead, units))
    }

    /// Waits for the first pass.
    pub(super) fn scanned(&self) -> Result<Scanned> {
        self.scanned
            .recv()
            .unwrap_or_else(|_| Err(stopped(&self.path)))
    }
}

/// The thread: the rest of the first pass, then the units (their buffers
/// refilled from `spent`).
fn run(
    mut scan: XliffReader,
    mut any: AnyTarget,
    path: &Path,
    scanned: &SyncSender<Result<Scanned>>,
    (units, spent): (&QueueSender<Message>, Receiver<Spare>),
) {
    while !any.confirmed {
        match scan.next_unit() {
            Ok(Some(unit)) => any.add(&unit),
            Ok(None) => break,
            Err(e) => {
                let _ = scanned.send(Err(e));
                return;
            }
        }
    }
    let untranslated = !any.confirmed && !any.unconfirmed && scan.on_fast_path();
    if scanned.send(Ok(Scanned { any, untranslated })).is_err() || untranslated {
        return;
    }
    let mut reader = match XliffReader::open(path) {
        Ok(reader) => reader,
        Err(e) => {
            let _ = units.send(Message::Failed(e));
            return;
        }
    };
    reader.header = scan.header.clone();
    reader.refilled_from(spent);
    let mut batch = Vec::with_capacity(BATCH);
    loop {
        let last = match reader.next_unit_into(&mut batch) {
            Ok(true) => None,
            Ok(false) => Some(Message::End),
            Err(e) => Some(Message::Failed(e)),
        };
        if batch.len() == BATCH || (last.is_some() && !batch.is_empty()) {
            let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
            // A closed channel: the merge stopped (an error, or it is over).
            if units.send(Message::Units(full)).is_err() {
                return;
            }
        }
        if let Some(last) = last {
            let _ = units.send(last);
            return;
        }
    }
}

fn stopped(path: &Path) -> L10nError {
    L10nError::Xliff {
        path: path.to_path_buf(),
        message: "the thread reading it ahead stopped".into(),
    }
}

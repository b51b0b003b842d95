//! The script host interface: what an embedder that runs scripts may do while
//! the session is suspended at `</script>` (§13.2.6.4.8 "text", an end tag
//! "script"; §8.4.3 `document.write()`).
//!
//! With [`TreeBuilderConfig::suspend_at_script`](crate::tree_builder::TreeBuilderConfig::suspend_at_script)
//! on, [`pump`](Html5ParseSession::pump) returns
//! [`PumpStatus::Suspended`]`(`[`SuspendReason::Script`]`)` after each
//! `</script>`: the script element ([`running_script`](Html5ParseSession::running_script))
//! is being prepared, the script nesting level is one higher, and the insertion
//! point is just after the `</script>`. While the script runs, the embedder may
//!
//! - write text at the insertion point ([`document_write`](Html5ParseSession::document_write)):
//!   it is tokenized at once, before the rest of the input, up to the insertion
//!   point. When that reaches another `</script>`, the write returns
//!   [`WriteStatus::Script`]: run that script (one level deeper; it may write
//!   too, at its own insertion point), [`end_script`](Html5ParseSession::end_script),
//!   then [`resume_write`](Html5ParseSession::resume_write) until
//!   [`WriteStatus::Done`];
//! - tell the tree builder about DOM changes ([`dom_changed`](Html5ParseSession::dom_changed)).
//!
//! When the script is done, [`end_script`](Html5ParseSession::end_script) (or
//! just [`pump`](Html5ParseSession::pump), which ends an outermost script
//! itself) restores the insertion point: undefined again at the outermost level,
//! so a later write is [`ScriptHostError::NoInsertionPoint`] (a browser would
//! run `document.open()` and replace the document), or is ignored while the
//! ignore-destructive-writes counter is positive (an external script runs).
//! Batches made while writing are taken as usual ([`take_batches`](Html5ParseSession::take_batches)),
//! so the embedder's DOM is up to date before a nested script runs.
//!
//! ```
//! use tagloom_html::dom::{self, DomStore};
//! use tagloom_html::session::{Html5ParseSession, PumpStatus, SessionConfig, WriteStatus};
//!
//! let mut config = SessionConfig::default();
//! config.tree.suspend_at_script = true;
//! let mut session = Html5ParseSession::new(config);
//! session.push_bytes(b"1<script>w</script>3").unwrap();
//! let mut store = DomStore::new();
//! let mut status = session.finish().unwrap();
//! while let PumpStatus::Suspended(_) = status {
//!     // "Run" the script: it writes "2".
//!     assert_eq!(session.script_nesting_level(), 1);
//!     assert_eq!(session.document_write("2").unwrap(), WriteStatus::Done);
//!     session.end_script().unwrap();
//!     status = session.pump().unwrap();
//! }
//! for batch in session.take_batches() {
//!     store.apply(&batch).unwrap();
//! }
//! assert!(dom::dump_document(&store).ends_with("|     \"23\"\n"));
//! ```

use super::{Html5ParseSession, PumpStatus, SessionError};
use crate::dom_patch::PatchKey;
use crate::tree_builder::{DomChange, SuspendReason};

/// The script host's limits (part of [`SessionConfig`](super::SessionConfig)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScriptHostLimits {
    /// The deepest script nesting level at which a write is still accepted (a
    /// script that writes a script that writes…). The spec sets none; browsers
    /// stop runaway recursion with an error. Default 64.
    pub max_nesting: usize,
    /// The most text (bytes) all writes of a document may insert. Default 64 MiB.
    pub max_written_bytes: usize,
}

impl Default for ScriptHostLimits {
    fn default() -> Self {
        ScriptHostLimits {
            max_nesting: 64,
            max_written_bytes: 64 << 20,
        }
    }
}

/// What a [`document_write`](Html5ParseSession::document_write) (or
/// [`resume_write`](Html5ParseSession::resume_write)) ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteStatus {
    /// The written text was parsed up to the insertion point.
    Done,
    /// Parsing it closed a `script` element: run that script
    /// ([`running_script`](Html5ParseSession::running_script), one nesting
    /// level deeper), then call [`end_script`](Html5ParseSession::end_script)
    /// and [`resume_write`](Html5ParseSession::resume_write).
    Script,
    /// There is no insertion point and the ignore-destructive-writes counter is
    /// positive: the write does nothing (§8.4.3 step 5).
    Ignored,
    /// A `<meta>` in the written text changed the encoding: the parse restarted
    /// from the first byte with the new encoding (the next batch starts with
    /// `Clear`). Every running script's insertion point is gone: stop the
    /// scripts (without `end_script`) and pump again; the scripts run again.
    Restarted,
}

/// Misuse of the script host, or a limit.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum ScriptHostError {
    /// A write with no insertion point (no script is being run by the parser)
    /// and a zero ignore-destructive-writes counter: a browser would open a new
    /// document, which this host does not do.
    #[error("document.write() without an insertion point (no parser-run script)")]
    NoInsertionPoint,
    /// `end_script` while no script is running.
    #[error("no script is running")]
    NoScript,
    /// `end_script` while a write of this script waits for `resume_write`.
    #[error("the script's write is not finished: call resume_write first")]
    WriteInProgress,
    /// `resume_write` while no write waits.
    #[error("no write waits to be resumed")]
    NotWriting,
    /// A write at a script nesting level above [`ScriptHostLimits::max_nesting`].
    #[error("document.write() at script nesting level {level}, above the limit of {limit}")]
    NestingTooDeep {
        /// The nesting level of the write.
        level: usize,
        /// The configured limit.
        limit: usize,
    },
    /// The writes of the document exceed [`ScriptHostLimits::max_written_bytes`].
    #[error("document.write() text exceeds the limit of {limit} bytes per document")]
    WrittenTooMuch {
        /// The configured limit.
        limit: usize,
    },
    /// A DOM change names an element this parse did not create.
    #[error("no element with key {0:?} in this parse")]
    UnknownElement(PatchKey),
    /// Parsing the written text failed (see [`SessionError`]).
    #[error(transparent)]
    Session(#[from] SessionError),
}

/// One script being run by the parser (one nesting level).
#[derive(Clone, Copy, Debug)]
struct Frame {
    script: Option<PatchKey>,
    /// The tokenizer set the input after the insertion point aside (at the
    /// first write only: a script that never writes costs nothing).
    opened: bool,
    /// A write of this script is parsing and waits for a nested script.
    writing: bool,
}

/// The script host's state in a session.
#[derive(Clone, Debug, Default)]
pub(crate) struct ScriptHost {
    frames: Vec<Frame>,
    ignore_destructive_writes: usize,
    /// Bytes written into the current tokenizer (offsets of later source text
    /// are this much higher than the decoder's).
    pub(crate) written: usize,
    /// A restart dropped the frames of running scripts.
    pub(crate) restarted_in_script: bool,
}

impl ScriptHost {
    /// "Change the encoding" restarted the parse: running scripts lose their
    /// insertion points.
    pub(crate) fn restart(&mut self) {
        self.restarted_in_script = !self.frames.is_empty();
        self.frames.clear();
        self.written = 0;
    }
}

impl Html5ParseSession {
    /// The tree builder suspended at `</script>`: a script is being prepared.
    pub(crate) fn script_suspended(&mut self) {
        let script = self.tree.last_script_key();
        self.script.frames.push(Frame {
            script,
            opened: false,
            writing: false,
        });
    }

    /// Ends an outermost script the embedder did not end (`pump` after a
    /// suspension, as every embedder that runs no scripts does).
    pub(crate) fn end_outer_script(&mut self) -> Result<(), SessionError> {
        match self.script.frames.as_slice() {
            [] => Ok(()),
            [frame] if !frame.writing => {
                self.close_frame();
                Ok(())
            }
            frames => Err(SessionError::ScriptRunning {
                level: frames.len(),
            }),
        }
    }

    fn close_frame(&mut self) {
        if let Some(frame) = self.script.frames.pop()
            && frame.opened
        {
            self.tokenizer.close_insertion_point();
        }
    }

    /// The parser's script nesting level: how many scripts it is running (0
    /// unless suspended at a `</script>`).
    pub fn script_nesting_level(&self) -> usize {
        self.script.frames.len()
    }

    /// The `script` element being run at the innermost nesting level.
    pub fn running_script(&self) -> Option<PatchKey> {
        self.script.frames.last().and_then(|f| f.script)
    }

    /// Whether the insertion point is defined (a script run by the parser is running).
    pub fn has_insertion_point(&self) -> bool {
        !self.script.frames.is_empty()
    }

    /// Increments the ignore-destructive-writes counter (while an external or
    /// module script runs, §4.12.1.1 "execute the script element").
    pub fn enter_ignore_destructive_writes(&mut self) {
        self.script.ignore_destructive_writes += 1;
    }

    /// Decrements the ignore-destructive-writes counter.
    pub fn leave_ignore_destructive_writes(&mut self) {
        self.script.ignore_destructive_writes =
            self.script.ignore_destructive_writes.saturating_sub(1);
    }

    /// `document.write(text)` from the innermost running script: inserts `text`
    /// at its insertion point and parses it (see the [module docs](self)).
    pub fn document_write(&mut self, text: &str) -> Result<WriteStatus, ScriptHostError> {
        if self.failed {
            return Err(SessionError::Failed.into());
        }
        let level = self.script.frames.len();
        if level == 0 {
            return if self.script.ignore_destructive_writes > 0 {
                Ok(WriteStatus::Ignored)
            } else {
                Err(ScriptHostError::NoInsertionPoint)
            };
        }
        let limits = self.config.script;
        if level > limits.max_nesting {
            return Err(ScriptHostError::NestingTooDeep {
                level,
                limit: limits.max_nesting,
            });
        }
        let written = self.script.written.saturating_add(text.len());
        if written > limits.max_written_bytes {
            return Err(ScriptHostError::WrittenTooMuch {
                limit: limits.max_written_bytes,
            });
        }
        self.script.written = written;
        let Some(frame) = self.script.frames.last_mut() else {
            return Err(ScriptHostError::NoInsertionPoint);
        };
        if !frame.opened {
            frame.opened = true;
            self.tokenizer.open_insertion_point();
        }
        frame.writing = true;
        self.tokenizer.insert(text);
        self.parse_written()
    }

    /// Goes on parsing the written text after a nested script ended (see
    /// [`WriteStatus::Script`]).
    pub fn resume_write(&mut self) -> Result<WriteStatus, ScriptHostError> {
        if !self.script.frames.last().is_some_and(|f| f.writing) {
            return Err(ScriptHostError::NotWriting);
        }
        self.parse_written()
    }

    /// The innermost running script finished: restores the insertion point
    /// (and the input after it) and lowers the nesting level.
    pub fn end_script(&mut self) -> Result<(), ScriptHostError> {
        match self.script.frames.last() {
            None => Err(ScriptHostError::NoScript),
            Some(frame) if frame.writing => Err(ScriptHostError::WriteInProgress),
            Some(_) => {
                self.close_frame();
                Ok(())
            }
        }
    }

    /// Tells the tree builder about a change a script made to the DOM (see
    /// [`DomChange`] for what it does with it).
    pub fn dom_changed(&mut self, change: DomChange<'_>) -> Result<(), ScriptHostError> {
        let DomChange::Attribute { element, .. } = change;
        if self.tree.dom_changed(change) {
            Ok(())
        } else {
            Err(ScriptHostError::UnknownElement(element))
        }
    }

    /// Parses up to the innermost insertion point, or to a nested `</script>`.
    fn parse_written(&mut self) -> Result<WriteStatus, ScriptHostError> {
        loop {
            let status = self.pump_checked()?;
            if std::mem::take(&mut self.script.restarted_in_script) {
                return Ok(WriteStatus::Restarted);
            }
            match status {
                PumpStatus::Suspended(SuspendReason::Script) => return Ok(WriteStatus::Script),
                PumpStatus::Suspended(SuspendReason::BatchReady) => {}
                PumpStatus::NeedInput | PumpStatus::Finished => {
                    if let Some(frame) = self.script.frames.last_mut() {
                        frame.writing = false;
                    }
                    return Ok(WriteStatus::Done);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;

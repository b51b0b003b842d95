//! Buffers reused from unit to unit: the strings and run lists of units the merge
//! is done with go back to the fast reader (`fast.rs`), which fills them again
//! instead of allocating. When the file is read ahead (`read_ahead.rs`) they come
//! back from the replay's thread through a channel, so neither thread pays for
//! an allocation or a cross-thread free per string.
//!
//! Memory stays bounded: at most [`MAX_STRINGS`] strings of at most
//! [`MAX_KEPT`] bytes each and [`MAX_LISTS`] run lists are kept; anything beyond
//! is dropped.

use std::sync::mpsc::Receiver;

use crate::block::Run;

/// Strings kept at most.
const MAX_STRINGS: usize = 2048;
/// Run lists kept at most.
const MAX_LISTS: usize = 512;
/// The largest capacity a kept string may have (a larger one is dropped).
const MAX_KEPT: usize = 1024;

/// Spent buffers: what the merge hands back.
#[derive(Default)]
pub(super) struct Spare {
    strings: Vec<String>,
    lists: Vec<Vec<Run>>,
}

impl Spare {
    /// Keeps `s` (within the bounds).
    pub(super) fn string(&mut self, s: String) {
        if s.capacity() > 0 && s.capacity() <= MAX_KEPT && self.strings.len() < MAX_STRINGS {
            self.strings.push(s);
        }
    }

    /// Keeps `runs`' strings and the list itself, emptied.
    pub(super) fn runs(&mut self, mut runs: Vec<Run>) {
        for run in runs.drain(..) {
            match run {
                Run::Text(s)
                | Run::Open { data: s, .. }
                | Run::Close { data: s, .. }
                | Run::Placeholder { data: s, .. } => self.string(s),
            }
        }
        if runs.capacity() > 0 && self.lists.len() < MAX_LISTS {
            self.lists.push(runs);
        }
    }

    /// Strings kept.
    pub(super) fn len(&self) -> usize {
        self.strings.len()
    }

    /// Moves `other`'s buffers in (within the bounds).
    fn absorb(&mut self, mut other: Spare) {
        if self.strings.is_empty() && self.lists.is_empty() {
            *self = other;
            return;
        }
        let room = MAX_STRINGS.saturating_sub(self.strings.len());
        let from = other.strings.len().saturating_sub(room);
        self.strings.extend(other.strings.drain(from..));
        let room = MAX_LISTS.saturating_sub(self.lists.len());
        let from = other.lists.len().saturating_sub(room);
        self.lists.extend(other.lists.drain(from..));
    }
}

/// The fast reader's buffers, refilled from the merge when it reads ahead.
#[derive(Default)]
pub(super) struct Pool {
    spare: Spare,
    back: Option<Receiver<Spare>>,
}

impl Pool {
    /// Takes spent buffers from `back` from now on.
    pub(super) fn refilled_from(&mut self, back: Receiver<Spare>) {
        self.back = Some(back);
    }

    /// Takes in what came back so far (once per unit, not per string).
    pub(super) fn refill(&mut self) {
        let Some(back) = &self.back else {
            return;
        };
        while let Ok(spare) = back.try_recv() {
            self.spare.absorb(spare);
        }
    }

    /// An empty string, reused when one is kept.
    pub(super) fn string(&mut self) -> String {
        match self.spare.strings.pop() {
            Some(mut s) => {
                s.clear();
                s
            }
            None => String::new(),
        }
    }

    /// An empty run list, reused when one is kept.
    pub(super) fn runs(&mut self) -> Vec<Run> {
        self.spare.lists.pop().unwrap_or_default()
    }

    /// Gives back a string the reader did not use.
    pub(super) fn put_string(&mut self, s: String) {
        self.spare.string(s);
    }

    /// Gives back runs the reader did not use.
    pub(super) fn put_runs(&mut self, runs: Vec<Run>) {
        self.spare.runs(runs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_come_back_emptied_and_bounded() {
        let (tx, rx) = std::sync::mpsc::channel();
        let mut pool = Pool::default();
        pool.refilled_from(rx);
        let mut spare = Spare::default();
        spare.runs(vec![
            Run::Text("abc".into()),
            Run::Open {
                id: 1,
                data: "<b>".into(),
            },
        ]);
        spare.string(String::with_capacity(MAX_KEPT + 1));
        assert_eq!(spare.len(), 2);
        tx.send(spare).unwrap();
        pool.refill();
        let (a, b) = (pool.string(), pool.string());
        assert!(a.is_empty() && a.capacity() >= 3);
        assert!(b.is_empty() && b.capacity() >= 3);
        assert_eq!(pool.string().capacity(), 0);
        let runs = pool.runs();
        assert!(runs.is_empty() && runs.capacity() >= 2);
        let mut many = Spare::default();
        for _ in 0..MAX_STRINGS + 10 {
            many.string(String::from("x"));
        }
        assert_eq!(many.len(), MAX_STRINGS);
        let mut both = Spare::default();
        both.string(String::from("y"));
        both.absorb(many);
        assert_eq!(both.len(), MAX_STRINGS);
    }
}

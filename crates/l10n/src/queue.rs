//! A bounded channel between two threads with hysteresis on both ends: a sender
//! that found it full sleeps until it has drained to a low-water mark, a receiver
//! that found it empty sleeps until it has filled to a high-water mark (or the
//! sender is gone). Used by a merge's skeleton pipe (`skeleton/pipe.rs`), its
//! XLIFF read-ahead (`xliff/read_ahead.rs`) and the page reader's hand-off of
//! blocks to the writer thread (`reader/handoff.rs`, [`weighted`]: bounded by
//! the messages' weight, their bytes, as well as by their number).
//!
//! A plain bounded channel wakes the waiting side for every message: when one
//! thread runs ahead of the other (the page reader is the slowest of a merge's
//! three), that is one wake-up and one sleep per message, and on a busy machine
//! the woken thread often takes the core of the one that woke it. Here one
//! wake-up hands over several messages; the channel holds no more than before.
//! Each side is woken only when the other one waits, and after the lock is let
//! go (the flags say who waits: a wake-up is never lost, the waiter checks them
//! under the lock).

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

struct Shared<T> {
    state: Mutex<State<T>>,
    /// The receiver's wait: the queue is up to the high-water mark, or the
    /// sender is gone.
    filled: Condvar,
    /// The sender's wait: the queue is down to the low-water mark, or the
    /// receiver is gone.
    drained: Condvar,
    slots: usize,
    low: usize,
    high: usize,
    /// The queued messages' weight at most (about: the message that passes it
    /// is queued); `usize::MAX`: no bound.
    weight: usize,
}

struct State<T> {
    /// The messages with their weights.
    items: VecDeque<(T, usize)>,
    /// The queued messages' weight.
    weight: usize,
    sender_waiting: bool,
    receiver_waiting: bool,
    sender_gone: bool,
    receiver_gone: bool,
}

impl<T> Shared<T> {
    /// The sender waits while this holds.
    fn full(&self, state: &State<T>) -> bool {
        state.items.len() >= self.slots || state.weight >= self.weight
    }

    /// A waiting receiver is woken when this holds.
    fn filled(&self, state: &State<T>) -> bool {
        state.items.len() >= self.high || state.weight >= self.weight
    }

    /// A waiting sender is woken when this holds.
    fn drained(&self, state: &State<T>) -> bool {
        state.items.len() <= self.low && state.weight <= self.weight / 2
    }

    fn lock(&self) -> MutexGuard<'_, State<T>> {
        // Neither side panics while holding the lock; if one did, the state
        // is still consistent (each change is a single field).
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The sending half (dropping it ends the queue: the receiver sees `None`
/// after the messages sent, also when the sending thread panicked).
pub(crate) struct QueueSender<T>(Arc<Shared<T>>);

/// The receiving half (dropping it makes sends fail).
pub(crate) struct QueueReceiver<T>(Arc<Shared<T>>);

/// A queue of at most `slots` messages whose full sender sleeps until at most
/// `low` are left (`low < slots`) and whose empty receiver sleeps until at least
/// `high` are there (`1 <= high <= slots`).
pub(crate) fn queue<T>(
    slots: usize,
    low: usize,
    high: usize,
) -> (QueueSender<T>, QueueReceiver<T>) {
    weighted(slots, low, high, usize::MAX)
}

/// A [`queue`] that is also full once its messages weigh `weight` (the weights
/// given to [`QueueSender::send_weighted`]): a full sender then sleeps until at
/// most half of it is left (and at most `low` messages), and an empty receiver
/// until it is full by weight or has `high` messages.
pub(crate) fn weighted<T>(
    slots: usize,
    low: usize,
    high: usize,
    weight: usize,
) -> (QueueSender<T>, QueueReceiver<T>) {
    let slots = slots.max(1);
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            items: VecDeque::with_capacity(slots),
            weight: 0,
            sender_waiting: false,
            receiver_waiting: false,
            sender_gone: false,
            receiver_gone: false,
        }),
        filled: Condvar::new(),
        drained: Condvar::new(),
        slots,
        low: low.min(slots - 1),
        high: high.clamp(1, slots),
        weight: weight.max(1),
    });
    (QueueSender(Arc::clone(&shared)), QueueReceiver(shared))
}

/// The receiver is gone: the message was not sent.
#[derive(Debug)]
pub(crate) struct Disconnected;

impl<T> QueueSender<T> {
    /// Queues `item`, first waiting (while the queue is full) for the receiver
    /// to take it down to the low-water mark.
    pub(crate) fn send(&self, item: T) -> Result<(), Disconnected> {
        self.send_weighted(item, 0)
    }

    /// Queues `item` of `weight` (see [`weighted`]), first waiting (while the
    /// queue is full) for the receiver to take it down to the low-water mark.
    pub(crate) fn send_weighted(&self, item: T, weight: usize) -> Result<(), Disconnected> {
        let shared = &*self.0;
        let mut state = shared.lock();
        if shared.full(&state) && !state.receiver_gone {
            state.sender_waiting = true;
            // The receiver clears the flag (spurious wake-ups wait again).
            while state.sender_waiting && !state.receiver_gone {
                state = shared
                    .drained
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        }
        if state.receiver_gone {
            return Err(Disconnected);
        }
        state.items.push_back((item, weight));
        state.weight = state.weight.saturating_add(weight);
        let wake = state.receiver_waiting && shared.filled(&state);
        if wake {
            state.receiver_waiting = false;
            // Woken after the lock is let go: a thread woken under it would
            // first wait for the lock (two more switches).
            drop(state);
            shared.filled.notify_one();
        }
        Ok(())
    }
}

impl<T> Drop for QueueSender<T> {
    fn drop(&mut self) {
        self.0.lock().sender_gone = true;
        self.0.filled.notify_one();
    }
}

impl<T> QueueReceiver<T> {
    /// The next message, waiting for it; `None` once the queue is empty and the
    /// sender gone.
    pub(crate) fn recv(&self) -> Option<T> {
        let shared = &*self.0;
        let mut state = shared.lock();
        loop {
            if let Some((item, weight)) = state.items.pop_front() {
                state.weight = state.weight.saturating_sub(weight);
                if state.sender_waiting && shared.drained(&state) {
                    state.sender_waiting = false;
                    drop(state);
                    shared.drained.notify_one();
                }
                return Some(item);
            }
            if state.sender_gone {
                return None;
            }
            state.receiver_waiting = true;
            // The sender clears the flag (spurious wake-ups wait again).
            while state.receiver_waiting && !state.sender_gone {
                state = shared
                    .filled
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        }
    }
}

impl<T> Drop for QueueReceiver<T> {
    fn drop(&mut self) {
        self.0.lock().receiver_gone = true;
        self.0.drained.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_arrive_in_order_and_end_with_the_sender() {
        let (tx, rx) = queue(4, 1, 1);
        let sender = std::thread::spawn(move || {
            for n in 0..1000u32 {
                tx.send(n).unwrap();
            }
        });
        let got: Vec<u32> = std::iter::from_fn(|| rx.recv()).collect();
        sender.join().unwrap();
        assert_eq!(got, (0..1000).collect::<Vec<_>>());
    }

    #[test]
    fn a_receiver_waiting_for_several_gets_all_of_them() {
        let (tx, rx) = queue(4, 1, 3);
        let sender = std::thread::spawn(move || {
            for n in 0..999u32 {
                tx.send(n).unwrap();
            }
        });
        let got: Vec<u32> = std::iter::from_fn(|| rx.recv()).collect();
        sender.join().unwrap();
        assert_eq!(got, (0..999).collect::<Vec<_>>());
    }

    #[test]
    fn a_full_sender_stops_when_the_receiver_goes() {
        let (tx, rx) = queue(2, 0, 1);
        let sender = std::thread::spawn(move || (0..10u32).map(|n| tx.send(n).is_ok()).collect());
        assert_eq!(rx.recv(), Some(0));
        drop(rx);
        let sent: Vec<bool> = sender.join().unwrap();
        // Some went through (at least the one taken), the rest were refused.
        assert!(sent[0] && !sent[9]);
    }

    #[test]
    fn a_weighted_queue_is_full_by_weight_and_keeps_order() {
        let (tx, rx) = weighted(100, 49, 100, 10);
        let sender = std::thread::spawn(move || {
            for n in 0..1000u32 {
                tx.send_weighted(n, (n % 7) as usize).unwrap();
            }
        });
        let got: Vec<u32> = std::iter::from_fn(|| rx.recv()).collect();
        sender.join().unwrap();
        assert_eq!(got, (0..1000).collect::<Vec<_>>());
    }

    #[test]
    fn a_weighted_sender_waits_once_full_by_weight() {
        let (tx, rx) = weighted(100, 49, 100, 10);
        // Three messages of 4: full after the third (12 ≥ 10), so a fourth
        // send waits until the receiver has taken it down to at most 5.
        for n in 0..3u32 {
            tx.send_weighted(n, 4).unwrap();
        }
        let sender = std::thread::spawn(move || tx.send_weighted(3, 4).is_ok());
        assert_eq!((rx.recv(), rx.recv()), (Some(0), Some(1)));
        assert!(sender.join().unwrap());
        let rest: Vec<u32> = std::iter::from_fn(|| rx.recv()).collect();
        assert_eq!(rest, [2, 3]);
    }

    #[test]
    fn a_sender_that_panics_ends_the_queue() {
        let (tx, rx) = queue::<u32>(2, 0, 2);
        let sender = std::thread::spawn(move || {
            tx.send(7).unwrap();
            panic!("the sending thread stops");
        });
        assert!(sender.join().is_err());
        assert_eq!((rx.recv(), rx.recv()), (Some(7), None));
    }
}

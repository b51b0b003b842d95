//! A bounded channel between two threads with hysteresis on both ends: a sender
//! that found it full sleeps until it has drained to a low-water mark, a receiver
//! that found it empty sleeps until it has filled to a high-water mark (or the
//! sender is gone). Used by a merge's skeleton pipe (`skeleton/pipe.rs`) and its
//! XLIFF read-ahead (`xliff/read_ahead.rs`).
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
}

struct State<T> {
    items: VecDeque<T>,
    sender_waiting: bool,
    receiver_waiting: bool,
    sender_gone: bool,
    receiver_gone: bool,
}

impl<T> Shared<T> {
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
    let slots = slots.max(1);
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            items: VecDeque::with_capacity(slots),
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
        let shared = &*self.0;
        let mut state = shared.lock();
        if state.items.len() >= shared.slots && !state.receiver_gone {
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
        state.items.push_back(item);
        let wake = state.receiver_waiting && state.items.len() >= shared.high;
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
            if let Some(item) = state.items.pop_front() {
                if state.sender_waiting && state.items.len() <= shared.low {
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

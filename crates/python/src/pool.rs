//! The batch calls' parallel map, on threads that live for the process.
//!
//! A call on `n` threads runs on the caller's thread and `n - 1` helpers. The
//! helpers are the workers of one persistent pool (rayon), parked between calls:
//! a call spawns `n - 1` helper jobs into it and works beside them; everyone takes
//! items by index from a shared counter (a long document does not hold up a fixed
//! share of the list), and the results come back in input order.
//!
//! Why persistent: threads spawned per call took their allocator heaps with them
//! when they ended, so every call's trees were built on fresh heaps and freed later
//! into dead ones; a 2-thread call then cost up to 60 % more CPU than a 1-thread
//! one, unpredictably (BENCHMARKS.md, "From Python"). Why the caller works too: it
//! would only wait otherwise, and what it builds it also frees, on its own heap.
//!
//! The pool has as many workers as the largest `n - 1` asked for so far; a larger
//! request replaces it (calls still running finish on the old one, whose workers
//! end when its last call does); a forked child builds its own. A panic in `f`
//! stops the call: it ends with [`TaskPanicked`] once every helper has stopped,
//! and the pool stays usable.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// A call's task panicked; the message is the panic's, when it was a string.
#[derive(Debug, thiserror::Error)]
#[error("a batch task panicked: {0}")]
pub struct TaskPanicked(pub String);

/// How many threads to use for `requested` (0: one per available core), never more
/// than there are items.
pub fn thread_count(requested: usize, items: usize) -> usize {
    let available = std::thread::available_parallelism().map_or(1, |n| n.get());
    let wanted = if requested == 0 { available } else { requested };
    wanted.min(items).max(1)
}

/// `f` over every item on `threads` threads (see [`thread_count`]): the caller's
/// and `threads - 1` pool workers. Results in input order, or the first panic.
pub fn map<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Result<Vec<R>, TaskPanicked> {
    run(items, threads, None, f)
}

/// [`map`], with the items started largest first by `size` (ties in input order);
/// results still in input order. Items are taken one at a time, so a thread that
/// takes a large item last leaves the others idle until it ends: largest first,
/// the last items taken are the smallest and the threads end together (the
/// longest-processing-time-first rule). For items whose cost grows with `size`.
pub fn map_largest_first<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    size: impl Fn(&T) -> usize,
    f: impl Fn(&T) -> R + Sync,
) -> Result<Vec<R>, TaskPanicked> {
    if thread_count(threads, items.len()) <= 1 {
        return run(items, 1, None, f);
    }
    let order = largest_first(items.iter().map(size));
    run(items, threads, Some(order), f)
}

/// The indices of `sizes`, largest first, ties in input order.
fn largest_first(sizes: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut order: Vec<(usize, usize)> = sizes.enumerate().collect();
    order.sort_by_key(|&(_, size)| std::cmp::Reverse(size));
    order.into_iter().map(|(i, _)| i).collect()
}

/// `f` over every item, taken in `order` (a permutation of the indices; `None`:
/// input order).
fn run<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    order: Option<Vec<usize>>,
    f: impl Fn(&T) -> R + Sync,
) -> Result<Vec<R>, TaskPanicked> {
    let threads = thread_count(threads, items.len());
    if threads <= 1 {
        return catch_unwind(AssertUnwindSafe(|| items.iter().map(&f).collect()))
            .map_err(|panic| TaskPanicked(message(panic.as_ref())));
    }
    let helpers = match workers(threads - 1) {
        Ok(pool) => pool,
        // No pool (the system refused threads): the caller does it all.
        Err(_) => return run(items, 1, None, f),
    };
    let job = Job {
        items,
        order,
        f: &f,
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        slots: items.iter().map(|_| Mutex::new(None)).collect(),
        panic: Mutex::new(None),
    };
    helpers.in_place_scope(|scope| {
        for _ in 1..threads {
            scope.spawn(|_| job.run());
        }
        job.run();
    });
    job.finish()
}

/// One call's shared state.
struct Job<'a, T, R, F> {
    items: &'a [T],
    /// The order items are taken in (`None`: input order).
    order: Option<Vec<usize>>,
    f: &'a F,
    next: AtomicUsize,
    stop: AtomicBool,
    slots: Vec<Mutex<Option<R>>>,
    panic: Mutex<Option<String>>,
}

impl<T: Sync, R: Send, F: Fn(&T) -> R + Sync> Job<'_, T, R, F> {
    /// Takes items until none is left or a task panicked. Never unwinds.
    fn run(&self) {
        while !self.stop.load(Ordering::Relaxed) {
            let taken = self.next.fetch_add(1, Ordering::Relaxed);
            let i = match &self.order {
                Some(order) => match order.get(taken) {
                    Some(&i) => i,
                    None => return,
                },
                None => taken,
            };
            let (Some(item), Some(slot)) = (self.items.get(i), self.slots.get(i)) else {
                return;
            };
            match catch_unwind(AssertUnwindSafe(|| (self.f)(item))) {
                Ok(result) => *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(result),
                Err(panic) => {
                    self.stop.store(true, Ordering::Relaxed);
                    let mut first = self.panic.lock().unwrap_or_else(PoisonError::into_inner);
                    first.get_or_insert_with(|| message(panic.as_ref()));
                }
            }
        }
    }

    /// The results in input order, once every runner has returned.
    fn finish(self) -> Result<Vec<R>, TaskPanicked> {
        let panic = self
            .panic
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(message) = panic {
            return Err(TaskPanicked(message));
        }
        let results: Vec<R> = self
            .slots
            .into_iter()
            .filter_map(|slot| slot.into_inner().unwrap_or_else(PoisonError::into_inner))
            .collect();
        if results.len() == self.items.len() {
            Ok(results)
        } else {
            Err(TaskPanicked("an item got no result".to_string()))
        }
    }
}

/// The persistent pool, with at least `helpers` workers.
///
/// A forked child (multiprocessing, Spark's Python workers) inherits the pool but
/// none of its threads: jobs spawned into it would never run and the call would
/// wait for ever. So the pool remembers the process that built it, and a child
/// builds its own (leaking the parent's, whose threads it cannot reach).
fn workers(helpers: usize) -> Result<Arc<rayon::ThreadPool>, rayon::ThreadPoolBuildError> {
    static POOL: Mutex<Option<(u32, Arc<rayon::ThreadPool>)>> = Mutex::new(None);
    let pid = std::process::id();
    let mut pool = POOL.lock().unwrap_or_else(PoisonError::into_inner);
    match pool.take() {
        Some((owner, current)) if owner == pid && current.current_num_threads() >= helpers => {
            *pool = Some((owner, Arc::clone(&current)));
            return Ok(current);
        }
        // Smaller: dropped once the calls still on it finish.
        Some((owner, smaller)) if owner == pid => drop(smaller),
        Some((_, inherited)) => std::mem::forget(inherited),
        None => {}
    }
    let built = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(helpers)
            .thread_name(|i| format!("tagloom-batch-{i}"))
            .build()?,
    );
    *pool = Some((pid, Arc::clone(&built)));
    Ok(built)
}

/// A panic payload's message.
fn message(panic: &(dyn Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_input_order() {
        let items: Vec<u64> = (0..1000).collect();
        for threads in [0, 1, 2, 7] {
            let squares = map(&items, threads, |n| n * n).expect("no panic");
            assert_eq!(squares, items.iter().map(|n| n * n).collect::<Vec<_>>());
        }
        assert!(map(&[] as &[u8], 4, |b| *b).expect("no panic").is_empty());
    }

    #[test]
    fn largest_first_keeps_the_input_order() {
        let items: Vec<usize> = (0..300).map(|n| (n * 37) % 101).collect();
        for threads in [1, 2, 3] {
            let out = map_largest_first(&items, threads, |n| *n, |n| n * 2).expect("no panic");
            assert_eq!(out, items.iter().map(|n| n * 2).collect::<Vec<_>>());
        }
        let none = map_largest_first(&[] as &[u8], 2, |_| 0, |b| *b).expect("no panic");
        assert!(none.is_empty());
        assert_eq!(largest_first([3, 9, 3, 0, 9].into_iter()), [1, 4, 0, 2, 3]);
    }

    #[test]
    fn never_more_threads_than_items() {
        assert_eq!(thread_count(8, 3), 3);
        assert_eq!(thread_count(2, 0), 1);
        assert!(thread_count(0, 100) >= 1);
    }

    #[test]
    fn the_caller_and_the_helpers_all_work() {
        // Each item waits until two distinct threads have taken items, so the call
        // can only finish if the caller and a helper run at the same time.
        use std::collections::HashSet;
        let seen = Mutex::new(HashSet::new());
        let caller = std::thread::current().id();
        let items: Vec<u32> = (0..2).collect();
        let out = map(&items, 2, |n| {
            seen.lock()
                .expect("lock")
                .insert(std::thread::current().id());
            while seen.lock().expect("lock").len() < 2 {
                std::thread::yield_now();
            }
            n + 1
        })
        .expect("no panic");
        assert_eq!(out, vec![1, 2]);
        let seen = seen.into_inner().expect("lock");
        assert!(seen.contains(&caller));
        assert!(seen.iter().any(|id| *id != caller));
    }

    #[test]
    fn the_helpers_outlive_a_call() {
        // Threads spawned per call would give a new helper every call (thread ids
        // are never reused); the pool's workers come back.
        let caller = std::thread::current().id();
        let items: Vec<u32> = (0..64).collect();
        let mut helpers = std::collections::HashSet::new();
        for _ in 0..20 {
            let seen = map(&items, 2, |_| {
                let me = std::thread::current();
                (me.id(), me.name().map(str::to_string))
            })
            .expect("no panic");
            for (id, name) in seen.into_iter().filter(|(id, _)| *id != caller) {
                assert!(name.is_some_and(|n| n.starts_with("tagloom-batch-")));
                helpers.insert(id);
            }
        }
        // Other tests may replace the pool with larger ones meanwhile (up to 6
        // workers each), never 20 times.
        assert!(helpers.len() <= 12, "{} helpers in 20 calls", helpers.len());
    }

    #[test]
    fn a_panic_is_an_error_and_the_pool_stays_usable() {
        let items: Vec<u32> = (0..500).collect();
        for threads in [1, 2, 3] {
            let err = map(&items, threads, |n| {
                assert!(*n != 250, "item {n} is bad");
                *n
            })
            .expect_err("item 250 panics");
            assert!(err.to_string().contains("item 250 is bad"), "{err}");
            let again = map(&items, threads, |n| n * 2).expect("no panic");
            assert_eq!(again.get(499), Some(&998));
        }
    }

    #[test]
    fn calls_from_many_threads_at_once() {
        let items: Vec<u64> = (0..2000).collect();
        let items = &items;
        std::thread::scope(|s| {
            let calls: Vec<_> = (1..=4)
                .map(|threads| {
                    s.spawn(move || (threads, map(items, threads, |n| n + threads as u64)))
                })
                .collect();
            for call in calls {
                let (threads, out) = call.join().expect("no panic");
                let out = out.expect("no panic");
                assert_eq!(out.first(), Some(&(threads as u64)));
                assert_eq!(out.len(), 2000);
            }
        });
    }
}

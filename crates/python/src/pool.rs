//! The batch calls' parallel map: `threads` scoped threads take items by index
//! from a shared counter (a long document does not hold up a fixed share of the
//! list), and the results come back in input order.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many threads to use for `requested` (0: one per available core), never more
/// than there are items.
pub fn thread_count(requested: usize, items: usize) -> usize {
    let available = std::thread::available_parallelism().map_or(1, |n| n.get());
    let wanted = if requested == 0 { available } else { requested };
    wanted.min(items).max(1)
}

/// `f` over every item on `threads` threads (see [`thread_count`]), results in
/// input order. A panic in `f` is propagated.
pub fn map<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = thread_count(threads, items.len());
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let (Some(item), Some(slot)) = (items.get(i), slots.get(i)) else {
                        break;
                    };
                    let result = f(item);
                    if let Ok(mut slot) = slot.lock() {
                        *slot = Some(result);
                    }
                }
            });
        }
    });
    slots
        .into_iter()
        .filter_map(|slot| slot.into_inner().ok().flatten())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_input_order() {
        let items: Vec<u64> = (0..1000).collect();
        for threads in [0, 1, 2, 7] {
            let squares = map(&items, threads, |n| n * n);
            assert_eq!(squares, items.iter().map(|n| n * n).collect::<Vec<_>>());
        }
        assert!(map(&[] as &[u8], 4, |b| *b).is_empty());
    }

    #[test]
    fn never_more_threads_than_items() {
        assert_eq!(thread_count(8, 3), 3);
        assert_eq!(thread_count(2, 0), 1);
        assert!(thread_count(0, 100) >= 1);
    }
}

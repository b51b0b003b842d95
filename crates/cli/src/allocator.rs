//! The binary's global allocator: mimalloc with the `mimalloc` feature (on by
//! default), else the system's. The wikitext render and the localization readers
//! make millions of small allocations, and glibc's malloc and free were 14–22 % of
//! their instructions (BENCHMARKS.md, session 16).

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` of mimalloc v3's `mi_option_t` (its `mimalloc.h`, the
/// version `libmimalloc-sys` 0.1.49 builds; its Rust bindings name no constant).
#[cfg(feature = "mimalloc")]
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Freed memory goes back to the system at once instead of after mimalloc's purge
/// delay (10 ms). For the jobs with a memory bound (`l10n`: ≤ 16 MB on any input):
/// with the delay, the reader's and the writer's freed batches overlap and a 1 GB
/// page's merge peaked at 15.9 MiB, without it 13.9 MiB, at the same speed. The
/// wikitext render runs a third slower without the delay, so only the commands
/// that need it ask. No effect with the system allocator.
/// Call it before the job starts its threads.
pub(crate) fn return_freed_memory_at_once() {
    #[cfg(feature = "mimalloc")]
    // SAFETY: `mi_option_set` stores a value in mimalloc's option table; it is
    // called on the main thread before the command starts any other, mimalloc reads
    // the delay at each purge decision, and every value is valid for it (0: at once).
    unsafe {
        libmimalloc_sys::mi_option_set(PURGE_DELAY, 0);
    }
}

#[cfg(all(test, feature = "mimalloc"))]
mod tests {
    use super::*;

    #[test]
    fn the_purge_delay_is_set_to_zero() {
        return_freed_memory_at_once();
        // SAFETY: `mi_option_get` reads mimalloc's option table (no other thread of
        // this test sets options).
        let delay = unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) };
        assert_eq!(delay, 0);
    }
}

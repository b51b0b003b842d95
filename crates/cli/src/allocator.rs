//! The binary's global allocator: mimalloc with the `mimalloc` feature (on by
//! default; `tagloom-alloc`, which calls mimalloc's plain entry points where a
//! layout allows), else the system's. The wikitext render and the localization
//! readers make millions of small allocations, and glibc's malloc and free were
//! 14–22 % of their instructions (BENCHMARKS.md, session 16).

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: tagloom_alloc::MiMalloc = tagloom_alloc::MiMalloc;

/// Freed memory goes back to the system at once (`tagloom_alloc`'s
/// `return_freed_memory_at_once`: the `l10n` jobs' memory bound). No effect with
/// the system allocator. Call it before the job starts its threads.
pub(crate) fn return_freed_memory_at_once() {
    #[cfg(feature = "mimalloc")]
    tagloom_alloc::return_freed_memory_at_once();
}

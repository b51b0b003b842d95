//! # tagloom-python
//!
//! The `tagloom` Python package's extension module (`tagloom._tagloom`). The
//! bindings (`py/`) are behind the `python` feature, which maturin turns on
//! (`pyproject.toml`); without it the crate is its pure-Rust helpers, which
//! `cargo test --workspace` tests without linking Python:
//!
//! - [`parse`]: the parse the bindings run (the CLI's settings), and the patch
//!   batches of one;
//! - [`text`]: the text of a tree;
//! - [`pool`]: the parallel map of the batch calls;
//! - [`tokens`]: the token list of `tagloom.tokens`;
//! - [`ucs4`]: code points to UTF-8 (how a non-ASCII `str` is read).
//!
//! Everything user-facing is documented on the Python side (`python/tagloom/`).

#![deny(unsafe_code)]
#![warn(missing_docs)]
// Without the bindings, some helpers have no caller but their tests.
#![cfg_attr(not(feature = "python"), allow(dead_code))]

pub mod parse;
pub mod pool;
pub mod text;
pub mod tokens;
pub mod ucs4;

#[cfg(feature = "python")]
mod py;

/// The extension module's allocator. The batch calls build trees on worker threads
/// and Python frees them later on its own thread; with glibc's malloc that trims and
/// refaults the workers' arenas at every call (2 threads cost 30 % more CPU than 1).
/// mimalloc frees across threads without it, and is faster on the many small
/// allocations of a parse. Only Rust allocations of this module use it; Python's own
/// allocator is untouched.
///
/// It is built without transparent huge pages (`no_thp` in the workspace's `libmimalloc-sys`:
/// mimalloc does not `madvise(MADV_HUGEPAGE)` its arenas; nothing else in the
/// process changes). On a VM whose kernel reports free memory to the host, the
/// first touch of a huge page cost 0.1 ms or 1–6 ms of system time (probably by
/// whether the host still backed it), so a parse that grew the heap by a few huge
/// pages ran at two speeds: 20 MB parsed at ~340 or ~240 MB/s of CPU time. 4 KiB
/// pages fault at a steady ~2 µs each, and the parse itself is no slower without
/// huge pages. The price: a large parse that refaults memory mimalloc purged just
/// before (one every few seconds) pays 30–45 ms more system time per 20 MB than
/// with huge pages (BENCHMARKS.md, "From Python", session 15).
#[cfg(feature = "python")]
#[global_allocator]
static ALLOCATOR: tagloom_alloc::MiMalloc = tagloom_alloc::MiMalloc;

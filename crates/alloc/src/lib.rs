//! The global allocator of tagloom's binaries (the CLI, the Python extension and
//! the benches that time CLI jobs): mimalloc, with one difference from the
//! `mimalloc` crate's `GlobalAlloc`, which calls mimalloc's *aligned* entry points
//! for every allocation. Every Rust allocation carries an alignment, and
//! `mi_malloc_aligned` first checks whether a free block happens to be aligned, then
//! takes mimalloc's generic path when it is not; most layouts need no more than
//! what `mi_malloc` always gives, so [`MiMalloc`] calls the plain entry points for
//! them (`mi_malloc`, `mi_zalloc`, `mi_realloc`) and the aligned ones only for the
//! rest. On the wikitext render (2.4 M allocations on the bench corpus) this took
//! 68 M of 2 126 M instructions (BENCHMARKS.md, session 19).
//!
//! **When the plain entry points are enough.** mimalloc serves a small request from
//! a size class ("bin"); every bin's block size is a multiple of 8, the block size
//! of a request whose size is a multiple of 16 is a multiple of 16, and the first
//! block of a page is aligned to `MI_MAX_ALIGN_SIZE` (16 on the platforms Rust
//! supports with mimalloc); larger requests are page-aligned. So a block for `size`
//! bytes is aligned to any `align ≤ 16` that divides `size`. A layout
//! whose size is not a multiple of its alignment (legal, rare) or asks for more
//! than 16 goes to the aligned entry points, as before. A debug or secure mimalloc
//! build (padding, guard pages) keeps the same guarantee; the tests below check
//! every size up to 4 KiB with every alignment up to 4 KiB, and a sample of sizes
//! up to 8 MiB.
//!
//! ```no_run
//! #[global_allocator]
//! static ALLOCATOR: tagloom_alloc::MiMalloc = tagloom_alloc::MiMalloc;
//! ```

#![warn(missing_docs)]

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys::{
    mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned, mi_zalloc,
    mi_zalloc_aligned,
};

/// mimalloc as a [`GlobalAlloc`] (see the crate docs for what it does differently).
#[derive(Debug, Clone, Copy, Default)]
pub struct MiMalloc;

/// mimalloc's `MI_MAX_ALIGN_SIZE`: the alignment its bins give a block whose size
/// is a multiple of it.
const MAX_PLAIN_ALIGN: usize = 16;

/// Whether a block of `size` bytes from the plain entry points is aligned to
/// `align` (a power of two, as [`Layout`] guarantees).
#[inline]
fn plain(size: usize, align: usize) -> bool {
    align <= MAX_PLAIN_ALIGN && size & (align - 1) == 0
}

// SAFETY: every method forwards to the mimalloc function that meets the layout's
// alignment: the plain ones only where `plain` holds (the crate docs give the
// reason), the aligned ones otherwise; both return null on failure, as
// `GlobalAlloc` asks. `mi_free` frees a block from any of them, and
// `mi_realloc`/`mi_realloc_aligned` keep the old contents up to the smaller size.
unsafe impl GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: a valid size and (for the aligned call) a power-of-two alignment.
        unsafe {
            if plain(layout.size(), layout.align()) {
                mi_malloc(layout.size()) as *mut u8
            } else {
                mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        unsafe {
            if plain(layout.size(), layout.align()) {
                mi_zalloc(layout.size()) as *mut u8
            } else {
                mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: the caller passes a block this allocator returned.
        unsafe { mi_free(ptr as *mut c_void) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` is this allocator's block for `layout`; `mi_realloc` keeps
        // the block where it fits (aligned already) or moves it to a plain block of
        // `new_size`, aligned when `plain(new_size, align)` holds.
        unsafe {
            if plain(new_size, layout.align()) {
                mi_realloc(ptr as *mut c_void, new_size) as *mut u8
            } else {
                mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
            }
        }
    }
}

/// `mi_option_purge_delay` of mimalloc v3's `mi_option_t` (its `mimalloc.h`, the
/// version `libmimalloc-sys` 0.1.49 builds; its Rust bindings name no constant).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Freed memory goes back to the system at once instead of after mimalloc's purge
/// delay (10 ms). For the jobs with a memory bound (`l10n`: ≤ 16 MB on any input):
/// with the delay, the reader's and the writer's freed batches overlap and a 1 GB
/// page's merge peaked at 15.9 MiB, without it 13.9 MiB, at the same speed. The
/// wikitext render runs a third slower without the delay, so only the commands
/// that need it ask. Call it before the job starts its threads.
pub fn return_freed_memory_at_once() {
    // SAFETY: `mi_option_set` stores a value in mimalloc's option table; callers
    // call it before they start any other thread, mimalloc reads the delay at each
    // purge decision, and every value is valid for it (0: at once).
    unsafe {
        libmimalloc_sys::mi_option_set(PURGE_DELAY, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Allocates, fills, grows and frees `layout` through [`MiMalloc`], checking
    /// the alignment of every block and that a realloc kept the contents.
    fn round_trip(layout: Layout) {
        let a = MiMalloc;
        // SAFETY: non-zero sizes; each block is used within its size and freed once
        // with the layout it was made (or last reallocated) with.
        unsafe {
            let p = a.alloc(layout);
            assert!(!p.is_null());
            assert_eq!(p as usize % layout.align(), 0, "{layout:?}");
            p.write_bytes(0xA5, layout.size());
            let grown = layout.size() * 2 + layout.align();
            let q = a.realloc(p, layout, grown);
            assert!(!q.is_null());
            assert_eq!(q as usize % layout.align(), 0, "realloc of {layout:?}");
            assert!((0..layout.size()).all(|i| *q.add(i) == 0xA5), "{layout:?}");
            a.dealloc(q, Layout::from_size_align_unchecked(grown, layout.align()));
            let z = a.alloc_zeroed(layout);
            assert_eq!(z as usize % layout.align(), 0, "zeroed {layout:?}");
            assert!((0..layout.size()).all(|i| *z.add(i) == 0), "{layout:?}");
            a.dealloc(z, layout);
        }
    }

    #[test]
    fn every_small_size_is_aligned_for_every_alignment() {
        for size in 1..=4096 {
            for shift in 0..=12 {
                let align = 1usize << shift;
                if let Ok(layout) = Layout::from_size_align(size, align) {
                    round_trip(layout);
                }
            }
        }
    }

    #[test]
    fn large_sizes_are_aligned() {
        let mut size = 4096;
        while size <= 4 << 20 {
            for extra in [0, 8, 16, 24, 4000] {
                for align in [1, 8, 16, 32, 4096, 1 << 16] {
                    if let Ok(layout) = Layout::from_size_align(size + extra, align) {
                        round_trip(layout);
                    }
                }
            }
            size *= 2;
        }
    }

    #[test]
    fn plain_only_where_the_bins_align() {
        assert!(plain(48, 16));
        assert!(plain(8, 8));
        assert!(plain(3, 1));
        assert!(!plain(24, 16), "a 24-byte bin is only 8-aligned");
        assert!(!plain(64, 32));
    }

    #[test]
    fn the_purge_delay_is_set_to_zero() {
        return_freed_memory_at_once();
        // SAFETY: `mi_option_get` reads mimalloc's option table (no other test of
        // this crate sets options).
        let delay = unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) };
        assert_eq!(delay, 0);
    }
}

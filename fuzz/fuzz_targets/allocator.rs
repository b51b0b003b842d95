//! tagloom's global allocator (`tagloom-alloc`: mimalloc's plain entry points
//! where a layout allows, the aligned ones otherwise) under arbitrary sequences of
//! allocations, zeroed allocations, reallocations and frees of arbitrary layouts.
//!
//! Each operation reads a few bytes of the input: the kind, a size (small sizes
//! mostly, sometimes up to 1 MiB), an alignment (1 to 64 KiB) and which live block
//! it concerns (at most 64 live). Every block must come back aligned to its layout,
//! zeroed when asked, and keep its contents (a fill byte per block, checked at its
//! first and last bytes and a sample between) through every reallocation until it
//! is freed. The target also runs with the allocator as its global one, so the
//! harness's own allocations go through it.
#![no_main]

use std::alloc::{GlobalAlloc, Layout};

use libfuzzer_sys::fuzz_target;
use tagloom_alloc::MiMalloc;

#[global_allocator]
static ALLOCATOR: MiMalloc = MiMalloc;

struct Block {
    ptr: *mut u8,
    layout: Layout,
    fill: u8,
}

/// The bytes of `block` the checks look at: both ends and every 61st between.
fn probes(size: usize) -> impl Iterator<Item = usize> {
    (0..size).step_by(61).chain(size.checked_sub(1))
}

fn check(block: &Block) {
    assert_eq!(block.ptr as usize % block.layout.align(), 0, "{:?}", block.layout);
    for i in probes(block.layout.size()) {
        // SAFETY: `i` < the block's size; the block is live.
        let b = unsafe { *block.ptr.add(i) };
        assert_eq!(b, block.fill, "byte {i} of {:?}", block.layout);
    }
}

fn fill(block: &Block) {
    // SAFETY: the block is live and `layout.size()` bytes long.
    unsafe { block.ptr.write_bytes(block.fill, block.layout.size()) }
}

struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }

    fn size(&mut self) -> Option<usize> {
        let a = self.byte()?;
        let b = self.byte()?;
        let n = usize::from(u16::from_le_bytes([a, b]));
        Some(match a >> 6 {
            // mostly small: the bins
            0..=2 => (n & 0x3ff) + 1,
            // sometimes up to 1 MiB
            _ => (n << 4) + usize::from(b & 15) + 1,
        })
    }

    fn align(&mut self) -> Option<usize> {
        Some(1usize << (self.byte()? % 17))
    }
}

fuzz_target!(|data: &[u8]| {
    let a = MiMalloc;
    let mut input = Input(data);
    let mut live: Vec<Block> = Vec::new();
    let mut next_fill = 1u8;
    while let Some(op) = input.byte() {
        next_fill = next_fill.wrapping_add(1).max(1);
        match op % 4 {
            0 | 1 if live.len() < 64 => {
                let (Some(size), Some(align)) = (input.size(), input.align()) else {
                    break;
                };
                let Ok(layout) = Layout::from_size_align(size, align) else {
                    continue;
                };
                let zeroed = op % 4 == 1;
                // SAFETY: a non-zero size.
                let ptr = unsafe {
                    if zeroed {
                        a.alloc_zeroed(layout)
                    } else {
                        a.alloc(layout)
                    }
                };
                assert!(!ptr.is_null(), "{layout:?}");
                let block = Block { ptr, layout, fill: 0 };
                if zeroed {
                    check(&block);
                }
                let block = Block { fill: next_fill, ..block };
                fill(&block);
                live.push(block);
            }
            2 if !live.is_empty() => {
                let (Some(pick), Some(size)) = (input.byte(), input.size()) else {
                    break;
                };
                let i = usize::from(pick) % live.len();
                let block = &mut live[i];
                check(block);
                let Ok(new_layout) = Layout::from_size_align(size, block.layout.align()) else {
                    continue;
                };
                // SAFETY: a live block of this allocator with its layout; non-zero size.
                let ptr = unsafe { a.realloc(block.ptr, block.layout, size) };
                assert!(!ptr.is_null(), "{new_layout:?}");
                let kept = block.layout.size().min(size);
                block.ptr = ptr;
                block.layout = Layout::from_size_align(kept, new_layout.align()).unwrap();
                check(block);
                block.layout = new_layout;
                block.fill = next_fill;
                fill(block);
            }
            3 if !live.is_empty() => {
                let Some(pick) = input.byte() else { break };
                let block = live.swap_remove(usize::from(pick) % live.len());
                check(&block);
                // SAFETY: a live block of this allocator, freed once.
                unsafe { a.dealloc(block.ptr, block.layout) };
            }
            _ => {}
        }
    }
    for block in live {
        check(&block);
        // SAFETY: as above.
        unsafe { a.dealloc(block.ptr, block.layout) };
    }
});

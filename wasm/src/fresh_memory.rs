//! The allocator of the WebAssembly build: Rust's own (dlmalloc), except that large zeroed
//! blocks (the engines' tables) come straight from `memory.grow`, whose pages are zero
//! already. dlmalloc clears every block it hands to `alloc_zeroed`, and clearing a 16 MiB
//! table takes a worker of the page 40 ms in Node and over 100 ms in a loaded tab, before its
//! first search; a page not yet written costs nothing until the search reaches it.
//!
//! A memory cannot shrink, so a freed large block is kept and handed out again (cleared then)
//! for the next large zeroed request it fits.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::RefCell;

/// The smallest request served from fresh pages: below it, clearing costs less than a page.
const LARGE: usize = 1 << 20;
const PAGE: usize = 64 << 10;
/// Large blocks remembered; beyond them, requests go to dlmalloc.
const SLOTS: usize = 32;

#[derive(Clone, Copy)]
struct Block {
    start: usize,
    bytes: usize,
    free: bool,
}

pub struct FreshMemory {
    blocks: RefCell<[Option<Block>; SLOTS]>,
}

// SAFETY: the WebAssembly build has one thread per instance (no atomics): nothing shares it.
unsafe impl Sync for FreshMemory {}

impl FreshMemory {
    pub const fn new() -> FreshMemory {
        FreshMemory {
            blocks: RefCell::new([None; SLOTS]),
        }
    }

    /// A block of at least `bytes`, zeroed: a freed one that fits (the smallest), cleared, or
    /// new pages. `None`: dlmalloc's turn (no room left to remember it, or no memory).
    fn zeroed(&self, bytes: usize) -> Option<*mut u8> {
        let mut blocks = self.blocks.try_borrow_mut().ok()?;
        let reuse = blocks
            .iter_mut()
            .flatten()
            .filter(|b| b.free && b.bytes >= bytes)
            .min_by_key(|b| b.bytes);
        if let Some(block) = reuse {
            block.free = false;
            let start = block.start as *mut u8;
            // SAFETY: the block is ours, at least `bytes` long, and no longer in use.
            unsafe { start.write_bytes(0, bytes) };
            return Some(start);
        }
        let slot = blocks.iter_mut().find(|b| b.is_none())?;
        let pages = bytes.div_ceil(PAGE);
        let first = core::arch::wasm32::memory_grow(0, pages);
        if first == usize::MAX {
            return None;
        }
        let start = first * PAGE;
        *slot = Some(Block {
            start,
            bytes: pages * PAGE,
            free: false,
        });
        Some(start as *mut u8)
    }

    /// Whether `ptr` is a large block of ours in use; with `free`, it is free again.
    fn ours(&self, ptr: *mut u8, free: bool) -> bool {
        let Ok(mut blocks) = self.blocks.try_borrow_mut() else {
            return false;
        };
        match blocks
            .iter_mut()
            .flatten()
            .find(|b| b.start == ptr as usize && !b.free)
        {
            Some(block) => {
                block.free = free;
                true
            }
            None => false,
        }
    }
}

// SAFETY: every block handed out is either dlmalloc's (and goes back to it) or a run of whole
// pages of our own, aligned to a page (64 KiB, more than any layout here asks), zeroed where
// asked, and never handed out twice while in use.
unsafe impl GlobalAlloc for FreshMemory {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the caller promised for `layout`.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= LARGE
            && layout.align() <= PAGE
            && let Some(ptr) = self.zeroed(layout.size())
        {
            return ptr;
        }
        // SAFETY: as the caller promised for `layout`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if layout.size() >= LARGE && self.ours(ptr, true) {
            return;
        }
        // SAFETY: not ours, so dlmalloc's, as the caller promised.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.size() >= LARGE && self.ours(ptr, false) {
            // SAFETY: as the caller promised; dlmalloc's block takes the contents, then ours
            // is free again.
            unsafe {
                let new = System.alloc(Layout::from_size_align_unchecked(new_size, layout.align()));
                if !new.is_null() {
                    new.copy_from_nonoverlapping(ptr, layout.size().min(new_size));
                    self.ours(ptr, true);
                }
                return new;
            }
        }
        // SAFETY: not ours, so dlmalloc's, as the caller promised.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

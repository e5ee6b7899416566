//! The module's allocator: the system's, but a large block freed is kept
//! for the next large allocation instead of being given back.
//!
//! A column kernel's answer is a few large buffers (16 bytes a row for a
//! string view), freed when Python drops the column. The system's
//! allocator maps each afresh and unmaps it when freed, so each call
//! pays a page fault for every 4 KiB it writes: about a third of
//! `arrow.parse`'s time (benches/python/README.md). Kept here, the next
//! call writes into pages already mapped.
//!
//! Only the Rust allocations of this module go through it (the
//! `#[global_allocator]` of a cdylib): the interpreter's `malloc` and
//! every other module's are untouched. What is kept is bounded: no more
//! than the most this module has held at once in large blocks, and at
//! most [`KEEP`] bytes.

#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::{Mutex, MutexGuard};

/// The smallest block kept: below it, the system's allocator reuses
/// what is freed from its own heap (glibc's default `mmap` threshold).
const LARGE: usize = 128 << 10;

/// The most bytes kept, freed blocks waiting for their next use.
const KEEP: usize = 256 << 20;

/// The most blocks kept.
const SLOTS: usize = 64;

/// The alignment of every large block (a `Vec`'s of `u128` views, and
/// what the system's `malloc` gives, so that `realloc` can move a block
/// without copying it), and the room before it that holds its size. A
/// larger alignment (Arrow's `MutableBuffer` asks for 64) is the
/// system's alone.
const ALIGN: usize = 16;

pub struct Pool;

/// The large blocks freed, oldest first (their starts and sizes), and
/// the bytes of large blocks in use.
struct Kept {
    blocks: [(usize, usize); SLOTS],
    len: usize,
    bytes: usize,
    in_use: usize,
    most_in_use: usize,
}

static KEPT: Mutex<Kept> =
    Mutex::new(Kept { blocks: [(0, 0); SLOTS], len: 0, bytes: 0, in_use: 0, most_in_use: 0 });

fn kept() -> MutexGuard<'static, Kept> {
    // Nothing panics while it is held.
    KEPT.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether `layout` is served by a large block.
#[inline]
fn large(layout: Layout) -> bool {
    layout.size() >= LARGE && layout.align() <= ALIGN
}

impl Kept {
    /// The smallest block kept of at least `size` bytes, taken out: its
    /// start and size.
    fn take(&mut self, size: usize) -> Option<(usize, usize)> {
        let mut best: Option<usize> = None;
        for i in 0..self.len {
            let s = self.blocks[i].1;
            if s >= size && best.is_none_or(|b| s < self.blocks[b].1) {
                best = Some(i);
            }
        }
        let i = best?;
        let block = self.blocks[i];
        self.blocks.copy_within(i + 1..self.len, i);
        self.len -= 1;
        self.bytes -= block.1;
        Some(block)
    }

    /// Keeps a block, giving back the oldest kept until it fits.
    fn keep(&mut self, start: usize, size: usize) {
        let most = KEEP.min(self.most_in_use);
        if size > most {
            return give_back(start, size);
        }
        while self.len == SLOTS || self.bytes + size > most {
            let (old, old_size) = self.blocks[0];
            self.blocks.copy_within(1..self.len, 0);
            self.len -= 1;
            self.bytes -= old_size;
            give_back(old, old_size);
        }
        self.blocks[self.len] = (start, size);
        self.len += 1;
        self.bytes += size;
    }

    fn lent(&mut self, size: usize) {
        self.in_use += size;
        self.most_in_use = self.most_in_use.max(self.in_use);
    }
}

/// The system's block at `start`, of `size` bytes (its header
/// included).
fn system_layout(size: usize) -> Layout {
    // SAFETY: ALIGN is a power of two and `size` a block's size, which
    // the system allocated with this layout.
    unsafe { Layout::from_size_align_unchecked(size, ALIGN) }
}

/// Gives a block back to the system.
fn give_back(start: usize, size: usize) {
    // SAFETY: the block at `start` was allocated by `System` with this
    // layout and is no longer in use.
    unsafe { System.dealloc(start as *mut u8, system_layout(size)) }
}

/// A large block for `layout`: one kept, or a new one. The block's size
/// is written at its start; the caller's bytes begin ALIGN bytes in.
///
/// # Safety
/// `layout` is large.
unsafe fn lend(layout: Layout, zeroed: bool) -> *mut u8 {
    let need = layout.size() + ALIGN;
    let mut k = kept();
    let (start, size) = match k.take(need) {
        Some((start, size)) => {
            drop(k);
            if zeroed {
                (start as *mut u8).add(ALIGN).write_bytes(0, layout.size());
            }
            (start, size)
        }
        None => {
            drop(k);
            // The size asked for, no more: the system may have a block
            // of that size freed (a Python object's) to give.
            let size = need;
            let l = system_layout(size);
            let p = if zeroed { System.alloc_zeroed(l) } else { System.alloc(l) };
            if p.is_null() {
                return p;
            }
            (p as usize, size)
        }
    };
    kept().lent(size);
    (start as *mut usize).write(size);
    (start as *mut u8).add(ALIGN)
}

/// The start and size of the large block whose caller's bytes are at `ptr`.
///
/// # Safety
/// `ptr` was given by [`lend`].
unsafe fn block(ptr: *mut u8) -> (usize, usize) {
    let start = ptr.sub(ALIGN);
    (start as usize, (start as *const usize).read())
}

// SAFETY: a large block is the system's, handed out whole to one caller
// at a time; a small one is the system's own.
unsafe impl GlobalAlloc for Pool {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if large(layout) {
            lend(layout, false)
        } else {
            System.alloc(layout)
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if large(layout) {
            lend(layout, true)
        } else {
            System.alloc_zeroed(layout)
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if large(layout) {
            let (start, size) = block(ptr);
            let mut k = kept();
            k.in_use -= size;
            k.keep(start, size);
        } else {
            System.dealloc(ptr, layout)
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = Layout::from_size_align_unchecked(new_size, layout.align());
        match (large(layout), large(new)) {
            (false, false) => System.realloc(ptr, layout, new_size),
            (true, true) => {
                let (start, size) = block(ptr);
                if new_size + ALIGN <= size {
                    return ptr;
                }
                // Grown by the system (`mremap` for a mapped block: no
                // copy, and never the old and the new block at once).
                let grown = new_size + ALIGN;
                let p = System.realloc(start as *mut u8, system_layout(size), grown);
                if p.is_null() {
                    return p;
                }
                let mut k = kept();
                k.in_use -= size;
                k.lent(grown);
                drop(k);
                (p as *mut usize).write(grown);
                p.add(ALIGN)
            }
            _ => {
                let p = self.alloc(new);
                if !p.is_null() {
                    std::ptr::copy_nonoverlapping(ptr, p, layout.size().min(new_size));
                    self.dealloc(ptr, layout);
                }
                p
            }
        }
    }
}

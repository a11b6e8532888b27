// A counting, header-checking global allocator shared by the integration tests that
// check what the derivatives allocate and release (alloc40, rust41): included at the
// crate root with `include!("support/counting.rs")`, which also installs it as the test
// binary's `#[global_allocator]` (in a module of its own, `mod counting;`, its
// `dealloc` is differentiated through `__rust_dealloc` and refused: rust41).
//
// It counts the blocks each thread has live and writes a header before each block (a
// magic number and the layout's size) that `dealloc` checks, aborting on a block it did
// not make or one released with another layout.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    /// Blocks this thread allocated and has not released.
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

const MAGIC: u64 = 0xa110_c40d_ea11_0c40;

/// A counting allocator that checks a header it writes before each block.
struct Counting;

/// The header's room before the block: at least 16 bytes, as aligned as the block.
fn room(l: Layout) -> usize {
    l.align().max(16)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let a = room(l);
        let p = System.alloc(Layout::from_size_align_unchecked(l.size() + a, a));
        if p.is_null() {
            return p;
        }
        *(p.add(a - 8) as *mut u64) = MAGIC ^ l.size() as u64;
        LIVE.with(|c| c.set(c.get() + 1));
        p.add(a)
    }

    unsafe fn dealloc(&self, q: *mut u8, l: Layout) {
        let a = room(l);
        if *(q.sub(8) as *const u64) != MAGIC ^ l.size() as u64 {
            // Not a block of this allocator, or released with another layout.
            eprintln!("alloc40: dealloc of a block the global allocator did not make");
            std::process::abort();
        }
        *(q.sub(8) as *mut u64) = 0;
        LIVE.with(|c| c.set(c.get() - 1));
        System.dealloc(q.sub(a), Layout::from_size_align_unchecked(l.size() + a, a));
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn live() -> isize {
    LIVE.with(|c| c.get())
}


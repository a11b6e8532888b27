//! Record stacks of split-mode tapes reserved in the tape arena (issue 14, the recursive
//! FFT).
//!
//! A split pair (a recursive function's augmented forward and reverse) gets one tape
//! block per call from the per-thread arena, and each record stack in it starts with no
//! buffer (`values.rs`, `init_inline_stack`): the first reservation of a counted loop
//! calls `__fz_grow`, which for small buffers is `malloc`, and the reverse sweep gives
//! the buffer back with `free`. The recursive FFT (`bench/src/fft.c`) makes one such
//! call per butterfly group, 2^15 per transform at N = 32768, mostly of 16-64 bytes:
//! malloc and free, whose caches overflow when the forward sweep allocates them all
//! before the reverse sweep frees any, were about a quarter of the gradient's
//! instructions. Here the reservation takes an arena block instead
//! (`__fz_reserve_arena`, `runtime/ir/arena_stack.ll`): a bump allocation in the order
//! of the calls, popped as the reverse sweep frees in about the opposite order.
//!
//! Safe when the stack cannot need more room than reserved and is reserved at most once
//! per call: its only push is `__fz_push_reserved` covered by the sure bound of
//! `fixed_tape.rs` (each record has a stack of its own), and the reservation's block is
//! on no cycle of the function (it runs at most once per call, so the stack is fresh
//! there). The runtime still checks freshness and falls back to `__fz_reserve` otherwise,
//! and gives a buffer back to the arena or the pool by its capacity's parity, so a stack
//! that took the ordinary path is freed as before.

use std::collections::HashSet;

use ferrozyme_llvm::Block;

use super::Gen;
use crate::runtime::RtFn;

impl Gen<'_> {
    /// The reservation to call for a fixed-size record stack at `stack` reserved before
    /// the forward copy of primal block `pre`: `__fz_reserve_arena` in a split pair when
    /// `pre` runs at most once per call (the stack is then noted for
    /// [`Gen::stack_free_fn`]), else `__fz_reserve`. A nested pair (`tape_nest.rs`: its
    /// tape lies in its non-recursive caller's, one call per call of the caller) keeps
    /// `__fz_reserve`: its calls are few, and its big buffers belong in the pool.
    pub(super) fn fixed_reserve_fn(&mut self, stack: u64, pre: Block) -> RtFn {
        if self.fx.split && !self.fx.nested && !self.on_cycle(pre) {
            self.tape.arena_stacks.insert(stack);
            RtFn::ReserveArena
        } else {
            RtFn::Reserve
        }
    }

    /// How the reverse sweep's exit releases the stack at `stack`.
    pub(super) fn stack_free_fn(&self, stack: u64) -> RtFn {
        if self.tape.arena_stacks.contains(&stack) {
            RtFn::StackFreeArena
        } else {
            RtFn::StackFree
        }
    }

    /// Is primal block `b` on a cycle of the control-flow graph (in a loop, natural or
    /// not)?
    fn on_cycle(&self, b: Block) -> bool {
        if self.fx.loops.innermost_index(b).is_some() {
            return true;
        }
        let mut seen: HashSet<Block> = HashSet::new();
        let mut work: Vec<Block> = self.fx.cfg.succs(b);
        while let Some(x) = work.pop() {
            if x == b {
                return true;
            }
            if seen.insert(x) {
                work.extend(self.fx.cfg.succs(x));
            }
        }
        false
    }
}

//! A tape stack's records moved into a larger buffer, when the generated code that grows
//! the stack is itself differentiated (reverse over reverse of a loop with a tape).
//!
//! A derivative's loop records live on tape stacks (`runtime/ir/stack.ll`). When such a
//! derivative is differentiated again, the runtime's IR is differentiated like any
//! other code: the stack header sits in the inner derivative's tape, so its shadow is a
//! second header with the same length and capacity and a shadow buffer, a mirror stack
//! (the adjoint of a value the inner reverse sweep pops flows, through the shadow
//! buffer, back to the store the inner forward sweep pushed it with). Two facts make
//! that typeable: the header's lengths are integers (`!ferrozyme.tape.int` on their
//! accesses), and the copies of record bytes, growth's `memcpy` of the inline buffer
//! and `realloc` of a heap one, carry `!ferrozyme.tape.move`. So do split mode's copies
//! of a tape between the augmented function's local buffer and the heap block it
//! returns (`finish.rs` at each return, `mod.rs` at the reverse function's entry): the
//! local buffer dies at the return, the heap block is only freed after the copy. (The
//! runtime's single-block functions are inlined into the clone first: `clone.rs`.)
//!
//! Such a copy mixes every type the records hold (floats, counters, pointers), so it has
//! no float layout to add adjoints by. It needs none: the old buffer is never read or
//! written after the move (pushes go to the new buffer, the old one is abandoned or
//! freed), so when the outer reverse sweep reaches the move, nothing has put an adjoint
//! into the old buffer's shadow since the move, and the new shadow's first bytes are
//! exactly what belongs there — they are copied back byte for byte (for the `realloc`,
//! `__fz_realloc_adj_bytes` whatever type analysis says the buffer holds: its merged
//! facts about every stack's records are no layout), and the new shadow is cleared (the
//! copy overwrote whatever the new buffer held). The forward sweep copies the shadow
//! bytes too (pointer records carry their shadows into the new buffer).

use ferrozyme_analysis::types::TAPE_MOVE_MD;
use ferrozyme_llvm::{Context, Value};

use super::Gen;

/// Is `call` a move of tape records whose source is never used again (the runtime's
/// growth of a stack, split mode's tape handover)?
pub(crate) fn is_tape_move(call: Value) -> bool {
    call.metadata(call.ty().context().md_kind(TAPE_MOVE_MD))
        .is_some()
}

/// Marks the `memcpy` `call` as such a move.
pub(super) fn mark_tape_move(ctx: Context, call: Value) {
    call.set_metadata(ctx.md_kind(TAPE_MOVE_MD), Some(ctx.md_node(&[])));
}

impl Gen<'_> {
    /// Reverse of a tape move: the new shadow's first `n` bytes go back to the old
    /// shadow, as they are (see the module comment for why no addition is needed), and
    /// are cleared.
    pub(super) fn rev_tape_move(&mut self, i: Value, args: &[Value]) {
        let (dst, src, len) = (args[0], args[1], args[2]);
        if !self.fx.act.is_shadowed(dst) || !self.fx.act.is_shadowed(src) {
            // An unshadowed source holds no differentiable record; the new shadow is
            // released when its allocation is replayed.
            return;
        }
        if self.fx.rt.is_guarded(dst) || self.fx.rt.is_guarded(src) {
            self.unguarded_runtime_access(i);
            return;
        }
        let sd = self.fetch_shadow(dst);
        let ss = self.fetch_shadow(src);
        let n = self.fetch(len);
        let n = self.b.int_cast(n, self.fx.ctx.i64());
        self.b.memcpy(ss, sd, n, 1);
        self.b.memset(sd, self.fx.ctx.i8().const_int(0), n, 1);
    }
}

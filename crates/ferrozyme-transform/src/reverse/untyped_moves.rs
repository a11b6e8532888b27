//! Reverse of bytes moved without a type (rustmap: a `HashMap` rehashing its table).
//!
//! * A swap of two integer-typed chunks (`ferrozyme_analysis::activity::untyped_swap`):
//!   the forward sweep swapped the shadow bytes with the primal ones; the reverse sweep
//!   swaps them back, at the swap's last store (the first of its instructions it meets).
//!   A permutation's inverse moves every adjoint back to where its value came from,
//!   whatever the bytes are: floats, integers or pointers, so no type is needed.
//! * A `memcpy`/`memmove` of memory whose facts conflict (entries of keys beside values
//!   at offsets known only at run time): the forward sweep copies the shadow bytes
//!   (`fwd_memcpy`: such memory may hold pointers); the reverse moves the destination's
//!   adjoint bytes back to the source word by word and clears them
//!   (`__fz_move_adj_bytes`). Without a float type they cannot be added: a source word
//!   that already holds a derivative (the original is still read after the copy) or a
//!   shadow pointer stops the run with a message, never a wrong sum.
//!
//! Every other integer access to memory of unknown type stays a `cannot-deduce-type`
//! error (`check.rs`): a value moved and also read as a number is not a move.

use ferrozyme_analysis::activity::UntypedSwap;
use ferrozyme_llvm::Value;

use super::Gen;
use crate::runtime::RtFn;

impl Gen<'_> {
    /// Reverse of store `i` when it belongs to a swap whose shadows the forward sweep
    /// swapped: true when handled (nothing else is done for such stores: the bytes they
    /// overwrite are not lost, they moved to the other address).
    pub(super) fn rev_untyped_swap(&mut self, i: Value) -> bool {
        let Some(s) = ferrozyme_analysis::activity::shadowed_swap(&self.fx.act, i) else {
            return false;
        };
        if i == s.last_store() {
            self.swap_shadows_back(&s);
        }
        true
    }

    fn swap_shadows_back(&mut self, s: &UntypedSwap) {
        let [p, q] = s.addrs();
        if self.rev_validity(p).is_some() || self.rev_validity(q).is_some() {
            // A pointer whose shadow is the primal in some runs: no guard is written for
            // moved bytes (the check refuses it before; this is the backstop).
            self.unguarded_runtime_access(s.last_store());
            return;
        }
        let (sp, sq) = (self.fetch_shadow(p), self.fetch_shadow(q));
        let ty = s.loads[0].ty();
        let a = self.b.load(ty, sp, "swap.shadow");
        a.set_alignment(s.loads[0].alignment());
        let b = self.b.load(ty, sq, "swap.shadow");
        b.set_alignment(s.loads[1].alignment());
        self.b.store(b, sp).set_alignment(s.stores[1].alignment());
        self.b.store(a, sq).set_alignment(s.stores[0].alignment());
    }

    /// Reverse of the copy `i` of `len` bytes from `src` to `dst`, memory whose facts
    /// conflict: the adjoint bytes move back (`__fz_move_adj_bytes`). False (nothing
    /// emitted) when a shadow may be the primal at run time (run-time activity), the
    /// source has none or threads run the code: the caller reports or clears as before.
    pub(super) fn untyped_copy_back(
        &mut self,
        i: Value,
        dst: Value,
        src: Value,
        len: Value,
    ) -> bool {
        // In code that threads run together (an OpenMP region or task: a task's
        // `firstprivate` copy of an array, tests/errors/openmp_taskloop_firstprivate_array.c)
        // the word-by-word move back would race: the error stays.
        if self.fx.req.parallel
            || holds_pointer_facts(&self.fx.types, dst, src)
            || !self.fx.act.is_shadowed(src)
            || self.fx.rt.is_guarded(dst)
            || self.fx.rt.is_guarded(src)
            || super::tape_move::is_tape_move(i)
        {
            return false;
        }
        let i64t = self.fx.ctx.i64();
        let sd = self.fetch_shadow(dst);
        let ss = self.fetch_shadow(src);
        let n = self.fetch(len);
        let n = self.b.int_cast(n, i64t);
        let f = self.sup.rt(RtFn::MoveAdjBytes);
        self.b.call_fn(f, &[sd, ss, n]);
        true
    }
}

/// Are the memory facts of both sides of a copy only facts at every offset (`[-1]`),
/// with none at a known offset? Such facts come from accesses at run-time offsets
/// spread over a whole object (a `HashMap`'s control bytes); they do not say what the
/// bytes a copy at another run-time offset moves are.
pub(super) fn facts_only_everywhere(
    types: &ferrozyme_analysis::types::TypeAnalysis,
    dst: Value,
    src: Value,
) -> bool {
    [dst, src].iter().all(|&p| {
        let t = types.pointee_tree(p);
        let facts: Vec<_> = t.iter().collect();
        !facts.is_empty() && facts.iter().all(|(o, _)| *o == -1)
    })
}

/// Does type analysis know a pointer somewhere in either side of a copy? A copy of such
/// memory (`std::function`'s storage, pointers in some objects and a lambda's doubles in
/// others: tests/errors/std_function_move_O0.cpp) would find the same shadow pointer in
/// both copies and stop the run; it stays a `cannot-deduce-type` error at compile time.
fn holds_pointer_facts(
    types: &ferrozyme_analysis::types::TypeAnalysis,
    dst: Value,
    src: Value,
) -> bool {
    use ferrozyme_analysis::types::BaseType;
    [dst, src].iter().any(|&p| {
        types
            .pointee_tree(p)
            .iter()
            .any(|(_, b)| matches!(b, BaseType::Pointer | BaseType::IntOrPointer))
    })
}

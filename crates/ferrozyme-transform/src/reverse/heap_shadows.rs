//! Shadows of the heap memory the differentiated code allocates and frees.
//!
//! * Forward sweep: each allocation (`malloc`, `calloc`, `realloc`, `new`, aligned
//!   allocators, `posix_memalign`) gets a zeroed shadow per lane, made by the primal's
//!   allocator family (`crate::shadow_memory`), and, unless the memory never leaves the
//!   function (`escape.rs`), recorded in the runtime's shadow table with the function
//!   that releases it (`runtime/ir/shadows.ll`). A free of the primal tells the table
//!   (`ShadowFreeLater`, with the free's own family's deallocator for a shadow the
//!   gradient was given).
//! * Reverse sweep: replaying an allocation ends the reverse sweep's use of its shadow:
//!   a local one is released at once by its family's deallocator; any other is marked
//!   replayed, and the table releases it once its primal is freed too. `realloc` first
//!   moves the adjoints of the kept bytes back to the old shadow.

use ferrozyme_analysis::calls::{alloc_size, CallKind};
use ferrozyme_llvm::Value;

use super::calls::{holds_floats, holds_non_floats};
use super::Gen;
use crate::runtime::RtFn;
use crate::shadow_memory;

impl Gen<'_> {
    /// The generated values of the arguments of `i` that the deallocator of its shadows
    /// takes besides the pointer (`shadow_memory::release_operands`); `value(g, k)`: the
    /// generated value of `i`'s argument `k`.
    pub(super) fn release_operands(
        &mut self,
        i: Value,
        value: impl Fn(&mut Self, usize) -> Value,
    ) -> Vec<Value> {
        shadow_memory::release_operands(self.sup, i)
            .into_iter()
            .map(|k| value(self, k))
            .collect()
    }

    /// The function the runtime's table releases shadows of the memory `i` allocates or
    /// frees with (null: `free`) and the two words it is given (`shadow_memory::words`),
    /// from `operands` (`release_operands`).
    pub(super) fn table_release(&mut self, i: Value, operands: &[Value]) -> [Value; 3] {
        let [w0, w1] = shadow_memory::words(&self.b, operands);
        [shadow_memory::deallocator(self.sup, i), w0, w1]
    }

    /// `malloc`/`calloc`/`realloc` of shadowed memory: a zeroed shadow per lane.
    pub(super) fn fwd_shadow_allocation(&mut self, i: Value, kind: CallKind) {
        if matches!(kind, CallKind::Realloc) {
            // `realloc` frees the old primal (its shadow stays until the reverse sweep
            // replays the old allocation); the new shadow is released when `rev_realloc`
            // has moved its adjoints back, as a `malloc`'s at its replay.
            let a = ferrozyme_analysis::calls::alloc_fn(i).expect("classified as a realloc");
            let old = i.call_args()[a.ptr.expect("realloc takes a pointer")];
            if self.fx.act.is_shadowed(old) {
                let p = self.fwd_operand(old);
                match self.old_block_release(i) {
                    // A block the gradient was given by a caller that cannot keep the
                    // old pointer (a `Duplicated` Rust `Vec` grown inside by
                    // `__rust_realloc`, which states the old size): its old shadow is
                    // released when the derivative settles, as at a `free` (the caller's
                    // shadow now holds the new one), and a non-zero byte in it then (an
                    // adjoint of a value the block held, lost) is a run-time stop; not
                    // checked in records holding pointers (their shadow pointers come
                    // back there too), and a stop at once in records holding floats
                    // beside them (rust44: `Vec<(f64, Box<f64>)>`, whose held values'
                    // adjoints would be lost silently). C `realloc` states no old size and
                    // its caller owns the old shadow: the adjoints of the values kept
                    // arrive there (`rev_realloc`), and the caller frees it (tests/c/517
                    // (e), 1474).
                    Some([dealloc, w0, w1]) => {
                        let later = self.sup.rt(if !holds_non_floats(&self.fx.types, i) {
                            RtFn::ShadowReallocLater
                        } else if holds_floats(&self.fx.types, i) {
                            RtFn::ShadowReallocMixed
                        } else {
                            RtFn::ShadowFreeLater
                        });
                        self.each_lane(|g| {
                            let s = g.fwd_shadow(old);
                            g.b.call_fn(later, &[p, s, dealloc, w0, w1]);
                        });
                    }
                    None => {
                        let gone = self.sup.rt(RtFn::ShadowPrimalFreed);
                        self.b.call_fn(gone, &[p]);
                    }
                }
            }
        }
        let c = self.clone_into_fwd(i);
        let args = c.call_args();
        let (n, m) = shadow_memory::size_operands(&self.b, i, &args);
        // A scratch buffer that never leaves the function: the replay frees its shadow
        // directly (`escape.rs`); any other is recorded for `runtime/ir/shadows.ll`.
        // Its size and where its floats are: a shadow left where a global reaches it has
        // them zeroed when the next top-level derivative starts (`runtime/ir/kept.ll`).
        let record = (!super::escape::stays_local(i)).then(|| {
            let operands = self.release_operands(i, |_, k| args[k]);
            let bytes = shadow_memory::bytes(&self.b, (n, m));
            let layout = super::copy_layout::kept_layout(&self.fx.types, i);
            (
                self.sup.rt(RtFn::ShadowNew),
                self.table_release(i, &operands),
                [bytes, self.fx.ctx.i64().const_int(layout)],
            )
        });
        // A `realloc` of records holding pointers: the shadow pointers already stored move
        // with the block (`rev_realloc` then moves the bytes back).
        let keep = match kind {
            CallKind::Realloc if holds_non_floats(&self.fx.types, i) => {
                let a = ferrozyme_analysis::calls::alloc_fn(i).expect("classified as a realloc");
                let old = i.call_args()[a.ptr.expect("realloc takes a pointer")];
                let nold = shadow_memory::old_size(&self.b, a.old_size.map(|k| args[k]));
                self.fx
                    .act
                    .is_shadowed(old)
                    .then(|| (old, self.sup.rt(RtFn::ReallocFwdBytes), nold))
            }
            _ => None,
        };
        self.each_lane(|g| {
            let s = shadow_memory::allocate(&g.b, g.sup, i, c, (n, m));
            if let Some((old, copy, nold)) = keep {
                let so = g.fwd_shadow(old);
                let bytes = g.b.mul(n, m);
                g.b.call_fn(copy, &[so, s, bytes, nold]);
            }
            if let Some((record, [dealloc, w0, w1], [bytes, layout])) = record {
                g.b.call_fn(record, &[c, s, dealloc, w0, w1, bytes, layout]);
            }
            g.lanes[g.lane].shadow.insert(i, s);
        });
    }

    /// The deallocator and words that release the *old* block of `realloc`-like call `i`
    /// (its shadow's, when the table does not record it) where its deallocator takes the
    /// size first (`__rust_dealloc(ptr, size, align)`) and the call states the old size
    /// (`__rust_realloc(ptr, old, align, new)`): the new block's, with the old size, which
    /// is then the first word. `None` for any other (C `realloc`).
    fn old_block_release(&mut self, i: Value) -> Option<[Value; 3]> {
        let a = ferrozyme_analysis::calls::alloc_fn(i)?;
        let args = i.call_args();
        let ks = shadow_memory::release_operands(self.sup, i);
        if a.size.is_none() || ks.first().copied() != a.size {
            return None;
        }
        let mut operands = Vec::new();
        for k in ks {
            let k = if Some(k) == a.size { a.old_size? } else { k };
            operands.push(self.fwd_operand(args[k]));
        }
        Some(self.table_release(i, &operands))
    }

    /// `posix_memalign(&p, a, n)` into a slot with a shadow: a zeroed shadow allocation per
    /// lane, as aligned as the primal (`shadow_memory::allocate_aligned`), goes into the
    /// slot's shadow (a pointer later read from `p` reads it there). The shadow is kept
    /// under the call (`Key::Shadow`) for the reverse sweep to free.
    pub(super) fn fwd_shadow_memalign(&mut self, i: Value) {
        let (i64t, ptr) = (self.fx.ctx.i64(), self.fx.ctx.ptr());
        let c = self.clone_into_fwd(i);
        let n = self.b.int_cast(alloc_size(c), i64t);
        let slot = i.call_args()[0];
        let primal = self.b.load(ptr, c.call_args()[0], "memalign.primal");
        let record = self.sup.rt(RtFn::ShadowNew);
        let (null, zero, unknown) = (ptr.zero(), i64t.const_int(0), i64t.const_int(2));
        self.each_lane(|g| {
            let s = shadow_memory::allocate_aligned(&g.b, g.sup, c.call_args()[1], n);
            // Nothing said about its contents (`runtime/ir/kept.ll`).
            g.b.call_fn(record, &[primal, s, null, zero, zero, n, unknown]);
            let ss = g.fwd_shadow(slot);
            g.b.store(s, ss);
            g.lanes[g.lane].shadow.insert(i, s);
        });
    }

    /// A forward sweep's free of shadowed memory `q` by the call `i`: the primal memory
    /// goes now; its shadow when the reverse sweep is done with it too, or (memory the
    /// gradient was given) when the derivative settles, by the free's family's
    /// deallocator (`runtime/ir/shadows.ll`).
    pub(super) fn fwd_free_shadowed(&mut self, i: Value, q: Value) {
        let p = self.fwd_operand(q);
        let later = self.sup.rt(RtFn::ShadowFreeLater);
        let operands = self.release_operands(i, |g, k| g.fwd_operand(i.call_args()[k]));
        let [dealloc, w0, w1] = self.table_release(i, &operands);
        self.each_lane(|g| {
            let s = g.fwd_shadow(q);
            g.b.call_fn(later, &[p, s, dealloc, w0, w1]);
        });
        self.clone_into_fwd(i);
    }

    /// Replaying `posix_memalign`: the table releases its shadow once its primal is freed
    /// too.
    pub(super) fn rev_memalign(&mut self, i: Value) {
        if self.lanes[self.lane].shadow.contains_key(&i) {
            let s = self.fetch_shadow(i);
            let done = self.sup.rt(RtFn::ShadowReplayed);
            let null = self.fx.ctx.ptr().zero();
            let zero = self.fx.ctx.i64().const_int(0);
            self.b.call_fn(done, &[s, null, zero, zero]);
        }
    }

    /// Replaying an allocation: the reverse sweep is done with its shadow, which is freed
    /// now if its primal was freed inside the gradient, later if a caller frees it, and
    /// left to the user if the primal outlives the gradient (`runtime/ir/shadows.ll`).
    /// Either way by its allocator family's deallocator.
    pub(super) fn rev_free_shadow(&mut self, i: Value) {
        if !(self.fx.act.is_shadowed(i) && self.lanes[self.lane].shadow.contains_key(&i)) {
            return;
        }
        let s = self.fetch_shadow(i);
        let operands = self.release_operands(i, |g, k| g.fetch(i.call_args()[k]));
        if super::escape::stays_local(i) {
            shadow_memory::release(&self.b, self.sup, i, s, &operands);
        } else {
            let done = self.sup.rt(RtFn::ShadowReplayed);
            let [dealloc, w0, w1] = self.table_release(i, &operands);
            self.b.call_fn(done, &[s, dealloc, w0, w1]);
        }
    }

    /// `new = realloc(old, n)`: the adjoints of the bytes kept flow back to the old
    /// shadow (`__fz_realloc_adj_*`), then the new shadow is released as at a `malloc`'s
    /// replay (`rev_free_shadow`).
    pub(super) fn rev_realloc(&mut self, i: Value, args: &[Value]) {
        if !(self.fx.act.is_shadowed(i) && self.lanes[self.lane].shadow.contains_key(&i)) {
            return;
        }
        let i64t = self.fx.ctx.i64();
        let snew = self.fetch_shadow(i);
        let a = ferrozyme_analysis::calls::alloc_fn(i).expect("classified as a realloc");
        let sold = self.fetch_shadow(args[a.ptr.expect("realloc takes a pointer")]);
        let n = self.fetch(args[a.size.expect("realloc takes a size")]);
        let n = self.b.int_cast(n, i64t);
        let given = a.old_size.map(|k| self.fetch(args[k]));
        let nold = shadow_memory::old_size(&self.b, given);
        // As floats of the one type the memory holds, or byte for byte when it holds
        // several or type analysis cannot tell (never as a guessed type: doubles added
        // over float pairs lose the floats to denormal flushing under -ffast-math,
        // tests/c/403).
        // A tape stack's growth moves records of every type: byte for byte
        // (`tape_move.rs`).
        // Records holding pointers next to the floats: byte for byte too (the shadow's
        // pointer slots must not be added as floats).
        let fp = if super::tape_move::is_tape_move(i) || holds_non_floats(&self.fx.types, i) {
            None
        } else {
            self.fx.types.memory_fp_type(i)
        };
        let f = self.sup.rt(match fp {
            Some(fp) => RtFn::ReallocAdj(fp),
            None => RtFn::ReallocAdjBytes,
        });
        self.b.call_fn(f, &[sold, snew, n, nold]);
        self.rev_free_shadow(i);
    }
}

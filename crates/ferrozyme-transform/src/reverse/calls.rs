//! Calls, in both sweeps.
//!
//! What a call is decides what happens to it (`CallKind`, from `ferrozyme-analysis`):
//!
//! * a function with IR that touches no memory and gets no shadows runs as the primal in
//!   the forward sweep, and its *combined* derivative (which recomputes it) runs in the
//!   reverse sweep — no tape;
//! * any other active function with IR, and every active function with a registered
//!   derivative (`crate::custom`), runs as its *augmented forward* function (which
//!   returns the primal result, the shadow of a pointer result and the callee's tape) and
//!   its *reverse* function runs in the reverse sweep with that tape;
//! * math with a rule is elementwise (`adjoint.rs`), memory intrinsics, reductions and
//!   masked operations are data movement (`vector.rs`);
//! * allocation gets a zeroed shadow allocation per lane, freed when the reverse sweep
//!   replays it; `realloc` moves the adjoints of the kept bytes back;
//! * the rest is copied as it is (inactive calls), or was rejected by `check.rs`.

use ferrozyme_analysis::activity::{carries_fp, ArgActivity};
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_analysis::types::{BaseType, FpType};
use ferrozyme_llvm::Value;

use super::copy_layout::CopyLayout;
use super::{Gen, Key};
use crate::common::dispatch::{check_target, select_derivative, stop_unresolved};
use crate::common::mirrored_ints::{mirror_copied_words, mirrored_copy_words};
use crate::common::Problem;
use crate::runtime::RtFn;
use crate::services::{Callees, Candidate};
use crate::signature::Request;

/// Who an active call reaches.
pub(super) enum Callee {
    /// A function with IR or a registered derivative.
    Direct(Value),
    /// A call through a pointer: the candidates of its type (`common::dispatch`).
    Indirect(Vec<Candidate>),
}

impl Gen<'_> {
    /// `file:line: in `f`` for run-time messages about call `i`.
    pub(super) fn call_place(&self, i: Value) -> String {
        crate::common::dispatch::call_place(i, &self.fx.fname)
    }

    /// A call whose callee touches no memory (and gets no shadows): its derivative can be
    /// one combined function called in the reverse sweep.
    pub(super) fn is_pure_call(&self, call: Value, f: Value) -> bool {
        ferrozyme_analysis::activity::is_readnone_function(f)
            && !self
                .callee_request(call, f)
                .args
                .contains(&ArgActivity::Dup)
    }

    /// The request for differentiating the callee of an active call.
    pub(super) fn callee_request(&self, call: Value, f: Value) -> Request {
        let args = crate::common::call_activity(&self.fx.act, call, carries_fp);
        Request {
            func: f,
            args,
            noneed: Vec::new(),
            placeholder: crate::placeholder::passed_placeholders(
                self.fx.p,
                &self.fx.req.placeholder,
                call,
            ),
            ret_active: carries_fp(call.ty()) && self.fx.act.is_active(call),
            width: self.fx.req.width,
            parallel: self.fx.req.parallel,
            runtime: self.fx.rt.call_runtime(call),
        }
    }

    /// A call in the forward sweep.
    pub(super) fn fwd_call(&mut self, i: Value) {
        if self.fx.deferred_frees.contains(&i) {
            // Performed after the reverse sweep (`emit_rev_exit`); one under a branch only
            // when the forward sweep got here.
            if self.fx.branched_frees.contains(&i) {
                self.fwd_mark_branched_free(i);
            }
            return;
        }
        if self.fx.split_kept.contains(&i) {
            if super::memory::is_mpi_handle_free(i) {
                self.fwd_keep_handle(i);
            } else {
                self.fwd_keep_destroyed(i);
            }
            return;
        }
        if self.fx.split
            && super::memory::is_mpi_handle_free(i)
            && !super::memory::frees_local_handle(i)
        {
            self.fwd_defer_handed_free(i);
            return;
        }
        if super::memory::is_fortran_deallocation(i) && crate::fortran::destroys_argument(i) {
            // An intent(out) dummy finalized on entry: the components the caller had there
            // go now. Their shadows stay allocated (and are lost): the reverse sweep of
            // whatever wrote them before this call, which runs after this one's, still
            // accumulates into them.
            self.clone_into_fwd(i);
            return;
        }
        if self.fwd_parallel_call(i) {
            return;
        }
        if let Some(slot) = super::memory::restarted_slot(i) {
            if self.fx.act.is_shadowed(slot) {
                self.clone_into_fwd(i);
                self.each_lane(|g| g.fwd_zero_slot_shadow(slot));
                return;
            }
        }
        let kind = classify(i);
        let active = |g: &Self| g.fx.act.call_is_active(i, &g.sup.touchers);
        if !(matches!(kind, CallKind::Defined(_)) && active(self)) {
            if let Some(p) =
                crate::placeholder::unreplaced_call_problem(self.fx.p, &self.fx.req.placeholder, i)
            {
                self.diags.report(Some(i), p);
            }
        }
        match kind {
            // Touches no memory: run the primal now, and the callee's combined derivative
            // (which recomputes it) in the reverse sweep. No tape.
            CallKind::Defined(f) if active(self) && self.is_pure_call(i, f) => {
                self.clone_into_fwd(i);
            }
            CallKind::Defined(f) | CallKind::Custom(f) if active(self) => {
                self.fwd_augmented_call(i, Callee::Direct(f))
            }
            CallKind::Indirect if active(self) => {
                if let Some(c) = self.indirect_callee(i) {
                    self.fwd_augmented_call(i, c)
                } else {
                    self.clone_into_fwd(i);
                }
            }
            CallKind::Malloc | CallKind::Calloc | CallKind::Realloc
                if self.fx.act.is_shadowed(i) =>
            {
                self.fwd_shadow_allocation(i, kind)
            }
            // The primal memory goes now; its shadow later (`heap_shadows.rs`).
            CallKind::Free
                if self
                    .fx
                    .act
                    .is_shadowed(ferrozyme_analysis::calls::freed_pointer(i))
                    && !super::escape::is_local_allocation(
                        ferrozyme_analysis::calls::freed_pointer(i),
                    ) =>
            {
                self.fwd_free_shadowed(i, ferrozyme_analysis::calls::freed_pointer(i))
            }
            CallKind::PosixMemalign if self.fx.act.is_shadowed(i.call_args()[0]) => {
                self.fwd_shadow_memalign(i)
            }
            CallKind::MaskedLoad | CallKind::MaskedGather if self.fx.act.is_shadowed(i) => {
                self.fwd_masked_pointer_load(i)
            }
            CallKind::MaskedStore | CallKind::MaskedScatter
                if i.call_args()[0].ty().is_pointer_like()
                    && self.fx.act.is_shadowed(i.call_args()[1]) =>
            {
                self.fwd_masked_pointer_store(i)
            }
            // A hint for type analysis only; it has no body and is not copied.
            CallKind::TypeHint => {}
            CallKind::Memcpy | CallKind::Memmove => self.fwd_memcpy(i),
            // Inactive calls; also a call returning a pointer that could not be followed
            // (it gets no shadow; `check.rs` rejected it if derivatives could flow there).
            _ => {
                self.clone_into_fwd(i);
            }
        }
    }

    /// Zeroes the shadow of stack slot `slot` (an `alloca`) in the current lane, at the
    /// start of one of its lifetimes (`memory::restarted_slot`).
    fn fwd_zero_slot_shadow(&mut self, slot: Value) {
        let s = self.fwd_shadow(slot);
        let count = self.fwd_operand(slot.operand(0));
        self.zero_slot_shadow(s, slot, count);
    }

    /// `memset(shadow, 0, ...)` over the whole of stack slot `slot`, whose element count
    /// at the builder's position is `count`.
    fn zero_slot_shadow(&mut self, shadow: Value, slot: Value, count: Value) {
        let i64t = self.fx.ctx.i64();
        let size = i64t.const_int(self.fx.m.alloc_size(slot.allocated_type()));
        let count = self.b.int_cast(count, i64t);
        let len = self.b.binop(ferrozyme_llvm::Opcode::LLVMMul, size, count);
        self.b.memset(shadow, self.fx.ctx.i8().const_int(0), len, 1);
    }

    /// The candidates of an active call through a pointer (an error when there are none,
    /// a run-time stop where the call runs only on a non-null pointer).
    fn indirect_callee(&mut self, i: Value) -> Option<Callee> {
        let cands = self.sup.call_candidates(i);
        if cands.is_empty() && ferrozyme_analysis::calls::null_guarded(i) {
            let place = self.call_place(i);
            stop_unresolved(&self.b, self.sup, &place);
            return None;
        }
        if cands.is_empty() {
            self.report(Some(i), Problem::NoIndirectTargets);
            return None;
        }
        if crate::candidate_stops::speculative_call(i, &cands) {
            for c in &cands {
                self.callees.speculative(c.func);
            }
        }
        Some(Callee::Indirect(cands))
    }

    /// The derivative function `pick` gives for the callee: for a call through a pointer,
    /// the one of the candidate the pointer (`fp`, available at the builder) equals.
    fn callee_derivative(
        &mut self,
        i: Value,
        callee: &Callee,
        fp: Value,
        pick: fn(&mut dyn Callees, &Request) -> Value,
    ) -> (Value, Request) {
        match callee {
            Callee::Direct(f) => {
                let req = self.callee_request(i, *f);
                (pick(self.callees, &req), req)
            }
            Callee::Indirect(cands) => {
                let derivs: Vec<Value> = cands
                    .iter()
                    .map(|c| {
                        let req = self.callee_request(i, c.func);
                        pick(self.callees, &req)
                    })
                    .collect();
                let req = self.callee_request(i, cands[0].func);
                (select_derivative(&self.b, fp, cands, &derivs), req)
            }
        }
    }

    /// An active call of a function with IR (or a registered derivative, or through a
    /// pointer): its augmented forward function, called with the primal arguments and the
    /// shadows of the duplicated ones; it returns `{ result?, shadows of a pointer
    /// result?, tape }`.
    /// A call on no cycle of a callee on no call cycle with this function gets the
    /// callee's nested pair, its tape a region of this function's (`tape_nest.rs`).
    fn fwd_augmented_call(&mut self, i: Value, callee: Callee) {
        let fp = self.fwd_operand(i.called_value());
        if let Callee::Indirect(cands) = &callee {
            let place = self.call_place(i);
            check_target(&self.b, self.sup, fp, cands, &place);
        }
        let nest_req = match &callee {
            Callee::Direct(f) if self.can_nest(i, *f) => Some(self.callee_request(i, *f)),
            _ => None,
        };
        let (aug, req) = match &nest_req {
            Some(req) => (self.callees.nested(req).0, req.clone()),
            None => self.callee_derivative(i, &callee, fp, |c, r| c.split(r).0),
        };
        let aug_ty = match &nest_req {
            Some(_) => aug.function_type(),
            None => self.callees.split(&req).0.function_type(),
        };
        let mut args = Vec::new();
        for (a, act) in i.call_args().into_iter().zip(&req.args) {
            args.push(self.fwd_operand(a));
            if *act == ArgActivity::Dup {
                self.each_lane(|g| {
                    let s = g.fwd_shadow(a);
                    args.push(s);
                });
            }
        }
        if let Some(req) = &nest_req {
            let block = self.nest_region(i, req);
            args.push(block);
            let region = self.region_fwd();
            args.push(region);
        }
        let r = self.b.call(aug_ty, aug, &args);
        let ret = i.called_function_type().return_type();
        let guarded = self.callee_drops_result_shadow(i, &callee, &req);
        let mut k = 0;
        if !ret.is_void() {
            let v = self.b.extract_value(r, k);
            self.vals.fwd.insert(i, v);
            k += 1;
            if ret.contains_pointer() {
                self.each_lane(|g| {
                    let s = g.b.extract_value(r, k);
                    if guarded {
                        g.guard_result_shadow(i, v, s);
                    }
                    if g.fx.act.is_shadowed(i) {
                        g.lanes[g.lane].shadow.insert(i, s);
                    }
                    k += 1;
                });
            }
        } else {
            self.vals.fwd.insert(i, r);
        }
        if nest_req.is_none() {
            let t = self.b.extract_value(r, k);
            self.vals.call_tape.insert(i, t);
        }
    }

    /// Pointers loaded from shadowed memory by a masked load or gather: the same load of
    /// the shadows.
    fn fwd_masked_pointer_load(&mut self, i: Value) {
        let c = self.clone_into_fwd(i);
        self.each_lane(|g| {
            let s = c.clone_instruction();
            g.b.insert(s);
            let sp = g.fwd_shadow(i.call_args()[0]);
            s.set_operand(0, sp);
            s.set_operand(2, i.ty().zero());
            g.lanes[g.lane].shadow.insert(i, s);
        });
    }

    /// Pointers stored into shadowed memory by a masked store or scatter: their shadows
    /// are stored alongside.
    fn fwd_masked_pointer_store(&mut self, i: Value) {
        let c = self.clone_into_fwd(i);
        self.each_lane(|g| {
            let s = c.clone_instruction();
            g.b.insert(s);
            let sv = g.fwd_shadow(i.call_args()[0]);
            let sp = g.fwd_shadow(i.call_args()[1]);
            s.set_operand(0, sv);
            s.set_operand(1, sp);
        });
    }

    /// `memcpy`/`memmove`: copied as is; when the copied memory may hold pointers, the
    /// shadows are copied too (shadow pointers live in shadow memory).
    fn fwd_memcpy(&mut self, i: Value) {
        let c = self.clone_into_fwd(i);
        let (dst, src) = (i.call_args()[0], i.call_args()[1]);
        // A C string's characters carry no pointer whose shadow would need the copy.
        if self.fx.act.is_shadowed(dst)
            && self.fx.act.is_shadowed(src)
            && !super::copy_layout::copies_c_string(src, i.call_args()[2])
            && (self.fx.types.memory_may_hold_pointers(dst)
                || self.fx.types.memory_may_hold_pointers(src)
                || super::tape_move::is_tape_move(i))
        {
            if self.fx.rt.is_guarded(src) {
                // The source's shadow may be the primal memory: its pointers are their
                // own shadows, but its floats are not adjoints. Without pointers there
                // is nothing to copy here (the reverse sweep moves the adjoints); without
                // floats the bytes are shadows either way (tests/cxx/422, 434); with
                // both, only the bytes beside known float fields (`guarded_copy`).
                let types = &self.fx.types;
                let len = i.call_args()[2];
                let n = len.const_int_value();
                if types.copy_moves_none(dst, src, n, BaseType::may_be_pointer) {
                    return;
                }
                if !types.copy_moves_none(dst, src, n, BaseType::may_be_float) {
                    let Some(fields) = super::runtime_copy_fields(types, i, dst, src, len) else {
                        self.unguarded_runtime_access(i);
                        return;
                    };
                    self.fwd_copy_non_floats(i, c, &CopyLayout::Fields(fields));
                    return;
                }
            }
            // Records holding floats next to pointers: only the pointer and integer bytes
            // are copied; the destination's float slots keep their adjoints (copying the
            // source's would count them twice in the reverse, and lose a seed given in
            // the destination).
            let layout = if super::tape_move::is_tape_move(i) {
                None
            } else {
                let len = i.call_args()[2];
                match super::copy_layout::copy_layout(&self.fx.types, i, dst, src, len) {
                    l @ (CopyLayout::Strided { .. } | CopyLayout::Fields(_)) => Some(l),
                    _ => None,
                }
            };
            if let Some(layout) = layout {
                if self.fx.rt.is_guarded(dst) && matches!(layout, CopyLayout::Strided { .. }) {
                    self.unguarded_runtime_access(i);
                    return;
                }
                self.fwd_copy_non_floats(i, c, &layout);
                return;
            }
            let words = if self.fx.rt.is_guarded(dst) {
                Vec::new()
            } else {
                mirrored_copy_words(&self.fx.types, dst, i.call_args()[2])
            };
            let sink = (!words.is_empty()).then(|| self.sup.sink_slot());
            self.each_lane(|g| {
                let vd = g.fwd_store_validity(dst);
                let sc = c.clone_instruction();
                g.b.insert(sc);
                let sd = g.fwd_shadow(dst);
                let ss = g.fwd_shadow(src);
                sc.set_operand(0, sd);
                sc.set_operand(1, ss);
                if vd.is_some() {
                    let n = sc.operand(2);
                    g.b.position_before(sc);
                    let n = g.rt_len(n, &[vd]);
                    sc.set_operand(2, n);
                    g.b.position_after(sc);
                }
                if let Some(sink) = sink {
                    mirror_copied_words(&g.b, c.call_args()[0], sd, &words, sink);
                }
            });
        }
    }

    /// The forward sweep's shadow copy for the `memcpy`/`memmove` `i` (`c` its clone in
    /// the forward sweep) of records whose float slots `layout` gives: all bytes but those
    /// (field by field none where the destination's shadow is the primal: the primal copy
    /// wrote the same bytes there).
    fn fwd_copy_non_floats(&mut self, i: Value, c: Value, layout: &CopyLayout) {
        let i64t = self.fx.ctx.i64();
        let (dst, src) = (i.call_args()[0], i.call_args()[1]);
        let len = self.b.int_cast(c.call_args()[2], i64t);
        let copy = match *layout {
            CopyLayout::Strided { fp, .. } => Some(self.sup.rt(RtFn::CopyFwdStrided(fp))),
            _ => None,
        };
        self.each_lane(|g| {
            let sd = g.fwd_shadow(dst);
            let ss = g.fwd_shadow(src);
            match *layout {
                CopyLayout::Strided { period, mask, .. } => {
                    let f = copy.expect("a strided layout's copy");
                    let p = i64t.const_int(period);
                    let m = i64t.const_int(mask);
                    g.b.call_fn(f, &[sd, ss, len, p, m]);
                }
                CopyLayout::Fields(ref fields) => {
                    let n = len
                        .const_int_value()
                        .expect("fields only of constant-size copies");
                    let vd = if g.fx.rt.is_guarded(dst) {
                        g.fwd_store_validity(dst)
                    } else {
                        None
                    };
                    for (a, b) in gaps(fields, n) {
                        let pd = g.b.byte_gep(sd, i64t.const_int(a as u64));
                        let ps = g.b.byte_gep(ss, i64t.const_int(a as u64));
                        // Fields are constant-size records: a memmove of one onto an
                        // overlapping copy of itself is not one of them.
                        let gap = g.rt_len(i64t.const_int((b - a) as u64), &[vd]);
                        g.b.memcpy(pd, ps, gap, 1);
                    }
                }
                _ => unreachable!("only strided and field layouts are copied in part"),
            }
        });
    }

    /// A call in the reverse sweep.
    pub(super) fn rev_call(&mut self, i: Value) {
        if self.rev_parallel_call(i) {
            return;
        }
        if let Some(slot) = super::memory::restarted_slot(i) {
            if self.fx.act.is_shadowed(slot) {
                // The reverse sweep leaves this lifetime: the pointer shadows its object left
                // in the slot's shadow must not become adjoints of the earlier object's floats.
                let sd = self.fetch_shadow(slot);
                let count = self.fetch(slot.operand(0));
                self.zero_slot_shadow(sd, slot, count);
                return;
            }
        }
        let args = i.call_args();
        let active = |g: &Self| g.fx.act.call_is_active(i, &g.sup.touchers);
        match classify(i) {
            CallKind::Math(rule) => self.rev_elementwise(i, rule, &args),
            CallKind::ReduceFAdd => self.rev_reduce_fadd(i, &args),
            CallKind::Memcpy | CallKind::Memmove => self.rev_memcpy(i, &args),
            CallKind::ReduceFMul => self.rev_reduce_fmul(i, &args),
            CallKind::MaskedLoad
            | CallKind::MaskedStore
            | CallKind::MaskedGather
            | CallKind::MaskedScatter => self.rev_masked(i, &args),
            CallKind::ReduceFMinMax => self.rev_reduce_minmax(i, &args),
            CallKind::Memset => self.rev_memset(&args),
            CallKind::Malloc | CallKind::Calloc => self.rev_free_shadow(i),
            CallKind::PosixMemalign => self.rev_memalign(i),
            CallKind::Realloc => self.rev_realloc(i, &args),
            CallKind::InactiveExternal if ferrozyme_analysis::input_calls::is_input_call(i) => {
                self.rev_input(i)
            }
            CallKind::Defined(f) if active(self) && self.is_pure_call(i, f) => {
                self.rev_combined_call(i, f, &args)
            }
            CallKind::Defined(f) | CallKind::Custom(f) if active(self) => {
                self.rev_split_call(i, Callee::Direct(f), &args)
            }
            CallKind::Indirect if active(self) => {
                let cands = self.sup.call_candidates(i);
                if !cands.is_empty() {
                    self.rev_split_call(i, Callee::Indirect(cands), &args)
                }
            }
            _ => {
                if self.fx.act.is_active(i) {
                    // Inactive by classification (e.g. zero-derivative math): clear it
                    // (this runs once per lane).
                    let _ = self.take_adj(i);
                }
            }
        }
    }

    /// `reduce.fadd(start, v)`: every operand's partial is 1.
    fn rev_reduce_fadd(&mut self, i: Value, args: &[Value]) {
        let Some(d) = self.take_active_adj(i) else {
            return;
        };
        let (start, vec) = (args[0], args[1]);
        self.add_adj(start, d);
        if self.fx.act.is_active(vec) {
            let splat = self.splat(d, vec.ty());
            self.add_adj(vec, splat);
        }
    }

    /// `memset` of shadowed memory: the bytes it wrote have no derivative; their adjoints
    /// are cleared. Memory that holds pointers and no floats (a `std::vector` object
    /// zeroed before its buffer is stored into it) has no adjoints to clear: its shadow
    /// holds the shadow pointers the forward sweep stored after the `memset`, which
    /// clearing would take from a global or heap object that outlives the derivative (a
    /// function-local `static std::vector` first built inside the gradient: the next
    /// derivative call read a null shadow beside a live pointer and stopped the run,
    /// tests/cxx/497).
    fn rev_memset(&mut self, args: &[Value]) {
        let (dst, len) = (args[0], args[2]);
        let types = &self.fx.types;
        let n = len.const_int_value();
        if types.copy_moves_none(dst, dst, n, BaseType::may_be_float)
            && !types.copy_moves_none(dst, dst, n, BaseType::may_be_pointer)
        {
            return;
        }
        if self.fx.act.is_shadowed(dst) {
            let sd = self.fetch_shadow(dst);
            let n = self.fetch(len);
            let vd = self.rt_valid_rev(dst);
            let n = self.rt_len(n, &[vd]);
            self.b.memset(sd, self.fx.ctx.i8().const_int(0), n, 1);
        }
    }

    /// An input call (`sscanf`, `std::istream >>`): the floats it wrote are constants, so
    /// the adjoints of those bytes are cleared, as for a `memset` (what they held before
    /// was overwritten; its adjoint goes nowhere).
    fn rev_input(&mut self, i: Value) {
        let targets = ferrozyme_analysis::input_calls::input_targets(i).unwrap_or_default();
        let (i8t, i64t) = (self.fx.ctx.i8(), self.fx.ctx.i64());
        for t in targets.iter().filter(|t| t.float) {
            self.rev_memset(&[t.ptr, i8t.const_int(0), i64t.const_int(t.bytes)]);
        }
    }

    /// A call of a pure function: its combined derivative, which recomputes the primal,
    /// takes the primal arguments and the seeds of the result.
    fn rev_combined_call(&mut self, i: Value, f: Value, args: &[Value]) {
        let req = self.callee_request(i, f);
        let g = self.callees.combined(&req);
        let mut gargs: Vec<Value> = args.iter().map(|a| self.fetch(*a)).collect();
        if req.ret_active {
            self.each_lane(|g| {
                let d = g.take_adj(i);
                gargs.push(d);
            });
        }
        let r = self.b.call_fn(g, &gargs);
        self.add_returned_adjoints(r, args, &req.args);
    }

    /// Any other active call: the callee's reverse function, with the primal arguments,
    /// their shadows, the seeds of the result and the tape its augmented call returned.
    fn rev_split_call(&mut self, i: Value, callee: Callee, args: &[Value]) {
        let nested = self.nested_rev_tape(i);
        let (rev, req, rev_ty) = match (nested, &callee) {
            (Some(_), Callee::Direct(f)) => {
                let req = self.callee_request(i, *f);
                let rev = self.callees.nested(&req).1;
                (rev, req, rev.function_type())
            }
            _ => {
                let fp = self.fetch(i.called_value());
                let (rev, req) = self.callee_derivative(i, &callee, fp, |c, r| c.split(r).1);
                let rev_ty = self.callees.split(&req).1.function_type();
                (rev, req, rev_ty)
            }
        };
        let mut rargs = Vec::new();
        for (a, act) in args.iter().zip(&req.args) {
            let x = self.fetch(*a);
            rargs.push(x);
            if *act == ArgActivity::Dup {
                self.each_lane(|g| {
                    let s = g.fetch_shadow(*a);
                    rargs.push(s);
                });
            }
        }
        if req.ret_active {
            self.each_lane(|g| {
                let d = g.take_adj(i);
                rargs.push(d);
            });
        }
        let tape = match nested {
            Some(t) => t,
            None => self.fetch_key(Key::Tape(i)),
        };
        rargs.push(tape);
        let r = self.b.call(rev_ty, rev, &rargs);
        self.add_returned_adjoints(r, args, &req.args);
    }

    /// Adds the adjoints a derivative function returned (one struct field per `Active`
    /// argument, in order) to the call's arguments.
    fn add_returned_adjoints(&mut self, r: Value, args: &[Value], acts: &[ArgActivity]) {
        let mut k = 0;
        for (a, act) in args.iter().zip(acts) {
            if *act == ArgActivity::Active {
                self.each_lane(|g| {
                    let x = g.b.extract_value(r, k);
                    g.add_adj(*a, x);
                    k += 1;
                });
            }
        }
    }
}

/// Does the memory `p` points to hold pointers or integers next to its floats (as far as
/// type analysis knows), or bytes whose facts disagree (`Anything`: one grow function
/// shared by a `Vec<f64>` and a `Vec<Vec<f64>>`, its block typed as both; rust45: the rows'
/// shadow pointers were not carried into the grown shadow buffer, a crash in the reverse
/// sweep)? Then a `realloc` of it moves shadow bytes as they are, never adds them as
/// floats (a shadow pointer added to another as a `double` is a wild pointer).
pub(super) fn holds_non_floats(types: &ferrozyme_analysis::types::TypeAnalysis, p: Value) -> bool {
    types
        .pointee_tree(p)
        .iter()
        .any(|(_, b)| b.is_not_float() || b == BaseType::Anything)
}

/// May the memory `p` points to hold floats itself (not only behind its pointers): a float
/// type, or bytes whose facts disagree?
pub(super) fn holds_floats(types: &ferrozyme_analysis::types::TypeAnalysis, p: Value) -> bool {
    types.pointee_tree(p).iter().any(|(_, b)| b.may_be_float())
}

/// The byte ranges of `0..n` outside the float fields `fields` (offset, type).
fn gaps(fields: &[(i64, FpType)], n: i64) -> Vec<(i64, i64)> {
    let mut f: Vec<(i64, i64)> = fields
        .iter()
        .map(|(o, t)| (*o, o + t.size() as i64))
        .collect();
    f.sort();
    let mut out = Vec::new();
    let mut at = 0;
    for (a, b) in f {
        if a > at {
            out.push((at, a.min(n)));
        }
        at = at.max(b);
    }
    if at < n {
        out.push((at, n));
    }
    out.retain(|(a, b)| a < b);
    out
}

//! Tangents of calls: math with rules, memory intrinsics, allocation, vector
//! reductions, masked memory operations, and calls of functions with IR (their own
//! forward derivatives).

use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_analysis::calls::{alloc_size, classify, CallKind};
use ferrozyme_analysis::types::BaseType;
use ferrozyme_llvm::{RealPredicate, Value};

use super::TangentGen;
use crate::common::dispatch::{call_place, check_target, select_derivative, stop_unresolved};
use crate::common::mirrored_ints::{mirror_copied_words, mirrored_copy_words};
use crate::common::Problem;
use crate::services::Candidate;
use crate::signature::{returns_tangent, TangentRequest};

impl TangentGen<'_> {
    /// The tangent of a call, dispatched on what the call is (`CallKind`).
    pub(super) fn tangent_call(&mut self, i: Value) {
        let kind = classify(i);
        if matches!(kind, CallKind::TypeHint) {
            return;
        }
        if let Some(targets) = ferrozyme_analysis::input_calls::input_targets(i) {
            // A number read from text is a constant: its tangent is zero.
            self.copy(i);
            self.zero_input_tangents(&targets);
            return;
        }
        if let Some(name) = crate::parallel::openmp::unsupported_outlining(i) {
            self.copy(i);
            let problem = crate::parallel::openmp::outlining_problem(&name);
            self.diags.report(Some(i), problem);
            return;
        }
        if crate::reverse::memory::is_fortran_deallocation(i) {
            // flang's `Destroy` of a derived-type variable: of its shadow too.
            self.copy(i);
            let desc = i.call_args()[0];
            if self.fx.act.is_shadowed(desc) {
                let d = self.prim(desc);
                for s in self.tangent(desc) {
                    crate::fortran::destroy_shadow(&self.b, &self.eb, i, d, s);
                }
            }
            return;
        }
        let replaced = matches!(kind, CallKind::Defined(_))
            && (self.fx.act.call_is_active(i, &self.sup.touchers) || self.needs_tangent(i));
        if !replaced {
            if let Some(p) =
                crate::placeholder::unreplaced_call_problem(self.fx.p, &self.fx.req.placeholder, i)
            {
                self.diags.report(Some(i), p);
            }
        }
        if !(self.fx.act.call_is_active(i, &self.sup.touchers) || self.needs_tangent(i)) {
            self.copy(i);
            return;
        }
        let args = i.call_args();
        let lanes: Option<Vec<Value>> = match kind {
            CallKind::Math(rule) => {
                let c = self.copy(i);
                self.needs_tangent(i)
                    .then(|| self.elementwise(i, c, rule, &args))
            }
            CallKind::Defined(f) | CallKind::Custom(f) => {
                Some(self.defined_call(i, &[f])).filter(|l| !l.is_empty())
            }
            CallKind::Indirect => {
                let cands = self.sup.call_candidates(i);
                if cands.is_empty() && crate::runtime::releases_a_shadow(i) {
                    self.tangent_release_call(i);
                    None
                } else if cands.is_empty() && ferrozyme_analysis::calls::null_guarded(i) {
                    let place = call_place(i, &self.fx.req.func.name());
                    stop_unresolved(&self.b, self.sup, &place);
                    self.copy(i);
                    None
                } else if cands.is_empty() {
                    self.copy(i);
                    self.diags.report(Some(i), Problem::NoIndirectTargets);
                    None
                } else {
                    if crate::candidate_stops::speculative_call(i, &cands) {
                        for c in &cands {
                            self.callees.speculative(c.func);
                        }
                    }
                    Some(self.indirect_call(i, &cands)).filter(|l| !l.is_empty())
                }
            }
            CallKind::Memcpy | CallKind::Memmove => self.tangent_memcpy(i, &args),
            CallKind::Memset => self.tangent_memset(i, &args),
            CallKind::Malloc | CallKind::Calloc => Some(self.tangent_alloc(i)),
            CallKind::Realloc => Some(self.tangent_realloc(i, &args)),
            CallKind::PosixMemalign => {
                let c = self.copy(i);
                if self.fx.act.is_shadowed(args[0]) {
                    let i64t = self.fx.ctx.i64();
                    let n = self.b.int_cast(alloc_size(c), i64t);
                    for slot in self.tangent(args[0]) {
                        let align = c.call_args()[1];
                        let s = crate::shadow_memory::allocate_aligned(&self.b, self.sup, align, n);
                        self.b.store(s, slot);
                    }
                }
                None
            }
            CallKind::Free => self.tangent_free(i, &args),
            CallKind::ReduceFAdd => {
                let c = self.copy(i);
                Some(self.same_op_on_tangents(i, c, &[0, 1]))
            }
            CallKind::ReduceFMul => {
                self.copy(i);
                Some(self.reduce_fmul(i))
            }
            CallKind::ReduceFMinMax => {
                let c = self.copy(i);
                Some(self.reduce_minmax(i, c))
            }
            CallKind::MaskedLoad | CallKind::MaskedGather => {
                Some(self.tangent_masked_load(i, &args))
            }
            CallKind::MaskedStore | CallKind::MaskedScatter => {
                let c = self.copy(i);
                if self.fx.act.is_shadowed(args[1]) {
                    self.masked_on_tangents(i, c, &[0, 1], 1, 2);
                }
                None
            }
            CallKind::NoDerivative | CallKind::InactiveExternal => {
                self.copy(i);
                None
            }
            CallKind::UnknownExternal | CallKind::UnknownIntrinsic | CallKind::InlineAsm => {
                self.copy(i);
                self.report_call(i, kind);
                None
            }
            CallKind::TypeHint => None,
            CallKind::OpenMp(_) | CallKind::Mpi(_) => {
                self.tangent_parallel_call(i, kind);
                None
            }
        };
        if let Some(l) = lanes {
            self.tan.insert(i, l);
        }
    }

    /// A call forward mode cannot differentiate.
    fn report_call(&mut self, i: Value, kind: CallKind) {
        let callee = i.called_function().map(|f| f.name()).unwrap_or_default();
        let problem = match kind {
            CallKind::UnknownExternal => crate::libcalls::missing_derivative(&callee),
            CallKind::UnknownIntrinsic => Problem::UnknownIntrinsic { callee: &callee },
            _ => Problem::InlineAsm,
        };
        self.diags.report(Some(i), problem);
    }

    /// `memcpy`/`memmove`: the same copy of the shadows (zeros from constant memory).
    fn tangent_memcpy(&mut self, i: Value, args: &[Value]) -> Option<Vec<Value>> {
        self.reject_mixed(i, args[0]);
        self.reject_mixed(i, args[1]);
        let c = self.copy(i);
        if !self.fx.act.is_shadowed(args[0]) {
            return None;
        }
        let sd = self.tangent(args[0]);
        let types = &self.fx.types;
        // A copy type analysis knows moves no pointers is guarded as floats (a pair
        // `{int, double}` out of a constant `std::map`'s node, tests/cxx/422); one that
        // moves no floats copies the bytes as they are, their own shadows or not (a pair
        // of its iterators, tests/cxx/434).
        let n = args[2].const_int_value();
        let pointers = self.fx.rt.is_guarded(args[1])
            && types.memory_may_hold_pointers(args[1])
            && !types.copy_moves_none(args[0], args[1], n, BaseType::may_be_pointer);
        // A tape move (`!ferrozyme.tape.move`: the runtime's growth of a stack, split
        // mode's handover of a callee's tape) copies records of a tape generated code
        // allocated, whose shadow is never the primal: a tape pointer is only assumed
        // maybe-primal where an inner gradient cached it in records that may hold a
        // constant (forward over reverse, tests/cxx/486 at -O0). Its bytes are shadows,
        // and a run-time stop says so should the source's shadow be the primal.
        let tape = pointers && crate::reverse::is_tape_move(i);
        let bytes_are_shadows = tape
            || (pointers && types.copy_moves_none(args[0], args[1], n, BaseType::may_be_float));
        // Both: the bytes are copied as they are, then the float fields zeroed where the
        // source's shadow is the primal (`reverse::guarded_copy`).
        let float_fields = if pointers && !bytes_are_shadows {
            match crate::reverse::runtime_copy_fields(types, i, args[0], args[1], args[2]) {
                Some(f) => f,
                None => {
                    // Pointers there are their own shadows, floats are not tangents.
                    self.diags.report(
                        Some(i),
                        Problem::MixedActivity {
                            detail: "memory holding pointers is copied from a pointer that is constant or differentiable depending on the run".to_string(),
                        },
                    );
                    return None;
                }
            }
        } else {
            Vec::new()
        };
        let len = self.prim(args[2]);
        if self.fx.act.is_shadowed(args[1]) {
            let ss = self.tangent(args[1]);
            for (d, s) in sd.into_iter().zip(ss) {
                if tape {
                    self.check_tape_shadow(args[1], s);
                }
                // Run-time activity: nothing when the destination's shadow is the
                // primal; zero when the source's is.
                let vd = self.rt_valid(args[0], d);
                let vs = if bytes_are_shadows || !float_fields.is_empty() {
                    None
                } else {
                    self.rt_valid(args[1], s)
                };
                if let Some(vs) = vs {
                    let t = self.fx.ctx.i1().const_int(1);
                    let invalid = self.b.xor(vs, t);
                    let clear = self.rt_len(len, &[vd, Some(invalid)]);
                    self.b.memset(d, self.fx.ctx.i8().const_int(0), clear, 1);
                }
                let copy = c.clone_instruction();
                self.b.insert(copy);
                copy.set_operand(0, d);
                copy.set_operand(1, s);
                if vd.is_some() || vs.is_some() {
                    self.b.position_before(copy);
                    let n = self.rt_len(copy.operand(2), &[vd, vs]);
                    copy.set_operand(2, n);
                    self.b.position_after(copy);
                }
                let vs = if float_fields.is_empty() {
                    None
                } else {
                    self.rt_valid(args[1], s)
                };
                if let Some(vs) = vs {
                    let i64t = self.fx.ctx.i64();
                    let invalid = self.b.xor(vs, self.fx.ctx.i1().const_int(1));
                    for &(off, t) in &float_fields {
                        let p = self.b.byte_gep(d, i64t.const_int(off as u64));
                        let n = self.rt_len(i64t.const_int(t.size()), &[vd, Some(invalid)]);
                        self.b.memset(p, self.fx.ctx.i8().const_int(0), n, 1);
                    }
                }
                // A header's length and capacity copied into the caller's (rust45).
                if vd.is_none() && !self.fx.rt.is_guarded(args[0]) {
                    let words = mirrored_copy_words(&self.fx.types, args[0], args[2]);
                    if !words.is_empty() {
                        let sink = self.sup.sink_slot();
                        mirror_copied_words(&self.b, c.call_args()[0], d, &words, sink);
                    }
                }
            }
        } else {
            // Copying constant memory: the destination's tangent is zero.
            for d in sd {
                let vd = self.rt_valid(args[0], d);
                let n = self.rt_len(len, &[vd]);
                self.b.memset(d, self.fx.ctx.i8().const_int(0), n, 1);
            }
        }
        None
    }

    /// `memset`: the shadows are zeroed (a constant byte pattern has no derivative).
    fn tangent_memset(&mut self, i: Value, args: &[Value]) -> Option<Vec<Value>> {
        self.reject_mixed(i, args[0]);
        let c = self.copy(i);
        if self.fx.act.is_shadowed(args[0]) {
            for d in self.tangent(args[0]) {
                let vd = self.rt_valid(args[0], d);
                let s = c.clone_instruction();
                self.b.insert(s);
                s.set_operand(0, d);
                s.set_operand(1, self.fx.ctx.i8().const_int(0));
                if vd.is_some() {
                    self.b.position_before(s);
                    let n = self.rt_len(s.operand(2), &[vd]);
                    s.set_operand(2, n);
                    self.b.position_after(s);
                }
            }
        }
        None
    }

    /// The floats an input call (`sscanf`, `std::istream >>`) wrote have tangent zero.
    fn zero_input_tangents(&mut self, targets: &[ferrozyme_analysis::input_calls::InputTarget]) {
        let (i8t, i64t) = (self.fx.ctx.i8(), self.fx.ctx.i64());
        for t in targets.iter().filter(|t| t.float) {
            if !self.fx.act.is_shadowed(t.ptr) {
                continue;
            }
            for d in self.tangent(t.ptr) {
                let vd = self.rt_valid(t.ptr, d);
                let n = self.rt_len(i64t.const_int(t.bytes), &[vd]);
                self.b.memset(d, i8t.const_int(0), n, 1);
            }
        }
    }

    /// `malloc`/`calloc`/`new`: a zeroed shadow allocation per lane, by the primal's
    /// allocator family (`shadow_memory.rs`).
    fn tangent_alloc(&mut self, i: Value) -> Vec<Value> {
        let c = self.copy(i);
        let (n, m) = crate::shadow_memory::size_operands(&self.b, i, &c.call_args());
        let shadows: Vec<Value> = (0..self.width())
            .map(|_| crate::shadow_memory::allocate(&self.b, self.sup, i, c, (n, m)))
            .collect();
        self.keep_escaping(i, c, (n, m), &shadows);
        shadows
    }

    /// `realloc`: the shadows are reallocated alike, by the same function
    /// (`shadow_memory::reallocate`).
    fn tangent_realloc(&mut self, i: Value, args: &[Value]) -> Vec<Value> {
        let c = self.copy(i);
        let a = ferrozyme_analysis::calls::alloc_fn(i).expect("classified as a realloc");
        let old = self.tangent(args[a.ptr.expect("realloc takes a pointer")]);
        let forget = self.sup.rt(crate::runtime::RtFn::KeptForget);
        let shadows: Vec<Value> = old
            .into_iter()
            .map(|o| {
                // The old shadow may go: out of `runtime/ir/kept.ll`'s list first.
                self.b.call_fn(forget, &[o]);
                crate::shadow_memory::reallocate(&self.b, i, c, o)
            })
            .collect();
        let size = crate::shadow_memory::size_operands(&self.b, i, &c.call_args());
        self.keep_escaping(i, c, size, &shadows);
        shadows
    }

    /// The shadows of an allocation that leaves the function (`c` its copy, `n * m` bytes)
    /// are candidates for `runtime/ir/kept.ll`: if a global still reaches one when the next
    /// top-level derivative starts (a static table first built by a forward derivative,
    /// then read by reverse ones), its floats are zeroed then.
    fn keep_escaping(&mut self, i: Value, c: Value, size: (Value, Value), shadows: &[Value]) {
        if crate::reverse::escape::stays_local(i) {
            return;
        }
        let keep = self.sup.rt(crate::runtime::RtFn::KeptKeep);
        let bytes = crate::shadow_memory::bytes(&self.b, size);
        let layout = crate::reverse::copy_layout::kept_layout(&self.fx.types, i);
        let layout = self.fx.ctx.i64().const_int(layout);
        for &s in shadows {
            self.b.call_fn(keep, &[c, s, bytes, layout]);
        }
    }

    /// The runtime's call of a shadow's own deallocator (`%d(%s, %w0, %w1)` in
    /// `__fz_shadow_dealloc`), met when generated code that releases a shadow is
    /// differentiated again (forward over reverse of a list built and freed inside): the
    /// tangent of that shadow was made by the same allocator family, so it is released by
    /// the same deallocator with the same extra arguments, as `free`'s tangent is `free`.
    fn tangent_release_call(&mut self, i: Value) {
        let c = self.copy(i);
        let p = i.call_args()[0];
        if !self.fx.act.is_shadowed(p) {
            return;
        }
        let mut args = c.call_args();
        for s in self.tangent(p) {
            // Run-time activity: not when the shadow is the primal (a null pointer).
            args[0] = self.runtime_guarded(p, s, s.ty().zero());
            self.b
                .call(i.called_function_type(), c.called_value(), &args);
        }
    }

    /// `free`: the shadows are freed with the primal, by its family's deallocator.
    fn tangent_free(&mut self, i: Value, _args: &[Value]) -> Option<Vec<Value>> {
        let c = self.copy(i);
        let p = ferrozyme_analysis::calls::freed_pointer(i);
        if self.fx.act.is_shadowed(p) {
            let args = c.call_args();
            let operands: Vec<Value> = crate::shadow_memory::release_operands(self.sup, i)
                .into_iter()
                .map(|k| args[k])
                .collect();
            // A shadow a global reached (`runtime/ir/kept.ll`) must not be zeroed once
            // freed, even where the program leaves the global dangling; the shadow of a
            // scratch allocation of this function was never offered there.
            let local = p.is_call()
                && ferrozyme_analysis::calls::alloc_fn(p).is_some()
                && crate::reverse::escape::stays_local(p);
            let forget = (!local).then(|| self.sup.rt(crate::runtime::RtFn::KeptForget));
            for s in self.tangent(p) {
                // Run-time activity: not when the shadow is the primal (`free(NULL)`).
                let s = self.runtime_guarded(p, s, s.ty().zero());
                if let Some(forget) = forget {
                    self.b.call_fn(forget, &[s]);
                }
                crate::shadow_memory::release(&self.b, self.sup, i, s, &operands);
            }
        }
        None
    }

    /// Masked loads and gathers: the same access of the shadows (zeros from constant
    /// memory).
    fn tangent_masked_load(&mut self, i: Value, args: &[Value]) -> Vec<Value> {
        let c = self.copy(i);
        if self.fx.act.is_shadowed(args[0]) {
            let last = args.len() as u32 - 1;
            self.masked_on_tangents(i, c, &[0, last], 0, last - 1)
        } else {
            vec![i.ty().zero(); self.width()]
        }
    }

    /// A masked access (`c`, the primal's copy) repeated on operands `which`'s tangents,
    /// the pointer operand `ptr_k` and the mask `mask_k`. Under run-time activity the
    /// lanes whose shadow is the primal are masked off (loads read the zero passthru), and
    /// a checked store of active values through one aborts with a message.
    fn masked_on_tangents(
        &mut self,
        i: Value,
        c: Value,
        which: &[u32],
        ptr_k: u32,
        mask_k: u32,
    ) -> Vec<Value> {
        use crate::common::runtime_activity::{and_lanes, masked_write_to_primal};
        let p = i.operand(ptr_k);
        let mut masks = Vec::new();
        if self.fx.rt.is_guarded(p) {
            let m = self.prim(i.operand(mask_k));
            for (l, sp) in self.tangent(p).into_iter().enumerate() {
                if l == 0 && self.fx.rt.checked_stores.contains(&i) {
                    let q = self.prim(p);
                    let bad = masked_write_to_primal(&self.b, m, sp, q);
                    self.shadow_check(i, bad);
                }
                let valid = self.rt_valid(p, sp).expect("a guarded pointer");
                masks.push(and_lanes(&self.b, m, valid));
            }
        }
        let tans = self.same_op_on_tangents(i, c, which);
        for (s, mk) in tans.iter().zip(masks) {
            s.set_operand(mask_k, mk);
        }
        tans
    }

    /// A call through a pointer: the forward derivative of the candidate the pointer
    /// equals (`common::dispatch`), after a run-time check that it is one of them.
    fn indirect_call(&mut self, i: Value, cands: &[Candidate]) -> Vec<Value> {
        let fp = self.prim(i.called_value());
        let place = call_place(i, &self.fx.req.func.name());
        check_target(&self.b, self.sup, fp, cands, &place);
        let funcs: Vec<Value> = cands.iter().map(|c| c.func).collect();
        let derivs: Vec<Value> = funcs.iter().map(|f| self.derivative_of(i, *f)).collect();
        let g = select_derivative(&self.b, fp, cands, &derivs);
        self.call_derivative(i, g, derivs[0].function_type(), funcs[0])
    }

    /// The forward derivative of `f` for call `i`'s activity.
    fn derivative_of(&mut self, i: Value, f: Value) -> Value {
        let req = TangentRequest {
            placeholder: crate::placeholder::passed_placeholders(
                self.fx.p,
                &self.fx.req.placeholder,
                i,
            ),
            func: f,
            args: self.callee_args(i),
            width: self.fx.req.width,
            error: self.fx.req.error,
            runtime: self.fx.rt.call_runtime(i),
        };
        self.callees.tangent(&req)
    }

    /// A call of a function with IR: its forward derivative, called with the primal
    /// arguments and the tangents of the active ones. Returns the result's tangents.
    fn defined_call(&mut self, i: Value, f: &[Value]) -> Vec<Value> {
        let g = self.derivative_of(i, f[0]);
        self.call_derivative(i, g, g.function_type(), f[0])
    }

    /// Calls forward derivative `g` (of type `gty`, for a callee like `f`) for call `i`.
    fn call_derivative(
        &mut self,
        i: Value,
        g: Value,
        gty: ferrozyme_llvm::Type,
        f: Value,
    ) -> Vec<Value> {
        let req = TangentRequest {
            placeholder: crate::placeholder::passed_placeholders(
                self.fx.p,
                &self.fx.req.placeholder,
                i,
            ),
            func: f,
            args: self.callee_args(i),
            width: self.fx.req.width,
            error: self.fx.req.error,
            runtime: self.fx.rt.call_runtime(i),
        };
        for a in i.call_args() {
            self.reject_mixed(i, a);
        }
        let mut args = Vec::new();
        for (a, act) in i.call_args().into_iter().zip(&req.args) {
            args.push(self.prim(a));
            if *act != ArgActivity::Const {
                args.extend(self.tangent(a));
            }
        }
        let r = self.b.call(gty, g, &args);
        let ret = i.called_function_type().return_type();
        if ret.is_void() {
            self.map.insert(i, r);
            return Vec::new();
        }
        let v = self.b.extract_value(r, 0);
        v.set_name(&i.name());
        self.map.insert(i, v);
        if !returns_tangent(&req) {
            return Vec::new();
        }
        (0..self.width())
            .map(|l| self.b.extract_value(r, 1 + l as u32))
            .collect()
    }

    /// `reduce.fmul(start, v) = start * prod(v)`: the sum of each operand's tangent
    /// times its partial (`common::reductions`).
    fn reduce_fmul(&mut self, i: Value) -> Vec<Value> {
        let args = i.call_args();
        let (start, vec) = (self.prim(args[0]), self.prim(args[1]));
        let ts = self.tangent(args[0]);
        let tv = self.tangent(args[1]);
        let i32t = self.fx.ctx.i32();
        let elems: Vec<Value> = (0..vec.ty().vector_len())
            .map(|k| self.b.extract_element(vec, i32t.const_int(k as u64)))
            .collect();
        let (p_start, p_lanes) = crate::common::reductions::fmul_partials(&self.b, start, &elems);
        (0..self.width())
            .map(|l| {
                let mut acc = self.b.fmul(ts[l], p_start);
                for (k, p) in p_lanes.iter().enumerate() {
                    let tk = self.b.extract_element(tv[l], i32t.const_int(k as u64));
                    let term = self.b.fmul(tk, *p);
                    acc = self.b.fadd(acc, term);
                }
                acc
            })
            .collect()
    }

    /// `reduce.fmax/fmin`: the tangent of the lane that was selected.
    fn reduce_minmax(&mut self, i: Value, c: Value) -> Vec<Value> {
        let vec = self.prim(i.call_args()[0]);
        let tv = self.tangent(i.call_args()[0]);
        let n = vec.ty().vector_len();
        let i32t = self.fx.ctx.i32();
        let hits: Vec<Value> = (0..n)
            .map(|k| {
                let e = self.b.extract_element(vec, i32t.const_int(k as u64));
                self.b.fcmp(RealPredicate::LLVMRealOEQ, e, c)
            })
            .collect();
        (0..self.width())
            .map(|l| {
                let mut acc = i.ty().zero();
                for (k, hit) in hits.iter().enumerate().rev() {
                    let tk = self.b.extract_element(tv[l], i32t.const_int(k as u64));
                    acc = self.b.select(*hit, tk, acc);
                }
                acc
            })
            .collect()
    }
}

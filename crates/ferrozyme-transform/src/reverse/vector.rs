//! Reverse of vector data movement and memory operations: shuffles, reductions,
//! `memcpy`/`memmove`, and masked loads, stores, gathers and scatters.

use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_analysis::types::{BaseType, FpType};
use ferrozyme_llvm::{Opcode, Type, TypeKind, Value};

use super::copy_layout::{copy_layout, CopyLayout};
use super::Gen;
use crate::common::runtime_activity::{and_lanes, masked_write_to_primal};
use crate::common::Problem;
use crate::runtime::RtFn;

impl Gen<'_> {
    pub(super) fn rev_shuffle(&mut self, i: Value) {
        let Some(d) = self.take_active_adj(i) else {
            return;
        };
        let (a, b) = (i.operand(0), i.operand(1));
        let n_a = a.ty().vector_len();
        let mask = i.shuffle_mask();
        let i32t = self.fx.ctx.i32();
        let mut sums: Vec<Vec<Option<Value>>> = vec![
            vec![None; n_a as usize],
            vec![None; b.ty().vector_len() as usize],
        ];
        for (j, m) in mask.iter().enumerate() {
            let Some(m) = *m else { continue };
            let (which, lane) = if m < n_a { (0, m) } else { (1, m - n_a) };
            let e = self.b.extract_element(d, i32t.const_int(j as u64));
            let slot = &mut sums[which][lane as usize];
            *slot = Some(match *slot {
                None => e,
                Some(prev) => self.b.fadd(prev, e),
            });
        }
        for (which, v) in [(0usize, a), (1usize, b)] {
            if !self.fx.act.is_active(v) {
                continue;
            }
            let mut acc = self.adj_ty(v).zero();
            let mut any = false;
            for (lane, s) in sums[which].iter().enumerate() {
                if let Some(s) = s {
                    acc = self.b.insert_element(acc, *s, i32t.const_int(lane as u64));
                    any = true;
                }
            }
            if any {
                self.add_adj(v, acc);
            }
        }
    }

    /// Reverse of `memcpy(dst, src, n)` / `memmove`: the adjoints of the copied floats
    /// flow from `dst`'s shadow back to `src`'s, and `dst`'s are cleared. Whether the bytes
    /// are `float`s or `double`s comes from type analysis (`copy_layout`); when it cannot
    /// tell, this is an error naming the pointer, never a guess.
    pub(super) fn rev_memcpy(&mut self, i: Value, args: &[Value]) {
        let i64t = self.fx.ctx.i64();
        let (dst, src, len) = (args[0], args[1], args[2]);
        if !self.fx.act.is_shadowed(dst) {
            return;
        }
        if super::tape_move::is_tape_move(i) {
            self.rev_tape_move(i, args);
            return;
        }
        let mut layout = copy_layout(&self.fx.types, i, dst, src, len);
        let mut fields = match layout {
            // rustmap: "no floats" only from facts that hold at every offset (`[-1]`: the
            // byte accesses of a `HashMap`'s control bytes, spread over the whole table,
            // whose entries then look integer too): not a proof for bytes a run-time
            // offset reaches. The adjoint bytes move back whatever they are.
            CopyLayout::NoFloats
                if super::untyped_moves::facts_only_everywhere(&self.fx.types, dst, src)
                    && self.untyped_copy_back(i, dst, src, len) =>
            {
                return
            }
            CopyLayout::NoFloats => return,
            // From memory without a shadow (a string literal copied by `strcpy` into a
            // struct that also holds doubles) the copied bytes have no derivative whatever
            // they are: the destination's adjoints are only cleared, below.
            CopyLayout::Untyped { .. } if !self.fx.act.is_shadowed(src) => Vec::new(),
            // Nor from a local only `memset` writes (constant bytes: the tail padding of
            // a struct filled by `= {..}`, which SROA splits off into an `[7 x i8]` slot
            // and copies into every copy of the struct).
            CopyLayout::Untyped { .. } if memset_only_local(src) => Vec::new(),
            // rustmap: conflicting facts (a `HashMap`'s entries moved when it rehashes):
            // the adjoint bytes move back whatever they are (`untyped_moves.rs`).
            CopyLayout::Untyped {
                conflicting: true, ..
            } if self.untyped_copy_back(i, dst, src, len) => return,
            CopyLayout::Untyped { what, .. } => {
                self.report(
                    Some(i),
                    Problem::UntypedCopy {
                        what,
                        pointer: dst
                            .to_string()
                            .split('=')
                            .next()
                            .unwrap_or("")
                            .trim()
                            .to_string(),
                        std_function: moves_std_function_storage(i),
                    },
                );
                return;
            }
            CopyLayout::Uniform(_) | CopyLayout::Strided { .. } => Vec::new(),
            CopyLayout::Fields(ref f) => f.clone(),
        };
        let sd = self.fetch_shadow(dst);
        let n = self.fetch(len);
        let n = self.b.int_cast(n, i64t);
        // Run-time activity: nothing when the destination's shadow is the primal; when
        // the source's is, the destination's adjoint is only cleared.
        let vd = self.rt_valid_rev(dst);
        if !self.fx.act.is_shadowed(src) || memset_only_local(src) {
            let n = self.rt_len(n, &[vd]);
            self.b.memset(sd, self.fx.ctx.i8().const_int(0), n, 1);
            return;
        }
        let vs = self.rt_valid_rev(src);
        if vs.is_some() || vd.is_some() {
            // Clearing the destination's whole shadow (below) destroys no shadow pointers
            // in records without pointers (`{int, double}` pairs copied out of a constant
            // `std::map`'s nodes, tests/cxx/422); their fields go through the sink slot
            // where a shadow is the primal.
            let pointer_free = self.fx.types.copy_moves_none(
                dst,
                src,
                len.const_int_value(),
                BaseType::may_be_pointer,
            );
            let guardable = match &layout {
                CopyLayout::Uniform(_) => true,
                CopyLayout::Strided { .. } => pointer_free,
                CopyLayout::Fields(f) => {
                    pointer_free
                        && f.iter().all(|(o, t)| {
                            *o >= 0 && *o as u64 + t.size() <= crate::services::SCRATCH_SLOT_BYTES
                        })
                }
                _ => false,
            };
            if !guardable {
                // Records holding pointers beside floats: only the float fields move
                // (through the sink slot where a shadow is the primal), the pointer bytes
                // stay as the forward sweep copied them (`guarded_copy`).
                match super::runtime_copy_fields(&self.fx.types, i, dst, src, len) {
                    Some(f) => {
                        fields = f.clone();
                        layout = CopyLayout::Fields(f);
                    }
                    None => {
                        self.unguarded_runtime_access(i);
                        return;
                    }
                }
            } else if let Some(vs) = vs {
                let t = self.fx.ctx.i1().const_int(1);
                let invalid = self.b.xor(vs, t);
                let clear = self.rt_len(n, &[vd, Some(invalid)]);
                self.b.memset(sd, self.fx.ctx.i8().const_int(0), clear, 1);
            }
        }
        let n = self.rt_len(n, &[vd, vs]);
        let mut ss = self.fetch_shadow(src);
        let mut sd = sd;
        if matches!(layout, CopyLayout::Fields(_)) {
            // Run-time activity: fields are taken from and added to the sink slot where
            // the destination's or the source's shadow is the primal.
            if let Some(v) = vd {
                let sink = self.sup.sink_slot();
                sd = self.b.select(v, sd, sink);
                ss = self.b.select(v, ss, sink);
            }
            if let Some(v) = vs {
                let sink = self.sup.sink_slot();
                ss = self.b.select(v, ss, sink);
            }
        }
        if let CopyLayout::Strided { fp, period, mask } = layout {
            let f = self.sup.rt(RtFn::CopyAdjStrided(fp));
            let p = i64t.const_int(period);
            let m = i64t.const_int(mask);
            self.b.call_fn(f, &[sd, ss, n, p, m]);
            return;
        }
        if let CopyLayout::Uniform(fp) = layout {
            let memmove = matches!(classify(i), CallKind::Memmove);
            let f = self.sup.rt(if memmove {
                RtFn::MemmoveAdj(fp)
            } else {
                RtFn::MemcpyAdj(fp)
            });
            self.b.call_fn(f, &[sd, ss, n]);
            return;
        }
        // Mixed float and double fields at known offsets of a constant-size copy.
        for (off, t) in fields {
            let ty = match t {
                FpType::F64 => self.fx.ctx.f64(),
                FpType::F32 => self.fx.ctx.f32(),
                FpType::F16 => self.fx.ctx.f16(),
                FpType::F80 => self.fx.ctx.f80(),
            };
            let pd = self.b.byte_gep(sd, i64t.const_int(off as u64));
            let ps = self.b.byte_gep(ss, i64t.const_int(off as u64));
            let v = self.mem_take(pd, ty, 1);
            self.mem_add(ps, ty, v, 1);
        }
    }

    /// `r = start * v0 * ... * v(n-1)`: each operand's adjoint is `d` times its partial
    /// (`common::reductions`).
    pub(super) fn rev_reduce_fmul(&mut self, i: Value, args: &[Value]) {
        let Some(d) = self.take_active_adj(i) else {
            return;
        };
        let (start, vec) = (args[0], args[1]);
        let i32t = self.fx.ctx.i32();
        let n = vec.ty().vector_len();
        let v = self.fetch(vec);
        let s = self.fetch(start);
        let lanes: Vec<Value> = (0..n)
            .map(|k| self.b.extract_element(v, i32t.const_int(k as u64)))
            .collect();
        let (d_start, d_lanes) = crate::common::reductions::fmul_partials(&self.b, s, &lanes);
        if self.fx.act.is_active(start) {
            let x = self.b.fmul(d, d_start);
            self.add_adj(start, x);
        }
        if self.fx.act.is_active(vec) {
            let mut acc = vec.ty().zero();
            for (k, p) in d_lanes.into_iter().enumerate() {
                let x = self.b.fmul(d, p);
                acc = self.b.insert_element(acc, x, i32t.const_int(k as u64));
            }
            self.add_adj(vec, acc);
        }
    }

    /// `r = max/min(v)`: the adjoint goes to the first lane equal to the result.
    pub(super) fn rev_reduce_minmax(&mut self, i: Value, args: &[Value]) {
        use ferrozyme_llvm::RealPredicate;
        let Some(d) = self.take_active_adj(i) else {
            return;
        };
        let vec = args[0];
        if !self.fx.act.is_active(vec) {
            return;
        }
        let i32t = self.fx.ctx.i32();
        let n = vec.ty().vector_len();
        let v = self.fetch(vec);
        let r = self.fetch(i);
        let zero = i.ty().zero();
        let mut found = self.fx.ctx.i1().const_int(0);
        let mut acc = vec.ty().zero();
        for k in 0..n {
            let lane = self.b.extract_element(v, i32t.const_int(k as u64));
            let eq = self.b.fcmp(RealPredicate::LLVMRealOEQ, lane, r);
            let not_found = self.b.select(
                found,
                self.fx.ctx.i1().const_int(0),
                self.fx.ctx.i1().const_int(1),
            );
            let take = self.b.and(eq, not_found);
            found = self.b.or(found, eq);
            let x = self.b.select(take, d, zero);
            acc = self.b.insert_element(acc, x, i32t.const_int(k as u64));
        }
        self.add_adj(vec, acc);
    }

    /// Masked vector memory operations (what AVX2/AVX-512 vectorization emits for loops
    /// with conditions or indirect indexing). Gathers and scatters are replayed one lane
    /// at a time, so lanes that hit the same address accumulate (gather) or only the last
    /// writer receives the adjoint (scatter, lanes in reverse order), as in scalar code.
    pub(super) fn rev_masked(&mut self, i: Value, args: &[Value]) {
        let kind = classify(i);
        let (val, ptr, mask) = match kind {
            CallKind::MaskedLoad | CallKind::MaskedGather => (i, args[0], args[1]),
            _ => (args[0], args[1], args[2]),
        };
        let vty = val.ty();
        if !self.fx.act.is_shadowed(ptr) || !vty.is_fp() {
            if matches!(kind, CallKind::MaskedLoad | CallKind::MaskedGather)
                && self.fx.act.is_active(i)
            {
                let d = self.take_adj(i);
                let m = self.fetch(mask);
                let x = self.b.select(m, vty.zero(), d);
                self.add_adj(args[2], x);
            }
            return;
        }
        let sp = self.fetch_shadow(ptr);
        let m = self.fetch(mask);
        // Run-time activity: lanes whose shadow is the primal move no adjoint (`sm`); a
        // store of active values through one, where checked, aborts with a message.
        let sm = match self.rt_valid_rev(ptr) {
            Some(valid) => {
                if self.fx.rt.checked_stores.contains(&i) {
                    let q = self.fetch(ptr);
                    let bad = masked_write_to_primal(&self.b, m, sp, q);
                    self.shadow_check(i, bad);
                }
                and_lanes(&self.b, m, valid)
            }
            None => m,
        };
        let zero = vty.zero();
        let (load_name, store_name) = match kind {
            CallKind::MaskedLoad | CallKind::MaskedStore => {
                ("llvm.masked.load", "llvm.masked.store")
            }
            _ => ("llvm.masked.gather", "llvm.masked.scatter"),
        };
        let pty = sp.ty();
        let (Some(ld), Some(st)) = (
            self.fx.m.intrinsic(load_name, &[vty, pty]),
            self.fx.m.intrinsic(store_name, &[vty, pty]),
        ) else {
            self.report(
                Some(i),
                Problem::Internal {
                    msg: format!("{load_name}/{store_name} unavailable"),
                },
            );
            return;
        };
        let n = vty.vector_len();
        let lane_masks: Vec<Value> = if matches!(kind, CallKind::MaskedLoad | CallKind::MaskedStore)
        {
            vec![sm]
        } else {
            let i1 = self.fx.ctx.i1();
            (0..n)
                .map(|k| {
                    let onehot: Vec<Value> =
                        (0..n).map(|j| i1.const_int((j == k) as u64)).collect();
                    let oh = Value::const_vector(&onehot);
                    self.b.and(sm, oh)
                })
                .collect()
        };
        match kind {
            CallKind::MaskedLoad | CallKind::MaskedGather => {
                let Some(d) = self.take_active_adj(i) else {
                    return;
                };
                for mk in &lane_masks {
                    let old = self.b.call_fn(ld, &[sp, *mk, zero]);
                    let new = self.b.fadd(old, d);
                    self.b.call_fn(st, &[new, sp, *mk]);
                }
                let x = self.b.select(m, zero, d);
                self.add_adj(args[2], x);
            }
            _ => {
                let mut acc = zero;
                for mk in lane_masks.iter().rev() {
                    let old = self.b.call_fn(ld, &[sp, *mk, zero]);
                    self.b.call_fn(st, &[zero, sp, *mk]);
                    acc = self.b.fadd(acc, old);
                }
                if self.fx.act.is_active(val) {
                    self.add_adj(val, acc);
                }
            }
        }
    }

    pub(super) fn splat(&mut self, s: Value, vty: Type) -> Value {
        let i32t = self.fx.ctx.i32();
        let mut v = vty.zero();
        if vty.kind() == TypeKind::Vector {
            for k in 0..vty.vector_len() {
                v = self.b.insert_element(v, s, i32t.const_int(k as u64));
            }
        }
        v
    }
}

/// Does `p` point into a local (`alloca`) that only `memset`s with a constant byte write?
/// Its bytes have no derivative, whatever type they are read as. Its other uses may only
/// read it (loads, the source of copies) or mark its lifetime.
fn memset_only_local(p: Value) -> bool {
    let base = crate::common::base_object(p);
    if base.opcode() != Some(Opcode::LLVMAlloca) {
        return false;
    }
    let mut work = vec![base];
    let mut steps = 0;
    while let Some(v) = work.pop() {
        for u in v.users() {
            steps += 1;
            if steps > 256 {
                return false;
            }
            let ok = match u.opcode() {
                Some(Opcode::LLVMGetElementPtr | Opcode::LLVMBitCast) => {
                    work.push(u);
                    true
                }
                Some(Opcode::LLVMLoad) => true,
                Some(Opcode::LLVMCall) => {
                    let a = u.call_args();
                    match classify(u) {
                        CallKind::Memset => a[0] == v && a[1].const_int_value().is_some(),
                        CallKind::Memcpy | CallKind::Memmove => a[0] != v && a[1] == v,
                        _ => u.is_lifetime_marker(),
                    }
                }
                _ => false,
            };
            if !ok {
                return false;
            }
        }
    }
    true
}

/// Is copy `i` moving `std::function`'s storage (`std::_Any_data`)? In libstdc++'s code
/// at -O0 (its move constructor, `std::swap<std::_Any_data>`), in a member of a container
/// of `std::function` (`std::vector<std::function<...>>::_M_realloc_insert`), or, once
/// -O1 and up inlined them, a copy into or out of a local `std::function` (tests/cxx/479).
/// Its help differs: the user cannot hint inside the library, but can change what the
/// lambdas capture (tests/cxx/355).
fn moves_std_function_storage(i: Value) -> bool {
    let mangled = i.parent_function().source_name();
    let in_library = ferrozyme_analysis::library_types::demangle(&mangled)
        .is_some_and(|name| name.contains("std::_Any_data") || name.contains("std::function<"));
    in_library
        || i.call_args()
            .iter()
            .take(2)
            .any(|&p| is_std_function_object(p))
}

/// Does `p` point into a local `std::function` or `std::_Any_data` (an `alloca` of that
/// class, reached through GEPs)?
fn is_std_function_object(p: Value) -> bool {
    let base = ferrozyme_analysis::activity::base_object(p);
    base.opcode() == Some(Opcode::LLVMAlloca)
        && base.allocated_type().struct_name().is_some_and(|n| {
            // clang names a class template's instantiations after the template, with a
            // `.N` suffix for the second and later ones.
            ["class.std::function", "union.std::_Any_data"]
                .iter()
                .any(|t| {
                    n.strip_prefix(t)
                        .is_some_and(|r| r.is_empty() || r.starts_with('.'))
                })
        })
}

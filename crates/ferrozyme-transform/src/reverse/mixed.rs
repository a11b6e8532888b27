//! Run-time activity for pointers chosen between constant and differentiable memory.
//!
//! `-O2` turns `c ? y[k] : x[k]` into one load through `select c, &y[k], &x[k]`. When
//! `y` has no shadow (an `enzyme_const` argument) and `x` has one, the pointer is
//! differentiable or not depending on `c` at run time. We give such a pointer the shadow
//! `select c, null, shadow(x)` and a *validity* flag (here `!c`), and guard the accesses
//! through it: adjoints are read and written with single-lane `llvm.masked.load/store`,
//! so nothing touches memory when the pointer is the constant one; a pointer loaded
//! through it reads its shadow from a harmless null slot. Only `select`s whose results
//! reach nothing but loads and stores (through GEPs) are handled this way; everything
//! else (phis, calls, memcpy, constant pointers stored into shadowed memory) goes to
//! run-time activity (`common/runtime_activity/`: the constant pointer is its own
//! shadow, accesses are guarded by `shadow != primal`), whose guards also live here
//! (`rev_validity`, `fwd_store_validity`, `rt_valid_rev`, `rt_len`).

use ferrozyme_analysis::activity::Activity;
use ferrozyme_llvm::{IntPredicate, Opcode, Type, TypeKind, Value};

use super::Gen;

/// Is select `s` guarded by this module's scheme (a mixed select whose uses are all
/// guardable loads and stores)?
pub(crate) fn guarded_select(act: &Activity, s: Value) -> bool {
    mixed_select(act, s).is_some() && uses_are_guardable(s)
}

/// A pointer choice that has no shadow: not null/undef (where no access can happen) and
/// not shadowed.
pub(super) fn lacks_shadow(act: &Activity, v: Value) -> bool {
    let harmless = v.is_undef()
        || (v.is_constant() && v.ty().zero() == v)
        || ferrozyme_analysis::activity::is_unaddressable(v);
    !harmless && !act.is_shadowed(v)
}

/// For a select of pointers with exactly one side lacking a shadow: (condition, whether
/// the shadowed side is the `true` one).
pub(super) fn mixed_select(act: &Activity, s: Value) -> Option<(Value, bool)> {
    if s.opcode() != Some(Opcode::LLVMSelect) || !s.ty().is_pointer() || !act.is_shadowed(s) {
        return None;
    }
    match (
        lacks_shadow(act, s.operand(1)),
        lacks_shadow(act, s.operand(2)),
    ) {
        (false, true) => Some((s.operand(0), true)),
        (true, false) => Some((s.operand(0), false)),
        _ => None,
    }
}

/// The mixed select a pointer derives from (through GEPs and casts), if any.
pub(super) fn mixed_root(act: &Activity, mut p: Value) -> Option<(Value, bool)> {
    for _ in 0..16 {
        if let Some(m) = mixed_select(act, p) {
            return Some(m);
        }
        match p.opcode() {
            Some(Opcode::LLVMGetElementPtr)
            | Some(Opcode::LLVMBitCast)
            | Some(Opcode::LLVMAddrSpaceCast) => p = p.operand(0),
            _ => return None,
        }
    }
    None
}

/// Can every use of the mixed select be guarded? Only loads and stores (as the address),
/// reached through GEPs and casts, of float or pointer data.
pub(super) fn uses_are_guardable(s: Value) -> bool {
    let mut work = vec![s];
    let mut seen = 0;
    while let Some(v) = work.pop() {
        seen += 1;
        if seen > 256 {
            return false;
        }
        for u in v.users() {
            match u.opcode() {
                Some(Opcode::LLVMGetElementPtr)
                | Some(Opcode::LLVMBitCast)
                | Some(Opcode::LLVMAddrSpaceCast)
                    if u.operand(0) == v =>
                {
                    work.push(u)
                }
                Some(Opcode::LLVMLoad) if guardable_type(u.ty()) => {}
                Some(Opcode::LLVMStore)
                    if u.operand(1) == v
                        && u.operand(0) != v
                        && guardable_type(u.operand(0).ty()) => {}
                Some(Opcode::LLVMICmp) | Some(Opcode::LLVMPtrToInt) => {}
                _ => return false,
            }
        }
    }
    true
}

fn guardable_type(t: Type) -> bool {
    t.is_fp_scalar()
        || t.is_pointer()
        || t.is_integer()
        || (t.kind() == TypeKind::Vector && t.element_type().is_fp_scalar())
}

impl Gen<'_> {
    /// The validity of the shadow of `addr` at the reverse builder, when `addr` derives
    /// from a mixed select.
    pub(super) fn rev_validity(&mut self, addr: Value) -> Option<Value> {
        if self.fx.rt.is_guarded(addr) {
            // Run-time activity: the shadow is valid unless it is the primal itself.
            let s = self.fetch_shadow(addr);
            let p = self.fetch(addr);
            return Some(self.b.icmp(IntPredicate::LLVMIntNE, s, p));
        }
        let (cond, shadowed_if_true) = mixed_root(&self.fx.act, addr)?;
        let c = self.fetch(cond);
        Some(if shadowed_if_true {
            c
        } else {
            self.b.xor(c, self.fx.ctx.i1().const_int(1))
        })
    }

    /// As [`Gen::rev_validity`], for the forward sweep's stores of pointer shadows: also
    /// `shadow != primal` where run-time activity may have made the shadow the primal
    /// (loads through such a shadow are not redirected: they read the primal pointer
    /// stored there, which is then its own shadow).
    pub(super) fn fwd_store_validity(&mut self, addr: Value) -> Option<Value> {
        if let Some(v) = self.fwd_validity(addr) {
            return Some(v);
        }
        if !self.fx.rt.is_guarded(addr) {
            return None;
        }
        let s = self.fwd_shadow(addr);
        let p = self.fwd_operand(addr);
        Some(self.b.icmp(IntPredicate::LLVMIntNE, s, p))
    }

    /// Is `p`'s shadow guarded (run-time activity, or a pointer of mixed activity), so that
    /// its validity is a comparison or choice of `p` itself?
    pub(super) fn shadow_guarded(&self, p: Value) -> bool {
        self.fx.rt.is_guarded(p) || mixed_root(&self.fx.act, p).is_some()
    }

    /// As [`Gen::rev_validity`], in the forward sweep.
    pub(super) fn fwd_validity(&mut self, addr: Value) -> Option<Value> {
        if self.fx.rt.is_guarded(addr) {
            // Run-time activity's scheme instead (`fwd_store_validity`).
            return None;
        }
        let (cond, shadowed_if_true) = mixed_root(&self.fx.act, addr)?;
        let c = self.fwd_operand(cond);
        Some(if shadowed_if_true {
            c
        } else {
            self.b.xor(c, self.fx.ctx.i1().const_int(1))
        })
    }

    /// An access whose adjoint is not a float (float bits moved as integers) through a
    /// shadow that may be the primal: refused rather than written into primal memory.
    pub(super) fn unguarded_runtime_access(&mut self, i: Value) {
        self.report(
            Some(i),
            crate::common::Problem::MixedActivity {
                detail: "floating-point data moved as integers through a pointer that is constant or differentiable depending on the run cannot be guarded at run time".to_string(),
            },
        );
    }

    /// Before store `i` of a value that depends on the inputs through a pointer only
    /// assumed maybe-primal (`RuntimeActivity::checked_stores`): abort with a message when
    /// its shadow is the primal, since the value's derivative would be lost.
    pub(super) fn runtime_store_check(&mut self, i: Value) {
        let addr = crate::common::runtime_activity::written_address(i);
        let s = self.fwd_shadow(addr);
        let p = self.fwd_operand(addr);
        let bad = self.b.icmp(IntPredicate::LLVMIntEQ, s, p);
        self.shadow_check(i, bad);
    }

    /// Aborts with checked store `i`'s message when `bad` (`i1`) holds at run time.
    pub(super) fn shadow_check(&mut self, i: Value, bad: Value) {
        crate::common::runtime_activity::emit_store_check(
            &self.b,
            self.sup,
            i,
            &self.fx.fname,
            bad,
        );
    }

    /// Run-time activity in the reverse sweep: `shadow(p) != p`, when `p` may carry a
    /// shadow that is the primal.
    pub(super) fn rt_valid_rev(&mut self, p: Value) -> Option<Value> {
        if !self.fx.rt.is_guarded(p) {
            return None;
        }
        let s = self.fetch_shadow(p);
        let q = self.fetch(p);
        Some(self.b.icmp(IntPredicate::LLVMIntNE, s, q))
    }

    /// `n` where all of `valid` hold, else 0 (a guarded memory intrinsic's length).
    pub(super) fn rt_len(&mut self, n: Value, valid: &[Option<Value>]) -> Value {
        let mut out = n;
        for v in valid.iter().flatten() {
            out = self.b.select(*v, out, n.ty().zero());
        }
        out
    }

    /// `*p += d` (fp scalar or vector), only where `valid`.
    pub(super) fn guarded_mem_add(&mut self, p: Value, d: Value, valid: Value) {
        let (vt, dv, mask) = self.lanes(d, valid);
        let (ld, st) = self.masked_pair(vt, p.ty());
        let old = self.b.call_fn(ld, &[p, mask, vt.zero()]);
        let new = self.b.fadd(old, dv);
        self.b.call_fn(st, &[new, p, mask]);
    }

    /// As [`Gen::guarded_mem_add`] in a derivative that runs on several threads (an
    /// OpenMP region's outlined body under run-time activity, where every thread may read
    /// the same element): the atomic add goes to the sink slot where `valid` is false, so
    /// the primal memory is never written.
    pub(super) fn guarded_mem_add_atomic(&mut self, p: Value, ty: Type, d: Value, valid: Value) {
        let sink = self.sup.sink_slot();
        let q = self.b.select(valid, p, sink);
        self.mem_add_atomic(q, ty, d);
    }

    /// Reads `*p` of type `ty` (fp scalar or vector) and zeroes it, only where `valid`
    /// (zero otherwise).
    pub(super) fn guarded_mem_take(&mut self, p: Value, ty: Type, valid: Value) -> Value {
        let (vt, _, mask) = self.lanes(ty.zero(), valid);
        let (ld, st) = self.masked_pair(vt, p.ty());
        let old = self.b.call_fn(ld, &[p, mask, vt.zero()]);
        self.b.call_fn(st, &[vt.zero(), p, mask]);
        if ty.kind() == TypeKind::Vector {
            old
        } else {
            self.b.extract_element(old, self.fx.ctx.i32().const_int(0))
        }
    }

    /// A value as a vector (scalars become one lane) and a splat mask of `valid`.
    fn lanes(&mut self, v: Value, valid: Value) -> (Type, Value, Value) {
        let i32t = self.fx.ctx.i32();
        let t = v.ty();
        let (vt, vv) = if t.kind() == TypeKind::Vector {
            (t, v)
        } else {
            let vt = self.fx.ctx.vector_type(t, 1);
            (vt, self.b.insert_element(vt.poison(), v, i32t.const_int(0)))
        };
        let n = vt.vector_len();
        let mt = self.fx.ctx.vector_type(self.fx.ctx.i1(), n);
        let mut mask = mt.poison();
        for k in 0..n {
            mask = self.b.insert_element(mask, valid, i32t.const_int(k as u64));
        }
        (vt, vv, mask)
    }

    fn masked_pair(&mut self, vt: Type, pty: Type) -> (Value, Value) {
        let ld = self
            .fx
            .m
            .intrinsic("llvm.masked.load", &[vt, pty])
            .expect("llvm.masked.load exists");
        let st = self
            .fx
            .m
            .intrinsic("llvm.masked.store", &[vt, pty])
            .expect("llvm.masked.store exists");
        (ld, st)
    }
}

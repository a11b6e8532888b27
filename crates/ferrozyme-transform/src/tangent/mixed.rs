//! Pointers chosen at run time between memory with a shadow and memory without one
//! (`c ? y : x` with `y` constant and `x` duplicated — "mixed activity").
//!
//! Such a pointer's shadow is the same choice between the shadow and null, so its
//! validity travels with it as an `i1`; loads through it read a zero slot and stores write
//! a scratch slot when the constant side was chosen. Selects that go further (into a
//! phi, a call, memory) and the other mixed cases use run-time activity instead
//! (`common/runtime_activity/`: the constant pointer is its own shadow), guarded here
//! by `runtime_guarded`, `rt_valid` and `rt_len`.

use ferrozyme_llvm::Value;

use super::TangentGen;
use crate::common::Problem;

impl TangentGen<'_> {
    /// The run-time validity of `v`'s shadow: `None` when it is always valid (or `v` is
    /// not a pointer), an `i1` otherwise.
    pub(super) fn validity(&mut self, v: Value) -> Option<Value> {
        if !v.ty().is_pointer() {
            return None;
        }
        if let Some(x) = self.valid.get(&v) {
            return Some(*x);
        }
        // Dangling constants (`inttoptr 8`) and null are never dereferenced: no guard
        // needed, and null's shadow (null) is consistent with it where it is passed on
        // (`p ? p : nullptr` handed to a callee: Eigen's `aligned_stack_memory_handler` at
        // -O0, tests/cxx/72).
        if self.fx.act.is_shadowed(v) || ferrozyme_analysis::activity::is_unaddressable(v) {
            return None;
        }
        Some(self.fx.ctx.i1().const_int(0))
    }

    /// After copying select `i` (copy `c`) of pointers: its shadow's validity.
    pub(super) fn select_validity(&mut self, i: Value, c: Value) {
        if !i.ty().is_pointer() || self.fx.rt.is_guarded(i) {
            return;
        }
        let (va, vb) = (self.validity(i.operand(1)), self.validity(i.operand(2)));
        if va.is_none() && vb.is_none() {
            return;
        }
        let t = self.fx.ctx.i1().const_int(1);
        let v = self
            .b
            .select(c.operand(0), va.unwrap_or(t), vb.unwrap_or(t));
        self.valid.insert(i, v);
    }

    /// Addresses derived from a pointer keep its validity.
    pub(super) fn derived_validity(&mut self, i: Value) {
        if !i.ty().is_pointer() {
            return;
        }
        if let Some(v) = self.valid.get(&i.operand(0)).copied() {
            self.valid.insert(i, v);
        }
    }

    /// `sp`, or `slot` when the shadow of `addr` is invalid at run time.
    pub(super) fn guarded(&mut self, addr: Value, sp: Value, slot: Value) -> Value {
        match self.valid.get(&addr).copied() {
            Some(v) => self.b.select(v, sp, slot),
            None => sp,
        }
    }

    /// Run-time activity: `shadow != p` for lane shadow `s` of `p`, when `p` may carry a
    /// shadow that is the primal.
    pub(super) fn rt_valid(&mut self, p: Value, s: Value) -> Option<Value> {
        if !self.fx.rt.is_guarded(p) {
            return None;
        }
        let q = self.prim(p);
        Some(self.b.icmp(ferrozyme_llvm::IntPredicate::LLVMIntNE, s, q))
    }

    /// When `i` is a checked store (`RuntimeActivity::checked_stores`) through `addr`:
    /// aborts with its message where `shadow` (`addr`'s shadow in lane 0; under runtime
    /// activity every lane's is the primal or none is) is the primal at run time.
    pub(super) fn check_store_target(&mut self, i: Value, addr: Value, shadow: Value) {
        if !self.fx.rt.checked_stores.contains(&i) {
            return;
        }
        let p = self.prim(addr);
        let bad = self
            .b
            .icmp(ferrozyme_llvm::IntPredicate::LLVMIntEQ, shadow, p);
        self.shadow_check(i, bad);
    }

    /// Aborts with checked store `i`'s message (`RuntimeActivity::checked_stores`) when
    /// `bad` (`i1`) holds at run time.
    pub(super) fn shadow_check(&mut self, i: Value, bad: Value) {
        let fname = self.fx.req.func.name();
        crate::common::runtime_activity::emit_store_check(&self.b, self.sup, i, &fname, bad);
    }

    /// A tape move's source `p` (`tangent_memcpy`): stops the program where its shadow
    /// lane `s` is the primal, which generated code never makes so.
    pub(super) fn check_tape_shadow(&mut self, p: Value, s: Value) {
        let Some(valid) = self.rt_valid(p, s) else {
            return;
        };
        let bad = self.b.xor(valid, self.fx.ctx.i1().const_int(1));
        let msg = format!(
            "ferrozyme: in `{}`: a tape copied by the derivative has the primal as its shadow (an internal error of run-time activity); please report it\n",
            self.fx.req.func.name()
        );
        self.sup.stop_if(&self.b, bad, &msg);
    }

    /// `n` where all of `valid` hold, else 0 (a guarded memory intrinsic's length).
    pub(super) fn rt_len(&mut self, n: Value, valid: &[Option<Value>]) -> Value {
        let mut out = n;
        for v in valid.iter().flatten() {
            out = self.b.select(*v, out, n.ty().zero());
        }
        out
    }

    /// Run-time activity (`common::runtime_activity`): `sp` (a lane of `addr`'s shadow), or
    /// `slot` when that shadow is the primal `addr` itself.
    pub(super) fn runtime_guarded(&mut self, addr: Value, sp: Value, slot: Value) -> Value {
        if !self.fx.rt.is_guarded(addr) {
            return sp;
        }
        let p = self.prim(addr);
        let valid = self.b.icmp(ferrozyme_llvm::IntPredicate::LLVMIntNE, sp, p);
        self.b.select(valid, sp, slot)
    }

    /// Rejects a pointer of mixed activity where it cannot be guarded.
    pub(super) fn reject_mixed(&mut self, at: Value, v: Value) {
        if self.valid.contains_key(&v) {
            self.diags.report(
                Some(at),
                Problem::MixedActivity {
                    detail: "a pointer chosen at run time between constant (enzyme_const) and duplicated memory is passed on here".to_string(),
                },
            );
        }
    }
}

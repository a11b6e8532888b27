//! Speculated code: an adjoint that is exactly zero contributes zero.
//!
//! From -O1 on, SimplifyCFG turns `n ? s / n : s` into a `select` over both values: the
//! quotient is computed also when `n` is 0 (it is then `inf` or `NaN`, and unused). The
//! adjoint of a select sends the unselected operand a zero, and the quotient's rule
//! turns that zero into `0 / n = 0 / 0 = NaN` for `s`: a mean of an empty accumulator,
//! written the way users write it, made the whole gradient `NaN` at -O2 but not at -O0
//! (difftest C++ seed 2048). Mathematically the unselected value does not influence the
//! result at all, so its contributions must be zero whatever its partials are.
//!
//! Elementwise instructions whose value only reaches the data operands of selects with
//! a condition computed at run time (directly, or through other such instructions) are
//! *select-fed*; each contribution `c = d · ∂` of such an instruction becomes
//! `d == 0 ? 0 : c` (Enzyme's "strong zero" for this case). Other instructions keep
//! the plain product: a zero adjoint meeting an infinite partial outside a select is a
//! derivative of a non-differentiable point, not a speculation artefact.

use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{Opcode, RealPredicate, Value};

use super::Gen;

/// How far back from a select the speculated chain is followed, and how many users an
/// instruction of it may have.
const MAX_DEPTH: u32 = 4;
const MAX_USERS: usize = 8;

impl Gen<'_> {
    /// The contribution `c` of instruction `i` (whose adjoint is `d`), made exactly zero
    /// when `d` is zero and `i` is select-fed (see the module docs).
    pub(super) fn strong_zero(&mut self, i: Value, d: Value, c: Value) -> Value {
        if !select_fed(i, 0) || d.ty() != c.ty() || !d.ty().is_fp() {
            return c;
        }
        let is_zero = self.b.fcmp(RealPredicate::LLVMRealOEQ, d, d.ty().zero());
        self.b.select(is_zero, c.ty().zero(), c)
    }
}

/// Does every use of `v` lead, through elementwise floating-point instructions, to a
/// data operand of a select whose condition is computed at run time?
fn select_fed(v: Value, depth: u32) -> bool {
    let users = v.users();
    if users.is_empty() || users.len() > MAX_USERS {
        return false;
    }
    users.into_iter().all(|u| {
        use Opcode::*;
        match u.opcode() {
            Some(LLVMSelect) => u.operand(0) != v && !u.operand(0).is_constant(),
            Some(
                LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFNeg | LLVMFPExt | LLVMFPTrunc,
            ) if depth < MAX_DEPTH => select_fed(u, depth + 1),
            Some(LLVMCall) if depth < MAX_DEPTH && matches!(classify(u), CallKind::Math(_)) => {
                select_fed(u, depth + 1)
            }
            _ => false,
        }
    })
}

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
//! The same happens with a branch instead of a select: LLVM hoists a call such as
//! `sqrt(x)` above the `x < 0.0` test of `if x < 0.0 { Err(i) } else { Ok(x.sqrt()) }`
//! (Rust's `collect::<Result<Vec<f64>, _>>()`, front17), and the root reaches a phi whose
//! other incoming edge leaves the root's block for the `Err` path: on that path the root
//! is computed and discarded, its adjoint is zero, and `0 · 1/(2√x)` with `x < 0` made
//! the gradient `NaN` where the function is locally constant.
//!
//! Elementwise instructions whose value only reaches the data operands of selects with
//! a condition computed at run time, or phis with an incoming edge from a block the value's
//! own block dominates that brings another value (the value was computed on that path and
//! dropped), directly or through other such instructions, are *select-fed*; each contribution `c = d · ∂` of such an instruction becomes
//! `d == 0 ? 0 : c` (Enzyme's "strong zero" for this case). Other instructions keep
//! the plain product: a zero adjoint meeting an infinite partial outside a select is a
//! derivative of a non-differentiable point, not a speculation artefact. A vector
//! instruction whose lanes are extracted into such selects is select-fed too (the
//! comparison and the select are lane-wise; rust31's `f64::EPSILON` guard, SLP-vectorized).

use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_analysis::hash::HashSet;
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
        if !select_fed(&self.fx.cfg, i, 0, may_have_infinite_partials(i))
            || d.ty() != c.ty()
            || !d.ty().is_fp()
        {
            return c;
        }
        let is_zero = self.b.fcmp(RealPredicate::LLVMRealOEQ, d, d.ty().zero());
        self.b.select(is_zero, c.ty().zero(), c)
    }
}

/// Does every use of `v` lead, through elementwise floating-point instructions, to a
/// data operand of a select whose condition is computed at run time, or to a phi that
/// drops it on some path (`dropped_by_phi`), or is it itself dropped on one side of its
/// block's branch (`dropped_on_a_branch`)?
///
/// The two kinds of drop count only when `drops` is set: for a root whose partials can be
/// infinite at finite inputs (a quotient, a math call). A product's cannot, and the hot
/// loops of products that feed phis and branches (`gmm_fused.c`) keep their plain code.
fn select_fed(cfg: &Cfg, v: Value, depth: u32, drops: bool) -> bool {
    if drops && dropped_on_a_branch(cfg, v) {
        return true;
    }
    let users = v.users();
    if users.is_empty() || users.len() > MAX_USERS {
        return false;
    }
    users.into_iter().all(|u| {
        use Opcode::*;
        match u.opcode() {
            Some(LLVMSelect) => u.operand(0) != v && !u.operand(0).is_constant(),
            Some(LLVMPHI) => drops && dropped_by_phi(cfg, v, u),
            Some(
                LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFNeg | LLVMFPExt | LLVMFPTrunc,
            ) if depth < MAX_DEPTH => select_fed(cfg, u, depth + 1, drops),
            Some(LLVMCall) if depth < MAX_DEPTH && matches!(classify(u), CallKind::Math(_)) => {
                select_fed(cfg, u, depth + 1, drops)
            }
            // A lane of a vectorized quotient (SLP: `(a - b) / (|a| + |b|)` computed on a
            // `<2 x double>` and one lane selected): the strong zero is applied lane by lane.
            Some(LLVMExtractElement) if depth < MAX_DEPTH && u.operand(0) == v => {
                select_fed(cfg, u, depth + 1, drops)
            }
            _ => false,
        }
    })
}

/// Does `phi` take another value than `v` over an edge from a block that `v`'s block
/// dominates: a path on which `v` is computed and then dropped? (A loop-carried phi takes
/// its other value from the preheader, which the body does not dominate; an exit phi has
/// one edge.)
fn dropped_by_phi(cfg: &Cfg, v: Value, phi: Value) -> bool {
    if !v.is_instruction() {
        return false;
    }
    let home = v.parent_block();
    phi.incoming()
        .into_iter()
        .any(|(w, from)| w != v && cfg.dominates(home, from))
}

/// Is `v` computed before a branch and used only after it, on some side of it only: does
/// a successor of its block reach no user of `v` (without coming back through the block)?
/// The shape of a value hoisted above its guard whose users are stores (the inlined
/// `collect::<Result<Vec<f64>, _>>()` stores the root into the `Vec` after the test).
fn dropped_on_a_branch(cfg: &Cfg, v: Value) -> bool {
    if !v.is_instruction() {
        return false;
    }
    let home = v.parent_block();
    let succs = cfg.succs(home);
    if succs.len() < 2 {
        return false;
    }
    let mut used_in = Vec::new();
    for u in v.users() {
        if !u.is_instruction() || u.opcode() == Some(Opcode::LLVMPHI) {
            return false;
        }
        let b = u.parent_block();
        if b == home {
            return false;
        }
        used_in.push(b);
    }
    succs.into_iter().any(|s| {
        let mut seen = HashSet::from_iter([home]);
        let mut work = vec![s];
        while let Some(b) = work.pop() {
            if used_in.contains(&b) {
                return false;
            }
            if seen.insert(b) {
                work.extend(cfg.succs(b));
            }
        }
        true
    })
}

/// A quotient or a math call (`1/x`, `1/(2√x)`, `1/x` of `ln` ...).
fn may_have_infinite_partials(v: Value) -> bool {
    match v.opcode() {
        Some(Opcode::LLVMFDiv) => true,
        Some(Opcode::LLVMCall) => matches!(classify(v), CallKind::Math(_)),
        _ => false,
    }
}

//! Pointer arguments of a step that carry no derivative: memory the step only reads
//! integers or pointers from, or floats it only compares (a tolerance passed as
//! `enzyme_const, &tol`, as Enzyme's fixed-point and checkpoint examples pass it).
//!
//! The derivative functions take a shadow after every pointer (the convention of
//! registered rules), so a caller's constant pointer has none to give: for an inert
//! argument the step's derivatives treat it as constant and a null shadow is allowed
//! (`INERT_SHADOW` on the loop function's parameter, read by `custom/wrappers.rs`);
//! anything else stays a clear error.

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_llvm::{Opcode, Value};

/// The parameter attribute that allows a null shadow.
pub(crate) const INERT_SHADOW: &str = "ferrozyme-inert-shadow";

/// The loop function's first parameter that is one of the step's (diagnostics count the
/// step's arguments from it).
pub(crate) const FIRST_STEP_ARG: &str = "ferrozyme-first-step-arg";

/// For a loop function's parameter `k`: its number among the step's arguments after the
/// step number (1-based), if `func` is such a loop function.
pub(crate) fn step_argument(func: Value, k: usize) -> Option<usize> {
    let n = func.params().len();
    let first = (0..n).find(|&i| func.has_param_string_attr(i as u32, FIRST_STEP_ARG))?;
    (k >= first).then(|| k - first + 1)
}

/// Per parameter of `step` after the step number: is it an inert pointer?
pub(crate) fn inert_params(step: Value) -> Vec<bool> {
    step.params()
        .into_iter()
        .skip(1)
        .map(|p| p.ty().is_pointer() && inert(p))
        .collect()
}

/// The uses of `param` and of every pointer derived from it: through GEPs (as their
/// base), casts, phis and selects, -O0 stack slots it is stored into (the slot's loads),
/// and the parameters of defined functions it is passed to. Each other use comes as
/// `(user, pointer it uses)`; `None` past 4096 derived pointers.
pub(crate) fn derived_uses(param: Value) -> Option<Vec<(Value, Value)>> {
    let mut out = Vec::new();
    let mut work = vec![param];
    let mut seen = HashSet::default();
    while let Some(v) = work.pop() {
        if seen.len() > 4096 {
            return None;
        }
        if !seen.insert(v) {
            continue;
        }
        for u in v.users() {
            match u.opcode() {
                Some(Opcode::LLVMGetElementPtr) if u.operand(0) == v => work.push(u),
                Some(Opcode::LLVMBitCast) | Some(Opcode::LLVMPHI) | Some(Opcode::LLVMSelect) => {
                    work.push(u)
                }
                Some(Opcode::LLVMStore)
                    if u.operand(0) == v
                        && crate::request::strip_casts(u.operand(1)).opcode()
                            == Some(Opcode::LLVMAlloca) =>
                {
                    let slot = crate::request::strip_casts(u.operand(1));
                    for l in slot.users() {
                        match l.opcode() {
                            Some(Opcode::LLVMLoad) => work.push(l),
                            Some(Opcode::LLVMStore) if l.operand(1) == slot => {}
                            _ => out.push((l, slot)),
                        }
                    }
                }
                Some(Opcode::LLVMCall)
                    if u.called_function().is_some_and(|g| !g.is_declaration()) =>
                {
                    let g = u.called_function().expect("checked above");
                    for (i, a) in u.call_args().into_iter().enumerate() {
                        if a == v {
                            match g.params().get(i) {
                                Some(p) => work.push(*p),
                                None => out.push((u, v)),
                            }
                        }
                    }
                }
                _ => out.push((u, v)),
            }
        }
    }
    Some(out)
}

/// Does no derivative go through `param`: it is only compared as a pointer, read for
/// integers or for floats that are only compared, or written computed integers?
fn inert(param: Value) -> bool {
    derived_uses(param).is_some_and(|uses| {
        uses.into_iter().all(|(u, _)| match u.opcode() {
            Some(Opcode::LLVMICmp) => true,
            Some(Opcode::LLVMLoad) => {
                let t = u.ty();
                !t.is_pointer() && (!t.contains_fp() || only_compared(u))
            }
            // An integer computed, not copied (a loaded or bit-cast integer may be a
            // float's bits; of arguments only the step number): a counter a marked fixed-point
            // loop gives back (fixed_loop.rs).
            Some(Opcode::LLVMStore) => {
                let v = u.operand(0);
                v.ty().is_integer()
                    && !matches!(
                        v.opcode(),
                        Some(Opcode::LLVMLoad) | Some(Opcode::LLVMBitCast)
                    )
                    && (!v.is_argument() || v.parent_function().params().first() == Some(&v))
            }
            _ => false,
        })
    })
}

/// Is the float `v` only compared: through extensions, truncations, negations, `fabs`,
/// `freeze`, `phi`s and the values a `select` chooses (a comparator's `|x[a]| < |x[b]|`)?
/// Its derivative then reaches nothing (a comparison's is zero).
pub(crate) fn only_compared(v: Value) -> bool {
    let mut seen = HashSet::from_iter([v]);
    let mut todo = vec![v];
    while let Some(v) = todo.pop() {
        for u in v.users() {
            let moves = match u.opcode() {
                Some(Opcode::LLVMFCmp) => continue,
                Some(
                    Opcode::LLVMFPExt
                    | Opcode::LLVMFPTrunc
                    | Opcode::LLVMFNeg
                    | Opcode::LLVMFreeze
                    | Opcode::LLVMPHI
                    | Opcode::LLVMSelect,
                ) => true,
                Some(Opcode::LLVMCall) => u
                    .called_function()
                    .is_some_and(|g| g.is_intrinsic("llvm.fabs")),
                _ => false,
            };
            if !moves {
                return false;
            }
            if seen.insert(u) {
                todo.push(u);
            }
        }
    }
    true
}

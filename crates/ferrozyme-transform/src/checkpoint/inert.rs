//! Pointer arguments of a step that carry no derivative: memory the step only reads
//! integers or pointers from, or floats it only compares (a tolerance passed as
//! `enzyme_const, &tol`, as Enzyme's fixed-point and checkpoint examples pass it).
//!
//! The derivative functions take a shadow after every pointer (the convention of
//! registered rules), so a caller's constant pointer has none to give: for an inert
//! argument the step's derivatives treat it as constant and a null shadow is allowed
//! (`INERT_SHADOW` on the loop function's parameter, read by `custom/wrappers.rs`);
//! anything else stays a clear error.

use std::collections::HashSet;

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

fn inert(param: Value) -> bool {
    let mut work = vec![param];
    let mut seen = HashSet::new();
    while let Some(v) = work.pop() {
        if seen.len() > 4096 {
            return false;
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
                Some(Opcode::LLVMICmp) => {}
                Some(Opcode::LLVMLoad) => {
                    let t = u.ty();
                    if t.is_pointer() || (t.contains_fp() && !only_compared(u)) {
                        return false;
                    }
                }
                // Kept in a stack slot (-O0): the loads of the slot.
                Some(Opcode::LLVMStore) if u.operand(0) == v => {
                    let slot = crate::request::strip_casts(u.operand(1));
                    if slot.opcode() != Some(Opcode::LLVMAlloca) {
                        return false;
                    }
                    for l in slot.users() {
                        match l.opcode() {
                            Some(Opcode::LLVMLoad) => work.push(l),
                            Some(Opcode::LLVMStore) if l.operand(1) == slot => {}
                            _ => return false,
                        }
                    }
                }
                Some(Opcode::LLVMCall) => {
                    let Some(g) = u.called_function().filter(|g| !g.is_declaration()) else {
                        return false;
                    };
                    for (i, a) in u.call_args().into_iter().enumerate() {
                        if a == v {
                            match g.params().get(i) {
                                Some(p) => work.push(*p),
                                None => return false,
                            }
                        }
                    }
                }
                _ => return false,
            }
        }
    }
    true
}

/// Is the float `v` only compared (through extensions and truncations)?
fn only_compared(v: Value) -> bool {
    v.users().into_iter().all(|u| match u.opcode() {
        Some(Opcode::LLVMFCmp) => true,
        Some(Opcode::LLVMFPExt) | Some(Opcode::LLVMFPTrunc) => only_compared(u),
        _ => false,
    })
}

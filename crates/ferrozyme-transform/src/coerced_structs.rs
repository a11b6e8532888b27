//! Structs passed by value in integer registers, inlined into the clone before it is
//! differentiated.
//!
//! The x86-64 calling convention passes a small struct mixing `int` and `float` fields
//! (`struct S { int k; float v; float w; int j; }`) as integers: clang's unoptimized
//! code copies the struct into a stack temporary and loads it back as `i64`s (or returns
//! `{i64, i64}` loaded out of the callee's struct slot). Across such a call the floats
//! travel inside integers; the callee's derivative would treat its integer parameters as
//! constants, so the audit refuses the call ("floating-point data crosses this call
//! inside integers", `audit::hidden_floats`). Optimized code inlines small helpers
//! first, and the floats are floats again.
//!
//! [`inline_float_carrying_calls`] does the same for the clone being differentiated: a
//! call of a function with IR whose integer argument is loaded out of a stack slot whose
//! type holds floats (the struct's copy), or whose integer result the callee loads out
//! of such a slot, is inlined where the caller's copies of the struct are plain locals
//! (`stays_local`), and the clone's SSA construction then sees the struct's fields as the
//! floats they are. The primal computes exactly what it did (inlining moves no
//! arithmetic). A recursive helper keeps one call per inlined level, bounded by
//! [`ROUNDS`]: what is left is refused by the audit as before. Floats handed over as an
//! integer some other way (a `double`'s bits as `unsigned long long`) are not inlined
//! and stay refused, as do the optimized shapes (a `noinline` helper at -O2, given and
//! returning integers built from the floats' bits, tests/errors/audit_struct_by_value_call.c).

use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{Module, Opcode, Type, TypeKind, Value};

use crate::common::base_object;

/// How many times the clone's new calls are looked at again (helpers calling helpers
/// that pass the struct on, a recursive helper's next level).
const ROUNDS: u32 = 4;

/// Inlines the calls of `f` that hand floats over inside integers (see the module docs).
pub(crate) fn inline_float_carrying_calls(m: Module, f: Value) -> Result<(), String> {
    for _ in 0..ROUNDS {
        let calls: Vec<Value> = f
            .instructions()
            .filter(|&i| carries_floats_in_integers(f, i))
            .collect();
        if calls.is_empty() {
            break;
        }
        crate::settings::inline_call_sites(m, &calls)?;
    }
    Ok(())
}

/// Is `i` a call of a function with IR (not `f` itself, not generated, not variadic)
/// that passes or returns a struct coerced to integers holding floats?
fn carries_floats_in_integers(f: Value, i: Value) -> bool {
    if i.opcode() != Some(Opcode::LLVMCall) {
        return false;
    }
    let CallKind::Defined(g) = classify(i) else {
        return false;
    };
    if g == f || crate::generated::is_generated(g) || g.function_type().is_vararg() {
        return false;
    }
    let args: Vec<Value> = i
        .call_args()
        .into_iter()
        .filter(|a| integers_only(a.ty()) && loaded_from_float_slot(*a))
        .collect();
    let result = integers_only(i.ty()) && !i.users().is_empty() && returns_float_slot(g);
    (!args.is_empty() || result)
        && args.iter().all(|a| stays_local(base_object(a.operand(0))))
        && (!result || result_kept_locally(i))
}

/// How many slots copied into one another (`agg.tmp = st`, `st = ret.tmp`) [`stays_local`]
/// follows.
const MAX_SLOTS: usize = 8;

/// Will the caller's copy of the struct become registers once the call is inlined: is
/// `slot` only loaded, stored into, addressed, and copied to or from slots of the same
/// kind (at most [`MAX_SLOTS`] of them)? A struct whose address escapes (a lambda
/// capturing it by reference) stays in memory, where the inlined helper's `i64` halves
/// and its float fields would meet: that call is left to the audit's refusal, whose
/// advice fits it.
fn stays_local(slot: Value) -> bool {
    let mut slots = vec![slot];
    let mut seen = ferrozyme_analysis::hash::HashSet::default();
    while let Some(s) = slots.pop() {
        if !seen.insert(s) {
            continue;
        }
        if s.opcode() != Some(Opcode::LLVMAlloca) || seen.len() > MAX_SLOTS {
            return false;
        }
        let mut work = vec![s];
        while let Some(p) = work.pop() {
            for u in p.users() {
                let ok = match u.opcode() {
                    Some(Opcode::LLVMLoad) => true,
                    Some(Opcode::LLVMStore) => u.operand(1) == p && u.operand(0) != p,
                    Some(Opcode::LLVMGetElementPtr) if u.operand(0) == p => {
                        work.push(u);
                        true
                    }
                    Some(Opcode::LLVMCall) if ferrozyme_analysis::captures::is_marker(u) => true,
                    Some(Opcode::LLVMCall)
                        if matches!(classify(u), CallKind::Memcpy | CallKind::Memmove) =>
                    {
                        let a = u.call_args();
                        slots.push(base_object(if a[0] == p { a[1] } else { a[0] }));
                        true
                    }
                    _ => false,
                };
                if !ok {
                    return false;
                }
            }
        }
    }
    true
}

/// Is the integer result of call `i` (taken apart with `extractvalue`) only stored into
/// slots that [`stay_local`](stays_local)?
fn result_kept_locally(i: Value) -> bool {
    let mut work = vec![i];
    while let Some(v) = work.pop() {
        for u in v.users() {
            match u.opcode() {
                Some(Opcode::LLVMExtractValue) => work.push(u),
                Some(Opcode::LLVMStore) if u.operand(0) == v => {
                    if !stays_local(base_object(u.operand(1))) {
                        return false;
                    }
                }
                _ => return false,
            }
        }
    }
    true
}

/// Does `g` return integers loaded out of a stack slot whose type holds floats (clang's
/// -O0 `return s;` of such a struct)? Optimized code builds them from the floats' bits
/// instead (`bitcast`, `zext`, `shl`, `or`), which stays refused: inlined, the caller's
/// type-punned loads of the floats as `i32` (InstCombine's) are not typed either.
fn returns_float_slot(g: Value) -> bool {
    g.blocks()
        .into_iter()
        .filter_map(|b| b.terminator())
        .any(|t| {
            t.opcode() == Some(Opcode::LLVMRet)
                && t.num_operands() == 1
                && loaded_from_float_slot(t.operand(0))
        })
}

/// An integer, or a struct or array of integers (`i64`, `{i64, i64}`, `[2 x i64]`).
fn integers_only(t: Type) -> bool {
    match t.kind() {
        TypeKind::Int(_) => true,
        TypeKind::Struct | TypeKind::Array => !t.contains_fp() && !t.contains_pointer(),
        _ => false,
    }
}

/// Is `v` loaded out of a stack slot whose type holds floats (clang's copy of a struct
/// passed by value, read back as the integers the calling convention wants)?
fn loaded_from_float_slot(v: Value) -> bool {
    if v.opcode() != Some(Opcode::LLVMLoad) {
        return false;
    }
    let slot = base_object(v.operand(0));
    slot.opcode() == Some(Opcode::LLVMAlloca) && slot.allocated_type().contains_fp()
}

//! Which pointers are *provably constant*: they point to memory without a shadow, and
//! every pointer that memory holds is constant too.
//!
//! "Not shadowed" (`Activity::is_shadowed`) is not enough for that. A mutable global
//! declared as bytes gets a shadow only where the analysis sees a float or a pointer
//! stored into it (`global_uses::stores_floats_or_pointers`); at -O0 its address goes
//! through a stack slot first and the store is missed. Before pointer slots that did not
//! matter at -O0: every slot holding a pointer had a shadow, and whatever was loaded from
//! it had one too. A pointer slot (`copy_slots::pointer_slot`) drops that blanket shadow,
//! so what flows into it must be proved constant, not merely unshadowed: tests/c/508 (a
//! bump allocator carving `double *` out of a global `char` pool, the pointer returned by
//! a callee and kept in a slot) got a zero derivative at -O0 when it was not.
//!
//! A pointer is provably constant when it is not shadowed and its roots are all
//!
//! * `null`, `undef`, a function, a constant global holding no pointers, or a global the
//!   user declared inactive (`__enzyme_inactive_global`: it has no shadow, and what it
//!   holds carries no derivative by that declaration);
//! * a parameter without a shadow (`enzyme_const`, or proved constant by the caller);
//! * a pointer slot without a shadow (its own stores were proved constant);
//! * a load through a provably constant pointer (constant memory holds constant pointers);
//! * the result of a defined callee that returns one of its arguments (or one pointer of
//!   its aggregate result that it always takes from one argument), that argument being
//!   provably constant, or whose own analysis (`returned_shadow`) proves every
//!   pointer it returns constant, given which of its arguments are;
//!
//! through GEPs, casts, phis and selects. Anything else, a mutable global above all (its
//! shadow may be missing), a call without IR, an integer turned into a pointer, counts as
//! "may have a shadow". The answer errs on that side: a slot then keeps its shadow,
//! which costs run-time activity checks or a refusal, never a derivative.

use crate::hash::HashSet;

use ferrozyme_llvm::{Opcode, Value};

use super::{extracted_returned_arg, returned_param, Activity, ActivityInput, ArgActivity};
use crate::calls::{classify, CallKind};

/// How many values one question may visit before answering "may have a shadow".
const BUDGET: usize = 128;

/// Is `v` provably constant (module comment) under analysis `a`?
pub fn provably_constant(a: &mut Activity, v: Value, input: &ActivityInput<'_>) -> bool {
    walk(a, v, input, &mut HashSet::default())
}

/// The activities of `call`'s arguments for asking the callee about its result: a
/// pointer not provably constant is `Dup`, an active value `Active`, the rest `Const`.
pub fn call_arg_activities(
    a: &mut Activity,
    call: Value,
    input: &ActivityInput<'_>,
) -> Vec<ArgActivity> {
    arg_activities(a, call, input, &mut HashSet::default())
}

fn arg_activities(
    a: &mut Activity,
    call: Value,
    input: &ActivityInput<'_>,
    seen: &mut HashSet<Value>,
) -> Vec<ArgActivity> {
    call.call_args()
        .into_iter()
        .map(|x| {
            if x.ty().contains_pointer() && !(x.ty().is_pointer() && walk(a, x, input, seen)) {
                ArgActivity::Dup
            } else if a.is_active(x) {
                ArgActivity::Active
            } else {
                ArgActivity::Const
            }
        })
        .collect()
}

fn walk(a: &mut Activity, v: Value, input: &ActivityInput<'_>, seen: &mut HashSet<Value>) -> bool {
    if !seen.insert(v) {
        // Met again through a phi cycle: the cycle adds no root of its own.
        return true;
    }
    if seen.len() > BUDGET || a.is_shadowed(v) {
        return false;
    }
    if v.is_null() || v.is_undef() || v.is_function() {
        return true;
    }
    if v.is_global_variable() {
        // A global the user declared inactive has no shadow, and by that declaration
        // whatever it holds carries no derivative (Enzyme's contract).
        return (v.is_global_constant() && !v.global_value_type().contains_pointer())
            || crate::global_uses::declared_inactive(v);
    }
    if v.is_constant_expr() {
        return match v.const_opcode() {
            Some(Opcode::LLVMGetElementPtr)
            | Some(Opcode::LLVMBitCast)
            | Some(Opcode::LLVMAddrSpaceCast) => walk(a, v.operand(0), input, seen),
            _ => false,
        };
    }
    if v.is_argument() {
        return true;
    }
    match v.opcode() {
        Some(Opcode::LLVMAlloca) => a.pointer_slots.contains(&v),
        Some(Opcode::LLVMGetElementPtr)
        | Some(Opcode::LLVMBitCast)
        | Some(Opcode::LLVMAddrSpaceCast)
        | Some(Opcode::LLVMFreeze)
        | Some(Opcode::LLVMLoad) => walk(a, v.operand(0), input, seen),
        Some(Opcode::LLVMSelect) => {
            walk(a, v.operand(1), input, seen) && walk(a, v.operand(2), input, seen)
        }
        Some(Opcode::LLVMPHI) => v
            .incoming()
            .into_iter()
            .all(|(x, _)| walk(a, x, input, seen)),
        Some(Opcode::LLVMCall) | Some(Opcode::LLVMInvoke) => {
            call_returns_constant(a, v, input, seen)
        }
        // One pointer of a call's aggregate result that the callee always takes from one
        // argument (`extracted_returned_arg`).
        Some(Opcode::LLVMExtractValue) => {
            v.ty().is_pointer()
                && extracted_returned_arg(v).is_some_and(|arg| walk(a, arg, input, seen))
        }
        _ => false,
    }
}

/// Does `call` return a provably constant pointer?
fn call_returns_constant(
    a: &mut Activity,
    call: Value,
    input: &ActivityInput<'_>,
    seen: &mut HashSet<Value>,
) -> bool {
    if !call.ty().is_pointer() {
        return false;
    }
    let CallKind::Defined(f) = classify(call) else {
        return false;
    };
    if let Some(k) = returned_param(f, 2) {
        return match call.call_args().get(k) {
            Some(&arg) => walk(a, arg, input, seen),
            None => false,
        };
    }
    if a.callee_depth == 0 || f == input.func || super::returns_fresh_memory(f, 4) {
        return false;
    }
    let args = arg_activities(a, call, input, seen);
    !a.ask_callee_as_its_derivative(f, args, input)
}

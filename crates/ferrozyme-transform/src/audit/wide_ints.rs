//! Floating-point data moved inside an integer wider than 64 bits (the audit's check of
//! integer-carried float pairs, see `body.rs`).
//!
//! rustc and SROA move a 16-byte value (a `(f64, f64)` pair, a small struct, an enum
//! payload, clang's `__int128` unions) as one `i128`: loaded as `i128`, selected or
//! merged by a phi, then split with `trunc`/`lshr` and `bitcast` back to `double`, or
//! stored whole. Type analysis and activity follow floats carried in `i32`/`i64` (one
//! float per integer), not two floats in one integer, so such a value is inactive and
//! its derivative was a silent zero. Until shadows follow wide integers, the audit
//! refuses: a wide integer that holds data with a derivative (read from memory with a
//! shadow, or built from active values) and whose bits come back out as floats (a
//! `bitcast` to a floating type, a float load of the stack slot it was stored into) or
//! are stored into memory with a shadow (a copy between differentiable memory that
//! would not copy the derivatives).

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_analysis::activity::Activity;
use ferrozyme_llvm::{DiagKind, Opcode, Type, TypeKind, Value};

use crate::common::base_object;

use super::body::Finding;
use crate::common::ir_text::quote;

/// How far the bits of one wide integer are followed.
const WALK_LIMIT: usize = 256;

/// Is `t` an integer (or a vector of integers) wider than 64 bits?
fn is_wide_int(t: Type) -> bool {
    let e = if t.kind() == TypeKind::Vector {
        t.element_type()
    } else {
        t
    };
    e.int_width().is_some_and(|w| w > 64)
}

/// Where a wide integer holding derivative data lets its floats go unseen.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sink {
    /// Its bits become a float again (`bitcast`, or a float load of its stack slot).
    FloatAgain(Value),
    /// It is stored whole into memory with a shadow.
    ShadowedStore(Value),
}

/// Does the wide integer `i` carry data with a derivative: read from memory with a
/// shadow (whole, or in parts put together with `zext`/`shl`/`or`), built from active
/// values, or from a float's bits?
fn holds_derivative_data(i: Value, act: &Activity) -> bool {
    let mut work = vec![i];
    let mut seen = HashSet::default();
    while let Some(v) = work.pop() {
        if !seen.insert(v) || seen.len() > WALK_LIMIT {
            continue;
        }
        if act.is_active(v) {
            return true;
        }
        match v.opcode() {
            Some(Opcode::LLVMLoad) if act.is_shadowed(v.operand(0)) => return true,
            Some(Opcode::LLVMBitCast) if v.operand(0).ty().contains_fp() => return true,
            _ if moves_bits(v) => {
                work.extend(v.operands().into_iter().filter(|o| o.is_instruction()))
            }
            _ => {}
        }
    }
    false
}

/// Is `i` where a wide integer's bits start: a wide load, or a wide value made from
/// operands that are not wide (`zext`, `bitcast` of a vector)?
fn is_root(i: Value) -> bool {
    is_wide_int(i.ty())
        && (i.opcode() == Some(Opcode::LLVMLoad)
            || (moves_bits(i) && i.operands().iter().all(|o| !is_wide_int(o.ty()))))
}

/// Instructions that move or reshape the bits of an integer operand without computing
/// with them (the results still hold the floats' bits, or part of them).
fn moves_bits(i: Value) -> bool {
    use Opcode::*;
    matches!(
        i.opcode(),
        Some(
            LLVMSelect
                | LLVMPHI
                | LLVMFreeze
                | LLVMTrunc
                | LLVMZExt
                | LLVMLShr
                | LLVMShl
                | LLVMAnd
                | LLVMOr
                | LLVMBitCast
                | LLVMInsertValue
                | LLVMExtractValue
                | LLVMInsertElement
                | LLVMExtractElement
                | LLVMShuffleVector
        )
    )
}

/// Follows the bits of `root` forward to the first sink. `float_loads` are the float
/// loads of the function by the stack slot they read.
fn first_sink(root: Value, act: &Activity, float_loads: &[(Value, Value)]) -> Option<Sink> {
    let mut work = vec![root];
    let mut seen = HashSet::default();
    while let Some(v) = work.pop() {
        if !seen.insert(v) || seen.len() > WALK_LIMIT {
            continue;
        }
        for u in v.users() {
            match u.opcode() {
                Some(Opcode::LLVMBitCast) if u.ty().contains_fp() => {
                    return Some(Sink::FloatAgain(u))
                }
                Some(Opcode::LLVMStore) if u.operand(0) == v => {
                    let p = u.operand(1);
                    if act.is_shadowed(p) && is_wide_int(v.ty()) {
                        return Some(Sink::ShadowedStore(u));
                    }
                    let slot = base_object(p);
                    if slot.opcode() == Some(Opcode::LLVMAlloca) {
                        if let Some(&(l, _)) = float_loads.iter().find(|(_, s)| *s == slot) {
                            return Some(Sink::FloatAgain(l));
                        }
                    }
                }
                _ if moves_bits(u) => work.push(u),
                // A call that takes the wide integer and gives one back (a helper that is
                // not inlined, `llvm.fshl` rotating the halves): its result holds the bits.
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke) if is_wide_int(u.ty()) => work.push(u),
                _ => {}
            }
        }
    }
    None
}

/// Wide integers holding derivative data whose floats the pass would not see.
pub(super) fn floats_in_wide_integers(insts: &[Value], act: &Activity, out: &mut Vec<Finding>) {
    let float_loads: Vec<(Value, Value)> = insts
        .iter()
        .filter(|i| i.opcode() == Some(Opcode::LLVMLoad) && i.ty().contains_fp())
        .map(|&l| (l, base_object(l.operand(0))))
        .filter(|(_, s)| s.opcode() == Some(Opcode::LLVMAlloca))
        .collect();
    let mut reported = HashSet::default();
    for &i in insts {
        if !is_root(i) || !holds_derivative_data(i, act) {
            continue;
        }
        let Some(sink) = first_sink(i, act, &float_loads) else {
            continue;
        };
        // One finding per place the floats come out (`or` of two halves has two roots).
        let (Sink::FloatAgain(at) | Sink::ShadowedStore(at)) = sink;
        if !reported.insert(at) {
            continue;
        }
        let t = i.ty();
        let whence = match sink {
            Sink::FloatAgain(at) => format!(
                "its bits become floating-point data again at `{}`",
                quote(at)
            ),
            Sink::ShadowedStore(at) => format!(
                "it is stored whole into differentiable memory at `{}`, which would not copy the derivatives",
                quote(at)
            ),
        };
        out.push(Finding {
            kind: DiagKind::UnsupportedInstruction,
            at: i,
            msg: format!(
                "floating-point data moved as one `{t}` integer (two doubles of a 16-byte struct, tuple, array or enum payload merged into one integer by the compiler, or an `__int128` union); {whence}: derivatives are not followed through integers wider than 64 bits, so they would be lost"
            ),
            help: "move the floats as floats in the differentiated code: copy the fields one at a time or pass the value by reference, and do not pun doubles through `u128`/`__int128`",
        });
    }
}

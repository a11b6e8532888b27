//! Pointers and floats carried in integers: which integers may hold a float's bits
//! (`i32`/`i64`), pointers copied as integers (`ptrtoint` stores, `i64` moves of pointer
//! slots), integers taken apart into floats, and `inttoptr` results that cannot address
//! differentiable memory or that may rebuild a pointer into it.

use crate::hash::HashSet;
use crate::types::TypeAnalysis;

use ferrozyme_llvm::{Opcode, Type, Value};

/// The pointer an integer store writes, when the stored integer is `ptrtoint p` (the
/// form InstCombine gives a pointer copy through integer memory, and libstdc++'s
/// `std::reference_wrapper` stored into a vector's buffer): its shadow is `ptrtoint` of
/// `p`'s shadow.
pub fn pointer_as_integer(v: Value) -> Option<Value> {
    if v.opcode() == Some(Opcode::LLVMPtrToInt) && v.operand(0).ty().is_pointer() {
        Some(v.operand(0))
    } else {
        None
    }
}

/// Integer types that can carry floats bit for bit: `i32`/`i64` and vectors of them.
pub fn is_int_carrier_type(t: Type) -> bool {
    let e = if t.kind() == ferrozyme_llvm::TypeKind::Vector {
        t.element_type()
    } else {
        t
    };
    matches!(e.int_width(), Some(32) | Some(64))
}

/// A pointer moved as an integer: `load i64` of memory that type analysis knows holds a
/// pointer there, whose value only goes to stores (`std::unique_ptr`'s move when a
/// `std::vector` of them grows at -O2: the old slot is nulled after the copy, so the load
/// is not forwarded). The shadow memory gets the shadow pointer the same way.
pub fn moves_pointer_bits(i: Value, ta: &TypeAnalysis) -> bool {
    i.opcode() == Some(Opcode::LLVMLoad)
        && i.ty().int_width() == Some(64)
        && ta
            .value_tree(i)
            .iter()
            .any(|(o, b)| o == 0 && b == crate::types::BaseType::Pointer)
        && !i.users().is_empty()
        && i.users().into_iter().all(|u| {
            u.opcode() == Some(Opcode::LLVMStore) && u.operand(0) == i && u.operand(1) != i
        })
}

/// Does the memory an `i64` load reads hold two `float`s (or a float beside a 4-byte
/// integer), rather than one double?
pub(super) fn holds_float_pair(ta: &TypeAnalysis, load: Value) -> bool {
    use crate::types::BaseType::{Double, Float};
    let t = ta.pointee_tree(load.operand(0));
    let (a, b) = (t.get(0), t.get(4));
    (a == Float || b == Float) && a != Double
}

/// Is a 64-bit integer taken apart into floats: `bitcast (trunc x) to float` or
/// `bitcast (trunc (lshr x, 32)) to float`?
pub(super) fn used_as_float_pair(x: Value) -> bool {
    use Opcode::*;
    let to_float = |t: Value| {
        t.users().iter().any(|u| {
            u.opcode() == Some(LLVMBitCast) && u.ty().kind() == ferrozyme_llvm::TypeKind::Float
        })
    };
    x.users().iter().any(|u| match u.opcode() {
        Some(LLVMTrunc) if u.ty().int_width() == Some(32) => to_float(*u),
        Some(LLVMLShr) if u.operand(1).const_int_value() == Some(32) => u.users().iter().any(|t| {
            t.opcode() == Some(LLVMTrunc) && t.ty().int_width() == Some(32) && to_float(*t)
        }),
        _ => false,
    })
}

/// Is `v` a pointer that cannot address memory the differentiated code was given or
/// allocated: `null`, `inttoptr` of a constant in the never-mapped first page, or
/// `inttoptr` of an integer computed from numbers alone (no `ptrtoint`, no load)? Rust's
/// dangling pointers of empty `Vec`s and boxes are such addresses made from the
/// alignment (`NonNull::dangling()`, `ptr::without_provenance(align)`). A correct program
/// never reads or writes through them, so they need no shadow: merging one with a pointer
/// that has a shadow is not mixed activity.
pub fn is_unaddressable(v: Value) -> bool {
    if !v.ty().is_pointer() {
        return false;
    }
    // `getelementptr (null, n)`: C++ containers compute an empty range's end from a null
    // begin; only `n == 0` is valid there, and it is never dereferenced.
    if v.opcode().or_else(|| v.const_opcode()) == Some(Opcode::LLVMGetElementPtr) {
        return is_unaddressable(v.operand(0));
    }
    if v.is_constant() {
        if v.is_null() {
            return true;
        }
        return v.const_opcode() == Some(Opcode::LLVMIntToPtr)
            && v.operand(0)
                .const_int_value()
                .is_some_and(|a| (0..4096).contains(&a));
    }
    v.opcode() == Some(Opcode::LLVMIntToPtr) && is_plain_number(v.operand(0), 8)
}

/// Is `i` an `inttoptr` that may rebuild a pointer into differentiable memory from its
/// bits (the integer is not known to be a plain number: it came from `ptrtoint`, from
/// memory, or type analysis cannot tell), and is then used to reach memory? Shadows are
/// not followed through integers, so such a pointer would silently have none.
pub fn is_smuggled_pointer(i: Value, types: &TypeAnalysis) -> bool {
    if i.opcode() != Some(Opcode::LLVMIntToPtr) || is_unaddressable(i) {
        return false;
    }
    if types.value_tree(i.operand(0)).get(0) == crate::types::BaseType::Integer {
        return false;
    }
    reaches_memory(i, &mut HashSet::default())
}

/// Is pointer `p` (or a phi or select of it) used for anything but comparisons,
/// `ptrtoint` and as the *callee* of a call? A pointer only called is a code pointer
/// (the function half of a C++ member-function pointer, `{i64, i64}`, becomes one by
/// `inttoptr`): calls through pointers dispatch on the primal address
/// (`reverse/calls.rs`), so it needs no shadow and reaches no differentiable memory.
fn reaches_memory(p: Value, seen: &mut HashSet<Value>) -> bool {
    if !seen.insert(p) {
        return false;
    }
    p.users().into_iter().any(|u| match u.opcode() {
        Some(Opcode::LLVMICmp | Opcode::LLVMPtrToInt) => false,
        Some(Opcode::LLVMPHI | Opcode::LLVMSelect) if u.ty().is_pointer() => {
            reaches_memory(u, seen)
        }
        Some(Opcode::LLVMCall | Opcode::LLVMInvoke) => {
            u.called_value() != p || u.call_args().contains(&p)
        }
        _ => true,
    })
}

/// An integer computed from constants and integer arguments by integer arithmetic only.
fn is_plain_number(v: Value, depth: u32) -> bool {
    if v.is_constant() {
        return v.ty().is_integer() && !v.is_constant_expr();
    }
    if v.is_argument() {
        return v.ty().is_integer();
    }
    if depth == 0 || !v.ty().is_integer() {
        return false;
    }
    use Opcode::*;
    match v.opcode() {
        Some(
            LLVMAdd | LLVMSub | LLVMMul | LLVMShl | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr
            | LLVMXor | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMZExt | LLVMSExt | LLVMTrunc
            | LLVMFreeze,
        ) => v
            .operands()
            .into_iter()
            .all(|o| is_plain_number(o, depth - 1)),
        Some(LLVMSelect) => {
            is_plain_number(v.operand(1), depth - 1) && is_plain_number(v.operand(2), depth - 1)
        }
        _ => false,
    }
}

//! What a call instruction is, for differentiation purposes.
//!
//! Every call in a function being differentiated falls in exactly one [`CallKind`]. The
//! classification only looks at the callee (name, intrinsic id, whether it has IR) and at
//! the tables in `ferrozyme-rules` and `ferrozyme-abi`; whether the call is *active* is the
//! activity analysis' business.

use ferrozyme_abi::AllocKind;
use ferrozyme_llvm::Value;
use ferrozyme_rules::Rule;

#[derive(Clone, Copy, Debug)]
pub enum CallKind {
    /// Elementwise math with a rule (intrinsic or libm).
    Math(&'static Rule),
    /// Intrinsics and functions whose derivative is zero or that never carry one
    /// (`llvm.floor`, `llvm.lifetime.start`, `llvm.assume`, ...).
    NoDerivative,
    Memcpy,
    Memmove,
    Memset,
    /// `llvm.vector.reduce.fadd` (ordered or not).
    ReduceFAdd,
    /// `llvm.vector.reduce.fmul`.
    ReduceFMul,
    /// `llvm.vector.reduce.fmax/fmin/fmaximum/fminimum`: the derivative goes to the lane
    /// that was selected.
    ReduceFMinMax,
    /// `llvm.masked.load(ptr, mask, passthru)`.
    MaskedLoad,
    /// `llvm.masked.store(val, ptr, mask)`.
    MaskedStore,
    /// `llvm.masked.gather(ptrs, mask, passthru)`.
    MaskedGather,
    /// `llvm.masked.scatter(vals, ptrs, mask)`.
    MaskedScatter,
    Malloc,
    Calloc,
    Realloc,
    Free,
    /// Known external functions that cannot affect derivatives (`printf`, ...).
    InactiveExternal,
    /// `__enzyme_double(ptr)` and siblings: type hints, removed by the pass.
    TypeHint,
    /// A function with IR in the module.
    Defined(Value),
    /// An intrinsic without a rule.
    UnknownIntrinsic,
    /// A declared function without IR and without a rule.
    UnknownExternal,
    /// A call through a pointer.
    Indirect,
    InlineAsm,
}

/// Classifies a call instruction.
pub fn classify(call: Value) -> CallKind {
    if call.is_inline_asm_call() {
        return CallKind::InlineAsm;
    }
    let Some(f) = call.called_function() else {
        return CallKind::Indirect;
    };
    let name = f.name();
    if name.starts_with("llvm.") {
        if let Some(r) = ferrozyme_rules::intrinsic_rule(&name).filter(|r| math_call_fits(call, r))
        {
            if r.all_zero() {
                return CallKind::NoDerivative;
            }
            return CallKind::Math(r);
        }
        if name.starts_with("llvm.memcpy") {
            return CallKind::Memcpy;
        }
        if name.starts_with("llvm.memmove") {
            return CallKind::Memmove;
        }
        if name.starts_with("llvm.memset") {
            return CallKind::Memset;
        }
        if name.starts_with("llvm.vector.reduce.fadd") {
            return CallKind::ReduceFAdd;
        }
        for (prefix, kind) in [
            ("llvm.masked.load.", CallKind::MaskedLoad),
            ("llvm.masked.store.", CallKind::MaskedStore),
            ("llvm.masked.gather.", CallKind::MaskedGather),
            ("llvm.masked.scatter.", CallKind::MaskedScatter),
        ] {
            if name.starts_with(prefix) && call.num_call_args() == 3 {
                return kind;
            }
        }
        if name.starts_with("llvm.vector.reduce.fmul") {
            return CallKind::ReduceFMul;
        }
        if ["llvm.vector.reduce.fmax", "llvm.vector.reduce.fmin"]
            .iter()
            .any(|p| name.starts_with(p))
        {
            return CallKind::ReduceFMinMax;
        }
        if ferrozyme_rules::zero_derivative_intrinsic(&name) {
            return CallKind::NoDerivative;
        }
        return CallKind::UnknownIntrinsic;
    }
    if crate::types::is_type_hint(&name) {
        return CallKind::TypeHint;
    }
    if let Some(a) = ferrozyme_abi::alloc_fn(&name, !f.is_declaration()) {
        return match a.kind {
            AllocKind::Malloc => CallKind::Malloc,
            AllocKind::Calloc => CallKind::Calloc,
            AllocKind::Realloc => CallKind::Realloc,
            AllocKind::Free => CallKind::Free,
        };
    }
    // A call that never returns (Rust's `core::panicking::*`, `unwrap_failed`,
    // `handle_alloc_error`; C's `exit`, `abort`) ends the run on its path: no derivative
    // is produced there, so nothing it reads or writes matters to one.
    if f.has_fn_attr("noreturn") {
        return CallKind::InactiveExternal;
    }
    if !f.is_declaration() {
        return CallKind::Defined(f);
    }
    if let Some(r) = ferrozyme_rules::libm_rule(&name).filter(|r| math_call_fits(call, r)) {
        if r.all_zero() {
            return CallKind::NoDerivative;
        }
        return CallKind::Math(r);
    }
    if ferrozyme_abi::INACTIVE_EXTERNALS.contains(&name.as_str()) {
        return CallKind::InactiveExternal;
    }
    CallKind::UnknownExternal
}

/// Where an allocation call (`CallKind::Malloc/Calloc/Realloc/Free`) keeps its
/// arguments: the allocated bytes are `args[size]` (times `args[count]`), the pointer a
/// realloc or free takes is `args[ptr]`.
pub fn alloc_fn(call: Value) -> Option<&'static ferrozyme_abi::AllocFn> {
    let f = call.called_function()?;
    ferrozyme_abi::alloc_fn(&f.name(), !f.is_declaration())
}

/// The size operands of an allocation call `args` (the call's own, or a copy's): the
/// allocated bytes are `n * m`; `m` is `None` when it is 1.
pub fn alloc_size_operands(call: Value, args: &[Value]) -> Option<(Value, Option<Value>)> {
    let a = alloc_fn(call)?;
    let n = *args.get(a.size?)?;
    let m = match a.count {
        Some(k) => Some(*args.get(k)?),
        None => None,
    };
    Some((n, m))
}

/// Does the call have the shape the rule is written for: one operand per argument, and
/// floating operands of the result's type (so `cabsf(<2 x float>)`, which packs a complex
/// number in one vector, is not mistaken for the two-argument rule)?
fn math_call_fits(call: Value, r: &Rule) -> bool {
    let args = call.call_args();
    let rt = call.ty();
    args.len() == r.arity && args.iter().all(|a| !a.ty().is_fp() || a.ty() == rt)
}

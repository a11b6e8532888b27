//! The hook boundary: what a parsed `__enzyme_*` call hands over and gets back, checked
//! for the ways a derivative could silently come out as zero (issue 17's audit).
//!
//! `request.rs` checks that a call *fits* its function (counts, markers, shadows). This
//! module checks that what fits is also *differentiable*, before anything is generated:
//!
//! * **Float types the pass does not differentiate** (`__float128`/`fp128`, `__bf16`,
//!   PowerPC's double-double; `_Float16` and `long double` when their switches in
//!   `ferrozyme_llvm::types` are off; also inside vectors, arrays and structs) as a
//!   parameter, as the function's result, or as the hook's declared result. Enzyme's defaults would make such a parameter active, but
//!   its derivative cannot be computed: an unmarked one is an error (marked
//!   `enzyme_const` it is fine: no derivative is asked for).
//! * **Floats hidden in other types**: a struct or union passed by value as an integer
//!   (`struct { float x; int k; }` is one `i64` on x86-64, `union { __int128 i; double
//!   d[2]; }` an `i128`) or as an aggregate value: Enzyme's default for them is
//!   "constant", so their derivative would silently be zero. Unmarked, they are an error.
//! * **Structs with floats passed in memory** (`byval`: a struct of three doubles, `long
//!   double _Complex`) in reverse mode: the callee gets a copy, so a shadow given with
//!   `enzyme_dup` would receive the gradient in a copy the caller never sees. A struct of
//!   pointers by value is fine (Enzyme's behaviour): the shadow copy holds the shadow
//!   pointers, and the adjoints go through them.
//! * **Aggregate results in reverse mode** (`double _Complex`, a struct of doubles,
//!   `<2 x float>`): reverse mode seeds one scalar result with 1.0; there is no seed for
//!   several, so the result's derivative would be dropped.
//!
//! Each problem is a diagnostic at the hook call naming the argument, the type, and what
//! to write instead. Calls that pass are unchanged.

use ferrozyme_abi::{EntryPoint, Marker};
use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_llvm::{DiagKind, Diagnostic, Opcode, Through, Type, TypeKind, Value};

use crate::request::AutodiffCall;

/// Checks one parsed hook call (see the module comment).
pub(crate) fn check_call(ac: &AutodiffCall, ep: EntryPoint) -> Result<(), Diagnostic> {
    let call = ac.call;
    let caller = call.parent_function().name();
    let fname = ac.func.name();
    let reverse = ep != EntryPoint::Fwddiff;
    let err = |kind: DiagKind, msg: String, help: &str| {
        Diagnostic::new(kind, msg)
            .in_function(caller.clone())
            .at_instruction(call.to_string())
            .at_loc(call.source_loc())
            .with_help(help.to_string())
    };
    for (k, (p, a)) in ac.func.params().into_iter().zip(&ac.args).enumerate() {
        let pty = p.ty();
        let n = k + 1;
        let explicit_const = a.marker == Some(Marker::Const);
        if let Some(t) = pty.undifferentiated_fp() {
            if !explicit_const {
                return Err(err(
                    DiagKind::UnsupportedInstruction,
                    format!(
                        "argument {n} of `{fname}` has type {pty} ({}), which Ferrozyme does not differentiate",
                        describe(t)
                    ),
                    "use double (or float) for the values you differentiate, or mark the argument enzyme_const if you need no derivative for it",
                ));
            }
            continue;
        }
        if let Some(sty) = ac.func.param_byval_type(k as u32) {
            // A struct of pointers (and integers) by value works as Enzyme treats it: its
            // shadow copy holds the shadow pointers, through which the adjoints reach the
            // caller's buffers. Floats in the copy would only get adjoints the caller never
            // sees (forward mode reads their tangents from the shadow copy: fine).
            if a.activity == ArgActivity::Dup && reverse && sty.contains_fp() {
                return Err(err(
                    DiagKind::BadAutodiffCall,
                    format!(
                        "argument {n} of `{fname}` is a struct passed by value in memory (byval) holding floating-point fields ({sty}); its shadow is a copy, so their derivatives would never reach the caller"
                    ),
                    "pass a pointer to the struct instead (double f(struct P *p), then enzyme_dup, &p, &dp), or keep only pointers (and integers) in the struct passed by value, or mark the argument enzyme_const",
                ));
            }
        }
        if a.activity == ArgActivity::Const && a.marker.is_none() {
            let hidden = match pty.kind() {
                TypeKind::Struct | TypeKind::Array => pty.contains_fp(),
                TypeKind::Int(w) => w >= 32 && int_param_carries_fp(ac.func, k),
                _ => false,
            };
            if hidden {
                return Err(err(
                    DiagKind::BadAutodiffCall,
                    format!(
                        "argument {n} of `{fname}` has type {pty} but carries floating-point data (a struct or union passed by value); unmarked, it would count as a constant and its derivative would silently be zero"
                    ),
                    "pass the struct by pointer with enzyme_dup (and a shadow), pass its floats as separate arguments, or mark the argument enzyme_const if you need no derivative for it",
                ));
            }
        }
    }
    let ret = ac.func.function_type().return_type();
    let user_ty = call.call_sret_type(0).unwrap_or_else(|| call.ty());
    if let Some(t) = ret.undifferentiated_fp() {
        if reverse || !user_ty.is_void() {
            return Err(err(
                DiagKind::UnsupportedInstruction,
                format!(
                    "`{fname}` returns {ret} ({}), which Ferrozyme does not differentiate",
                    describe(t)
                ),
                "return double (or float) from the function you differentiate, e.g. through a wrapper that converts the result",
            ));
        }
    }
    if reverse
        && matches!(
            ret.kind(),
            TypeKind::Struct | TypeKind::Array | TypeKind::Vector
        )
        && ret.contains_fp()
        && ep != EntryPoint::AugmentSize
    {
        return Err(err(
            DiagKind::BadAutodiffCall,
            format!(
                "`{fname}` returns {ret} (several floating-point values, e.g. a _Complex or a struct of doubles); reverse mode seeds a single float result, so the derivative of this result would be dropped"
            ),
            "differentiate a wrapper that returns one double (e.g. creal(f(z)) or a weighted sum), or write the result through a pointer argument passed with enzyme_dup and seed its shadow; forward mode (__enzyme_fwddiff) returns all of its tangents",
        ));
    }
    if let Some(t) = user_ty.undifferentiated_fp() {
        return Err(err(
            DiagKind::UnsupportedInstruction,
            format!(
                "`{}` is declared to return {user_ty} ({}), which Ferrozyme does not produce",
                crate::hooks::hook_name(call),
                describe(t)
            ),
            "declare the hook to return double (or float, or a struct of them), e.g. extern double __enzyme_autodiff(void *, ...);",
        ));
    }
    Ok(())
}

/// "C `__float128`".
pub(crate) fn describe(t: Type) -> String {
    format!("C `{}`", t.c_float_name())
}

/// Does integer parameter `k` of `f` carry floating-point bits? A quick look at `f` as it
/// is ([`reaches_fp`]) over-approximates on `-O0` code, where the parameter is stored in
/// a stack slot of the whole struct; a positive answer is confirmed on a copy of `f` in
/// SSA form (`sroa,mem2reg`), where the struct's fields are separate values.
fn int_param_carries_fp(f: Value, k: usize) -> bool {
    if !reaches_fp(f.params()[k], 3) {
        return false;
    }
    let m = f.parent_module();
    let copy = crate::clone::clone_function(m, f, "__fz_audit_copy");
    let ssa = ferrozyme_llvm::run_function_passes(copy, "sroa,mem2reg,instsimplify").is_ok();
    let carries = !ssa || reaches_fp(copy.params()[k], 3);
    copy.delete_function();
    carries
}

/// Does the integer `p` reach a `bitcast` to a float type (through the shifts and
/// truncations that take a struct apart), or get stored to stack memory that is read as
/// floats (clang's `-O0` code for a struct passed in an integer register), here or in a
/// function it is passed to (`depth` levels deep)?
fn reaches_fp(p: Value, depth: u32) -> bool {
    let mut seen = ferrozyme_analysis::hash::HashSet::default();
    let mut work = vec![p];
    while let Some(v) = work.pop() {
        if !seen.insert(v) || seen.len() > 256 {
            continue;
        }
        for u in v.users() {
            use Opcode::*;
            match u.opcode() {
                Some(LLVMBitCast) if u.ty().contains_fp() => return true,
                Some(
                    LLVMTrunc | LLVMLShr | LLVMAShr | LLVMShl | LLVMAnd | LLVMOr | LLVMXor
                    | LLVMZExt | LLVMSExt | LLVMFreeze | LLVMPHI | LLVMSelect | LLVMBitCast,
                ) => work.push(u),
                Some(LLVMStore) if u.operand(0) == v => {
                    let m = u.parent_function().parent_module();
                    if stack_slot_read_as_fp(u.operand(1), m.store_size(v.ty())) {
                        return true;
                    }
                }
                Some(LLVMCall) if depth > 0 => {
                    if let Some(f) = u.called_function().filter(|f| !f.is_declaration()) {
                        let params = f.params();
                        for (k, a) in u.call_args().into_iter().enumerate() {
                            if a == v && params.get(k).is_some_and(|q| reaches_fp(*q, depth - 1)) {
                                return true;
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
    false
}

/// Do the `size` bytes at `ptr` (inside a stack slot) overlap a float of the slot's
/// declared type, or bytes the slot's loads read as floats, or is the slot copied into a
/// slot read as floats? A store of an `int` into its own field of a struct that also
/// holds doubles (`ws = {w, s, out, n}` at -O2, tests/c/1480) carries no float; the
/// struct passed in an integer register and stored over its float fields (clang's `-O0`
/// coercion slot) does. Where an offset is not constant, any float counts.
fn stack_slot_read_as_fp(ptr: Value, size: u64) -> bool {
    let mut base = ptr;
    for _ in 0..8 {
        match base.opcode() {
            Some(Opcode::LLVMGetElementPtr) | Some(Opcode::LLVMBitCast) => base = base.operand(0),
            _ => break,
        }
    }
    if base.opcode() != Some(Opcode::LLVMAlloca) {
        return false;
    }
    let m = base.parent_function().parent_module();
    let offset = |p: Value| match m.strip_const_geps_through(p, Through::GepsAndCasts) {
        (b, Some(o)) if b == base => Some(o),
        _ => None,
    };
    // The stored bytes, or every byte when their offset is not known.
    let window = offset(ptr).map_or((i64::MIN, i64::MAX), |o| (o, o.saturating_add(size as i64)));
    if fp_overlaps(m, base.allocated_type(), 0, window) {
        return true;
    }
    let mut work = vec![base];
    let mut seen = ferrozyme_analysis::hash::HashSet::default();
    while let Some(v) = work.pop() {
        if !seen.insert(v) || seen.len() > 64 {
            continue;
        }
        for u in v.users() {
            match u.opcode() {
                Some(Opcode::LLVMGetElementPtr) | Some(Opcode::LLVMBitCast) => work.push(u),
                Some(Opcode::LLVMLoad) if u.ty().contains_fp() => {
                    if offset(v).is_none_or(|o| fp_overlaps(m, u.ty(), o, window)) {
                        return true;
                    }
                }
                Some(Opcode::LLVMCall) => {
                    // memcpy(dst, this slot, n): the copy's destination decides.
                    let args = u.call_args();
                    let is_copy = u
                        .called_function()
                        .is_some_and(|f| f.name().starts_with("llvm.memcpy"));
                    if is_copy && args.len() >= 2 && args[1] == v && args[0] != v {
                        let d = args[0];
                        if stack_slot_read_as_fp_shallow(d) {
                            return true;
                        }
                    }
                }
                _ => {}
            }
        }
    }
    false
}

/// Does a float leaf of `ty`, placed at byte `at`, overlap the bytes `[lo, hi)`?
fn fp_overlaps(m: ferrozyme_llvm::Module, ty: Type, at: i64, (lo, hi): (i64, i64)) -> bool {
    let end = at.saturating_add(m.alloc_size(ty) as i64);
    if end <= lo || at >= hi || !ty.contains_fp() {
        return false;
    }
    match ty.kind() {
        TypeKind::Struct => ty
            .struct_fields()
            .into_iter()
            .enumerate()
            .any(|(k, f)| fp_overlaps(m, f, at + m.field_offset(ty, k as u32) as i64, (lo, hi))),
        TypeKind::Array => {
            let e = ty.element_type();
            let step = m.alloc_size(e) as i64;
            (0..ty.array_len() as i64).any(|k| fp_overlaps(m, e, at + k * step, (lo, hi)))
        }
        _ => true,
    }
}

/// [`stack_slot_read_as_fp`] without following copies (so the walk ends).
fn stack_slot_read_as_fp_shallow(ptr: Value) -> bool {
    let mut base = ptr;
    for _ in 0..8 {
        match base.opcode() {
            Some(Opcode::LLVMGetElementPtr) | Some(Opcode::LLVMBitCast) => base = base.operand(0),
            _ => break,
        }
    }
    base.opcode() == Some(Opcode::LLVMAlloca)
        && (base.allocated_type().contains_fp()
            || base
                .users()
                .iter()
                .any(|u| u.opcode() == Some(Opcode::LLVMLoad) && u.ty().contains_fp()))
}

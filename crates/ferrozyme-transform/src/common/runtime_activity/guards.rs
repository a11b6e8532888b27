//! Where a maybe-primal shadow can go unchecked: the uses of such a pointer that no
//! run-time check can follow ([`unguardable_use`]: a function without IR, an indirect call
//! to unknown targets, the differentiated function's own return, an instruction whose
//! derivative touches memory otherwise), and the calls that may read a constant pointer
//! back out of shadowed memory unchecked ([`may_read_back_pointers`]).

use ferrozyme_analysis::activity::Activity;
use ferrozyme_analysis::calls::{classify, parallel_callee, CallKind};
use ferrozyme_llvm::{Opcode, Type, TypeKind, Value};

use super::checks::is_float_atomic_add;
use super::lost_derivatives::masked_float_pointer;

/// Types a guarded load or store can move: fp scalars and vectors, pointers, integers and
/// integer vectors (a `HashMap`'s SSE2 probe of its control bytes, `load <16 x i8>`, whose
/// table is the shared empty group or the heap; integers carrying float bits are refused
/// where their adjoint would move, `reverse::adjoint`'s `unguarded_runtime_access`).
fn guardable_type(t: Type) -> bool {
    t.is_fp_scalar()
        || t.is_pointer()
        || t.is_integer()
        || (t.kind() == TypeKind::Vector
            && (t.element_type().is_fp_scalar() || t.element_type().is_integer()))
}
pub(super) fn is_call(i: Value) -> bool {
    matches!(
        i.opcode(),
        Some(Opcode::LLVMCall | Opcode::LLVMInvoke | Opcode::LLVMCallBr)
    ) && !harmless_intrinsic(i)
}

fn harmless_intrinsic(i: Value) -> bool {
    [
        "llvm.lifetime",
        "llvm.dbg",
        "llvm.assume",
        "llvm.experimental.noalias",
        // A hint: reads nothing the program sees (Eigen's `internal::prefetch` at -O0).
        "llvm.prefetch",
    ]
    .iter()
    .any(|b| i.called_function().is_some_and(|f| f.name().starts_with(b)))
}

/// Can callee `i` read a pointer out of shadowed memory it is given, unchecked? Functions
/// with IR are generated under checks, OpenMP regions' outlined bodies too (the C seed
/// 3057 of difftest: constant weights in a stack struct beside a `parallel for`
/// reduction, tests/c/1395); the library calls the engine knows (allocation,
/// memory intrinsics that copy shadow bytes as bytes, math, inactive functions) do not
/// read pointers as pointers; unknown externals, indirect calls and custom derivatives
/// might.
pub(super) fn may_read_back_pointers(i: Value) -> bool {
    !is_mem_intrinsic(i)
        && !is_blas(i)
        && parallel_callee(i).is_none()
        && !targets_have_ir(i)
        && matches!(
            classify(i),
            CallKind::Custom(_)
                | CallKind::UnknownExternal
                | CallKind::UnknownIntrinsic
                | CallKind::Indirect
                | CallKind::InlineAsm
                | CallKind::OpenMp(_)
                | CallKind::Mpi(_)
        )
}

/// Is `i` a call through a pointer whose possible targets (`call_targets`: the functions
/// a `select` of them chooses, else those of its type whose address the module takes;
/// a first derivative's dispatch chooses generated ones) all have IR and no registered
/// derivative? `common/dispatch.rs` picks the target's derivative from the primal pointer,
/// requested with this call's [`RuntimeIn`] like a direct call's, so each target is
/// generated under the same checks: `std::function`'s manager and invoker, called through
/// the pointers its constructor stored, given the storage that holds a lambda capturing
/// an `enzyme_const` array by reference at -O0 (difftest C++ seed 8026, tests/cxx/452).
pub(super) fn targets_have_ir(i: Value) -> bool {
    if !matches!(classify(i), CallKind::Indirect) {
        return false;
    }
    let targets = ferrozyme_analysis::calls::call_targets(i);
    !targets.is_empty()
        && targets
            .iter()
            .all(|f| !f.is_declaration() && !f.has_string_fn_attr(ferrozyme_abi::CUSTOM_RULE_ATTR))
}

/// A BLAS/LAPACK function with rules (`cblas_ddot`, `dgemv_`): it reads and writes
/// arrays of floats and integers passed by address, never a pointer out of memory (a
/// constant weights pointer stored beside the active data does not stop run-time
/// activity from taking the store over: fuzz36's difftest C seed 7, tests/c/1481).
fn is_blas(i: Value) -> bool {
    i.called_function()
        .is_some_and(|f| ferrozyme_rules::blas::blas_function(&f.name()).is_some())
}

fn is_mem_intrinsic(i: Value) -> bool {
    ["llvm.memset", "llvm.memcpy", "llvm.memmove"]
        .iter()
        .any(|b| i.called_function().is_some_and(|f| f.name().starts_with(b)))
}

/// Is `i` given shadowed memory that may hold pointers? Memory type analysis knows to
/// hold only floats and integers (Eigen's `pminmax_impl::run(const double &a, const
/// double &b, op)` calling `op(a, b)` through a function pointer, tests/cxx/123, 418)
/// has no pointer to read back.
pub(super) fn passes_shadowed_pointer(
    act: &Activity,
    i: Value,
    holds_pointers: impl Fn(Value) -> bool,
) -> bool {
    i.call_args()
        .into_iter()
        .any(|a| a.ty().is_pointer() && act.is_shadowed(a) && holds_pointers(a))
}

fn callee_name(i: Value) -> String {
    i.called_function()
        .map(|f| format!("`{}`", f.name()))
        .unwrap_or_else(|| "an indirect callee".to_string())
}

pub(super) fn callee_reads_msg(i: Value) -> String {
    format!(
        "a constant (enzyme_const) pointer was stored into memory that has a shadow, and {} is given shadowed memory it may read that pointer back from; run-time activity checks cannot follow a call into a function without IR (external or indirect)",
        callee_name(i)
    )
}

/// Why the use `u` of maybe-primal `v` cannot be guarded, if it cannot.
pub(super) fn unguardable_use(
    act: &Activity,
    v: Value,
    u: Value,
    allow_ret: bool,
) -> Option<String> {
    use Opcode::*;
    match u.opcode() {
        Some(LLVMGetElementPtr | LLVMBitCast | LLVMAddrSpaceCast | LLVMFreeze)
            if u.operand(0) == v =>
        {
            None
        }
        Some(LLVMPHI | LLVMICmp | LLVMPtrToInt) => None,
        // A struct moving the pointer: what is taken out of it is maybe-primal itself.
        Some(LLVMExtractValue | LLVMInsertValue) => None,
        Some(LLVMSelect) if u.operand(0) != v => None,
        Some(LLVMLoad) if guardable_type(u.ty()) => None,
        // A float atomic add (an OpenMP reduction or `atomic update`): its adjoint is read,
        // and its tangent added, only where the shadow is not the primal
        // (`rev_atomic_rmw`, `tangent_atomic_rmw`); a checked store besides.
        Some(LLVMAtomicRMW) if u.operand(0) == v && is_float_atomic_add(u) => None,
        Some(LLVMStore) if u.operand(1) == v && guardable_type(u.operand(0).ty()) => None,
        Some(LLVMStore) if u.operand(0) == v && u.operand(1) != v => None,
        Some(LLVMCall | LLVMInvoke | LLVMCallBr) if harmless_intrinsic(u) => None,
        // Its derivative is generated under checks too (`RuntimeIn`), also each possible
        // target's of a call through a pointer whose targets all have IR.
        Some(LLVMCall | LLVMInvoke)
            if (matches!(classify(u), CallKind::Defined(_)) && u.called_function() != Some(v))
                || (targets_have_ir(u) && u.called_value() != v) =>
        {
            None
        }
        // A captured argument of an OpenMP region: the outlined body's derivative is
        // generated under checks (`callee_args`).
        Some(LLVMCall)
            if parallel_callee(u).is_some()
                && u.call_args().iter().skip(3).any(|a| *a == v) =>
        {
            None
        }
        Some(LLVMRet) if allow_ret => None,
        // A struct holding a maybe-primal pointer, returned to a caller that did not put
        // this function under checks: left as before structs were followed (the caller
        // reads the field's shadow unguarded). Refusing it refused `std::map::emplace`'s
        // `pair<iterator, bool>` at -O0 (tests/cxx/124), whose node pointer is only
        // assumed maybe-primal because a constant key was kept; a caller that hands a
        // constant over is under checks itself and allows the return (tests/cxx/380).
        Some(LLVMRet) if !v.ty().is_pointer() => None,
        // Memory intrinsics: the shadow copy or clear is guarded by its length.
        Some(LLVMCall | LLVMInvoke)
            if matches!(classify(u), CallKind::Memcpy | CallKind::Memmove | CallKind::Memset)
                && u.call_args().iter().position(|a| *a == v).is_some_and(|k| k < 2) =>
        {
            None
        }
        // A library function that cannot carry a derivative (`operator<` of two
        // `std::string`s, a string's destructor: no IR at -O0, tests/cxx/345): it gets
        // the primal pointer only, whatever the shadow is, and the transform writes no
        // shadow for it. Input functions are not among them: the transform zeroes the
        // shadow of what they read in, which may be the primal itself.
        Some(LLVMCall | LLVMInvoke)
            if matches!(classify(u), CallKind::InactiveExternal)
                && !ferrozyme_analysis::input_calls::is_input_call(u)
                && u.called_function() != Some(v) =>
        {
            None
        }
        // A masked load, store, gather or scatter of floats: its derivative's access is
        // masked lane by lane where the shadow is the primal (`and_lanes`).
        Some(LLVMCall) if masked_float_pointer(u) == Some(v) => None,
        // `free(p)`: the shadow is freed unless it is the primal (guarded).
        Some(LLVMCall | LLVMInvoke)
            if matches!(classify(u), CallKind::Free)
                && ferrozyme_analysis::calls::freed_pointer(u) == v =>
        {
            None
        }
        Some(LLVMCall | LLVMInvoke | LLVMCallBr) => Some(format!(
            "a pointer that is constant or differentiable depending on the run is passed to {}; run-time activity checks cannot follow a call into a function without IR (external, indirect or a memory intrinsic)",
            callee_name(u)
        )),
        Some(LLVMRet) => Some(
            "a pointer that is constant or differentiable depending on the run is returned from the differentiated function, whose caller cannot check it at run time"
                .to_string(),
        ),
        _ if !act.is_shadowed(u) && !u.ty().contains_pointer() && u.ty().is_integer() => None,
        _ => Some(format!(
            "a pointer that is constant or differentiable depending on the run is used by `{}`, whose derivative cannot be guarded at run time",
            u.opcode().map(ferrozyme_llvm::opcode_name).unwrap_or("an operand")
        )),
    }
}

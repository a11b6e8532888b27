//! What a call instruction is, for differentiation purposes.
//!
//! Every call in a function being differentiated falls in exactly one [`CallKind`]. The
//! classification only looks at the callee (name, intrinsic id, whether it has IR) and at
//! the tables in `ferrozyme-rules` and `ferrozyme-abi`; whether the call is *active* is the
//! activity analysis' business.

use ferrozyme_abi::AllocKind;

use crate::abi_marks::AbiMarks;
use ferrozyme_llvm::{Module, Opcode, Type, Value};
use ferrozyme_rules::mpi::{mpi_rule, MpiRule};
use ferrozyme_rules::openmp::{openmp_rule, OmpRule};
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
    /// An allocator of [`ferrozyme_abi::ALLOCATORS`] (`malloc`, `aligned_alloc`, `new` ...);
    /// [`alloc_size`] is its size argument.
    Malloc,
    Calloc,
    /// `posix_memalign(&p, alignment, size)`: the new pointer is written to `*&p`.
    PosixMemalign,
    Realloc,
    Free,
    /// Known external functions that cannot affect derivatives (`printf`, ...).
    InactiveExternal,
    /// `__enzyme_double(ptr)` and siblings: type hints, removed by the pass.
    TypeHint,
    /// An OpenMP runtime routine with structural handling: a parallel region's fork, a
    /// barrier, a critical section's ends, a reduction (`ferrozyme_rules::openmp`).
    OpenMp(OmpRule),
    /// An MPI routine with structural handling (`ferrozyme_rules::mpi`).
    Mpi(MpiRule),
    /// A function with IR in the module.
    Defined(Value),
    /// A function with a registered derivative (`__enzyme_register_gradient_*`,
    /// `__enzyme_register_derivative_*`): the registered functions are called, whether or
    /// not the function has IR.
    Custom(Value),
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
        if is_empty_asm(call) {
            return CallKind::NoDerivative;
        }
        return CallKind::InlineAsm;
    }
    let Some(f) = call.called_function() else {
        return CallKind::Indirect;
    };
    // Read once: each read copies the name out of LLVM (issue 18: classify runs tens
    // of times per call of a compile).
    let own_name = f.name();
    if f.intrinsic_id() != 0 {
        return classify_intrinsic(call, f, &own_name);
    }
    if ferrozyme_abi::type_hint(&own_name).is_some() {
        return CallKind::TypeHint;
    }
    // A search without IR of a `const` global table is inactive, before its built-in rule
    // (`custom/search.rs` in the transform) is considered: the result points at constants.
    if f.is_declaration()
        && ferrozyme_abi::table_search(&own_name).is_some_and(|t| searches_immutable_table(call, t))
    {
        return CallKind::InactiveExternal;
    }
    if f.has_string_fn_attr(ferrozyme_abi::CUSTOM_RULE_ATTR) {
        return CallKind::Custom(f);
    }
    // `__enzyme_function_like` (or Enzyme's attribute): the known function it names.
    let like = f.string_fn_attr(ferrozyme_abi::FUNCTION_LIKE_ATTR);
    let name: &str = like.as_deref().unwrap_or(&own_name);
    if let Some(a) = ferrozyme_abi::alloc_fn(name, !f.is_declaration() && like.is_none()) {
        let nargs = call.num_call_args() as usize;
        if [a.size, a.count, a.ptr]
            .iter()
            .flatten()
            .all(|&k| k < nargs)
        {
            return match a.kind {
                AllocKind::Malloc => CallKind::Malloc,
                AllocKind::Calloc => CallKind::Calloc,
                AllocKind::Realloc => CallKind::Realloc,
                AllocKind::Free => CallKind::Free,
            };
        }
    }
    // A call that never returns (Rust's `core::panicking::*`, `unwrap_failed`,
    // `handle_alloc_error`; C's `exit`, `abort`) ends the run on its path: no derivative
    // is produced there, so nothing it reads or writes matters to one.
    if f.has_string_fn_attr(ferrozyme_abi::INACTIVE_ATTR) || f.has_fn_attr("noreturn") {
        return CallKind::InactiveExternal;
    }
    // `__enzyme_allocation_like` registrations (with or without IR).
    if registered_index(f, ferrozyme_abi::ALLOCATOR_ATTR).is_some() {
        return CallKind::Malloc;
    }
    if registered_index(f, ferrozyme_abi::DEALLOCATOR_ATTR).is_some() {
        return CallKind::Free;
    }
    // The runtime's own MPI functions with a rule (`runtime/mpi_composed.c`'s passive-target
    // operations) have IR, but are handled by their rule, never differentiated through.
    if like.is_none()
        && !f.is_declaration()
        && !ferrozyme_rules::mpi::runtime_function_with_rule(name)
    {
        // Library code compiled from headers that cannot carry a derivative by its
        // types (string formatting helpers, stream internals): copied, not differentiated.
        if is_library_namespace(&own_name) && float_free_library_call(call, f, &own_name, true) {
            return CallKind::InactiveExternal;
        }
        return CallKind::Defined(f);
    }
    if name == "posix_memalign" && call.num_call_args() == 3 {
        return CallKind::PosixMemalign;
    }
    // flang's runtime: inactive routines are copied; the ones with implementations were
    // redirected in the clone (`ferrozyme_transform::fortran`); the rest have none.
    if let Some(rule) = ferrozyme_rules::fortran::fortran_rule(name) {
        return match rule {
            // A deallocation is copied (forward mode, with the shadow's) or moved after the
            // reverse sweep (`reverse/memory.rs`, `deferrable_frees`).
            ferrozyme_rules::fortran::FortranRule::Inactive { .. }
            | ferrozyme_rules::fortran::FortranRule::Deallocation { .. } => {
                CallKind::InactiveExternal
            }
            _ => CallKind::UnknownExternal,
        };
    }
    // Parallel runtimes: inactive routines are copied, unsupported ones have no
    // derivative (the error names them), the rest are handled structurally.
    if let Some(rule) = openmp_rule(name) {
        return match rule {
            OmpRule::Inactive { .. } => CallKind::InactiveExternal,
            OmpRule::Unsupported { .. } => CallKind::UnknownExternal,
            r => CallKind::OpenMp(r),
        };
    }
    if let Some(rule) = mpi_rule(name) {
        return match rule {
            // A handle free is copied (forward mode) or moved after the reverse sweep
            // (`reverse/memory.rs`, `deferrable_frees`).
            MpiRule::Inactive { .. } | MpiRule::HandleFree { .. } => CallKind::InactiveExternal,
            // Composed routines (and their Fortran bindings) on integer datatypes stay
            // Open MPI's calls.
            MpiRule::Composed { .. } | MpiRule::Fortran { .. }
                if composed_without_reals(call, name) =>
            {
                CallKind::InactiveExternal
            }
            // Fortran bindings and composed routines were redirected to their C code in
            // the clone.
            MpiRule::Unsupported { .. } | MpiRule::Fortran { .. } | MpiRule::Composed { .. } => {
                CallKind::UnknownExternal
            }
            r => CallKind::Mpi(r),
        };
    }
    // `sinl` on `long double` (x86_fp80): the rule of `sin`, lowered at the call's type.
    let long_double = call.ty().kind() == ferrozyme_llvm::TypeKind::X86Fp80
        && ferrozyme_llvm::types::LONG_DOUBLE_DIFFERENTIATED;
    let rule = ferrozyme_rules::libm_rule(name).or_else(|| {
        name.strip_suffix('l')
            .filter(|_| long_double)
            .and_then(ferrozyme_rules::libm_rule)
    });
    if let Some(r) = rule.filter(|r| math_call_fits(call, r)) {
        if r.all_zero() {
            return CallKind::NoDerivative;
        }
        return CallKind::Math(r);
    }
    // Input functions (`sscanf`, `std::istream >>`): what they write is a constant;
    // copied, with the derivative of the floats they write zeroed by the transform
    // (`crate::input_calls`). Unknown targets (a format that is not a literal) are an error.
    if crate::input_calls::is_input_call(call) {
        return match crate::input_calls::input_targets(call) {
            Some(_) => CallKind::InactiveExternal,
            None => CallKind::UnknownExternal,
        };
    }
    if ferrozyme_abi::INACTIVE_EXTERNALS.contains(&name)
        || ferrozyme_abi::inactive_library(name).is_some()
    {
        return CallKind::InactiveExternal;
    }
    if float_free_library_call(call, f, name, false) {
        return CallKind::InactiveExternal;
    }
    CallKind::UnknownExternal
}

/// Is argument `table` of a search (`bsearch`, `ferrozyme_abi::TABLE_SEARCHES`) an
/// address inside a `const` global? Then the call reads the key and constants and returns
/// a pointer to constants: inactive. (At -O0 glibc's inline `bsearch` is a call; from
/// -O1 on it is inlined and differentiated as code.)
fn searches_immutable_table(call: Value, table: usize) -> bool {
    let Some(mut p) = call.call_args().get(table).copied() else {
        return false;
    };
    // Through address arithmetic to the object (instructions or constant expressions).
    while let Some(op) = p.opcode().or_else(|| p.const_opcode()) {
        if !matches!(
            op,
            Opcode::LLVMGetElementPtr | Opcode::LLVMBitCast | Opcode::LLVMAddrSpaceCast
        ) {
            break;
        }
        p = p.operand(0);
    }
    p.is_global_variable() && p.is_global_constant()
}

/// A call of a function without IR that, by its types, cannot carry a derivative (the
/// general criterion behind the inactive library functions): its result holds no float,
/// and either its `memory(...)` attribute says it writes nothing and returns no pointer
/// (`strlen`, `strcmp` as LLVM annotates them: Enzyme's read-only rule), or it is a C++
/// standard library function whose mangled signature shows it writes only float-free
/// data (`crate::library_types`: `std::cout << x`, strings, string streams, file
/// buffers). Pointers passed to a variadic parameter could be written through, so they
/// make the call fail the criterion. `deep`: `f` has IR, and `const` must reach all the data
/// it guards to count (`library_types::std_call_is_float_free`).
fn float_free_library_call(call: Value, f: Value, name: &str, deep: bool) -> bool {
    let ret = f.function_type().return_type();
    if ret.contains_fp() {
        return false;
    }
    if !ret.is_pointer() && f.memory_effects().is_some_and(|m| m.only_reads()) {
        return true;
    }
    let fixed = f.function_type().param_types().len();
    let pointer_varargs = call
        .call_args()
        .iter()
        .skip(fixed)
        .any(|a| a.ty().is_pointer_like());
    !pointer_varargs
        && crate::library_types::std_call_is_float_free(
            name,
            f.param_sret_type(0)
                .and_then(|t| t.struct_name())
                .as_deref(),
            ret.contains_pointer(),
            deep,
        )
}

/// Intrinsics the transform handles structurally, identified by intrinsic ID.
const STRUCTURAL_INTRINSICS: &[(&str, CallKind)] = &[
    ("llvm.memcpy", CallKind::Memcpy),
    ("llvm.memcpy.inline", CallKind::Memcpy),
    ("llvm.memmove", CallKind::Memmove),
    ("llvm.memset", CallKind::Memset),
    ("llvm.memset.inline", CallKind::Memset),
    ("llvm.vector.reduce.fadd", CallKind::ReduceFAdd),
    ("llvm.vector.reduce.fmul", CallKind::ReduceFMul),
    ("llvm.vector.reduce.fmax", CallKind::ReduceFMinMax),
    ("llvm.vector.reduce.fmin", CallKind::ReduceFMinMax),
    ("llvm.vector.reduce.fmaximum", CallKind::ReduceFMinMax),
    ("llvm.vector.reduce.fminimum", CallKind::ReduceFMinMax),
    ("llvm.masked.load", CallKind::MaskedLoad),
    ("llvm.masked.store", CallKind::MaskedStore),
    ("llvm.masked.gather", CallKind::MaskedGather),
    ("llvm.masked.scatter", CallKind::MaskedScatter),
];

fn classify_intrinsic(call: Value, f: Value, name: &str) -> CallKind {
    if let Some(r) = ferrozyme_rules::intrinsic_rule(name).filter(|r| math_call_fits(call, r)) {
        if r.all_zero() {
            return CallKind::NoDerivative;
        }
        return CallKind::Math(r);
    }
    if let Some((_, kind)) = STRUCTURAL_INTRINSICS
        .iter()
        .find(|(base, _)| f.is_intrinsic(base))
    {
        let masked = matches!(
            kind,
            CallKind::MaskedLoad
                | CallKind::MaskedStore
                | CallKind::MaskedGather
                | CallKind::MaskedScatter
        );
        // LLVM 22's masked operations take (pointer, mask, value) with the alignment as an
        // attribute; any other shape is not the one the transform was written for.
        if !masked || call.num_call_args() == 3 {
            return *kind;
        }
    }
    if ferrozyme_rules::zero_derivative_intrinsic(name) {
        return CallKind::NoDerivative;
    }
    CallKind::UnknownIntrinsic
}

/// Whether a call of the composed MPI routine `name` (`MPI_Exscan`, ...), or of its
/// Fortran binding (`mpi_exscan_`), names only predefined datatypes without reals, as
/// constants: it moves no derivative and stays Open MPI's call
/// (`ferrozyme_rules::mpi::inactive_by_datatypes`). A Fortran handle is a constant
/// stored once into the temporary flang passes by reference.
pub fn composed_without_reals(call: Value, name: &str) -> bool {
    use ferrozyme_rules::mpi;
    let args = call.call_args();
    if let Some(c_name) = mpi::composed_of_fortran(name) {
        let positions = mpi::composed_datatype_args(c_name);
        return !positions.is_empty()
            && positions.iter().all(|&k| {
                args.get(k)
                    .and_then(|&a| fortran_constant_handle(a, call))
                    .is_some_and(mpi::fortran_datatype_without_reals)
            });
    }
    let globals: Vec<Option<String>> = mpi::composed_datatype_args(name)
        .iter()
        .map(|&k| {
            args.get(k)
                .filter(|a| a.is_global_variable())
                .map(|a| a.name())
        })
        .collect();
    mpi::inactive_by_datatypes(name, &globals)
}

/// The integer a Fortran argument passed by reference holds at `call`, when it is a
/// constant: a constant global's initializer, or an alloca whose only store (before the
/// call, in its block) is of a constant and whose other uses are calls reading it.
fn fortran_constant_handle(a: Value, call: Value) -> Option<i64> {
    if a.is_global_variable() {
        return a
            .is_global_constant()
            .then(|| a.initializer())
            .flatten()
            .and_then(|v| v.const_int_value());
    }
    if a.opcode() != Some(Opcode::LLVMAlloca) {
        return None;
    }
    let mut value = None;
    for u in a.users() {
        match u.opcode() {
            Some(Opcode::LLVMStore) if u.operand(1) == a && value.is_none() => {
                if u.parent_block() != call.parent_block() {
                    return None;
                }
                value = Some(u.operand(0).const_int_value()?);
            }
            Some(Opcode::LLVMCall) if u.call_args().iter().all(|x| *x != a) => return None,
            Some(Opcode::LLVMCall) => {}
            _ => return None,
        }
    }
    value
}

/// The outlined microtask a `__kmpc_fork_call` starts (its third argument), if `call`
/// is one: in effect a call of it by every thread, with the captured arguments.
pub fn parallel_callee(call: Value) -> Option<Value> {
    let f = call.called_function()?;
    if openmp_rule(&f.name()) != Some(OmpRule::Fork) {
        return None;
    }
    let mut m = *call.call_args().get(2)?;
    while m.is_constant_expr() && m.num_operands() == 1 {
        m = m.operand(0);
    }
    (m.is_function() && !m.is_declaration()).then_some(m)
}

/// The arguments call `i` gives its callee's parameters, in order: its own, or for a
/// `__kmpc_fork_call` of an outlined body with IR ([`parallel_callee`]), what each
/// thread's call of the body gets: the two thread-id pointers (`None`, the runtime's),
/// then the captured arguments.
pub fn callee_args(i: Value) -> Vec<Option<Value>> {
    let args = i.call_args();
    if parallel_callee(i).is_some() {
        let captured = args.get(3..).unwrap_or_default().iter().copied().map(Some);
        return [None, None].into_iter().chain(captured).collect();
    }
    args.into_iter().map(Some).collect()
}

/// Inline assembly that executes nothing: an empty template and no outputs
/// (`std::hint::black_box` is `asm sideeffect "", "r,~{memory}"(ptr %slot)`; C's
/// `asm volatile("" ::: "memory")` compiler barrier). Its operands and clobbers only stop
/// the optimizer from assuming things; no value or memory changes at run time, so it
/// neither reads nor writes a derivative and is copied as it is.
pub fn is_empty_asm(call: Value) -> bool {
    call.ty().is_void()
        && call
            .called_value()
            .inline_asm_template()
            .is_some_and(|t| t.trim().is_empty())
}

/// Where an allocation call (`CallKind::Malloc/Calloc/Realloc/Free`) keeps its
/// arguments: the allocated bytes are `args[size]` (times `args[count]`), the pointer a
/// realloc or free takes is `args[ptr]`.
pub fn alloc_fn(call: Value) -> Option<&'static ferrozyme_abi::AllocFn> {
    let f = call.called_function()?;
    let like = f.string_fn_attr(ferrozyme_abi::FUNCTION_LIKE_ATTR);
    let defined = !f.is_declaration() && like.is_none();
    ferrozyme_abi::alloc_fn(&like.unwrap_or_else(|| f.name()), defined)
}

/// The most bytes a copy through `p` may move: what is left of the object `p` points
/// into after `p`'s constant offset, when that object's size is known (an `alloca` of one
/// sized value, an allocation call of a constant size: `malloc(72)`). A longer copy would
/// be undefined behavior, so facts about bytes past it say nothing about what the copy
/// moves: a struct's trailing `int` beside doubles a loop reads at run-time indices,
/// which type analysis merges with "double at every offset" into a conflict there: a
/// `memmove(b->v + 1, b->v, (n - 1) * 8)` would otherwise shift that conflict over the
/// whole array, one element per round (tests/c/1525). Used by type analysis's copy rule
/// and by the reverse of copies (`copy_layout.rs`).
pub fn object_bytes_left(m: Module, p: Value) -> Option<i64> {
    let (base, off) = m.strip_const_geps(p);
    let size = if base.opcode() == Some(Opcode::LLVMAlloca) {
        let count = base.operand(0).const_int_value()?;
        i64::try_from(m.alloc_size(base.allocated_type()))
            .ok()?
            .checked_mul(count)?
    } else if base.is_call() {
        let a = alloc_fn(base)?;
        if a.kind != AllocKind::Malloc {
            return None;
        }
        base.call_args().get(a.size?)?.const_int_value()?
    } else {
        return None;
    };
    (0..=size).contains(&off).then_some(size - off)
}

/// Is `call` a call of one of the C and C++ allocators whose result is fresh memory (no
/// other pointer reaches it) aligned to at least 16 bytes on the targets Ferrozyme
/// supports: glibc's `malloc` family, `operator new` and `new[]`? What the checkpoint
/// analyses treat as a new object, and what `intptr.rs` may round up inside.
pub fn is_fresh_c_allocation(call: Value) -> bool {
    const FRESH: &[&str] = &[
        "malloc",
        "calloc",
        "realloc",
        "aligned_alloc",
        "_Znwm",
        "_Znam",
    ];
    call.called_function()
        .is_some_and(|f| FRESH.contains(&f.name().as_str()))
}

/// The size operands of an allocation call `args` (the call's own, or a copy's): the
/// allocated bytes are `n * m`; `m` is `None` when it is 1.
pub fn alloc_size_operands(call: Value, args: &[Value]) -> Option<(Value, Option<Value>)> {
    // `__enzyme_allocation_like` registrations name their size parameter.
    if let Some(k) = call
        .called_function()
        .and_then(|f| registered_index(f, ferrozyme_abi::ALLOCATOR_ATTR))
    {
        return Some((*args.get(k)?, None));
    }
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
///
/// A floating-point argument of another type than the result is accepted only where the
/// rule never looks at it: its partial is a structural zero and no other partial
/// mentions it (`nexttoward(double x, long double y)`: the direction `y` is an
/// `x86_fp80` that only chooses where to step).
fn math_call_fits(call: Value, r: &Rule) -> bool {
    let args = call.call_args();
    let rt = call.ty();
    let unused = |i: usize| {
        r.partials[i].is_zero()
            && r.partials
                .iter()
                .filter_map(|p| p.expr())
                .all(|e| !e.uses_arg(i))
    };
    args.len() == r.arity
        && args
            .iter()
            .enumerate()
            .all(|(i, a)| !a.ty().is_fp() || a.ty() == rt || unused(i))
}

/// The functions a call through a pointer of function type `fty` may reach: every
/// function of the module with exactly that type whose address is taken (used other than
/// as the callee of a direct call: stored, passed, in a table or a vtable), that has IR, a
/// registered derivative or a math rule (`sin` passed as a callback), and that the pass
/// did not generate. Enzyme's entry points and
/// hooks are not candidates, nor functions whose `sret`/`byval` parameters differ from
/// the call's `marks` (`abi_marks`).
pub fn indirect_candidates(module: Module, fty: Type, marks: AbiMarks) -> Vec<Value> {
    module
        .functions()
        .into_iter()
        .filter(|f| f.function_type() == fty && !fty.is_vararg())
        .filter(|f| AbiMarks::of_function(*f) == marks)
        .filter(|f| {
            !f.is_declaration()
                || f.has_string_fn_attr(ferrozyme_abi::CUSTOM_RULE_ATTR)
                || library_math(*f)
        })
        .filter(|f| f.intrinsic_id() == 0 && !f.has_string_fn_attr(ferrozyme_abi::GENERATED_ATTR))
        .filter(|f| !f.name().contains(ferrozyme_abi::ENZYME_FUNCTION_PREFIX))
        .filter(|f| address_taken(*f))
        .collect()
}

/// The functions a call through a pointer may reach: when the callee is a `select` or
/// `phi` tree whose every leaf is a function of the call's type (the dispatch a derivative
/// emits for a call through a pointer: `select (p == @f), @fz_aug_f, @fz_aug_g`, which
/// forward mode over a reverse derivative meets), exactly those leaves, generated
/// functions included; otherwise [`indirect_candidates`] of the call's function type.
pub fn call_targets(call: Value) -> Vec<Value> {
    chosen_targets(call).unwrap_or_else(|| {
        indirect_candidates(
            call.parent_function().parent_module(),
            call.called_function_type(),
            AbiMarks::of_call(call),
        )
    })
}

/// The leaves of the `select`/`phi` tree of functions of the call's type that is the
/// callee of `call`, once each in the order met; `None` when a leaf is anything else (a
/// loaded pointer, a function of another type) or the callee is not such a tree.
pub fn chosen_targets(call: Value) -> Option<Vec<Value>> {
    let callee = call.called_value();
    let fty = call.called_function_type();
    let chooses = |v: Value| matches!(v.opcode(), Some(Opcode::LLVMSelect) | Some(Opcode::LLVMPHI));
    if !chooses(callee) {
        return None;
    }
    let mut leaves = Vec::new();
    let mut seen = crate::hash::HashSet::default();
    let mut work = vec![callee];
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        match v.opcode() {
            Some(Opcode::LLVMSelect) => work.extend([v.operand(2), v.operand(1)]),
            Some(Opcode::LLVMPHI) => work.extend(v.incoming().into_iter().rev().map(|(x, _)| x)),
            _ if v.is_function() && v.function_type() == fty && !fty.is_vararg() => {
                if !leaves.contains(&v) {
                    leaves.push(v);
                }
            }
            _ => return None,
        }
    }
    Some(leaves)
}

/// A declared library function with a math rule (`sin`, `exp` ...), whose address can be
/// taken like any other.
fn library_math(f: Value) -> bool {
    ferrozyme_rules::libm_rule(&f.name()).is_some_and(|r| {
        let params = f.function_type().param_types();
        params.len() == r.arity && params.iter().all(|t| t.is_fp())
    })
}

/// Is `f` used other than as the callee of a direct call (or as the function a hook call
/// differentiates)? A function passed to a hook as one of the differentiated function's
/// arguments (a callback, `enzyme_const, f`) is data the function may call through
/// (`<enzyme/enzyme>` passes a function taking a struct by value so, tests/cxx/301).
fn address_taken(f: Value) -> bool {
    f.users().into_iter().any(|u| {
        let direct = matches!(
            u.opcode(),
            Some(Opcode::LLVMCall) | Some(Opcode::LLVMInvoke)
        ) && u.called_value() == f;
        let hook = u.is_call()
            && u.called_function()
                .is_some_and(|h| ferrozyme_abi::entry_point(&h.name()).is_some())
            && u.call_args().iter().skip(1).all(|a| *a != f);
        let registration = u.is_constant()
            && u.users().iter().any(|g| {
                g.is_global_variable() && ferrozyme_abi::registration(&g.name()).is_some()
            });
        !direct && !hook && !registration
    })
}

/// Is `name` the mangled name of a function of the C++ standard library's namespaces
/// (`std::`, `__gnu_cxx::`)?
fn is_library_namespace(name: &str) -> bool {
    name.starts_with("_ZNSt")
        || name.starts_with("_ZSt")
        || name.starts_with("_ZNKSt")
        || name.starts_with("_ZNSo")
        || name.starts_with("_ZNSi")
        || name.starts_with("_ZNKSo")
        || name.starts_with("_ZN9__gnu_cxx")
}

/// The index stored in a registration attribute (`ALLOCATOR_ATTR`, `DEALLOCATOR_ATTR`)
/// of `f`, when it names one of `f`'s parameters.
fn registered_index(f: Value, attr: &str) -> Option<usize> {
    let k: usize = f.string_fn_attr(attr)?.parse().ok()?;
    (k < f.params().len()).then_some(k)
}

/// The name a callee is classified by: what `__enzyme_function_like` says it is like,
/// else its own name.
fn behaves_like(f: Value) -> String {
    f.string_fn_attr(ferrozyme_abi::FUNCTION_LIKE_ATTR)
        .unwrap_or_else(|| f.name())
}

/// Is `name` a function the classification knows without IR: an allocator or
/// deallocator, or a math function with a derivative rule (what `__enzyme_function_like`
/// may name)?
pub fn is_known_function(name: &str) -> bool {
    ferrozyme_abi::alloc_fn(name, false).is_some()
        || name == "posix_memalign"
        || ferrozyme_rules::libm_rule(name).is_some()
        || ferrozyme_abi::INACTIVE_EXTERNALS.contains(&name)
        || ferrozyme_abi::inactive_library(name).is_some()
}

/// The pointer a deallocation call (`CallKind::Free`) frees: argument 0 of `free` and
/// `operator delete`, the registered position for an `__enzyme_allocation_like`
/// deallocator.
pub fn freed_pointer(call: Value) -> Value {
    let args = call.call_args();
    let k = call
        .called_function()
        .and_then(|f| registered_index(f, ferrozyme_abi::DEALLOCATOR_ATTR))
        .unwrap_or(0);
    args[k.min(args.len().saturating_sub(1))]
}

/// The size argument of an allocation call (`CallKind::Malloc`, `Calloc`'s count, or
/// `posix_memalign`'s size).
pub fn alloc_size(call: Value) -> Value {
    let args = call.call_args();
    if let Some(k) = call
        .called_function()
        .and_then(|f| registered_index(f, ferrozyme_abi::ALLOCATOR_ATTR))
    {
        return args[k];
    }
    let name = call.called_function().map(behaves_like).unwrap_or_default();
    match alloc_fn(call)
        .filter(|a| a.kind == AllocKind::Malloc)
        .and_then(|a| a.size)
    {
        Some(k) => args[k],
        None if name == "posix_memalign" => args[2],
        None => args[0],
    }
}

/// The call of a function without IR or rule that returned the memory `addr` points into
/// (through GEPs and casts), if any: such memory has no shadow, so a derivative stored
/// there would be dropped (`memalign` before it was a known allocator, an allocator of a
/// runtime such as numba's). The memory may also come back through functions with IR
/// that return such a pointer (a pool allocator wrapping one: `return (hdr *)raw + 1;`),
/// followed through their returns, phis and selects.
pub fn untracked_source(addr: Value) -> Option<Value> {
    untracked_from(addr, &mut crate::hash::HashSet::default(), 0)
}

fn untracked_from(
    mut addr: Value,
    seen: &mut crate::hash::HashSet<Value>,
    depth: u32,
) -> Option<Value> {
    if depth > 8 {
        return None;
    }
    for _ in 0..32 {
        match addr.opcode() {
            Some(Opcode::LLVMGetElementPtr)
            | Some(Opcode::LLVMBitCast)
            | Some(Opcode::LLVMAddrSpaceCast) => addr = addr.operand(0),
            Some(Opcode::LLVMPHI) | Some(Opcode::LLVMSelect) => {
                if !seen.insert(addr) {
                    return None;
                }
                let ins: Vec<Value> = if addr.opcode() == Some(Opcode::LLVMPHI) {
                    addr.incoming().into_iter().map(|(v, _)| v).collect()
                } else {
                    vec![addr.operand(1), addr.operand(2)]
                };
                return ins
                    .into_iter()
                    .find_map(|v| untracked_from(v, seen, depth + 1));
            }
            Some(Opcode::LLVMCall) => {
                return match classify(addr) {
                    CallKind::UnknownExternal => Some(addr),
                    CallKind::Defined(f) if seen.insert(f) => f
                        .blocks()
                        .into_iter()
                        .filter_map(|b| b.terminator())
                        .filter(|t| t.opcode() == Some(Opcode::LLVMRet) && t.num_operands() == 1)
                        .find_map(|t| untracked_from(t.operand(0), seen, depth + 1)),
                    _ => None,
                };
            }
            _ => return None,
        }
    }
    None
}

/// Does `call` (through a pointer) run only where its pointer is not null: is its block
/// entered only from a conditional branch on `icmp eq/ne ptr %fp, null` whose not-null
/// edge leads there? (front45: rustc's drop of a `Box<dyn Trait>` calls slot 0 of the
/// vtable only when it is not null, and it is null for types without drop glue, such as
/// closures capturing only floats.)
pub fn null_guarded(call: Value) -> bool {
    let fp = call.called_value();
    let here = call.parent_block();
    let preds: Vec<Value> = call
        .parent_function()
        .blocks()
        .into_iter()
        .filter_map(|b| b.terminator())
        .filter(|t| t.successors().contains(&here))
        .collect();
    let [br] = preds[..] else {
        return false;
    };
    let Some(cond) = br.branch_icmp() else {
        return false;
    };
    let (a, b) = (cond.operand(0), cond.operand(1));
    let compares_fp = (a == fp && b.is_null()) || (b == fp && a.is_null());
    let not_null_edge = match cond.icmp_predicate() {
        ferrozyme_llvm::IntPredicate::LLVMIntEQ => br.successor(1),
        ferrozyme_llvm::IntPredicate::LLVMIntNE => br.successor(0),
        _ => return false,
    };
    compares_fp && not_null_edge == here && br.successor(0) != br.successor(1)
}

//! flang's runtime calls inside differentiated code.
//!
//! The table in `ferrozyme_rules::fortran` says what each `_FortranA*` routine is. The
//! routines that compute on reals (`SumReal8`, `DotProductReal8`, `MaxvalReal8`,
//! `MatmulReal8Real8`, `Assign`, ...) have C implementations with the same arguments
//! (`runtime/fortran.c`, compiled to IR by `build.rs`): when a function is cloned for
//! differentiation, [`redirect_runtime_calls`] links that IR into the module (once) and
//! points the clone's calls at the implementations. The pass then differentiates them
//! like any function with IR: the derivative of `SUM` is the derivative of a loop that
//! sums, in reverse and forward mode alike. The user's own functions keep calling flang's
//! library; only the derivative code runs the implementations.
//!
//! Open MPI's Fortran bindings (`mpi_allreduce_` ...) are redirected the same way, to
//! the C wrappers of `runtime/mpi_fortran.c` (the table: `ferrozyme_rules::mpi`), which
//! call the C routines the MPI rules differentiate.
//!
//! Invariant: the implementations never call a routine they replace. Their calls back
//! into flang (integer or character assignment and array constructors) go through the
//! aliases of [`ferrozyme_rules::fortran::INACTIVE_ALIASES`], which the table marks
//! inactive and which [`finish`] renames to flang's routines once differentiation is over.

use ferrozyme_llvm::{link_ir_for_target, Builder, Module, Opcode, Value};
use ferrozyme_rules::fortran::{
    fortran_rule, kind_versions, FortranRule, KindVersions, ASSIGN_DERIVED, ASSIGN_INACTIVE,
    ASSIGN_TEMPORARY_INACTIVE, INACTIVE_ALIASES,
};
use ferrozyme_rules::mpi::{mpi_rule, MpiRule};

/// One IR file of implementations (see `build.rs`: IR text without target lines).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Runtime {
    /// flang's array routines (`runtime/fortran.c`).
    Flang,
    /// Open MPI's Fortran bindings (`runtime/mpi_fortran.c`).
    MpiFortran,
    /// MPI routines written with differentiated ones (`runtime/mpi_composed.c`).
    MpiComposed,
}

impl Runtime {
    /// The IR text, the prefix of every function it defines, and one of them (present
    /// once the IR is linked).
    fn ir(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Runtime::Flang => (
                include_str!(concat!(env!("OUT_DIR"), "/fortran.ll")),
                "__fz_f18_",
                "__fz_f18_assign",
            ),
            Runtime::MpiFortran => (
                include_str!(concat!(env!("OUT_DIR"), "/mpi_fortran.ll")),
                "__fz_mpif_",
                "__fz_mpif_send",
            ),
            Runtime::MpiComposed => (
                include_str!(concat!(env!("OUT_DIR"), "/mpi_composed.ll")),
                "__fz_mpic_",
                "__fz_mpic_sendrecv_replace",
            ),
        }
    }
}

/// flang's finalization-free `Destroy`, which the shadows get.
const DESTROY_WITHOUT_FINALIZATION: &str = "_FortranADestroyWithoutFinalization";

/// flang's array assignment routine.
const ASSIGN: &str = "_FortranAAssign";

/// The same into a compiler temporary (no finalization of the left-hand side).
const ASSIGN_TEMPORARY: &str = "_FortranAAssignTemporary";

/// The descriptor type code of real(8) data (ISO_Fortran_binding.h's `CFI_type_double`).
const REAL8: i64 = 28;

/// The descriptor type code of real(4) data (`CFI_type_float`).
const REAL4: i64 = 27;

/// The implementations of `Assign` (and `AssignTemporary`) for a real(8) or real(4)
/// source whose type the IR fixes.
const ASSIGN_KINDS: KindVersions = KindVersions {
    source: 1,
    real8: "__fz_f18_assign_r8",
    real4: "__fz_f18_assign_r4",
};

/// The one-kind implementation of `v` for a source of type code `code`, if it has one.
fn one_kind(v: KindVersions, code: Option<i64>) -> Option<&'static str> {
    match code {
        Some(REAL8) => Some(v.real8),
        Some(REAL4) => Some(v.real4),
        _ => None,
    }
}

/// flang's copy-in and copy-out of a non-contiguous actual argument, and the inquiry
/// it makes first.
const COPY_IN_ASSIGN: &str = "_FortranACopyInAssign";
const COPY_OUT_ASSIGN: &str = "_FortranACopyOutAssign";
const IS_CONTIGUOUS: &str = "_FortranAIsContiguous";

/// Their implementations for a real(8) variable whose type the IR fixes.
const COPY_IN_ASSIGN_REAL8: &str = "__fz_f18_copy_in_assign_r8";
const COPY_OUT_ASSIGN_REAL8: &str = "__fz_f18_copy_out_assign_r8";

/// flang's ALLOCATE and DEALLOCATE of a POINTER, and their implementations for a scalar
/// (a descriptor of rank 0, whose addendum sits where an array's dimensions would:
/// `runtime/fortran.c`, tests/fortran/111).
const POINTER_SCALAR_VERSIONS: [(&str, &str); 2] = [
    (
        "_FortranAPointerAllocate",
        "__fz_f18_pointer_allocate_scalar",
    ),
    (
        "_FortranAPointerDeallocate",
        "__fz_f18_pointer_deallocate_scalar",
    ),
];

/// The scalar implementation of a call of `name` whose descriptor argument `desc` the IR
/// fixes at rank 0 ([`scalar_descriptor`]).
fn scalar_version(name: &str, desc: Option<&Value>) -> Option<&'static str> {
    let (_, by) = POINTER_SCALAR_VERSIONS.iter().find(|(n, _)| *n == name)?;
    desc.is_some_and(|d| scalar_descriptor(*d)).then_some(*by)
}

/// Is `desc` a stack descriptor of rank 0: flang's descriptor type, `{ ptr, i64, i32, i8,
/// i8, i8, i8 }` followed by the addendum (`ptr, [1 x i64]`) and no `[rank x [3 x i64]]`
/// dimensions (at -O0 and -O2 alike, flang allocates a descriptor of its own type)?
fn scalar_descriptor(desc: Value) -> bool {
    if desc.opcode() != Some(Opcode::LLVMAlloca) {
        return false;
    }
    let t = desc.allocated_type();
    if t.kind() != ferrozyme_llvm::TypeKind::Struct || t.is_opaque_struct() {
        return false;
    }
    let fields = t.struct_fields();
    let head = fields.len() >= 7
        && fields[0].is_pointer()
        && fields[1].int_width() == Some(64)
        && fields[2].int_width() == Some(32)
        && fields[3..7].iter().all(|f| f.int_width() == Some(8));
    head && fields.get(7).is_none_or(|f| f.is_pointer())
}

/// Does data of this descriptor type code (ISO_Fortran_binding.h; flang's LOGICAL(k) is an
/// `int_least` code) carry no derivative: integers, logicals, characters, unsigned?
fn carries_nothing(code: i64) -> bool {
    matches!(code, 1..=24 | 39 | 40 | 43..=49)
}

/// The type code of the source descriptor of a `_FortranAAssign(to, from, ...)` call when
/// the IR fixes it ([`fixed_type_code`]). At -O0 flang assigns a LOGICAL array that way;
/// sending it to the implementation, which also moves reals, leaves type analysis unable
/// to type the temporary.
fn source_type_code(call: Value) -> Option<i64> {
    fixed_type_code(*call.call_args().get(1)?)
}

/// The type code of the variable a `_FortranACopyOutAssign(var, temp, ...)` call copies
/// `temp` back into, when the IR fixes it: `temp` is filled by `_FortranACopyInAssign(temp,
/// var, ...)` calls only, each of a variable whose descriptor fixes one type code (the
/// copy-in gives the temporary the variable's type).
fn copied_in_type_code(copy_out: Value) -> Option<i64> {
    let temp = *copy_out.call_args().get(1)?;
    let mut code = None;
    for u in temp.users() {
        let copy_in = u.opcode() == Some(Opcode::LLVMCall)
            && u.called_function()
                .is_some_and(|f| f.name() == COPY_IN_ASSIGN)
            && u.call_args().first() == Some(&temp);
        if copy_in {
            let c = fixed_type_code(*u.call_args().get(1)?)?;
            if code.is_some_and(|k| k != c) {
                return None;
            }
            code = Some(c);
        }
    }
    code
}

/// The type code of stack descriptor `from` when the IR fixes it: written once, by a
/// store of a descriptor value whose type field (element 4) is a constant, or (at -O2,
/// field by field) whose stores of the type byte all store one constant, and otherwise
/// only read (as the source of `Assign`, `AssignTemporary`, `CopyInAssign` or a routine
/// with [`kind_versions`], its base address loaded, by `IsContiguous`, `memcpy`
/// from it, lifetime markers, a `phi` or `select` of descriptors that is only loaded
/// from: -O2's choice between the variable and its copy-in temporary).
fn fixed_type_code(from: Value) -> Option<i64> {
    if from.opcode() != Some(Opcode::LLVMAlloca) {
        return None;
    }
    let mut code = None;
    let mut fields = None;
    for u in from.users() {
        match u.opcode() {
            Some(Opcode::LLVMStore) if u.operand(1) == from && u.operand(0).ty().is_pointer() => {}
            // The base address read back (to free the temporary after the assignment:
            // -O2's inline CSHIFT into an allocatable, tests/fortran/108).
            Some(Opcode::LLVMLoad) if u.ty().is_pointer() => {}
            Some(Opcode::LLVMGetElementPtr) if u.operand(0) == from => {
                let code = stored_type_byte(u)?;
                if code.is_some() {
                    if fields.is_some_and(|c| Some(c) != code) {
                        return None;
                    }
                    fields = code;
                }
            }
            Some(Opcode::LLVMStore) if u.operand(1) == from && u.operand(0) != from => {
                if code.is_some() {
                    return None;
                }
                code = Some(descriptor_type_code(u.operand(0))?);
            }
            Some(Opcode::LLVMCall) => {
                let f = u.called_function()?;
                let args = u.call_args();
                let name = f.name();
                let reads = if [ASSIGN, ASSIGN_TEMPORARY, COPY_IN_ASSIGN].contains(&name.as_str())
                    || kind_versions(&name).is_some()
                    || f.is_intrinsic("llvm.memcpy")
                {
                    args.first() != Some(&from)
                } else {
                    name == IS_CONTIGUOUS
                        || f.is_intrinsic("llvm.lifetime.start")
                        || f.is_intrinsic("llvm.lifetime.end")
                };
                if !reads {
                    return None;
                }
            }
            Some(Opcode::LLVMPHI | Opcode::LLVMSelect)
                if u.users()
                    .into_iter()
                    .all(|l| l.opcode() == Some(Opcode::LLVMLoad)) => {}
            _ => return None,
        }
    }
    match (code, fields) {
        (Some(c), None) => Some(c),
        (None, Some(c)) => Some(c),
        _ => None,
    }
}

/// For a field of a stack descriptor `gep` (`getelementptr i8, ptr %desc, <offset>`)
/// that is only stored to: the type code it stores when it is the type byte (a constant
/// `i8` at offset 21, or a constant `<4 x i8>` rank-type-attribute-extra word at offset
/// 20), `Some(None)` for another field (the rank byte at 20 among them); `None` when the
/// field is used otherwise.
fn stored_type_byte(gep: Value) -> Option<Option<i64>> {
    if gep.num_operands() != 2 || gep.gep_source_type().int_width() != Some(8) {
        return None;
    }
    let off = gep.operand(1).const_int_value()?;
    let mut code = None;
    for s in gep.users() {
        if s.opcode() != Some(Opcode::LLVMStore) || s.operand(1) != gep {
            return None;
        }
        let v = s.operand(0);
        let c = match (off, v.ty().int_width()) {
            (21, Some(8)) => Some(v.const_int_value()?),
            (20, Some(8)) => None, // the rank
            (20, None) if !v.ty().is_pointer() => Some(v.const_element(1)?.const_int_value()?),
            (20 | 21, _) => return None,
            _ => None,
        };
        if c.is_some() {
            if code.is_some() && code != c {
                return None;
            }
            code = c;
        }
    }
    Some(code)
}

/// Element 4 (the type code) of a descriptor value built by `insertvalue`s on a constant.
fn descriptor_type_code(mut v: Value) -> Option<i64> {
    while v.opcode() == Some(Opcode::LLVMInsertValue) {
        if v.aggregate_indices() == [4] {
            return v.operand(1).const_int_value();
        }
        v = v.operand(0);
    }
    v.const_element(4)?.const_int_value()
}

/// Does a `_FortranAAssign(to, from, ...)` call assign derived-type data: does either
/// descriptor (or the descriptor it is copied from) get the address of a type
/// description, the global flang names `..EXdtX<type>` (the addendum of a derived-type
/// descriptor: element 7 of a scalar's descriptor aggregate at -O0, a store at its offset
/// at -O2)?
pub(crate) fn assigns_derived_type(call: Value) -> bool {
    call.call_args()
        .iter()
        .take(2)
        .any(|&d| descriptor_has_type_description(d, 2))
}

/// Is a type description stored into the descriptor `desc` (directly, at an offset, or
/// in the descriptor `memcpy`'d into it, `depth` copies back)?
fn descriptor_has_type_description(desc: Value, depth: u32) -> bool {
    let stored_into = |u: Value, p: Value| {
        u.opcode() == Some(Opcode::LLVMStore)
            && u.operand(1) == p
            && mentions_type_description(u.operand(0), 4)
    };
    desc.users().into_iter().any(|u| match u.opcode() {
        Some(Opcode::LLVMStore) => stored_into(u, desc),
        Some(Opcode::LLVMGetElementPtr) if u.operand(0) == desc => {
            u.users().into_iter().any(|s| stored_into(s, u))
        }
        Some(Opcode::LLVMCall) => {
            depth > 0
                && u.called_function()
                    .is_some_and(|f| f.is_intrinsic("llvm.memcpy"))
                && u.call_args().first() == Some(&desc)
                && descriptor_has_type_description(u.call_args()[1], depth - 1)
        }
        _ => false,
    })
}

/// Is `v` flang's type description of a derived type, or a descriptor aggregate
/// (`insertvalue`s on a constant, `depth` levels of nesting) that holds one?
fn mentions_type_description(v: Value, depth: u32) -> bool {
    if v.is_global_variable() {
        return v.name().contains("EXdtX");
    }
    if depth == 0 {
        return false;
    }
    if v.opcode() == Some(Opcode::LLVMInsertValue) {
        return mentions_type_description(v.operand(1), depth - 1)
            || mentions_type_description(v.operand(0), depth);
    }
    (0..16)
        .map_while(|k| v.const_element(k))
        .any(|e| mentions_type_description(e, depth - 1))
}

/// The implementation of a call of `name`, when it has one.
fn implementation(name: &str) -> Option<(Runtime, &'static str)> {
    if let Some(FortranRule::Implemented { by }) = fortran_rule(name) {
        return Some((Runtime::Flang, by));
    }
    match mpi_rule(name) {
        Some(MpiRule::Fortran { by }) => Some((Runtime::MpiFortran, by)),
        Some(MpiRule::Composed { by }) => Some((Runtime::MpiComposed, by)),
        _ => None,
    }
}

/// Points the calls of `f` (a clone about to be differentiated) to flang routines with an
/// implementation at that implementation, linking the implementations in on first need.
pub fn redirect_runtime_calls(m: Module, f: Value) -> Result<(), String> {
    let mut sites: Vec<(Value, Runtime, &'static str)> = Vec::new();
    for b in f.blocks() {
        for i in b.instructions() {
            if i.opcode() != Some(Opcode::LLVMCall) {
                continue;
            }
            let Some(g) = i.called_function() else {
                continue;
            };
            if ferrozyme_analysis::calls::composed_without_reals(i, &g.name()) {
                continue; // stays Open MPI's call, inactive
            }
            if let Some((rt, by)) = implementation(&g.name()) {
                let name = g.name();
                let by = if let Some(k) = scalar_version(&name, i.call_args().first()) {
                    k
                } else if name == COPY_IN_ASSIGN {
                    match i.call_args().get(1).and_then(|v| fixed_type_code(*v)) {
                        Some(REAL8) => COPY_IN_ASSIGN_REAL8,
                        _ => by,
                    }
                } else if name == COPY_OUT_ASSIGN {
                    match copied_in_type_code(i) {
                        Some(REAL8) => COPY_OUT_ASSIGN_REAL8,
                        _ => by,
                    }
                } else if name == ASSIGN_TEMPORARY {
                    match source_type_code(i) {
                        Some(c) if carries_nothing(c) => ASSIGN_TEMPORARY_INACTIVE,
                        code => one_kind(ASSIGN_KINDS, code).unwrap_or(by),
                    }
                } else if let Some(v) = kind_versions(&name) {
                    let code = i
                        .call_args()
                        .get(v.source)
                        .and_then(|d| fixed_type_code(*d));
                    one_kind(v, code).unwrap_or(by)
                } else if name != ASSIGN {
                    by
                } else {
                    let code = source_type_code(i);
                    if code.is_some_and(carries_nothing) {
                        ASSIGN_INACTIVE
                    } else if let Some(k) = one_kind(ASSIGN_KINDS, code) {
                        k
                    } else if assigns_derived_type(i) {
                        ASSIGN_DERIVED
                    } else {
                        by
                    }
                };
                sites.push((i, rt, by));
            }
        }
    }
    for rt in [Runtime::Flang, Runtime::MpiFortran, Runtime::MpiComposed] {
        if sites.iter().any(|s| s.1 == rt) {
            link_implementations(m, rt)?;
        }
    }
    for (call, _, by) in sites {
        let imp = if [ASSIGN_INACTIVE, ASSIGN_TEMPORARY_INACTIVE, ASSIGN_DERIVED].contains(&by) {
            m.get_or_declare(by, call.called_function_type())
        } else {
            m.function(by)
                .ok_or_else(|| format!("the Fortran runtime IR does not define `{by}`"))?
        };
        if call.call_args().len() != imp.params().len() {
            return Err(format!(
                "`{}` is called with {} arguments, its implementation `{by}` takes {}",
                call.called_value().name(),
                call.call_args().len(),
                imp.params().len()
            ));
        }
        call.set_operand(call.num_operands() - 1, imp);
    }
    Ok(())
}

/// How many of the runtime IR files are linked into `m` (it grows when a clone's calls
/// are first redirected to one).
pub fn linked_runtimes(m: Module) -> usize {
    [Runtime::Flang, Runtime::MpiFortran, Runtime::MpiComposed]
        .into_iter()
        .filter(|rt| m.function(rt.ir().2).is_some_and(|g| !g.is_declaration()))
        .count()
}

/// Links flang's runtime implementations into `m` (the derived-type assignment rule's
/// helpers are among them: `custom/fortran_assign.rs`).
pub(crate) fn link_flang_runtime(m: Module) -> Result<(), String> {
    link_implementations(m, Runtime::Flang)
}

/// Are flang's runtime implementations linked into `m` already?
pub(crate) fn flang_runtime_linked(m: Module) -> bool {
    m.function(Runtime::Flang.ir().2)
        .is_some_and(|g| !g.is_declaration())
}

fn link_implementations(m: Module, rt: Runtime) -> Result<(), String> {
    let (ir, prefix, probe) = rt.ir();
    if m.function(probe).is_some_and(|g| !g.is_declaration()) {
        return Ok(());
    }
    link_ir_for_target(m, ir, "ferrozyme-fortran-runtime").map_err(|e| e.to_string())?;
    for g in m.functions() {
        if g.name().starts_with(prefix) && !g.is_declaration() {
            g.set_linkage_internal();
        }
    }
    Ok(())
}

/// Does a `Destroy` call finalize an argument (an `intent(out)` dummy on entry) rather than
/// a local variable: is the base address stored into its descriptor (as a pointer, or as
/// field 0 of a descriptor aggregate) a parameter?
pub fn destroys_argument(call: Value) -> bool {
    let Some(&desc) = call.call_args().first() else {
        return false;
    };
    desc.users().into_iter().any(|u| {
        if u.opcode() != Some(Opcode::LLVMStore) || u.operand(1) != desc {
            return false;
        }
        let mut v = u.operand(0);
        while v.opcode() == Some(Opcode::LLVMInsertValue) && v.aggregate_indices() != [0] {
            v = v.operand(0);
        }
        if v.opcode() == Some(Opcode::LLVMInsertValue) {
            v = v.operand(1);
        }
        v.ty().is_pointer() && crate::common::base_object(v).is_argument()
    })
}

/// The bytes of the longest descriptor flang's `Destroy` reads: 24, 24 per dimension (at
/// most 15), the addendum's type description and one length parameter.
pub(crate) const DESCRIPTOR_BYTES: u64 = 24 + 24 * 15 + 16;

/// The bytes of the descriptor `desc` that `Destroy` reads (an `i64` computed by `b`): 24,
/// 24 per dimension of its rank, and the addendum's 16.
pub(crate) fn descriptor_len(b: &Builder, desc: Value) -> Value {
    let ctx = b.context();
    let (i8t, i64t) = (ctx.i8(), ctx.i64());
    let rank = b.load(i8t, b.byte_gep(desc, i64t.const_int(20)), "fz.rank");
    let dims = b.binop(Opcode::LLVMMul, b.int_cast(rank, i64t), i64t.const_int(24));
    b.binop(Opcode::LLVMAdd, dims, i64t.const_int(40))
}

/// flang's `DestroyWithoutFinalization` of the shadow variable, for the `Destroy` call
/// `destroy` of the descriptor `desc`, whose shadow is `shadow_desc`: through a copy of
/// `desc` (its rank, type code and type description; the shadow of flang's descriptor
/// need not hold them: at -O0 the shadow of the descriptor aggregate keeps only its
/// pointer) whose base address is the shadow variable's, read from `shadow_desc`. The
/// copy lives in an `alloca` of `entry` (a builder at the function's entry). The shadow's
/// allocatable components are freed, but a FINAL procedure of the type is not run on it:
/// it is the user's code, with the user's side effects, which must happen once per
/// variable, not once more per shadow (tests/fortran/72).
pub fn destroy_shadow(
    b: &Builder,
    entry: &Builder,
    destroy: Value,
    desc: Value,
    shadow_desc: Value,
) {
    let ctx = b.context();
    let copy = entry.alloca(ctx.array_type(ctx.i8(), DESCRIPTOR_BYTES), "fz.shadow.desc");
    b.memcpy(copy, desc, descriptor_len(b, desc), 8);
    let base = b.load(ctx.ptr(), shadow_desc, "fz.shadow.base");
    b.store(base, copy);
    let fn_ty = destroy.called_function_type();
    let without_final = destroy
        .parent_function()
        .parent_module()
        .get_or_declare(DESTROY_WITHOUT_FINALIZATION, fn_ty);
    b.call(fn_ty, without_final, &[copy]);
}

/// After differentiation: the implementations' inactive assignments and array
/// constructors call flang's own.
pub fn finish(m: Module) {
    let derived = (ASSIGN_DERIVED, ASSIGN);
    for (name, flang) in INACTIVE_ALIASES.iter().chain([&derived]) {
        let Some(alias) = m.function(name) else {
            continue;
        };
        let real = m.get_or_declare(flang, alias.function_type());
        alias.replace_all_uses_with(real);
        alias.delete_function();
    }
}

//! Checks on the body of a function about to be differentiated, shared by reverse and
//! forward mode: places where activity analysis is *right* that a value carries no
//! derivative, yet the user's derivative would silently be wrong because of it.
//!
//! * **Undifferentiated float types meeting active data**: a `__float128` or `__bf16`
//!   (and `_Float16`/`long double` when they are switched off) computed from an active
//!   value, or loaded from memory with a shadow. Such values never carry
//!   derivatives, so the chain would break there.
//! * **Active values stored into memory without a shadow and read back**: writing an
//!   active value through an `enzyme_const` pointer (or any pointer without a shadow)
//!   drops its derivative; if the function then reads that memory again, the read value
//!   is used as if constant. Enzyme calls this mismatched activity. Storing into such
//!   memory without reading it back (a constant output buffer) stays allowed.
//! * **Constant pointers stored into memory with a shadow**: an `enzyme_const` pointer
//!   argument written into a stack slot or struct that has a shadow (at -O0, a lambda
//!   capturing a parameter by reference keeps it in such a slot): pointers read back from
//!   there count as having shadows, whose value is null, so derivatives through them were
//!   written to address 0 + offset (a crash) or lost.
//! * **Floats crossing a call inside integers**: a struct of floats passed by value to
//!   (or returned from) a function that is not inlined travels in integer registers on
//!   x86-64 (`struct { int k; float v, w; int j; }` is two `i64`): the callee's
//!   derivative treats integers as constants, so the floats' derivatives were dropped
//!   (difftest C seed 73 at -O0).
//! * **Pointers rebuilt from integers**: `(double *)((uintptr_t)p + 8)` compiles to
//!   `ptrtoint`/`inttoptr`; the rebuilt pointer has no shadow, so loads through it read
//!   constants and stores through it are lost.
//!
//! Each finding is reported at the instruction, with the fix the user can make.

use std::collections::{HashMap, HashSet};

use ferrozyme_analysis::activity::{carries_fp, is_int_carrier_type, Activity, ArgActivity};
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_analysis::types::BaseType;
use ferrozyme_llvm::{Block, DiagKind, Opcode, Value};

use crate::common::base_object;

/// One problem found in the body.
pub(crate) struct Finding {
    pub kind: DiagKind,
    pub at: Value,
    pub msg: String,
    pub help: &'static str,
}

impl Finding {
    /// As a problem for the synthesizers' diagnostics.
    pub(crate) fn problem(self) -> crate::common::Problem<'static> {
        crate::common::Problem::Audit {
            kind: self.kind,
            msg: self.msg,
            help: self.help,
        }
    }
}

/// Runs every check over the instructions of `blocks` (the reachable blocks of the
/// function being differentiated).
/// `args` is the activity of `f`'s parameters.
pub(crate) fn check_body(
    f: Value,
    blocks: &[Block],
    act: &Activity,
    types: &ferrozyme_analysis::types::TypeAnalysis,
    args: &[ArgActivity],
    rt: &crate::common::runtime_activity::RuntimeActivity,
) -> Vec<Finding> {
    let insts: Vec<Value> = blocks.iter().flat_map(|b| b.instructions()).collect();
    let mut out = Vec::new();
    for &i in &insts {
        undifferentiated_float(i, act, &mut out);
        rebuilt_pointer(i, act, types, &mut out);
        reinterpreted_float(i, act, &mut out);
        super::indirect::unshadowed_indirect_result(i, act, &mut out);
        shadowed_global_in_copied_constant(i, act, &mut out);
    }
    let active_params: HashSet<Value> = f
        .params()
        .into_iter()
        .zip(args)
        .filter(|(_, a)| **a == ArgActivity::Active)
        .map(|(p, _)| p)
        .collect();
    lost_stores(&insts, act, &active_params, &mut out);
    super::ctor_globals::constructed_globals(&insts, act, &mut out);
    let const_params = const_pointer_params(f, args);
    for &i in &insts {
        constant_pointer_stored(i, act, types, &const_params, rt.active(), &mut out);
        floats_in_integers_across_call(i, act, &mut out);
    }
    for (at, why) in &rt.unguardable {
        out.push(Finding {
            kind: DiagKind::UnsupportedInstruction,
            at: *at,
            msg: format!("mismatched activity: {why}"),
            help: if why.contains("written through") {
                "pass the constant argument with enzyme_dup and a zero-initialised shadow buffer (the derivative then has memory to live in)"
            } else {
                "pass the constant argument with enzyme_dup and a zero-initialised shadow buffer, or let the callee be inlined (static inline, or compile with -O2)"
            },
        });
    }
    out
}

/// A copy into memory with a shadow from a constant whose value holds the address of a
/// global that has a shadow: clang -O0 initialises `struct H h = {&G, 2.0}` by copying
/// `@__const.f.h = { ptr @G, double 2.0 }` into `h`. The constant has no shadow, so the
/// shadow of `h.s` stayed null instead of `G`'s shadow, and the first access through it
/// crashed (tests/errors/const_initializer_global_address.c; -O1 and above store `&G`
/// itself, which is mirrored).
fn shadowed_global_in_copied_constant(i: Value, act: &Activity, out: &mut Vec<Finding>) {
    if i.opcode() != Some(Opcode::LLVMCall)
        || !matches!(classify(i), CallKind::Memcpy | CallKind::Memmove)
    {
        return;
    }
    let a = i.call_args();
    let src = base_object(a[1]);
    if !act.is_shadowed(a[0]) || !src.is_global_variable() || !src.is_global_constant() {
        return;
    }
    let Some(init) = src.initializer() else {
        return;
    };
    let mut work = vec![(init, 0)];
    while let Some((v, depth)) = work.pop() {
        let g = base_object(v);
        // Globals holding pointers (`struct { double *data; } G`): the pointers read
        // through the local need their shadows. A global array of doubles (`{ COEF, 3 }`)
        // that is only read works without (activity finds its loads constant).
        if g.is_global_variable()
            && g != src
            && g.global_value_type().contains_pointer()
            && ferrozyme_analysis::activity::global_needs_shadow(g)
        {
            out.push(Finding {
                kind: DiagKind::UnsupportedInstruction,
                at: i,
                msg: format!(
                    "a local initialised from a constant that holds the address of global `{}` (clang -O0 copies `{{ &{}, ... }}` from `{}`): the copy gives the local no shadow of that address, so derivatives through it cannot be tracked",
                    g.name(),
                    g.name(),
                    src.name()
                ),
                help: "assign the pointer field in a statement (`h.s = &G;`) instead of in the initialiser, or compile with -O1 or above",
            });
            return;
        }
        if depth < 4 && !v.is_global_variable() && !v.is_function() {
            work.extend((0..v.num_operands()).map(|k| (v.operand(k), depth + 1)));
        }
    }
}

/// The `enzyme_const` pointer parameters of `f` under `args`.
pub(crate) fn const_pointer_params(f: Value, args: &[ArgActivity]) -> HashSet<Value> {
    f.params()
        .into_iter()
        .zip(args)
        .filter(|(p, a)| **a == ArgActivity::Const && p.ty().is_pointer())
        .map(|(p, _)| p)
        .collect()
}

/// A call of a function with a body that passes an active integer (one activity found to
/// carry a float's bits) or gets back integers that hold floats.
fn floats_in_integers_across_call(i: Value, act: &Activity, out: &mut Vec<Finding>) {
    if !matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke)) {
        return;
    }
    let CallKind::Defined(g) = classify(i) else {
        return;
    };
    let not_fp = |t: ferrozyme_llvm::Type| !t.contains_fp() && !t.contains_pointer();
    let arg = i
        .call_args()
        .into_iter()
        .position(|a| act.is_active(a) && not_fp(a.ty()) && !a.ty().is_void());
    let result = (i.ty().is_integer()
        || (i.ty().kind() == ferrozyme_llvm::TypeKind::Struct && not_fp(i.ty())))
        && !i.users().is_empty()
        && returns_float_bits(g);
    if arg.is_none() && !result {
        return;
    }
    let what = match arg {
        Some(k) => format!("argument {} of `{}`", k + 1, g.name()),
        None => format!("the result of `{}`", g.name()),
    };
    // A float's bits handed over as an integer (`unsigned long long` from a `double`,
    // through a union or memcpy), rather than a struct coerced to integer registers.
    let bits = arg.is_some_and(|k| {
        let a = i.call_args()[k];
        a.opcode() == Some(Opcode::LLVMBitCast) && a.operand(0).ty().is_fp()
    });
    let (how, help) = if bits {
        (
            "a floating-point value's bits passed as an integer",
            "pass the value with its floating-point type (convert the bits back before the call), or let the helper be inlined (static inline)",
        )
    } else {
        (
            "a struct passed or returned by value in integer registers",
            "pass the struct by pointer (const struct S *), let the helper be inlined (static inline), or compile with -O1 or higher",
        )
    };
    out.push(Finding {
        kind: DiagKind::UnsupportedInstruction,
        at: i,
        msg: format!(
            "floating-point data crosses this call inside integers ({what}: {how}); the callee's derivative would treat it as a constant"
        ),
        help,
    });
}

/// Does `g` return integers that hold floating-point bits: built from a `bitcast` of a
/// float, or loaded from stack memory of a type with floats (clang's -O0 code returning a
/// struct coerced to integers)?
fn returns_float_bits(g: Value) -> bool {
    let mut work: Vec<Value> = g
        .blocks()
        .into_iter()
        .filter_map(|b| b.terminator())
        .filter(|t| t.opcode() == Some(Opcode::LLVMRet) && t.num_operands() == 1)
        .map(|t| t.operand(0))
        .collect();
    let mut seen = HashSet::new();
    while let Some(v) = work.pop() {
        if !seen.insert(v) || seen.len() > 64 {
            continue;
        }
        use Opcode::*;
        match v.opcode() {
            Some(LLVMBitCast) if v.operand(0).ty().contains_fp() => return true,
            Some(LLVMLoad) => {
                let b = base_object(v.operand(0));
                if b.opcode() == Some(LLVMAlloca) && b.allocated_type().contains_fp() {
                    return true;
                }
            }
            Some(
                LLVMInsertValue | LLVMOr | LLVMShl | LLVMZExt | LLVMTrunc | LLVMAnd | LLVMLShr
                | LLVMSelect | LLVMFreeze,
            ) => work.extend(v.operands().into_iter().filter(|o| o.is_instruction())),
            Some(LLVMPHI) => work.extend(v.incoming().into_iter().map(|(x, _)| x)),
            _ => {}
        }
    }
    false
}

/// `store ptr %c, ptr %slot` with `%c` an `enzyme_const` pointer argument (or an address
/// computed from one) and `%slot` memory with a shadow, not handed to a parallel region:
/// what runtime activity takes over (`common::runtime_activity`).
pub(crate) fn runtime_activity_store(
    i: Value,
    act: &Activity,
    types: &ferrozyme_analysis::types::TypeAnalysis,
    const_params: &HashSet<Value>,
) -> bool {
    stores_constant_pointer(i, act, types, const_params)
        && matches!(parallel_capture(i.operand(1)), Capture::No)
}

/// Is `v` an `enzyme_const` pointer parameter (or an address computed from one) to
/// floating-point data, which a callee storing it away would keep as its own shadow
/// (runtime activity)? Not a comparator or other empty object, not a function pointer,
/// not memory of integers only.
pub(crate) fn kept_constant_pointer(
    v: Value,
    types: &ferrozyme_analysis::types::TypeAnalysis,
    const_params: &HashSet<Value>,
) -> bool {
    let base = stored_pointer_base(v);
    const_params.contains(&base)
        && !ferrozyme_analysis::activity::is_empty_object_param(v)
        && types
            .pointee_tree(base)
            .iter()
            .any(|(_, b)| b.fp_type().is_some())
}

/// The store a constant pointer into shadowed memory (see [`constant_pointer_stored`]).
fn stores_constant_pointer(
    i: Value,
    act: &Activity,
    types: &ferrozyme_analysis::types::TypeAnalysis,
    const_params: &HashSet<Value>,
) -> bool {
    if i.opcode() != Some(Opcode::LLVMStore) {
        return false;
    }
    let (v, p) = (i.operand(0), i.operand(1));
    if !v.ty().is_pointer() || act.is_shadowed(v) || !act.is_shadowed(p) {
        return false;
    }
    let base = stored_pointer_base(v);
    if !const_params.contains(&base) {
        return constant_call_result(v, types, const_params);
    }
    if ferrozyme_analysis::activity::is_empty_object_param(v) {
        return false;
    }
    let pointee = types.pointee_tree(base);
    !(!pointee.is_empty()
        && pointee.iter().all(|(_, b)| b == BaseType::Integer)
        && within_tracked_offsets(base, &pointee))
}

/// Does what type analysis knows of the memory a parameter points to stop before the
/// offsets it tracks end (`types::MAX_OFFSET`)? A larger object (a `std::mt19937`, 5000
/// bytes, held by reference in `std::uniform_real_distribution`'s adaptor, tests/cxx/181
/// at -O0) has facts only for its first bytes: "integers only" then says nothing about
/// the rest, where a callee typed differently clears the adjoint of a store through the
/// null shadow (a SIGSEGV in `_M_gen_rand`'s reverse sweep before sweep20). The
/// parameter's `dereferenceable` size, when the function still carries it, says so too.
fn within_tracked_offsets(base: Value, pointee: &ferrozyme_analysis::types::TypeTree) -> bool {
    let limit = ferrozyme_analysis::types::MAX_OFFSET;
    // The widest scalar a tree entry stands for.
    const WIDEST: i64 = 16;
    if pointee.iter().any(|(o, _)| o + WIDEST >= limit) {
        return false;
    }
    if !base.is_argument() {
        return true;
    }
    let f = base.parent_function();
    let Some(k) = f.params().iter().position(|p| *p == base) else {
        return true;
    };
    f.dereferenceable_bytes(Some(k as u32))
        .is_none_or(|n| n <= limit as u64)
}

/// The object a stored pointer `v` points into: its base object, also through calls of
/// functions that return one of their arguments (`activity::returned_param`: Eigen's
/// `Map` constructor stores `cast_to_pointer_type(data)`), through one pointer of a
/// call's aggregate result that the callee always takes from one argument
/// (`activity::extracted_returned_arg`: ndarray's `stride_offset` of zipped views), and
/// through a select or phi whose other choices address nothing (ndarray's dangling
/// pointer of an empty view).
fn stored_pointer_base(v: Value) -> Value {
    let mut base = base_object(v);
    for _ in 0..4 {
        let next = match base.opcode() {
            Some(Opcode::LLVMCall) => match classify(base) {
                CallKind::Defined(f) => ferrozyme_analysis::activity::returned_param(f, 2)
                    .and_then(|k| base.call_args().get(k).copied()),
                _ => None,
            },
            Some(Opcode::LLVMExtractValue) => {
                ferrozyme_analysis::activity::extracted_returned_arg(base)
            }
            Some(Opcode::LLVMSelect | Opcode::LLVMPHI) => {
                let choices: Vec<Value> = if base.opcode() == Some(Opcode::LLVMSelect) {
                    vec![base.operand(1), base.operand(2)]
                } else {
                    base.incoming().into_iter().map(|(x, _)| x).collect()
                };
                let mut real = choices
                    .into_iter()
                    .filter(|c| !ferrozyme_analysis::activity::is_unaddressable(*c));
                match (real.next(), real.next()) {
                    (Some(c), None) => Some(c),
                    _ => None,
                }
            }
            _ => None,
        };
        match next {
            Some(n) => base = base_object(n),
            None => break,
        }
    }
    base
}

/// Is `v` a pointer to floating-point data returned, without a shadow, by a call of a
/// function with IR given exactly one pointer, a constant one? It is computed from that
/// constant object alone: `std::vector::begin()` of a constant object's member at -O0,
/// kept in a shadowed iterator (tests/cxx/173: the shadow iterator held null and the
/// reverse sweep added the knot's adjoint through it). Pointers to integers only (a
/// `std::vector<std::pair<int, int>>` walked the same way, tests/cxx/115) need no
/// runtime activity.
fn constant_call_result(
    v: Value,
    types: &ferrozyme_analysis::types::TypeAnalysis,
    const_params: &HashSet<Value>,
) -> bool {
    let c = base_object(v);
    if c.opcode() != Some(Opcode::LLVMCall) || !matches!(classify(c), CallKind::Defined(_)) {
        return false;
    }
    let mut ptrs = c.call_args().into_iter().filter(|a| a.ty().is_pointer());
    let (Some(p), None) = (ptrs.next(), ptrs.next()) else {
        return false;
    };
    const_params.contains(&stored_pointer_base(p))
        && types
            .pointee_tree(v)
            .iter()
            .any(|(_, b)| b.fp_type().is_some())
}

/// `store ptr %c, ptr %slot` with `%c` an `enzyme_const` pointer argument (or an address
/// computed from one) and `%slot` memory with a shadow.
///
/// Not when the constant memory holds no data a derivative could need: type analysis
/// knows it and finds only integers there (a C++ functor without members, such as an
/// ODE right-hand side `struct rhs { void operator()(...) const; }` whose one byte
/// is padding, held by reference in odeint's `calculate_stage`). A pointer read back
/// with a null shadow then only ever reaches integers, which have no shadow to read.
fn constant_pointer_stored(
    i: Value,
    act: &Activity,
    types: &ferrozyme_analysis::types::TypeAnalysis,
    const_params: &HashSet<Value>,
    runtime_activity: bool,
    out: &mut Vec<Finding>,
) {
    if !stores_constant_pointer(i, act, types, const_params) {
        return;
    }
    let p = i.operand(1);
    let base = stored_pointer_base(i.operand(0));
    match parallel_capture(p) {
        // Runtime activity (common/runtime_activity.rs) gives the pointer itself as its
        // shadow and guards the accesses through pointers read back.
        Capture::No if runtime_activity => return,
        Capture::No => {}
        Capture::Safe => return,
        Capture::Unsafe => {
            out.push(Finding {
                kind: DiagKind::UnsupportedInstruction,
                at: i,
                msg: format!(
                    "mismatched activity: {}, which has no shadow, is handed to an OpenMP parallel region in memory that has one (the region reads floating-point data through it or writes it, or the memory also holds differentiated data); derivatives would be added through its missing shadow",
                    describe_object(base).replace(", passed without a shadow (enzyme_const)", " (enzyme_const)")
                ),
                help: "pass that argument with enzyme_dup and a zero-initialised shadow buffer (its adjoint is then simply not used)",
            });
            return;
        }
    }
    out.push(Finding {
        kind: DiagKind::UnsupportedInstruction,
        at: i,
        msg: format!(
            "mismatched activity: {}, which has no shadow, is stored into memory that has one (at -O0 a lambda capturing it by reference keeps it in such a slot); pointers read back from there would have a null shadow",
            describe_object(base).replace(", passed without a shadow (enzyme_const)", " (enzyme_const)")
        ),
        help: "pass that argument with enzyme_dup (and a shadow buffer), capture it by value in lambdas ([=] or [y]), or compile with -O1 or higher",
    });
}

/// Whether the memory a constant pointer is stored into is handed to an OpenMP region.
enum Capture {
    /// Not memory handed to a parallel region.
    No,
    /// A field of a struct of captures (flang) the region only reads integers through.
    Safe,
    /// A captured slot with a shadow (a slot the region only reads gets one only when
    /// it also holds differentiated data: `ferrozyme_analysis::captures`), or a field the
    /// region reads floats (or further pointers) through.
    Unsafe,
}

/// Is `p` (shadowed memory a constant pointer is stored into) a stack slot, or a field
/// of a struct of slots, handed to an OpenMP parallel region (`__kmpc_fork_call`)? A
/// slot clang hands a region that only reads it has no shadow unless it also holds
/// differentiated data (`ferrozyme_analysis::captures`; tests/openmp/04, 09), so a
/// shadowed one is unsafe: pointers read from it, in the caller or the region, would
/// have the null shadow. A field of flang's struct of captures keeps the constant
/// pointer's null shadow, safe when the region only reads integers through it
/// (tests/openmp/06: `n`), unsafe when it reads floats (its adjoints would go through
/// the null shadow: tests/errors/openmp_fortran_const_array.ll).
fn parallel_capture(p: Value) -> Capture {
    use crate::parallel::openmp;
    let slot = base_object(p);
    if slot.opcode() != Some(Opcode::LLVMAlloca) {
        return Capture::No;
    }
    let forked = slot.users().into_iter().any(|u| {
        u.opcode() == Some(Opcode::LLVMCall)
            && ferrozyme_analysis::calls::parallel_callee(u).is_some()
    });
    if !forked {
        return Capture::No;
    }
    let safe = p != slot
        && openmp::constant_offset(p)
            .is_some_and(|(s, off)| s == slot && openmp::field_reads_integers_only(slot, off));
    if safe {
        Capture::Safe
    } else {
        Capture::Unsafe
    }
}

/// Does `v` depend on differentiable inputs? The activity the transforms use is
/// restricted to values that reach an output, so a value whose only use is a store into
/// memory without a shadow is not in it; this walks back from `v` to an active value, an
/// active parameter, a load from memory with a shadow, or a call given such memory.
fn depends_on_active(v: Value, act: &Activity, active_params: &HashSet<Value>) -> bool {
    let mut work = vec![v];
    let mut seen = HashSet::new();
    while let Some(x) = work.pop() {
        if !seen.insert(x) || seen.len() > 256 {
            continue;
        }
        if act.is_active(x) || active_params.contains(&x) {
            return true;
        }
        let Some(op) = x.opcode() else { continue };
        match op {
            Opcode::LLVMLoad => {
                // The object, not only the address: activity analysis marks a load (and
                // its address) inactive when its value only reaches memory without a
                // shadow, as at -O0, where `scratch[i] = x[i] * x[i]` reloads `x[i]`
                // apart from the `x[i]` that is differentiated. The value still came
                // from differentiable data (tests/c/670: -O0 silently dropped the
                // derivative read back from the `enzyme_const` scratch).
                let p = x.operand(0);
                if act.is_shadowed(p) || act.is_shadowed(base_object(p)) {
                    return true;
                }
            }
            Opcode::LLVMCall => {
                let args = x.call_args();
                if args
                    .iter()
                    .any(|a| a.ty().is_pointer_like() && act.is_shadowed(*a))
                {
                    return true;
                }
                work.extend(args.into_iter().filter(|a| !a.ty().is_pointer_like()));
            }
            Opcode::LLVMPHI => work.extend(x.incoming().into_iter().map(|(y, _)| y)),
            Opcode::LLVMAlloca | Opcode::LLVMStore => {}
            _ => work.extend(
                x.operands()
                    .into_iter()
                    .filter(|o| o.is_instruction() || o.is_argument()),
            ),
        }
    }
    false
}

/// Does `i` touch derivative data: is it active, or does it take an active value or a
/// pointer with a shadow?
fn touches(i: Value, act: &Activity) -> bool {
    act.is_active(i)
        || i.operands()
            .iter()
            .any(|&o| act.is_active(o) || (o.ty().is_pointer_like() && act.is_shadowed(o)))
}

fn undifferentiated_float(i: Value, act: &Activity, out: &mut Vec<Finding>) {
    let Some(t) = i.ty().undifferentiated_fp() else {
        return;
    };
    if !touches(i, act) {
        return;
    }
    out.push(Finding {
        kind: DiagKind::UnsupportedInstruction,
        at: i,
        msg: format!(
            "`{t}` values ({}) are not differentiated, and this one depends on differentiable data",
            super::boundary::describe(t)
        ),
        help: "compute in double (or float) in the differentiated function",
    });
}

/// The scalar type of a type or of its vector elements.
fn scalar_of(t: ferrozyme_llvm::Type) -> ferrozyme_llvm::Type {
    if t.kind() == ferrozyme_llvm::TypeKind::Vector {
        t.element_type()
    } else {
        t
    }
}

/// A `bitcast` from one floating-point type to another with a different element type
/// (`double` to `<2 x float>` or `<4 x half>`): the x86-64 ABI passes an 8-byte vector
/// of floats or halves as one `double`, and type punning does the same. The bits are
/// moved, but a derivative with respect to "the double" means nothing, and adjoints added
/// as doubles would mix the lanes' bits.
fn reinterpreted_float(i: Value, act: &Activity, out: &mut Vec<Finding>) {
    if i.opcode() != Some(Opcode::LLVMBitCast) {
        return;
    }
    let (from, to) = (i.operand(0).ty(), i.ty());
    if !from.is_fp() || !to.is_fp() || scalar_of(from) == scalar_of(to) {
        return;
    }
    if !act.is_active(i) && !act.is_active(i.operand(0)) {
        return;
    }
    out.push(Finding {
        kind: DiagKind::UnsupportedInstruction,
        at: i,
        msg: format!(
            "the bits of a `{from}` value are reinterpreted as `{to}`: a small vector of floats passed as a double (the x86-64 calling convention does this for 8-byte vectors), or type punning; derivatives do not survive the reinterpretation"
        ),
        help: "pass such vectors through memory (a pointer with enzyme_dup) or as separate float arguments, and copy floats as floats",
    });
}

/// Active values written to memory without a shadow, then read again in the function.
fn lost_stores(
    insts: &[Value],
    act: &Activity,
    active_params: &HashSet<Value>,
    out: &mut Vec<Finding>,
) {
    // Objects that receive values depending on differentiable inputs (with or without a
    // shadow): copying from them into memory without a shadow loses derivatives too.
    // Floats, or integers that activity analysis found to carry a float's bits (an
    // integer in general, like a size computed from a shadowed object, carries none).
    let active_store = |i: Value| {
        let v = i.operand(0);
        (carries_fp(v.ty()) && depends_on_active(v, act, active_params))
            || (is_int_carrier_type(v.ty()) && act.is_active(v))
    };
    let active_bases: HashSet<Value> = insts
        .iter()
        .filter(|i| i.opcode() == Some(Opcode::LLVMStore) && active_store(**i))
        .map(|i| base_object(i.operand(1)))
        .collect();
    // Base object → the first store of an active value into it, and the blocks that can
    // run after that store.
    let mut written: HashMap<Value, (Value, HashSet<Block>)> = HashMap::new();
    for &i in insts {
        let dst = lossy_write(i, act, &active_store, &active_bases);
        if let Some(p) = dst {
            written
                .entry(base_object(p))
                .or_insert_with(|| (i, reachable_after(i)));
        }
    }
    if written.is_empty() {
        return;
    }
    let mut reported = HashSet::new();
    for &i in insts {
        let read = read_of_written(i, act, &written);
        let Some(p) = read else { continue };
        let Some((store, after)) = written.get(&base_object(p)) else {
            continue;
        };
        let store = *store;
        let later = if i.parent_block() == store.parent_block() {
            comes_after(store, i) || after.contains(&i.parent_block())
        } else {
            after.contains(&i.parent_block())
        };
        if !later {
            // Read before the write (the function's input): not a lost derivative.
            continue;
        }
        if !reported.insert(store) {
            continue;
        }
        let base = base_object(p);
        let target = describe_object(base);
        let declared =
            base.is_global_variable() && ferrozyme_analysis::global_uses::declared_inactive(base);
        let at = i
            .source_loc()
            .map(|l| format!(" at {l}"))
            .unwrap_or_default();
        out.push(Finding {
            kind: DiagKind::UnsupportedInstruction,
            at: store,
            msg: format!(
                "mismatched activity: a value that depends on differentiable inputs is written to memory without a shadow ({target}) and read back{at}; its derivative would be lost"
            ),
            help: if declared {
                "the global is declared inactive (__enzyme_inactive_global or enzyme_inactive): remove that declaration, since derivatives flow through it"
            } else {
                "pass that buffer with enzyme_dup (and a shadow buffer) so derivatives can flow through it, or keep the intermediate value in a local variable"
            },
        });
    }
}

/// The pointer `i` writes an active value through when that memory has no shadow: a
/// store, or a copy out of memory holding active data.
fn lossy_write(
    i: Value,
    act: &Activity,
    active_store: &dyn Fn(Value) -> bool,
    active_bases: &HashSet<Value>,
) -> Option<Value> {
    match i.opcode() {
        Some(Opcode::LLVMStore) => {
            let p = i.operand(1);
            (!act.is_shadowed(p) && !p.is_undef() && active_store(i)).then_some(p)
        }
        Some(Opcode::LLVMCall) if matches!(classify(i), CallKind::Memcpy | CallKind::Memmove) => {
            let a = i.call_args();
            let src = base_object(a[1]);
            let holds_active =
                (src.is_argument() && act.is_shadowed(src)) || active_bases.contains(&src);
            (act.is_shadowed(a[1]) && !act.is_shadowed(a[0]) && holds_active).then_some(a[0])
        }
        _ => None,
    }
}

/// The pointer through which `i` may read memory in `written`: a load, a copy into
/// shadowed memory, or a call of code that may read it (its own, or code we cannot see).
fn read_of_written(
    i: Value,
    act: &Activity,
    written: &HashMap<Value, (Value, HashSet<Block>)>,
) -> Option<Value> {
    match i.opcode() {
        Some(Opcode::LLVMLoad)
            if (carries_fp(i.ty()) || is_int_carrier_type(i.ty()))
                && !act.is_shadowed(i.operand(0)) =>
        {
            Some(i.operand(0))
        }
        Some(Opcode::LLVMCall) if matches!(classify(i), CallKind::Memcpy | CallKind::Memmove) => {
            let a = i.call_args();
            act.is_shadowed(a[0]).then_some(a[1])
        }
        Some(Opcode::LLVMCall | Opcode::LLVMInvoke)
            if matches!(
                classify(i),
                CallKind::Defined(_) | CallKind::UnknownExternal | CallKind::Indirect
            ) =>
        {
            i.call_args()
                .into_iter()
                .find(|a| a.ty().is_pointer() && written.contains_key(&base_object(*a)))
        }
        _ => None,
    }
}

/// The blocks that can run after instruction `i` in the same call: those reachable from
/// its block's successors (its own block too when it lies on a cycle).
fn reachable_after(i: Value) -> HashSet<Block> {
    let mut seen = HashSet::new();
    let mut work: Vec<Block> = i.parent_block().successors();
    while let Some(b) = work.pop() {
        if seen.insert(b) {
            work.extend(b.successors());
        }
    }
    seen
}

/// Does `b` come after `a` in their (common) block?
fn comes_after(a: Value, b: Value) -> bool {
    let mut cur = a.next_instruction();
    while let Some(x) = cur {
        if x == b {
            return true;
        }
        cur = x.next_instruction();
    }
    false
}

/// Names the memory a pointer points into, for messages.
fn describe_object(v: Value) -> String {
    if v.is_argument() {
        let f = v.parent_function();
        let k = f.params().iter().position(|p| *p == v).unwrap_or(0);
        return format!(
            "argument {} of the function, passed without a shadow (enzyme_const)",
            k + 1
        );
    }
    if v.is_global_variable() {
        return format!("global `{}`", v.name());
    }
    let text = v.to_string();
    let text = text.trim();
    let short: String = text.chars().take(80).collect();
    format!("memory from `{short}`, which has no shadow")
}

/// `inttoptr` of an integer computed from `ptrtoint` of a pointer with a shadow, or of an
/// integer type analysis cannot prove a plain number (read from memory: SROA merges
/// pointers into integers, as in Rust's enums) that is then used to reach memory.
fn rebuilt_pointer(
    i: Value,
    act: &Activity,
    types: &ferrozyme_analysis::types::TypeAnalysis,
    out: &mut Vec<Finding>,
) {
    if i.opcode() != Some(Opcode::LLVMIntToPtr) || i.users().is_empty() {
        return;
    }
    match integer_origin(i, act) {
        Origin::ShadowedPointer => out.push(Finding {
            kind: DiagKind::UnsupportedInstruction,
            at: i,
            msg: "a pointer rebuilt from an integer (`inttoptr`) that came from a pointer into differentiable memory (`ptrtoint`): the rebuilt pointer has no shadow, so derivatives through it would be lost".to_string(),
            help: "do the address arithmetic on pointers ((char *)p + k, or p + k) instead of through uintptr_t",
        }),
        Origin::Unknown if ferrozyme_analysis::activity::is_smuggled_pointer(i, types) => {
            out.push(Finding {
                kind: DiagKind::UnsupportedInstruction,
                at: i,
                msg: "a pointer rebuilt from an integer (`inttoptr`) may point into differentiable memory; shadows are not followed through integers".to_string(),
                help: "keep the pointer a pointer (no casts to and from integers) in the differentiated code",
            })
        }
        _ => {}
    }
}

/// Where the integer an `inttoptr` rebuilds comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// `ptrtoint` of a pointer with a shadow (somewhere among the integer's operands).
    ShadowedPointer,
    /// Some operand is read from memory or returned by a call: it could be anything.
    Unknown,
    /// Only `ptrtoint` of pointers without a shadow, constants and integer arguments.
    Clean,
}

/// The origin of the integer `inttoptr` `i` rebuilds, through integer arithmetic,
/// selects and phis.
fn integer_origin(i: Value, act: &Activity) -> Origin {
    let mut work = vec![(i.operand(0), 0u32)];
    let mut seen = std::collections::HashSet::new();
    let mut origin = Origin::Clean;
    while let Some((v, depth)) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        if depth > 16 {
            origin = Origin::Unknown;
            continue;
        }
        let op = v.opcode().or_else(|| v.const_opcode());
        use Opcode::*;
        match op {
            Some(LLVMPtrToInt) if act.is_shadowed(v.operand(0)) => return Origin::ShadowedPointer,
            Some(LLVMPtrToInt) => {}
            Some(
                LLVMAdd | LLVMSub | LLVMAnd | LLVMOr | LLVMXor | LLVMMul | LLVMShl | LLVMLShr
                | LLVMAShr | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMZExt | LLVMSExt
                | LLVMTrunc | LLVMFreeze,
            ) => {
                for o in v.operands() {
                    work.push((o, depth + 1));
                }
            }
            Some(LLVMSelect) => {
                work.push((v.operand(1), depth + 1));
                work.push((v.operand(2), depth + 1));
            }
            Some(LLVMPHI) => {
                for (x, _) in v.incoming() {
                    work.push((x, depth + 1));
                }
            }
            _ if v.is_constant() || v.is_argument() => {}
            _ => origin = Origin::Unknown,
        }
    }
    origin
}

//! Records (`insertvalue` chains, constant records) that carry a constant pointer into
//! shadowed memory, into a callee's or out of a function: taken over by runtime activity
//! field by field (the constant pointer its own shadow, the record maybe-primal).

use ferrozyme_analysis::activity::Activity;
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{Opcode, Type, TypeKind, Value};

use super::{lacks_shadow, passes_shadowed_pointer, RuntimeActivity};

/// Does call `i` return by value, from a defined callee, a record with a shadow that
/// holds a constant pointer to floats (`kept_constant`: not a parameter's, a constant
/// global table) among its fields? clang -O0 returns `pair mk(double s) { pair c =
/// {TABLE, s}; return c; }` as `{ptr, double}` loaded from the slot the callee stored
/// `TABLE` into, whose shadow field is `TABLE` itself (runtime activity, in the callee);
/// the caller read it unguarded and the reverse sweep added adjoints into the read-only
/// table (SIGSEGV, tests/c/1393).
pub(super) fn returns_record_keeping_constant(
    act: &Activity,
    i: Value,
    kept_constant: impl Fn(Value) -> bool,
) -> bool {
    let CallKind::Defined(g) = classify(i) else {
        return false;
    };
    carries_pointer_field(i.ty())
        && (act.is_shadowed(i) || act.is_active(i))
        && ferrozyme_analysis::activity::returned_immutable_pointers(g)
            .into_iter()
            .any(|v| kept_constant(v))
}

/// Does call `i` give a defined callee shadowed memory into which the callee (or a
/// callee of it) stores a constant pointer to floats that is not a parameter's
/// (`kept_constant`: a constant global table's address), alone or as a field of a record
/// stored whole? The callee's derivative stores the pointer as its own shadow, so
/// pointers this function reads back from shadowed memory may be primals: numba's
/// helper building a record of a constant table into the caller's slot
/// (tests/filetests/runtime_activity_record_const_global.ll, rec36: the kernel reading
/// the slot was not under checks and added adjoints into the read-only table).
pub(super) fn hands_memory_to_constant_keeper(
    act: &Activity,
    i: Value,
    kept_constant: impl Fn(Value) -> bool,
) -> bool {
    let CallKind::Defined(g) = classify(i) else {
        return false;
    };
    passes_shadowed_pointer(act, i, |_| true)
        && keeps_constant_in_param_memory(g, 1, &kept_constant)
}

/// Does `g` store a `kept_constant` pointer (alone, or in a record) into memory a
/// parameter points to, itself or through a call `depth` levels deep?
fn keeps_constant_in_param_memory(
    g: Value,
    depth: u32,
    kept_constant: &impl Fn(Value) -> bool,
) -> bool {
    use ferrozyme_analysis::activity::is_param_memory;
    g.blocks()
        .into_iter()
        .flat_map(|b| b.instructions())
        .any(|s| match s.opcode() {
            Some(Opcode::LLVMStore) if is_param_memory(s.operand(1)) => {
                let v = s.operand(0);
                if v.ty().is_pointer() {
                    return kept_constant(v);
                }
                carries_pointer_field(v.ty())
                    && record_pointers(v).into_iter().any(|f| kept_constant(f))
            }
            Some(Opcode::LLVMCall) if depth > 0 => match classify(s) {
                CallKind::Defined(h) => {
                    s.call_args().into_iter().any(is_param_memory)
                        && keeps_constant_in_param_memory(h, depth - 1, kept_constant)
                }
                _ => false,
            },
            _ => false,
        })
}

/// `store {ptr, ptr, i64, ptr, ...} %rec, ptr %slot`: a record without a shadow (and
/// without floats) stored whole into shadowed memory, one of whose fields is a constant
/// pointer a callee keeps (`kept_constant`, the caller's `hands_constant_to_keep`). numba
/// at `NUMBA_OPT=0`: `impl_carray` builds the array struct of an `enzyme_const` argument
/// and stores it into the caller's shadowed return slot; the shadow slot got a zero
/// record, the caller read the data pointer's shadow back as null and the reverse sweep
/// added the argument's adjoint through it (SIGSEGV). The record is its own shadow
/// instead, as a constant pointer stored alone is: pointers and integers only, so the
/// copy carries no float that would read as a derivative.
pub(super) fn stores_record_keeping_constant(
    act: &Activity,
    i: Value,
    kept_constant: impl Fn(Value) -> bool,
) -> bool {
    let (v, p) = (i.operand(0), i.operand(1));
    if !carries_pointer_field(v.ty())
        || v.ty().contains_fp()
        || act.is_shadowed(v)
        || !act.is_shadowed(p)
    {
        return false;
    }
    inserted_pointers(v)
        .into_iter()
        .any(|f| lacks_shadow(act, f) && kept_constant(f))
}

/// `store {ptr, double, ptr, i64} %rec, ptr %slot`: a record built by `insertvalue`s,
/// stored whole into shadowed memory, that holds a constant pointer a callee keeps
/// (`kept_constant`) next to floats or shadowed pointers (records as numba and
/// unoptimized Rust build them: tests/filetests/runtime_activity_record_fields.ll). Its
/// shadow cannot be the record itself (a float would read as its own derivative) and was
/// built with a null in the constant's place, which the code reading the pointer back
/// dereferenced (SIGSEGV). The constant pointers, if any: each is its own shadow inside
/// the shadow record (`own_records`).
pub(super) fn record_fields_keeping_constant(
    act: &Activity,
    i: Value,
    kept_constant: impl Fn(Value) -> bool,
) -> Option<Vec<Value>> {
    let (v, p) = (i.operand(0), i.operand(1));
    if !act.is_shadowed(p) {
        return None;
    }
    kept_record_fields(act, v, kept_constant)
}

/// The constant pointers (`kept_constant`, without a shadow) the `insertvalue` chain
/// building record `v` puts into it, if any.
pub(super) fn kept_record_fields(
    act: &Activity,
    v: Value,
    kept_constant: impl Fn(Value) -> bool,
) -> Option<Vec<Value>> {
    if !carries_pointer_field(v.ty()) {
        return None;
    }
    let kept: Vec<Value> = record_pointers(v)
        .into_iter()
        .filter(|f| lacks_shadow(act, *f) && kept_constant(*f))
        .collect();
    (!kept.is_empty()).then_some(kept)
}

/// Takes record `v` over (`own_records`): its shadow is built field by field, the
/// constant pointers `kept` their own shadows in it, and the record carries them to what
/// is taken out of it (maybe-primal).
pub(super) fn take_over_record(
    rt: &mut RuntimeActivity,
    act: &Activity,
    v: Value,
    kept: Vec<Value>,
) {
    for r in record_chain(v) {
        if act.is_shadowed(r) || act.is_active(r) {
            rt.maybe_primal.insert(r);
        }
        rt.own_records.insert(r);
        let c = r.operand(0);
        let fields = constant_fields(c);
        if fields.iter().any(|f| kept.contains(f)) {
            let shadow: Vec<Value> = fields
                .iter()
                .map(|f| {
                    if kept.contains(f) || f.ty().is_integer() {
                        *f
                    } else {
                        f.ty().zero()
                    }
                })
                .collect();
            rt.record_constants
                .insert(c, Value::const_aggregate(c.ty(), &shadow));
        }
    }
    rt.own_shadow.extend(kept);
}

/// The fields of constant record `c` (none when `c` is not a constant struct or array,
/// or a long one).
fn constant_fields(c: Value) -> Vec<Value> {
    if !c.is_constant() || !matches!(c.ty().kind(), TypeKind::Struct | TypeKind::Array) {
        return Vec::new();
    }
    let n = match c.ty().kind() {
        TypeKind::Struct => c.ty().struct_fields().len() as u64,
        _ => c.ty().array_len(),
    };
    if n > 64 {
        return Vec::new();
    }
    (0..n as u32).filter_map(|k| c.const_element(k)).collect()
}

/// The pointers an `insertvalue` chain building `v` puts into it (nested records too).
fn inserted_pointers(v: Value) -> Vec<Value> {
    record_chain(v)
        .into_iter()
        .map(|x| x.operand(1))
        .filter(|f| f.ty().is_pointer())
        .collect()
}

/// The pointers the `insertvalue` chain building `v` puts into it, and those of the
/// constant records it starts from ([`RuntimeActivity::record_constants`]).
fn record_pointers(v: Value) -> Vec<Value> {
    let bases = record_chain(v)
        .into_iter()
        .flat_map(|r| constant_fields(r.operand(0)))
        .filter(|f| f.ty().is_pointer());
    inserted_pointers(v).into_iter().chain(bases).collect()
}

/// The `insertvalue`s of the chain building `v`, nested records' chains included.
fn record_chain(v: Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut work = vec![v];
    // A record's fields, not a walk through the program: a few dozen steps at most.
    let mut budget = 256;
    while let Some(x) = work.pop() {
        budget -= 1;
        if budget == 0 {
            break;
        }
        if x.opcode() != Some(Opcode::LLVMInsertValue) {
            continue;
        }
        out.push(x);
        let f = x.operand(1);
        if carries_pointer_field(f.ty()) {
            work.push(f);
        }
        work.push(x.operand(0));
    }
    out
}

/// Is `t` a struct or array with a pointer among its fields (not a pointer itself)?
pub(super) fn carries_pointer_field(t: Type) -> bool {
    matches!(t.kind(), TypeKind::Struct | TypeKind::Array) && t.contains_pointer()
}

//! Shadows of constants: a mutable global with floats (or pointers) has a shadow global
//! (one per lane); a constant GEP or cast of such a global has the same GEP or cast of its
//! shadow. A read-only table that holds no reals, directly or through the globals it
//! points at (flang's type descriptors and binding tables, which a `class(...)` dummy's
//! descriptor points at for dynamic dispatch), is its own shadow: nothing is ever added
//! into it, and pointers read through the shadow are the primal's (the binding that an
//! indirect call compares with its candidates). It used to have none: the shadow of
//! `call self%method(...)` loaded through a null pointer, which LLVM took as unreachable
//! (hpc18: tests/fortran/27, an endless loop or a segmentation fault). Every other
//! constant has no shadow (a null pointer in reverse mode, a zero tangent in forward
//! mode: the callers choose).

use ferrozyme_analysis::activity::global_needs_shadow;
use ferrozyme_llvm::{Builder, Opcode, TypeKind, Value};

use crate::lanes::Lane;
use crate::services::Support;

/// The shadow of constant pointer `v` in lane `l`, built at `b`'s position, or `None`
/// when it has none.
pub(crate) fn const_shadow(b: &Builder, sup: &mut Support, v: Value, l: Lane) -> Option<Value> {
    if v.ty().is_aggregate() && v.ty().contains_pointer() {
        return const_aggregate_shadow(b, sup, v, l);
    }
    if !v.ty().is_pointer() {
        return None;
    }
    if v.is_global_variable() {
        if global_needs_shadow(v) {
            return Some(sup.shadow_global(v, l));
        }
        return read_only_without_reals(v, 4).then_some(v);
    }
    if !v.is_constant_expr() {
        return None;
    }
    match v.const_opcode() {
        Some(Opcode::LLVMGetElementPtr) => {
            let base = const_shadow(b, sup, v.operand(0), l)?;
            let idx: Vec<Value> = v.operands()[1..].to_vec();
            Some(b.gep(v.gep_source_type(), base, &idx))
        }
        Some(Opcode::LLVMBitCast) | Some(Opcode::LLVMAddrSpaceCast) => {
            const_shadow(b, sup, v.operand(0), l)
        }
        _ => None,
    }
}

/// The shadow of a constant aggregate holding pointers (flang -O0 stores a `class(...)`
/// descriptor `{ ptr %obj, ..., ptr @type_descriptor, ... }` whole): zeros, with each
/// pointer field that has a shadow set to it (the reals' and integers' fields stay zero,
/// as the whole shadow was before); `None` when no field has one. Aggregates of more than
/// 64 fields are left without (a table, not a descriptor).
fn const_aggregate_shadow(b: &Builder, sup: &mut Support, v: Value, l: Lane) -> Option<Value> {
    let ty = v.ty();
    let n = match ty.kind() {
        TypeKind::Struct => ty.struct_fields().len() as u64,
        TypeKind::Array => ty.array_len(),
        _ => return None,
    };
    if n > 64 {
        return None;
    }
    let mut agg = ty.zero();
    let mut any = false;
    for k in 0..n as u32 {
        if let Some(s) = const_shadow(b, sup, v.const_element(k)?, l) {
            agg = b.insert_value(agg, s, k);
            any = true;
        }
    }
    any.then_some(agg)
}

/// Whether `g` is a constant global holding no reals, and neither do the globals its
/// initializer points at (`depth` levels of pointers deep; deeper counts as holding
/// some).
fn read_only_without_reals(g: Value, depth: u32) -> bool {
    if !g.is_global_variable() || !g.is_global_constant() || g.global_value_type().contains_fp() {
        return false;
    }
    let Some(init) = g.initializer() else {
        return false;
    };
    let mut work = vec![init];
    let mut seen = ferrozyme_analysis::hash::HashSet::default();
    while let Some(c) = work.pop() {
        if !seen.insert(c) {
            continue;
        }
        if c.is_global_variable() {
            if c != g && (depth == 0 || !read_only_without_reals(c, depth - 1)) {
                return false;
            }
            continue;
        }
        if !c.is_function() {
            work.extend(c.operands());
        }
    }
    true
}

pub(crate) use ferrozyme_analysis::calls::untracked_source;

pub(crate) use ferrozyme_analysis::activity::pointer_as_integer;

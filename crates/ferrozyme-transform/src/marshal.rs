//! Values crossing the hook boundary: the user's C types on one side (what C's variadic
//! promotion made of the arguments, the struct or `sret` slot the hook was declared to
//! return), the derivative's types on the other.

use ferrozyme_llvm::{Builder, Type, TypeKind, Value};

/// `v` converted to `to`: float widths, integer widths, or the same bits.
pub(crate) fn convert(b: &Builder, v: Value, to: Type) -> Value {
    let from = v.ty();
    if from == to {
        return v;
    }
    match (from.kind(), to.kind()) {
        (TypeKind::Float, TypeKind::Double) => b.fpext(v, to),
        (TypeKind::Double, TypeKind::Float) => b.fptrunc(v, to),
        (TypeKind::Int(_), TypeKind::Int(_)) => b.int_cast(v, to),
        _ => b.bitcast(v, to),
    }
}

/// Paths (field/lane indices) to the floating leaves of a type, in memory order.
pub(crate) fn fp_leaves(t: Type, path: &mut Vec<u32>, out: &mut Vec<(Vec<u32>, Type)>) {
    match t.kind() {
        TypeKind::Float | TypeKind::Double => out.push((path.clone(), t)),
        TypeKind::Struct => {
            for (k, f) in t.struct_fields().into_iter().enumerate() {
                path.push(k as u32);
                fp_leaves(f, path, out);
                path.pop();
            }
        }
        TypeKind::Array | TypeKind::Vector => {
            let n = if t.kind() == TypeKind::Array {
                t.array_len() as u32
            } else {
                t.vector_len()
            };
            for k in 0..n {
                path.push(k);
                fp_leaves(t.element_type(), path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// Builds a value of type `t` whose floating leaves are `vals` (in order).
pub(crate) fn build(b: &Builder, t: Type, leaves: &[(Vec<u32>, Type)], vals: &[Value]) -> Value {
    if leaves.len() == 1 && leaves[0].0.is_empty() {
        return convert(b, vals[0], t);
    }
    let mut agg = t.zero();
    for ((path, lt), v) in leaves.iter().zip(vals) {
        let v = convert(b, *v, *lt);
        agg = insert_path(b, agg, t, path, v);
    }
    agg
}

fn insert_path(b: &Builder, agg: Value, t: Type, path: &[u32], v: Value) -> Value {
    let ctx = t.context();
    match path {
        [] => v,
        [k, rest @ ..] => {
            if t.kind() == TypeKind::Vector {
                return b.insert_element(agg, v, ctx.i32().const_int(*k as u64));
            }
            let inner_t = if t.kind() == TypeKind::Struct {
                t.struct_fields()[*k as usize]
            } else {
                t.element_type()
            };
            let inner = b.extract_value(agg, *k);
            let inner = insert_path(b, inner, inner_t, rest, v);
            b.insert_value(agg, inner, *k)
        }
    }
}

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
        _ if from.is_fp_scalar() && to.is_fp_scalar() => {
            // `_Float16`/`float` promoted to `double` by `...`, or narrowed back; `long
            // double` both ways.
            if from.fp_bits() < to.fp_bits() {
                b.fpext(v, to)
            } else {
                b.fptrunc(v, to)
            }
        }
        (TypeKind::Int(_), TypeKind::Int(_)) => b.int_cast(v, to),
        // A one-element integer array (flang's `character(kind=c_char), value` dummy is
        // `[1 x i8]`) given the `int` C's variadic promotion made of a `char`.
        (TypeKind::Int(_), TypeKind::Array) if is_unit_int_array(to) => {
            let x = b.int_cast(v, to.element_type());
            b.insert_value(to.zero(), x, 0)
        }
        // A small float vector the ABI passed in memory (`byval`, [`abi_float_pair`]).
        (TypeKind::Pointer, TypeKind::Vector) => b.load(to, v, "fz.byval"),
        _ => b.bitcast(v, to),
    }
}

/// Does a hook operand of type `from` (`byval(T)` when `in_memory` is `Some(T)`) carry
/// a value of the small float vector type `to` (`float _Complex` and `struct { float x,
/// y; }` are `<2 x float>`) the way the x86-64 ABI passes one once the SSE registers run
/// out: in an integer register or stack slot of the same size (`i64`, when no integer
/// register is left either), or in memory (`ptr byval({ float, float })`)? Its bits are
/// the vector's, lane 0 in the low half: [`convert`] bitcasts or loads it (difftest C
/// seed 8049: the third lane's tangent of `enzyme_width, 3` came as an `i64`).
pub(crate) fn abi_float_pair(from: Type, in_memory: Option<Type>, to: Type) -> bool {
    if to.kind() != TypeKind::Vector || !to.element_type().is_fp_scalar() {
        return false;
    }
    let (elem, len) = (to.element_type(), to.vector_len());
    let bits = elem.fp_bits() * len;
    match (from.kind(), in_memory) {
        (TypeKind::Int(n), None) => n == bits,
        (TypeKind::Pointer, Some(t)) => {
            let mut leaves = Vec::new();
            fp_leaves(t, &mut Vec::new(), &mut leaves);
            leaves.len() == len as usize && leaves.iter().all(|(_, l)| *l == elem) && only_floats(t)
        }
        _ => false,
    }
}

/// The two floating-point leaves of `t`, a type made of exactly two floating-point scalars
/// (`{ double, double }`, `std::complex<double>`'s `{ { double, double } }`): a value the
/// x86-64 ABI passes in two registers, or in memory (`byval(t)`) once they run out.
pub(crate) fn two_leaves(t: Type) -> Option<[(Vec<u32>, Type); 2]> {
    let mut leaves = Vec::new();
    fp_leaves(t, &mut Vec::new(), &mut leaves);
    if !only_floats(t) {
        return None;
    }
    <[_; 2]>::try_from(leaves).ok()
}

/// The two halves of the value `p` points to, of type `t` ([`two_leaves`]), loaded by `b`.
pub(crate) fn load_two_leaves(b: &Builder, t: Type, p: Value) -> Option<[Value; 2]> {
    let ctx = b.context();
    let load = |(path, leaf): &(Vec<u32>, Type)| {
        let mut idx = vec![ctx.i32().const_int(0)];
        idx.extend(path.iter().map(|&k| ctx.i32().const_int(u64::from(k))));
        b.load(*leaf, b.inbounds_gep(t, p, &idx), "fz.byval")
    };
    let [lo, hi] = two_leaves(t)?;
    Some([load(&lo), load(&hi)])
}

/// A type made of floating-point scalars only (in structs, arrays and vectors).
fn only_floats(t: Type) -> bool {
    match t.kind() {
        _ if t.is_fp_scalar() => true,
        TypeKind::Struct => t.struct_fields().into_iter().all(only_floats),
        TypeKind::Array | TypeKind::Vector => only_floats(t.element_type()),
        _ => false,
    }
}

/// `[1 x iN]`: a one-element integer array, passed by value.
pub(crate) fn is_unit_int_array(t: Type) -> bool {
    t.kind() == TypeKind::Array && t.array_len() == 1 && t.element_type().is_integer()
}

/// Paths (field/lane indices) to the floating leaves of a type, in memory order.
pub(crate) fn fp_leaves(t: Type, path: &mut Vec<u32>, out: &mut Vec<(Vec<u32>, Type)>) {
    match t.kind() {
        _ if t.is_fp_scalar() => out.push((path.clone(), t)),
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

/// The floating leaves of `v` (itself when it is a scalar), in memory order: an active
/// vector argument (`float _Complex` is `<2 x float>`) has one adjoint per lane.
pub(crate) fn scalars(b: &Builder, v: Value) -> Vec<Value> {
    let mut leaves = Vec::new();
    fp_leaves(v.ty(), &mut Vec::new(), &mut leaves);
    if leaves.len() == 1 && leaves[0].0.is_empty() {
        return vec![v];
    }
    let i32t = v.ty().context().i32();
    leaves
        .iter()
        .map(|(path, _)| {
            let mut x = v;
            for k in path {
                x = if x.ty().kind() == TypeKind::Vector {
                    b.extract_element(x, i32t.const_int(*k as u64))
                } else {
                    b.extract_value(x, *k)
                };
            }
            x
        })
        .collect()
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

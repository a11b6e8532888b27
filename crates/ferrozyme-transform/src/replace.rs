//! Rewriting an `__enzyme_autodiff` call into a call of the synthesized derivative.
//!
//! Arguments are converted to the derivative's parameter types (C's variadic promotion
//! turns `float` into `double`, integers may be widened); the seed of a floating return is
//! 1.0. The derivative returns a literal struct of the active scalars' adjoints; the user
//! declared some return type for the hook (`double`, a struct, `<2 x float>` after the
//! x86-64 ABI, or `void` with an `sret` pointer). We fill that type's floating leaves, in
//! order, with the adjoints. A count mismatch is a `bad-autodiff-call` error.

use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_llvm::{Builder, DiagKind, Diagnostic, Type, TypeKind, Value};

use crate::driver::Driver;
use crate::request::AutodiffCall;
use crate::reverse::Request;

fn convert(b: &Builder, v: Value, to: Type) -> Value {
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
fn fp_leaves(t: Type, path: &mut Vec<u32>, out: &mut Vec<(Vec<u32>, Type)>) {
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
fn build(b: &Builder, t: Type, leaves: &[(Vec<u32>, Type)], vals: &[Value]) -> Value {
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

pub fn replace_call(
    d: &mut Driver,
    ac: &AutodiffCall,
    req: &Request,
    g: Value,
    shadow_globals: &[Value],
) -> Result<(), Diagnostic> {
    let call = ac.call;
    let ctx = d.module.context();
    let b = Builder::new(ctx);
    let caller = call.parent_function().name();
    let err = |msg: String, help: &str| {
        Diagnostic::new(DiagKind::BadAutodiffCall, msg)
            .in_function(caller.clone())
            .at_instruction(call.to_string())
            .at_loc(call.source_loc())
            .with_help(help.to_string())
    };
    // Check the return shape before touching anything.
    let sret_ty = call.call_sret_type(0);
    let user_ty = match sret_ty {
        Some(t) => t,
        None => call.ty(),
    };
    let mut leaves = Vec::new();
    fp_leaves(user_ty, &mut Vec::new(), &mut leaves);
    let n_active = req
        .args
        .iter()
        .filter(|a| **a == ArgActivity::Active)
        .count();
    if n_active > 0 && !user_ty.is_void() && leaves.len() != n_active {
        return Err(err(
            format!(
                "`{}` has {n_active} active scalar argument(s), but the call's declared return type {} holds {} floating value(s)",
                ac.func.name(),
                user_ty,
                leaves.len()
            ),
            "declare the hook to return a struct with one double/float per active argument, e.g. typedef struct { double a, b; } grad2; extern grad2 __enzyme_autodiff2(void*, ...);",
        ));
    }
    b.position_before(call);
    // Top-level gradients start from zero adjoints for mutable globals.
    for sg in shadow_globals {
        if sg.global_value_type().contains_pointer() {
            // Holds shadow pointers (set up by its initializer), not adjoints.
            continue;
        }
        let size = d.module.alloc_size(sg.global_value_type());
        b.memset(*sg, ctx.i8().const_int(0), ctx.i64().const_int(size), 1);
    }
    let params = g.function_type().param_types();
    let mut args = Vec::new();
    for a in &ac.args {
        let k = args.len();
        args.push(convert(&b, a.primal, params[k]));
        if a.activity == ArgActivity::Dup {
            args.push(a.shadow.expect("Dup arguments were parsed with a shadow"));
        }
    }
    if req.ret_active {
        let rt = req.func.function_type().return_type();
        args.push(rt.const_float(1.0));
    }
    let r = b.call_fn(g, &args);
    let adjs: Vec<Value> = (0..n_active as u32)
        .map(|k| b.extract_value(r, k))
        .collect();
    match sret_ty {
        Some(t) => {
            if n_active > 0 {
                let v = build(&b, t, &leaves, &adjs);
                b.store(v, call.call_args()[0]);
            }
        }
        None => {
            if !user_ty.is_void() {
                let v = if n_active == 0 {
                    user_ty.zero()
                } else {
                    build(&b, user_ty, &leaves, &adjs)
                };
                call.replace_all_uses_with(v);
            }
        }
    }
    let mut operands = call.call_args();
    operands.sort();
    operands.dedup();
    call.erase();
    // The marker loads (`load i32, ptr @enzyme_dup`) are dead now; drop them so that no
    // reference to the undefined marker globals reaches the linker, even at -O0.
    for op in operands {
        if op.opcode() == Some(ferrozyme_llvm::Opcode::LLVMLoad)
            && op.users().is_empty()
            && op
                .operand(0)
                .name()
                .starts_with(ferrozyme_abi::MARKER_PREFIX)
        {
            op.erase();
        }
    }
    Ok(())
}

//! The call-level markers that change what a hook call returns or where its tape lives
//! (`enzyme_primal_return`, `enzyme_noret`, `enzyme_tape, p`, `enzyme_allocated, N`).
//!
//! * `__enzyme_autodiff(f, enzyme_primal_return, …)` returns `{ f(x), adjoints… }`: the
//!   call becomes the split pair (the augmented half runs `f` once and returns its
//!   result), so the primal is computed exactly once and `f`'s effects happen once.
//! * `enzyme_tape, p` puts the tape in the caller's memory: without
//!   `enzyme_allocated`, `*(void **)p` receives the tape pointer (and `__enzyme_reverse`
//!   reads it from there); with `enzyme_allocated, N`, the tape block itself (its size
//!   is `__enzyme_augmentsize`'s, checked against N at compile time) is copied into the
//!   N bytes at `p`, and `__enzyme_reverse` copies it back into a block of its own, which
//!   it frees as usual: the caller owns `p` throughout. N known only at run time (the
//!   value `__enzyme_augmentsize` returned, kept in a variable, as Enzyme's own tests
//!   write it) is checked when the hook runs: a smaller N stops the program with a
//!   message instead of writing past the caller's memory.

use ferrozyme_llvm::{Builder, Diagnostic, IntPredicate, Value};

use crate::marshal::{build, convert, fp_leaves};
use crate::request::{make_err, AutodiffCall};
use crate::runtime::RtFn;
use crate::services::Support;

/// The byte size of the tape block the augmented function `aug` allocates (the constant
/// of its entry `__fz_tape_alloc`), 0 when it allocates none.
pub fn tape_size(aug: Value) -> u64 {
    aug.entry_block()
        .and_then(|e| {
            e.instructions().into_iter().find(|i| {
                i.is_call()
                    && i.called_function()
                        .is_some_and(|f| f.name() == RtFn::TapeAlloc.name())
            })
        })
        .and_then(|m| m.call_args()[0].const_int_value())
        .map_or(0, |n| n.max(0) as u64)
}

/// `__enzyme_augmentfwd` with `enzyme_tape, p`: stores the tape `tape` (returned by `aug`)
/// in the caller's memory.
pub fn tape_to_caller(
    sup: &mut Support,
    b: &Builder,
    ac: &AutodiffCall,
    aug: Value,
    tape: Value,
) -> Result<(), Diagnostic> {
    let Some(p) = ac.opts.tape else {
        return Ok(());
    };
    let ctx = sup.module.context();
    match ac.opts.allocated {
        None => {
            b.store(tape, p);
        }
        Some(have) => {
            let need = tape_size(aug);
            if need > have {
                let caller = ac.call.parent_function().name();
                return Err(make_err(ac.call, &caller)(
                    format!(
                        "the tape of `{}` needs {need} bytes, but enzyme_allocated gives {have}",
                        ac.func.name()
                    ),
                    "allocate at least __enzyme_augmentsize((void *)f, <the same markers>) bytes",
                ));
            }
            check_run_time_size(sup, b, ac, need);
            if need > 0 {
                b.memcpy(p, tape, ctx.i64().const_int(need), 1);
                let free = sup.rt(RtFn::TapeFree);
                b.call_fn(free, &[tape]);
            }
        }
    }
    Ok(())
}

/// `enzyme_allocated, n` with `n` a run-time value: stop with a message naming the
/// function when `n < need`.
fn check_run_time_size(sup: &mut Support, b: &Builder, ac: &AutodiffCall, need: u64) {
    let Some(n) = ac.opts.allocated_at_run_time else {
        return;
    };
    let ctx = sup.module.context();
    let n = b.int_cast(n, ctx.i64());
    let small = b.icmp(IntPredicate::LLVMIntULT, n, ctx.i64().const_int(need));
    let msg = format!(
        "ferrozyme: in function `{}`: the tape of `{}` needs {need} bytes, but enzyme_allocated gives fewer; allocate at least __enzyme_augmentsize((void *)f, <the same markers>) bytes\n",
        ac.call.parent_function().name(),
        ac.func.name()
    );
    sup.stop_if(b, small, &msg);
}

/// `__enzyme_reverse` with `enzyme_tape, p`: the tape to pass to the reverse function,
/// from the caller's memory.
pub fn tape_from_caller(sup: &mut Support, b: &Builder, ac: &AutodiffCall, aug: Value) -> Value {
    let ctx = sup.module.context();
    let p = ac
        .opts
        .tape
        .expect("invariant: called only with enzyme_tape");
    match ac.opts.allocated {
        None => b.load(ctx.ptr(), p, "fz.tape"),
        Some(_) => {
            let need = tape_size(aug);
            check_run_time_size(sup, b, ac, need);
            if need == 0 {
                return ctx.ptr().zero();
            }
            let n = ctx.i64().const_int(need);
            let alloc = sup.rt(RtFn::TapeAlloc);
            let t = b.call_fn(alloc, &[n]);
            b.memcpy(t, p, n, 1);
            t
        }
    }
}

/// The hook result of `__enzyme_autodiff` with `enzyme_primal_return`: `primal` then the
/// adjoints `adjs`, filling the hook's declared type (a struct whose first field holds
/// the primal, or whose floating leaves are the primal and then the adjoints).
pub fn primal_and_adjoints(
    b: &Builder,
    ac: &AutodiffCall,
    user_ty: ferrozyme_llvm::Type,
    primal: Value,
    adjs: &[Value],
) -> Result<Value, Diagnostic> {
    let caller = ac.call.parent_function().name();
    let err = make_err(ac.call, &caller);
    let ret = ac.func.function_type().return_type();
    let mut leaves = Vec::new();
    fp_leaves(user_ty, &mut Vec::new(), &mut leaves);
    if ret.is_fp_scalar() {
        if leaves.len() != 1 + adjs.len() {
            return Err(err(
                format!(
                    "with enzyme_primal_return the result of `{}` and its {} adjoint(s) need {} floating values, but the declared return type {user_ty} holds {}",
                    ac.func.name(),
                    adjs.len(),
                    1 + adjs.len(),
                    leaves.len()
                ),
                "declare the hook to return e.g. struct { double primal; double d_x; }",
            ));
        }
        let mut vals = vec![primal];
        vals.extend_from_slice(adjs);
        return Ok(build(b, user_ty, &leaves, &vals));
    }
    let fields = if user_ty.kind() == ferrozyme_llvm::TypeKind::Struct {
        user_ty.struct_fields()
    } else {
        Vec::new()
    };
    let fits = !fields.is_empty()
        && (fields[0] == ret || (fields[0].is_integer() && ret.is_integer()))
        && leaves.len() == adjs.len();
    if !fits {
        return Err(err(
            format!(
                "with enzyme_primal_return the hook must return a struct whose first field holds the result of `{}` ({ret}) followed by {} floating adjoint(s); it returns {user_ty}",
                ac.func.name(),
                adjs.len()
            ),
            "declare the hook to return e.g. struct { int result; double d_x; }",
        ));
    }
    let agg = build(b, user_ty, &leaves, adjs);
    Ok(b.insert_value(agg, convert(b, primal, fields[0]), 0))
}

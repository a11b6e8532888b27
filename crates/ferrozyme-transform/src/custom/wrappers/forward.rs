//! The forward-mode function of a function with a registered forward derivative.

use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_llvm::{Diagnostic, Value};

use super::lanes::refuse_in_place_lanes;
use super::{
    activity_mask, builders, coerce, err, err_at_loop_call, split_params, updates_in_place,
    user_args, UserFn,
};
use crate::custom::convention::{forward_layout, same_shape};
use crate::custom::ForwardRule;
use crate::services::Support;
use crate::signature::{returns_tangent, tangent_return_type, TangentRequest};

/// Fills the forward-mode function `g` for `req`, a function with the registered forward
/// derivative `rule`.
pub(crate) fn synthesize_forward(
    sup: &mut Support,
    req: &TangentRequest,
    rule: ForwardRule,
    g: Value,
) -> Result<(), Vec<Diagnostic>> {
    let func = rule.func;
    let mask = activity_mask(func, &req.args);
    let fwd = UserFn::of(rule.fwd, rule.library, mask);
    let layout = forward_layout(func, &req.args, fwd.params.len()).ok_or_else(|| {
        err(
            func,
            format!(
                "the registered forward derivative `{}` takes {} parameters, which does not match `{}`'s {} arguments with their tangents",
                rule.fwd.name(),
                fwd.params.len(),
                func.name(),
                func.params().len()
            ),
            "fwd(each argument, then its tangent if it is a float or a pointer) returning struct { T primal; T tangent; } or the tangent",
        )
    })?;
    let ret = func.function_type().return_type();
    let fret = fwd
        .sret
        .unwrap_or_else(|| rule.fwd.function_type().return_type());
    let pair = fret.kind() == ferrozyme_llvm::TypeKind::Struct
        && fret.struct_fields().len() == 2
        && !ret.is_void()
        && same_shape(fret.struct_fields()[0], ret)
        && same_shape(fret.struct_fields()[1], ret);
    // `struct { float primal; float tangent; }` comes back as one `<2 x float>` (the
    // x86-64 ABI): the float BLAS rules' forward derivatives (`sdot`, `snrm2`) were
    // refused for it (difftest's `blas` feature in forward mode).
    let lanes = !pair
        && !ret.is_void()
        && fret.kind() == ferrozyme_llvm::TypeKind::Vector
        && fret.vector_len() == 2
        && fret.element_type() == ret;
    let tangent_only = !pair && !lanes && !ret.is_void() && same_shape(fret, ret);
    if !ret.is_void() && !pair && !lanes && !tangent_only {
        return Err(err(
            func,
            format!(
                "the registered forward derivative `{}` returns {fret}; expected struct {{ {ret} primal; {ret} tangent; }} or the tangent",
                rule.fwd.name()
            ),
            "return the primal result and its tangent (or only the tangent)",
        ));
    }
    // Only the tangent comes back: the primal result comes from calling `func` after the
    // rule, which updated the memory already (tests/errors/registered_forward_tangent_only_in_place.c).
    if tangent_only && updates_in_place(func) {
        return Err(err_at_loop_call(
            func,
            format!(
                "the registered forward derivative `{}` returns only the tangent, so `{}` is called again for its result, but it updates memory it also reads (in place): the update would run twice",
                rule.fwd.name(),
                func.name()
            ),
            "return struct { T primal; T tangent; } from the forward derivative",
        ));
    }
    let ctx = sup.module.context();
    let (b, entry) = builders(ctx, g);
    let params = g.params();
    let (args, _) = split_params(&params, &req.args, req.width, |a| a != ArgActivity::Const);
    // A built-in sort sorts the elements: with enzyme_width, lane 0 through its augmented
    // rule, which returns the permutation, and the other lanes permuted by it (`qsort.rs`).
    let sort_lanes = match crate::custom::qsort::Sort::of_forward_rule(rule.fwd) {
        Some(s) if req.width > 1 => Some(s.lane_rules(sup.module).ok_or_else(|| {
            err(
                func,
                format!("the vector forward rules of `{}` are missing", func.name()),
                "this is a bug in Ferrozyme: call __enzyme_fwddiff once per direction",
            )
        })?),
        _ => None,
    };
    if sort_lanes.is_none() {
        refuse_in_place_lanes(
            func,
            req.width,
            "registered forward derivative",
            "__enzyme_fwddiff",
        )?;
    }
    let mut perm = None;
    let mut primal = None;
    let mut tangents = Vec::new();
    for l in 0..req.width.max(1) as usize {
        let mut uargs = user_args(func, &args, &layout, l, rule.library)?;
        let r = match (sort_lanes, perm) {
            (Some((aug, _)), None) => {
                let p = UserFn::of(aug, rule.library, mask).call(&b, &entry, &uargs);
                perm = Some(p);
                p
            }
            (Some((_, lane)), Some(p)) => {
                let last = l + 1 == req.width as usize;
                uargs.extend([p, ctx.i1().const_int(last as u64)]);
                UserFn::of(lane, rule.library, mask).call(&b, &entry, &uargs)
            }
            _ => fwd.call(&b, &entry, &uargs),
        };
        if pair {
            primal.get_or_insert_with(|| b.extract_value(r, 0));
            tangents.push(coerce(&b, b.extract_value(r, 1), ret));
        } else if lanes {
            let i32t = ctx.i32();
            primal.get_or_insert_with(|| b.extract_element(r, i32t.const_int(0)));
            tangents.push(b.extract_element(r, i32t.const_int(1)));
        } else if tangent_only {
            tangents.push(coerce(&b, r, ret));
        }
    }
    let rty = tangent_return_type(req);
    if rty.is_void() {
        b.ret_void();
        return Ok(());
    }
    let primal = match primal {
        Some(p) => coerce(&b, p, ret),
        // Only the tangent came back: the primal result from the function itself.
        None => b.call_fn(func, &args.primal),
    };
    let mut agg = rty.undef();
    agg = b.insert_value(agg, primal, 0);
    if returns_tangent(req) {
        for (l, t) in tangents.into_iter().enumerate() {
            agg = b.insert_value(agg, t, 1 + l as u32);
        }
    }
    b.ret(agg);
    Ok(())
}

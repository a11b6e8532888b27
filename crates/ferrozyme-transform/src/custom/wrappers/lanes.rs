//! Rules run once per lane of `enzyme_width`: each lane's augmented call with its own
//! tape, the gradients lane by lane, and the lanes' tapes packed into the one pointer a
//! split pair passes.

use ferrozyme_llvm::{Builder, Diagnostic, Value};

use super::reverse::{call_rev, unpack_aug, ReversePlan};
use super::{err_at_loop_call, updates_in_place, user_args, Args};
use crate::custom::convention::AugReturn;
use crate::services::Support;
use crate::signature::Request;

/// Calls `rev` once per lane (`tapes[l]`, the seeds from `seeds`, the first of `width`
/// parameters); returns the adjoints lane-major per active argument, as the generated
/// function returns them.
#[allow(clippy::too_many_arguments)]
pub(super) fn call_rev_lanes(
    b: &Builder,
    entry: &Builder,
    func: Value,
    plan: &ReversePlan,
    args: &Args,
    seeds: Option<&[Value]>,
    tapes: &[Value],
    req: &Request,
) -> Result<Vec<Value>, Vec<Diagnostic>> {
    // Lane 0 last: a sort's lane 0 reverse rule frees the tape the other lanes share.
    let mut lanes = Vec::new();
    for (l, tape) in tapes.iter().enumerate().rev() {
        let seed = seeds.map(|s| s[l]);
        lanes.push(call_rev(b, entry, func, plan, args, l, seed, *tape, req)?);
    }
    lanes.reverse();
    let n = lanes.first().map_or(0, Vec::len);
    Ok((0..n)
        .flat_map(|j| lanes.iter().map(move |lane| lane[j]))
        .collect())
}

/// Calls `aug` once per lane, each with its lane's shadows (vector reverse mode runs the
/// rule once per direction; `refuse_in_place_lanes` keeps out functions for which that
/// would repeat an update). Returns each lane's tape, and lane 0's results (the primal
/// result and every lane's shadow of a pointer result) when `results`.
pub(super) fn call_aug_lanes(
    b: &Builder,
    entry: &Builder,
    func: Value,
    plan: &ReversePlan,
    args: &Args,
    width: usize,
    results: bool,
) -> Result<(Vec<Value>, Option<Value>, Vec<Value>), Vec<Diagnostic>> {
    let mut tapes = Vec::new();
    let mut result = None;
    let mut shadows = Vec::new();
    for l in 0..width {
        let mut uargs = user_args(func, args, &plan.layout, l, plan.library)?;
        if let (Some((lane, _)), Some(perm)) = (&plan.sort_lanes, tapes.first().copied()) {
            // A sort: this lane's shadow permuted by lane 0's permutation, which stays the
            // tape of every lane.
            uargs.extend([perm, b.context().i1().const_int(0)]);
            lane.call(b, entry, &uargs);
            tapes.push(perm);
            continue;
        }
        let r = plan.aug.call(b, entry, &uargs);
        let (tape, res, shadow) = match plan.aug_ret {
            // The result is recomputed by calling the function: once.
            AugReturn::Recompute if !results || l > 0 => {
                (r.ty().context().ptr().zero(), None, None)
            }
            _ => unpack_aug(b, plan, r, func, &args.primal),
        };
        tapes.push(tape);
        if l == 0 {
            result = res;
        }
        shadows.extend(shadow);
    }
    Ok((tapes, result, shadows))
}

/// The tapes of `width` lanes as one pointer, as a split pair passes its tape: the tape
/// itself for one lane, else a `malloc`ed block of them that `unpack_tapes` frees.
pub(super) fn pack_tapes(sup: &mut Support, b: &Builder, tapes: &[Value]) -> Value {
    if tapes.len() == 1 {
        return tapes[0];
    }
    let ctx = sup.module.context();
    let ptr = ctx.ptr();
    let malloc = sup.libc("malloc", ptr, &[ctx.i64()]);
    let block = b.call_fn(malloc, &[ctx.i64().const_int(8 * tapes.len() as u64)]);
    for (l, t) in tapes.iter().enumerate() {
        let at = b.gep(ptr, block, &[ctx.i64().const_int(l as u64)]);
        b.store(*t, at);
    }
    block
}

/// The inverse of `pack_tapes`.
pub(super) fn unpack_tapes(
    sup: &mut Support,
    b: &Builder,
    tape: Value,
    width: usize,
) -> Vec<Value> {
    if width == 1 {
        return vec![tape];
    }
    let ctx = sup.module.context();
    let ptr = ctx.ptr();
    let tapes = (0..width)
        .map(|l| {
            let at = b.gep(ptr, tape, &[ctx.i64().const_int(l as u64)]);
            b.load(ptr, at, "fz.custom.tape")
        })
        .collect();
    let free = sup.libc("free", ctx.void(), &[ptr]);
    b.call_fn(free, &[tape]);
    tapes
}

/// Rules run once per lane with `enzyme_width` (forward: the forward rule; reverse: the
/// augmented function and the gradient); a function that updates memory it also reads
/// would have its update run `width` times, silently wrong (tests/c/1347): refused, at
/// the user's call.
pub(super) fn refuse_in_place_lanes(
    func: Value,
    width: u32,
    rule: &str,
    call: &str,
) -> Result<(), Vec<Diagnostic>> {
    if width <= 1 || !updates_in_place(func) {
        return Ok(());
    }
    let what = if func.name().starts_with("__fz_ckpt_call.") {
        format!("a checkpointed or fixed-point loop (`__enzyme_checkpoint_for`/`_while`, `__enzyme_fixed_point`) updates its state in place, and its {rule}")
    } else {
        format!(
            "`{}` updates memory it also reads (in place), and its {rule}",
            func.name()
        )
    };
    Err(err_at_loop_call(
        func,
        format!("{what} runs once per lane with enzyme_width: the update would run {width} times"),
        &format!("call {call} once per direction (without enzyme_width), or make the function write its result to memory it does not read"),
    ))
}

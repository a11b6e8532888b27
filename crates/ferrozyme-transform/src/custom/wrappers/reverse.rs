//! The split pair and the combined function of a function with a registered reverse rule.

use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_llvm::{Builder, Diagnostic, Type, Value};

use super::lanes::{
    call_aug_lanes, call_rev_lanes, pack_tapes, refuse_in_place_lanes, unpack_tapes,
};
use super::{activity_mask, builders, coerce, err, extract, split_params, user_args, Args, UserFn};
use crate::custom::convention::{aug_return, reverse_layout, AugReturn, Layout};
use crate::custom::ReverseRule;
use crate::marshal::{build, fp_leaves};
use crate::services::Support;
use crate::signature::{Request, Target};

/// What a registered reverse rule looks like, checked against the request.
pub(super) struct ReversePlan {
    pub(super) aug: UserFn,
    pub(super) rev: UserFn,
    /// A library rule: null shadows for constant memory.
    pub(super) library: bool,
    pub(super) layout: Layout,
    pub(super) aug_ret: AugReturn,
    /// `rev` takes the adjoint of the result.
    pub(super) dret: bool,
    /// `rev` takes the tape.
    pub(super) tape: bool,
    /// For each floating-point leaf of `rev`'s result: the argument it is the adjoint of.
    pub(super) adjoint_of: Vec<usize>,
    /// A built-in sort in vector mode (`qsort.rs`): the lane rules that move lanes after
    /// the first by lane 0's permutation, forward and back (one tape for every lane).
    pub(super) sort_lanes: Option<(UserFn, UserFn)>,
}

fn plan_reverse(req: &Request, rule: ReverseRule) -> Result<ReversePlan, Vec<Diagnostic>> {
    let func = rule.func;
    let ret = func.function_type().return_type();
    let mask = activity_mask(func, &req.args);
    let aug = UserFn::of(rule.aug, rule.library, mask);
    let rev = UserFn::of(rule.rev, rule.library, mask);
    let expected = "aug(each argument, then its shadow if it is a pointer) returning void * / T / struct { void *tape; T result; } (or void: the result is then recomputed by calling the function)";
    let layout = reverse_layout(func, &req.args, aug.params.len()).ok_or_else(|| {
        err(
            func,
            format!(
                "the registered augmented function `{}` takes {} parameters, which does not match `{}`'s {} arguments with their shadows",
                rule.aug.name(),
                aug.params.len(),
                func.name(),
                func.params().len()
            ),
            expected,
        )
    })?;
    let aug_ret = aug_return(rule.aug.function_type().return_type(), aug.sret, ret).ok_or_else(|| {
        err(
            func,
            format!(
                "the registered augmented function `{}` must return the tape and the result of `{}` ({ret})",
                rule.aug.name(),
                func.name()
            ),
            expected,
        )
    })?;
    if ret.is_pointer() && !matches!(aug_ret, AugReturn::TapeAndResult { shadow: true, .. }) {
        return Err(err(
            func,
            format!(
                "`{}` returns a pointer; its registered augmented function must also return the pointer's shadow",
                func.name()
            ),
            "return struct { void *tape; T *result; T *shadow_result; } from the augmented function",
        ));
    }
    let tape = matches!(aug_ret, AugReturn::Tape | AugReturn::TapeAndResult { .. });
    let fp_ret = ferrozyme_analysis::activity::carries_fp(ret);
    let trailing = rev.params.len() as isize - layout.len() as isize;
    let dret = trailing - isize::from(tape) == 1;
    if trailing - isize::from(tape) != isize::from(fp_ret) {
        return Err(err(
            func,
            format!(
                "the registered reverse function `{}` takes {} parameters; expected {} (the augmented function's arguments{}{})",
                rule.rev.name(),
                rev.params.len(),
                layout.len() + usize::from(fp_ret) + usize::from(tape),
                if fp_ret { ", the result's adjoint" } else { "" },
                if tape { ", the tape" } else { "" }
            ),
            "rev(each argument and its shadow, [T d_result,] [void *tape]) returning the adjoints of the floating-point arguments",
        ));
    }
    let adjoint_of = adjoint_targets(func, req, &rev)?;
    Ok(ReversePlan {
        aug,
        rev,
        library: rule.library,
        layout,
        aug_ret,
        dret,
        tape,
        adjoint_of,
        sort_lanes: None,
    })
}

/// Which argument each floating leaf of `rev`'s result belongs to, in order: every
/// floating-point argument (a `float complex` passed as `<2 x float>` has two leaves), or
/// only the active ones.
fn adjoint_targets(
    func: Value,
    req: &Request,
    rev: &UserFn,
) -> Result<Vec<usize>, Vec<Diagnostic>> {
    let rty = rev
        .sret
        .unwrap_or_else(|| rev.f.function_type().return_type());
    let n_leaves = |t: Type| {
        let mut l = Vec::new();
        fp_leaves(t, &mut Vec::new(), &mut l);
        l.len()
    };
    let leaves = n_leaves(rty);
    let params = func.params();
    let owners = |keep: &dyn Fn(usize) -> bool| -> Vec<usize> {
        (0..params.len())
            .filter(|k| params[*k].ty().is_fp() && keep(*k))
            .flat_map(|k| std::iter::repeat_n(k, n_leaves(params[k].ty())))
            .collect()
    };
    let floats = owners(&|_| true);
    let active = owners(&|k| req.args[k] == ArgActivity::Active);
    if leaves == floats.len() {
        Ok(floats)
    } else if leaves == active.len() {
        Ok(active)
    } else {
        Err(err(
            func,
            format!(
                "the registered reverse function `{}` returns {} floating-point value(s); `{}` has {} floating-point argument value(s)",
                rev.f.name(),
                leaves,
                func.name(),
                floats.len()
            ),
            "return the adjoint of each floating-point argument, in order (a struct when there are several, void when there are none)",
        ))
    }
}

/// The results of a call of `aug`: (tape or null, primal result, shadow of the result).
pub(super) fn unpack_aug(
    b: &Builder,
    plan: &ReversePlan,
    r: Value,
    func: Value,
    primal: &[Value],
) -> (Value, Option<Value>, Option<Value>) {
    let null = r.ty().context().ptr().zero();
    match plan.aug_ret {
        AugReturn::Nothing => (null, None, None),
        AugReturn::Recompute => (null, Some(b.call_fn(func, primal)), None),
        AugReturn::Tape => (r, None, None),
        AugReturn::Result => (null, Some(r), None),
        AugReturn::TapeAndResult { shadow, .. } => (
            b.extract_value(r, 0),
            Some(b.extract_value(r, 1)),
            shadow.then(|| b.extract_value(r, 2)),
        ),
    }
}

/// Calls `rev` for lane `l` (its shadows and seed, the tape of its own augmented call);
/// returns the adjoints of the request's active arguments, in order.
#[allow(clippy::too_many_arguments)]
pub(super) fn call_rev(
    b: &Builder,
    entry: &Builder,
    func: Value,
    plan: &ReversePlan,
    args: &Args,
    l: usize,
    seed: Option<Value>,
    tape: Value,
    req: &Request,
) -> Result<Vec<Value>, Vec<Diagnostic>> {
    let mut a = user_args(func, args, &plan.layout, l, plan.library)?;
    let ret = func.function_type().return_type();
    if plan.dret {
        a.push(seed.unwrap_or_else(|| ret.zero()));
    }
    if plan.tape {
        a.push(tape);
    }
    let rev = match &plan.sort_lanes {
        Some((_, lane)) if l > 0 => lane,
        _ => &plan.rev,
    };
    let r = rev.call(b, entry, &a);
    let mut leaves = Vec::new();
    fp_leaves(r.ty(), &mut Vec::new(), &mut leaves);
    let mut out = Vec::new();
    for (k, act) in req.args.iter().enumerate() {
        if *act != ArgActivity::Active {
            continue;
        }
        let pty = func.params()[k].ty();
        let mine: Vec<Value> = plan
            .adjoint_of
            .iter()
            .enumerate()
            .filter(|(_, j)| **j == k)
            .map(|(leaf, _)| extract(b, r, &leaves[leaf].0))
            .collect();
        let d = if mine.is_empty() {
            pty.zero()
        } else {
            let mut pl = Vec::new();
            fp_leaves(pty, &mut Vec::new(), &mut pl);
            build(b, pty, &pl, &mine)
        };
        out.push(d);
    }
    Ok(out)
}

/// The adjoints as the generated function returns them (a literal struct, or void).
fn ret_adjoints(b: &Builder, ret_ty: Type, adj: &[Value]) {
    if ret_ty.is_void() {
        b.ret_void();
        return;
    }
    let mut agg = ret_ty.undef();
    for (k, d) in adj.iter().enumerate() {
        agg = b.insert_value(agg, *d, k as u32);
    }
    b.ret(agg);
}

/// Fills the derivative function(s) of `target` for `req`, a function with the registered
/// reverse rule `rule`. With `enzyme_width`, the rule runs once per lane: the augmented
/// function with each lane's shadows (its own tape), then the gradient with each lane's
/// shadows, seed and tape.
pub(crate) fn synthesize_reverse(
    sup: &mut Support,
    req: &Request,
    rule: ReverseRule,
    target: Target,
) -> Result<(), Vec<Diagnostic>> {
    let func = rule.func;
    // A built-in sort sorts the elements once, in lane 0, and moves the other lanes'
    // shadows by its permutation (`qsort.rs`); any other rule updating in place is refused.
    let sort = crate::custom::qsort::Sort::of_reverse_rule(rule.rev).filter(|_| req.width > 1);
    if sort.is_none() {
        refuse_in_place_lanes(
            func,
            req.width,
            "gradient rule (registered or built-in)",
            "__enzyme_autodiff",
        )?;
    }
    let mut plan = plan_reverse(req, rule)?;
    if let Some(s) = sort {
        let (fwd_lane, rev_lane) = s.reverse_lane_rules(sup.module).ok_or_else(|| {
            err(
                func,
                format!("the vector reverse rules of `{}` are missing", func.name()),
                "this is a bug in Ferrozyme: call __enzyme_autodiff once per direction",
            )
        })?;
        let mask = activity_mask(func, &req.args);
        plan.sort_lanes = Some((
            UserFn::of(fwd_lane, rule.library, mask),
            UserFn::of(rev_lane, rule.library, mask),
        ));
    }
    // One tape per lane, packed into one block when there are several (a sort's lanes
    // share lane 0's).
    let packed = plan.tape && plan.sort_lanes.is_none();
    let width = req.width.max(1) as usize;
    let ctx = sup.module.context();
    let dup = |a: ArgActivity| a == ArgActivity::Dup;
    match target {
        Target::Combined { g } => {
            let (b, entry) = builders(ctx, g);
            let params = g.params();
            let (args, k) = split_params(&params, &req.args, req.width, dup);
            let seeds = req.ret_active.then(|| &params[k..k + width]);
            // The combined function needs no primal result.
            let (tapes, _, _) = call_aug_lanes(&b, &entry, func, &plan, &args, width, false)?;
            let adj = call_rev_lanes(&b, &entry, func, &plan, &args, seeds, &tapes, req)?;
            ret_adjoints(&b, g.function_type().return_type(), &adj);
        }
        Target::Split { aug, rev, .. } => {
            let (b, entry) = builders(ctx, aug);
            let (args, _) = split_params(&aug.params(), &req.args, req.width, dup);
            let (tapes, result, shadows) =
                call_aug_lanes(&b, &entry, func, &plan, &args, width, true)?;
            let rty = aug.function_type().return_type();
            let mut agg = rty.undef();
            let mut k = 0;
            let ret = func.function_type().return_type();
            if let Some(v) = result {
                agg = b.insert_value(agg, coerce(&b, v, ret), k);
                k += 1;
            }
            for s in shadows {
                agg = b.insert_value(agg, s, k);
                k += 1;
            }
            let tape = if packed {
                pack_tapes(sup, &b, &tapes)
            } else {
                tapes[0]
            };
            agg = b.insert_value(agg, tape, k);
            b.ret(agg);

            let (b, entry) = builders(ctx, rev);
            let params = rev.params();
            let (args, k) = split_params(&params, &req.args, req.width, dup);
            let seeds = req.ret_active.then(|| &params[k..k + width]);
            let tape = *params
                .last()
                .expect("invariant: a reverse function takes the tape");
            let tapes = if packed {
                unpack_tapes(sup, &b, tape, width)
            } else {
                vec![tape; width]
            };
            let adj = call_rev_lanes(&b, &entry, func, &plan, &args, seeds, &tapes, req)?;
            ret_adjoints(&b, rev.function_type().return_type(), &adj);
        }
    }
    Ok(())
}

//! The derivative functions of a function with a registered derivative: thin wrappers
//! with the signatures of synthesized derivatives (`crate::signature`) that call the
//! user's functions in Enzyme's convention (`convention.rs`).
//!
//! * split pair: the augmented wrapper calls `aug` and returns `{result, [shadow], tape}`;
//!   the reverse wrapper calls `rev` with the tape and returns the adjoints of the active
//!   arguments;
//! * combined function (a top-level `__enzyme_autodiff` of the function itself): `aug`
//!   then `rev`, as Enzyme does;
//! * forward function: `fwd` once per lane.

use ferrozyme_analysis::activity::{is_readonly_function, may_update_param_in_place, ArgActivity};
use ferrozyme_llvm::{Builder, DiagKind, Diagnostic, Type, Value};

use super::convention::{
    aug_return, forward_layout, reverse_layout, same_shape, AugReturn, Layout,
};
use super::{ForwardRule, ReverseRule};
use crate::marshal::{build, fp_leaves};
use crate::services::Support;
use crate::signature::{returns_tangent, tangent_return_type, Request, TangentRequest, Target};

/// A registered function's parameters: the hidden `sret` result slot (if any), the
/// activity mask of a library rule (`blas.rs`), and the rest.
struct UserFn {
    f: Value,
    sret: Option<Type>,
    /// A library rule's leading activity mask, passed before the arguments.
    mask: Option<Value>,
    params: Vec<Type>,
}

impl UserFn {
    fn new(f: Value) -> UserFn {
        let all = f.function_type().param_types();
        let sret = f.param_sret_type(0);
        let params = if sret.is_some() {
            all[1..].to_vec()
        } else {
            all
        };
        UserFn {
            f,
            sret,
            mask: None,
            params,
        }
    }

    /// A rule function of a library rule: its first parameter (after `sret`) is the
    /// activity mask `mask`.
    fn library(f: Value, mask: Value) -> UserFn {
        let mut u = UserFn::new(f);
        if !u.params.is_empty() {
            u.params.remove(0);
            u.mask = Some(mask);
        }
        u
    }

    /// `new` or `library`, as the rule says.
    fn of(f: Value, library: bool, mask: Value) -> UserFn {
        if library {
            UserFn::library(f, mask)
        } else {
            UserFn::new(f)
        }
    }

    /// Calls it with `args` (converted to its parameter types); the result, loaded from
    /// the `sret` slot when it has one.
    fn call(&self, b: &Builder, entry: &Builder, args: &[Value]) -> Value {
        let mut all = Vec::new();
        let slot = self.sret.map(|t| {
            let s = entry.alloca(t, "fz.custom.ret");
            all.push(s);
            (s, t)
        });
        all.extend(self.mask);
        for (a, t) in args.iter().zip(&self.params) {
            all.push(coerce(b, *a, *t));
        }
        let r = b.call_fn(self.f, &all);
        match slot {
            Some((s, t)) => {
                r.add_call_sret(0, t);
                b.load(t, s, "fz.custom.ret")
            }
            None => r,
        }
    }
}

/// `v` as a value of type `t`: the same value, a float width change, or the same floats
/// rebuilt in `t`'s shape (the C ABI's struct coercions).
fn coerce(b: &Builder, v: Value, t: Type) -> Value {
    if v.ty() == t {
        return v;
    }
    let mut from = Vec::new();
    fp_leaves(v.ty(), &mut Vec::new(), &mut from);
    let mut to = Vec::new();
    fp_leaves(t, &mut Vec::new(), &mut to);
    if from.len() > 1 && from.len() == to.len() {
        let vals: Vec<Value> = from.iter().map(|(path, _)| extract(b, v, path)).collect();
        return build(b, t, &to, &vals);
    }
    crate::marshal::convert(b, v, t)
}

fn extract(b: &Builder, v: Value, path: &[u32]) -> Value {
    let mut x = v;
    for k in path {
        x = if x.ty().kind() == ferrozyme_llvm::TypeKind::Vector {
            b.extract_element(x, x.ty().context().i32().const_int(*k as u64))
        } else {
            b.extract_value(x, *k)
        };
    }
    x
}

fn err(func: Value, msg: String, help: &str) -> Vec<Diagnostic> {
    vec![Diagnostic::new(DiagKind::BadAutodiffCall, msg)
        .in_function(func.source_name())
        .with_help(help.to_string())]
}

/// `err` at a call of `func`: for a checkpointed or fixed-point loop's function, the
/// user's call that became it (the loop's internal function means nothing to the user).
fn err_at_loop_call(func: Value, msg: String, help: &str) -> Vec<Diagnostic> {
    let site = func
        .users()
        .into_iter()
        .filter(|u| u.is_call() && u.called_function() == Some(func))
        .min_by_key(|u| u.source_loc().is_none());
    match site {
        Some(call) => vec![Diagnostic::new(DiagKind::BadAutodiffCall, msg)
            .at_value(call)
            .with_help(help.to_string())],
        None => err(func, msg, help),
    }
}

/// The primal arguments and their shadow lanes, as a wrapper receives them.
struct Args {
    primal: Vec<Value>,
    /// Per argument: its shadows (one per lane), empty when it has none.
    shadows: Vec<Vec<Value>>,
}

/// Splits a wrapper's parameters: each primal parameter, then `width` shadows when
/// `has_shadow(activity)`.
fn split_params(
    params: &[Value],
    acts: &[ArgActivity],
    width: u32,
    has_shadow: impl Fn(ArgActivity) -> bool,
) -> (Args, usize) {
    let mut primal = Vec::new();
    let mut shadows = Vec::new();
    let mut k = 0;
    for a in acts {
        primal.push(params[k]);
        k += 1;
        if has_shadow(*a) {
            shadows.push(params[k..k + width as usize].to_vec());
            k += width as usize;
        } else {
            shadows.push(Vec::new());
        }
    }
    (Args { primal, shadows }, k)
}

/// The user-convention argument list for lane `l`: each argument, followed by its shadow
/// when `layout` says so. A shadow the call does not have is an error for pointers and a
/// zero for floats (a constant float has a zero tangent).
fn user_args(
    func: Value,
    args: &Args,
    layout: &Layout,
    l: usize,
    null_shadows: bool,
) -> Result<Vec<Value>, Vec<Diagnostic>> {
    let mut out = Vec::new();
    for (k, p) in args.primal.iter().enumerate() {
        out.push(*p);
        if !layout.shadowed[k] {
            continue;
        }
        match args.shadows[k].get(l) {
            Some(s) => out.push(*s),
            // Library rules take a null shadow for constant memory, and so do the
            // checkpointed loops' rules for pointers their step does not differentiate.
            None if p.ty().is_pointer()
                && (null_shadows
                    || func.has_param_string_attr(
                        k as u32,
                        crate::checkpoint::inert::INERT_SHADOW,
                    )) =>
            {
                out.push(p.ty().zero())
            }
            None if p.ty().is_pointer() => {
                if let Some(j) = crate::checkpoint::inert::step_argument(func, k) {
                    return Err(err_at_loop_call(
                        func,
                        format!(
                            "the step of a checkpointed or fixed-point loop (`__enzyme_checkpoint_for`/`_while`, `__enzyme_fixed_point`) takes its pointer argument #{j} (after the step number) from constant memory here (enzyme_const or a constant pointer), but its derivative reads or writes derivatives through it"
                        ),
                        "pass that argument as enzyme_dup with a zero shadow in the differentiated call (a pointer the step only compares floats from needs none)",
                    ));
                }
                return Err(err(
                    func,
                    format!(
                        "argument {} of `{}` has no shadow here (it is constant memory), but the registered derivative takes one after it",
                        k + 1,
                        func.name()
                    ),
                    "pass that argument as enzyme_dup (with a zero shadow), or register a derivative that takes shadows only for the duplicated arguments",
                ));
            }
            None => out.push(p.ty().zero()),
        }
    }
    Ok(out)
}

/// What a registered reverse rule looks like, checked against the request.
struct ReversePlan {
    aug: UserFn,
    rev: UserFn,
    /// A library rule: null shadows for constant memory.
    library: bool,
    layout: Layout,
    aug_ret: AugReturn,
    /// `rev` takes the adjoint of the result.
    dret: bool,
    /// `rev` takes the tape.
    tape: bool,
    /// For each floating-point leaf of `rev`'s result: the argument it is the adjoint of.
    adjoint_of: Vec<usize>,
    /// A built-in sort in vector mode (`qsort.rs`): the lane rules that move lanes after
    /// the first by lane 0's permutation, forward and back (one tape for every lane).
    sort_lanes: Option<(UserFn, UserFn)>,
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
fn unpack_aug(
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
fn call_rev(
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

/// Calls `rev` once per lane (`tapes[l]`, the seeds from `seeds`, the first of `width`
/// parameters); returns the adjoints lane-major per active argument, as the generated
/// function returns them.
#[allow(clippy::too_many_arguments)]
fn call_rev_lanes(
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
fn call_aug_lanes(
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
fn pack_tapes(sup: &mut Support, b: &Builder, tapes: &[Value]) -> Value {
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
fn unpack_tapes(sup: &mut Support, b: &Builder, tape: Value, width: usize) -> Vec<Value> {
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
fn refuse_in_place_lanes(
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
    let sort = super::qsort::Sort::of_reverse_rule(rule.rev).filter(|_| req.width > 1);
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

/// The activity mask a library rule takes: bit k set when argument k is not constant.
fn activity_mask(func: Value, acts: &[ArgActivity]) -> Value {
    let bits = acts
        .iter()
        .take(64)
        .enumerate()
        .filter(|(_, a)| **a != ArgActivity::Const)
        .fold(0u64, |m, (k, _)| m | (1 << k));
    func.ty().context().i64().const_int(bits)
}

/// A builder at the end of a new entry block of `g`, and one for its allocas.
fn builders(ctx: ferrozyme_llvm::Context, g: Value) -> (Builder, Builder) {
    let b = Builder::new(ctx);
    let entry = b.append_block(g, "fz.entry");
    b.position_at_end(entry);
    let eb = Builder::new(ctx);
    eb.position_at_end(entry);
    (b, eb)
}

/// May `func` (a function with a registered or built-in forward rule) read and write the
/// same memory, so that its rule must not run once per lane (tests/c/1347)? BLAS functions
/// by the table, others by their IR (a declaration: unless every pointer is `readonly`,
/// a `byval` copy or the `sret` result), OpenMP's thread-private copies never (a lookup).
fn updates_in_place(func: Value) -> bool {
    if super::threadprivate::is_copy_lookup(func) {
        return false;
    }
    let name = func.name();
    if let Some(row) = ferrozyme_rules::blas::BLAS_FUNCTIONS
        .iter()
        .find(|r| r.name == name)
    {
        return row.updates_in_place();
    }
    if is_readonly_function(func) {
        return false;
    }
    func.params().iter().enumerate().any(|(k, p)| {
        let i = k as u32;
        p.ty().is_pointer()
            && !func.has_param_attr(i, "readonly")
            && func.param_byval_type(i).is_none()
            && func.param_sret_type(i).is_none()
            && may_update_param_in_place(func, k)
    })
}

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
    let sort_lanes = match super::qsort::Sort::of_forward_rule(rule.fwd) {
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

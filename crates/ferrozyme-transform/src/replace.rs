//! Rewriting an `__enzyme_autodiff` call into a call of the synthesized derivative.
//!
//! Arguments are converted to the derivative's parameter types (C's variadic promotion
//! turns `float` into `double`, integers may be widened); the seed of a floating return is
//! 1.0. The derivative returns a literal struct of the active scalars' adjoints; the user
//! declared some return type for the hook (`double`, a struct, `<2 x float>` after the
//! x86-64 ABI, or `void` with an `sret` pointer). We fill that type's floating leaves, in
//! order, with the adjoints. A count mismatch is a `bad-autodiff-call` error.

use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_llvm::{Builder, Diagnostic, Type, TypeKind, Value};

use crate::checkgrad::{self, Checks};
use crate::marshal::{build, convert, fp_leaves, scalars};
use crate::request::{AutodiffCall, CallArg, Shadow};
use crate::services::Support;
use crate::signature::{returns_tangent, Request, TangentRequest};

/// What replacing a hook call needs besides the call: module services, the gradient
/// checks (`--check-gradients`) and where notes for the user go.
pub(crate) struct HookEnv<'a> {
    pub sup: &'a mut Support,
    pub checks: Option<&'a mut Checks>,
    pub notes: &'a mut Vec<String>,
    /// Truncated copies of functions (`__enzyme_truncate_*_func`), made once each.
    pub truncations: &'a mut crate::truncate::Truncations,
}

/// Replaces a reverse-mode call (`__enzyme_autodiff`, or `__enzyme_reverse` when `tail`
/// holds its return seed and tape) by a call of `g`, filling the hook's result with the
/// adjoints of the active scalars.
pub fn replace_call(
    env: &mut HookEnv<'_>,
    ac: &AutodiffCall,
    req: &Request,
    g: Value,
    tail: Option<(&[Value], Value)>,
) -> Result<(), Diagnostic> {
    let call = ac.call;
    let ctx = env.sup.module.context();
    let b = Builder::new(ctx);
    let caller = call.parent_function().name();
    let err = crate::request::make_err(call, &caller);
    // Check the return shape before touching anything.
    let sret_ty = call.call_sret_type(0);
    let user_ty = match sret_ty {
        Some(t) => t,
        None => call.ty(),
    };
    let mut leaves = Vec::new();
    fp_leaves(user_ty, &mut Vec::new(), &mut leaves);
    // Adjoints in the derivative's result: one per active argument and lane; an active
    // vector (`float _Complex` is `<2 x float>` on x86-64) holds several floats.
    let n_active = req
        .args
        .iter()
        .filter(|a| **a == ArgActivity::Active)
        .count()
        * req.width as usize;
    let n_floats: usize = req
        .func
        .params()
        .into_iter()
        .zip(&req.args)
        .filter(|(_, a)| **a == ArgActivity::Active)
        .map(|(p, _)| {
            let mut l = Vec::new();
            fp_leaves(p.ty(), &mut Vec::new(), &mut l);
            l.len()
        })
        .sum::<usize>()
        * req.width as usize;
    if n_active > 0 && !user_ty.is_void() && leaves.len() != n_floats {
        return Err(err(
            format!(
                "`{}` has {n_floats} active floating-point value(s) in its argument(s), but the call's declared return type {} holds {} floating value(s)",
                ac.func.name(),
                user_ty,
                leaves.len()
            ),
            if n_floats == 1 {
                // One derivative comes back: the common mistake is `int` or `float *`
                // copied from another prototype.
                "declare the hook to return the derivative's type, e.g. extern double __enzyme_autodiff(void*, ...); (or void to drop it)"
            } else {
                "declare the hook to return a struct with one double/float per active argument, e.g. typedef struct { double a, b; } grad2; extern grad2 __enzyme_autodiff2(void*, ...);"
            },
        ));
    }
    let plan = if tail.is_none() && req.width == 1 {
        check_begin(env, ac, false)
    } else {
        None
    };
    b.position_before(call);
    if tail.is_none() && !crate::checkpoint::continues_shadows(call) {
        // A top-level derivative starts from zero shadows of the mutable globals
        // (`__enzyme_reverse` continues what `__enzyme_augmentfwd` started; a checkpointed
        // loop's step derivatives continue the caller's derivative).
        start_global_shadows(env.sup, &b, ac);
    }
    let params = g.function_type().param_types();
    let mut args = call_args(&b, &ac.args, &params, req.width);
    match tail {
        None => {
            if req.ret_active {
                let rt = req.func.function_type().return_type();
                for _ in 0..req.width {
                    args.push(rt.const_float(1.0));
                }
            }
        }
        Some((tail, aug)) => {
            for v in tail {
                let k = args.len();
                args.push(convert(&b, *v, params[k]));
            }
            if ac.opts.tape.is_some() {
                args.push(crate::hookret::tape_from_caller(env.sup, &b, ac, aug));
            }
        }
    }
    let r = b.call_fn(g, &args);
    if crate::runtime::Piece::Shadows.is_linked(env.sup.module)
        && !crate::checkpoint::continues_shadows(call)
    {
        // Shadows of allocations whose primal outlives the derivative are the caller's
        // now (`runtime/ir/shadows.ll`).
        let settle = env.sup.rt(crate::runtime::RtFn::ShadowSettle);
        b.call_fn(settle, &[]);
    }
    let adjs: Vec<Value> = (0..n_active as u32)
        .map(|k| b.extract_value(r, k))
        .collect();
    if let Some(plan) = &plan {
        checkgrad::end_reverse(env.sup, &b, plan, &adjs);
    }
    let adjs: Vec<Value> = adjs.into_iter().flat_map(|a| scalars(&b, a)).collect();
    let v = (n_active > 0 && !user_ty.is_void()).then(|| build(&b, user_ty, &leaves, &adjs));
    fill_result(&b, call, v);
    erase_hook_call(call);
    Ok(())
}

/// Gives the hook call its result `v` (through its `sret` pointer, or as its value); with
/// no result, a call returning a value by value yields zero.
fn fill_result(b: &Builder, call: Value, v: Option<Value>) {
    let sret = call.call_sret_type(0).is_some();
    match v {
        Some(v) if sret => {
            b.store(v, call.call_args()[0]);
        }
        Some(v) => call.replace_all_uses_with(v),
        None if !sret && !call.ty().is_void() => call.replace_all_uses_with(call.ty().zero()),
        None => {}
    }
}

/// Top-level derivatives start from zero shadows of mutable globals (adjoints in reverse
/// mode, tangents in forward mode), unless the call names a global-shadow context whose
/// shadows the program manages (`contexts.rs`).
fn start_global_shadows(sup: &mut Support, b: &Builder, ac: &AutodiffCall) {
    match ac.opts.context {
        Some(c) => {
            crate::contexts::check(sup, b, c);
            crate::contexts::revalidate(sup, b);
        }
        None => crate::contexts::zero_all(sup, b),
    }
}

/// The shadow lanes of a call argument, as values at the builder: pointers (or tangent
/// values of float scalars), `enzyme_dupv` lanes computed from the base and stride.
fn shadow_lanes(b: &Builder, a: &CallArg, width: u32, ty: Type) -> Vec<Value> {
    match &a.shadow {
        Shadow::None => Vec::new(),
        Shadow::Lanes(l) => l.iter().map(|v| convert(b, *v, ty)).collect(),
        Shadow::Strided { base, stride } => {
            let ctx = ty.context();
            let stride = b.int_cast(*stride, ctx.i64());
            (0..width)
                .map(|k| {
                    let off = b.mul(stride, ctx.i64().const_int(k as u64));
                    let p = b.byte_gep(*base, off);
                    if ty.is_pointer() {
                        p
                    } else {
                        b.load(ty, p, "fz.dupv")
                    }
                })
                .collect()
        }
    }
}

/// Primal arguments converted to the derivative's parameter types, each followed by its
/// `width` shadow lanes when it has them.
fn call_args(b: &Builder, args: &[CallArg], params: &[Type], width: u32) -> Vec<Value> {
    let mut out = Vec::new();
    for a in args {
        let k = out.len();
        out.push(convert(b, a.primal, params[k]));
        out.extend(shadow_lanes(b, a, width, params[k]));
    }
    out
}

/// Replaces an `__enzyme_fwddiff` call: the hook returns the tangents of the result
/// (one per lane, lane 0 first), filling the floating leaves of its declared type.
pub fn replace_forward(
    env: &mut HookEnv<'_>,
    ac: &AutodiffCall,
    req: &TangentRequest,
    g: Value,
) -> Result<(), Diagnostic> {
    let call = ac.call;
    let b = Builder::new(env.sup.module.context());
    let caller = call.parent_function().name();
    let err = crate::request::make_err(call, &caller);
    let sret_ty = call.call_sret_type(0);
    let user_ty = sret_ty.unwrap_or_else(|| call.ty());
    let ret = req.func.function_type().return_type();
    let mut user_leaves = Vec::new();
    fp_leaves(user_ty, &mut Vec::new(), &mut user_leaves);
    let mut ret_leaves = Vec::new();
    fp_leaves(ret, &mut Vec::new(), &mut ret_leaves);
    let width = req.width as usize;
    // A result without floats (an integer, a pointer) with enzyme_primal_return: the hook
    // returns just the result. (The marker reaches `ac.opts` when the call-level markers
    // are read first, `ac.primal_return` when it leads the arguments.)
    if ac.primal_return || (ac.opts.primal_return && ret_leaves.is_empty()) {
        return replace_forward_with_primal(env, ac, req, g, user_ty, &ret_leaves);
    }
    let pointer_ret = ret.is_pointer() && width == 1 && user_ty.is_pointer();
    // A result without floats and without a shadow (an `int` status, a count) has no
    // tangent: Enzyme's derivative then returns nothing and the hook's value is undefined
    // (its `ReplaceOriginalCall` substitutes `undef`). A call that uses that value
    // expects something (most likely the result itself): refused, not a silent 0.
    let float_free = ret_leaves.is_empty() && !ret.is_void() && !ret.is_pointer();
    let used = sret_ty.is_some() || !call.users().is_empty();
    if float_free && used && !user_ty.is_void() {
        return Err(err(
            format!(
                "`{}` returns {ret}, which has no tangent: the value of this __enzyme_fwddiff call is undefined (Enzyme leaves it undef), and the program uses it",
                ac.func.name()
            ),
            "to get the function's result, add enzyme_primal_return as the first argument after the function (the hook then returns the result itself); otherwise ignore the hook's value ((void)__enzyme_fwddiff(...)) and read the tangents from the enzyme_dup shadows",
        ));
    }
    let with_primal = ac.opts.primal_return;
    let with_tangent = !ac.opts.const_return;
    let want = (usize::from(with_primal) + width * usize::from(with_tangent)) * ret_leaves.len();
    if !user_ty.is_void() && !pointer_ret && !ret_leaves.is_empty() && user_leaves.len() != want {
        return Err(err(
            format!(
                "`{}` returns {ret}; with {width} lane(s){} the hook returns {want} floating value(s), but the call's declared return type {user_ty} holds {}",
                ac.func.name(),
                if with_primal { " and enzyme_primal_return" } else { "" },
                user_leaves.len()
            ),
            "declare the hook to return the function's return type (one lane), or a struct of N of them with enzyme_width, N; declare it void for functions returning void",
        ));
    }
    let plan = if req.width == 1 && !req.error {
        check_begin(env, ac, true)
    } else {
        None
    };
    b.position_before(call);
    if !crate::checkpoint::continues_shadows(call) {
        start_global_shadows(env.sup, &b, ac);
    }
    let params = g.function_type().param_types();
    let args = call_args(&b, &ac.args, &params, req.width);
    let r = b.call_fn(g, &args);
    if let Some(plan) = &plan {
        let t = (ret.is_fp_scalar() && returns_tangent(req)).then(|| b.extract_value(r, 1));
        checkgrad::end_forward(env.sup, &b, plan, t);
    }
    let mut result = None;
    let has_values = if with_tangent {
        returns_tangent(req)
    } else {
        with_primal
    };
    if !user_ty.is_void() && has_values && (pointer_ret || !ret_leaves.is_empty()) {
        let mut lanes: Vec<Value> = Vec::new();
        if with_primal {
            lanes.push(b.extract_value(r, 0));
        }
        if with_tangent {
            lanes.extend((0..width as u32).map(|l| b.extract_value(r, 1 + l)));
        }
        let v = if pointer_ret {
            lanes[0]
        } else {
            let mut vals = Vec::new();
            for lane in &lanes {
                for (path, _) in &ret_leaves {
                    let mut x = *lane;
                    for k in path {
                        x = if x.ty().kind() == TypeKind::Vector {
                            b.extract_element(
                                x,
                                env.sup.module.context().i32().const_int(*k as u64),
                            )
                        } else {
                            b.extract_value(x, *k)
                        };
                    }
                    vals.push(x);
                }
            }
            build(&b, user_ty, &user_leaves, &vals)
        };
        result = Some(v);
    }
    fill_result(&b, call, result);
    erase_hook_call(call);
    Ok(())
}

/// `__enzyme_fwddiff(f, enzyme_primal_return, ...)`: the hook's declared type receives the
/// result and then its tangents (lane 0 first) when `f` returns floats, or just the result
/// otherwise (an integer, a pointer).
fn replace_forward_with_primal(
    env: &mut HookEnv<'_>,
    ac: &AutodiffCall,
    req: &TangentRequest,
    g: Value,
    user_ty: Type,
    ret_leaves: &[(Vec<u32>, Type)],
) -> Result<(), Diagnostic> {
    let call = ac.call;
    let caller = call.parent_function().name();
    let err = crate::request::make_err(call, &caller);
    let ret = req.func.function_type().return_type();
    let width = req.width as usize;
    let mut user_leaves = Vec::new();
    fp_leaves(user_ty, &mut Vec::new(), &mut user_leaves);
    let fits = if ret.is_void() {
        user_ty.is_void()
    } else if ret_leaves.is_empty() {
        user_ty == ret
    } else {
        user_leaves.len() == (1 + width) * ret_leaves.len()
    };
    if !fits {
        return Err(err(
            format!(
                "with enzyme_primal_return the hook returns `{}`'s result ({ret}) and then its {width} tangent(s), but the call's declared return type is {user_ty}",
                ac.func.name()
            ),
            "declare the hook to return a struct of the result followed by its tangent (e.g. struct { double primal, tangent; }), or the result type itself for a function whose result has no tangent",
        ));
    }
    let b = Builder::new(env.sup.module.context());
    b.position_before(call);
    if !crate::checkpoint::continues_shadows(call) {
        start_global_shadows(env.sup, &b, ac);
    }
    let params = g.function_type().param_types();
    let args = call_args(&b, &ac.args, &params, req.width);
    let r = b.call_fn(g, &args);
    let result = if ret.is_void() {
        None
    } else if ret_leaves.is_empty() {
        Some(b.extract_value(r, 0))
    } else {
        let lanes: Vec<Value> = (0..=width as u32).map(|l| b.extract_value(r, l)).collect();
        let mut vals = Vec::new();
        for lane in &lanes {
            for (path, _) in ret_leaves {
                let mut x = *lane;
                for k in path {
                    x = if x.ty().kind() == TypeKind::Vector {
                        b.extract_element(x, env.sup.module.context().i32().const_int(*k as u64))
                    } else {
                        b.extract_value(x, *k)
                    };
                }
                vals.push(x);
            }
        }
        Some(build(&b, user_ty, &user_leaves, &vals))
    };
    fill_result(&b, call, result);
    erase_hook_call(call);
    Ok(())
}

/// Replaces an `__enzyme_augmentfwd` call: runs the augmented forward function and
/// returns its tape (and, for a hook declared to return `{ tape, T }`, the primal result).
pub fn replace_augment(
    env: &mut HookEnv<'_>,
    ac: &AutodiffCall,
    req: &Request,
    aug: Value,
) -> Result<(), Diagnostic> {
    let call = ac.call;
    let b = Builder::new(env.sup.module.context());
    let user_ty = call.call_sret_type(0).unwrap_or_else(|| call.ty());
    let ret = req.func.function_type().return_type();
    let with_primal = !ret.is_void() && !ac.opts.noret;
    // What the hook's declared type holds: the tape unless `enzyme_tape` sends it to the
    // caller's memory, the primal result unless `enzyme_noret` or `f` returns void.
    let shape = match ac.opts.tape {
        None if user_ty.is_pointer() => Some((true, false)),
        None => (with_primal
            && user_ty.kind() == TypeKind::Struct
            && user_ty.struct_fields().len() == 2
            && user_ty.struct_fields()[0].is_pointer())
        .then_some((true, true)),
        Some(_) if user_ty.is_void() => Some((false, false)),
        // Enzyme's own programs declare the hook `void *` even when the tape goes to
        // the caller's memory (`enzyme_allocated, N, enzyme_tape, buf`): the hook then
        // returns that memory.
        Some(_) if user_ty.is_pointer() && !with_primal => Some((false, false)),
        // ... and when the function returns a value the program then never reads.
        Some(_) if user_ty.is_pointer() && call.users().is_empty() => Some((false, false)),
        Some(_) => (with_primal
            && (user_ty == ret || (user_ty.is_fp_scalar() && ret.is_fp_scalar())))
        .then_some((false, true)),
    };
    let Some((tape_in_result, primal_in_result)) = shape else {
        let caller = call.parent_function().name();
        return Err(crate::request::make_err(call, &caller)(
            format!("`{}` must be declared to return the tape (`void *`), or `struct {{ void *tape; T result; }}` to get the primal result too (with enzyme_tape: `void`, or the result type `T`); it returns {user_ty}", crate::hooks::hook_name(call)),
            if ac.opts.tape.is_some() {
                "with enzyme_tape the tape goes to your memory: declare e.g. extern void __enzyme_augmentfwd(void *, ...); (or a typed hook returning the function's result)"
            } else {
                "declare e.g. extern void *__enzyme_augmentfwd(void *, ...);"
            },
        ));
    };
    b.position_before(call);
    start_global_shadows(env.sup, &b, ac);
    let params = aug.function_type().param_types();
    let args = call_args(&b, &ac.args, &params, 1);
    let r = b.call_fn(aug, &args);
    let fields = aug.function_type().return_type().struct_fields();
    let tape = b.extract_value(r, fields.len() as u32 - 1);
    crate::hookret::tape_to_caller(env.sup, &b, ac, aug, tape)?;
    let v = match (tape_in_result, primal_in_result) {
        (true, false) => Some(tape),
        (true, true) => {
            let primal = b.extract_value(r, 0);
            let fty = user_ty.struct_fields()[1];
            let primal = convert(&b, primal, fty);
            let agg = b.insert_value(user_ty.undef(), tape, 0);
            Some(b.insert_value(agg, primal, 1))
        }
        (false, true) => Some(convert(&b, b.extract_value(r, 0), user_ty)),
        (false, false) => ac.opts.tape.filter(|_| user_ty.is_pointer()),
    };
    fill_result(&b, call, v);
    erase_hook_call(call);
    Ok(())
}

/// Replaces `__enzyme_autodiff(f, enzyme_primal_return, …)` by the split pair `aug`/`rev`
/// (see `hookret`): the hook returns `f`'s result, then the adjoints.
pub fn replace_with_primal(
    env: &mut HookEnv<'_>,
    ac: &AutodiffCall,
    req: &Request,
    aug: Value,
    rev: Value,
) -> Result<(), Diagnostic> {
    let call = ac.call;
    let b = Builder::new(env.sup.module.context());
    let user_ty = call.call_sret_type(0).unwrap_or_else(|| call.ty());
    let n_active = req
        .args
        .iter()
        .filter(|a| **a == ArgActivity::Active)
        .count();
    b.position_before(call);
    start_global_shadows(env.sup, &b, ac);
    let aparams = aug.function_type().param_types();
    let args = call_args(&b, &ac.args, &aparams, 1);
    let r = b.call_fn(aug, &args);
    let fields = aug.function_type().return_type().struct_fields();
    let primal = b.extract_value(r, 0);
    let tape = b.extract_value(r, fields.len() as u32 - 1);
    let rparams = rev.function_type().param_types();
    let mut rargs = call_args(&b, &ac.args, &rparams, 1);
    if req.ret_active {
        rargs.push(req.func.function_type().return_type().const_float(1.0));
    }
    rargs.push(tape);
    let d = b.call_fn(rev, &rargs);
    let adjs: Vec<Value> = (0..n_active as u32)
        .map(|k| b.extract_value(d, k))
        .collect();
    let v = if user_ty.is_void() {
        None
    } else {
        Some(crate::hookret::primal_and_adjoints(
            &b, ac, user_ty, primal, &adjs,
        )?)
    };
    fill_result(&b, call, v);
    erase_hook_call(call);
    Ok(())
}

/// Replaces an `__enzyme_augmentsize` call by the byte size of the tape block that the
/// augmented forward function allocates (the constant of its entry tape allocation).
pub fn replace_augment_size(call: Value, aug: Value) {
    let size = crate::hookret::tape_size(aug);
    let ty = call.ty();
    if ty.is_integer() {
        call.replace_all_uses_with(ty.const_int(size as u64));
    } else if !ty.is_void() {
        call.replace_all_uses_with(ty.zero());
    }
    erase_hook_call(call);
}

/// `--check-gradients`: instruments the call unless it sits in differentiated code or
/// cannot be checked (then a note says why).
fn check_begin(env: &mut HookEnv<'_>, ac: &AutodiffCall, forward: bool) -> Option<checkgrad::Plan> {
    let checks = env.checks.as_deref_mut()?;
    match checks.begin(env.sup, ac, forward)? {
        Ok(p) => Some(p),
        Err(why) => {
            let call = ac.call;
            let loc = call
                .source_loc()
                .map(|l| format!("{l}: "))
                .unwrap_or_default();
            env.notes.push(format!(
                "{loc}--check-gradients: the call differentiating `{}` in `{}` is not checked: {why}",
                ac.func.name(),
                call.parent_function().name()
            ));
            None
        }
    }
}

/// Erases a replaced hook call and the marker loads only it used.
fn erase_hook_call(call: Value) {
    let mut operands = call.call_args();
    operands.sort();
    operands.dedup();
    call.erase();
    // The marker loads (`load i32, ptr @enzyme_dup`) are dead now; drop them so that no
    // reference to the undefined marker globals reaches the linker, even at -O0.
    for op in operands {
        if op.opcode() == Some(ferrozyme_llvm::Opcode::LLVMLoad)
            && op.users().is_empty()
            && ferrozyme_abi::is_marker_name(&op.operand(0).name())
        {
            op.erase();
        }
    }
}

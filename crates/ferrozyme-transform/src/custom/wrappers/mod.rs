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
//!
//! `reverse.rs` builds the first two, `forward.rs` the last; `lanes.rs` runs a rule once
//! per lane of `enzyme_width`.

mod forward;
mod lanes;
mod reverse;

pub(crate) use forward::synthesize_forward;
pub(crate) use reverse::synthesize_reverse;

use ferrozyme_analysis::activity::{is_readonly_function, may_update_param_in_place, ArgActivity};
use ferrozyme_llvm::{Builder, DiagKind, Diagnostic, Type, Value};

use super::convention::Layout;
use crate::marshal::{build, fp_leaves};

/// A registered function's parameters: the hidden `sret` result slot (if any), the
/// activity mask of a library rule (`blas.rs`), and the rest.
pub(super) struct UserFn {
    pub(super) f: Value,
    pub(super) sret: Option<Type>,
    /// A library rule's leading activity mask, passed before the arguments.
    pub(super) mask: Option<Value>,
    pub(super) params: Vec<Type>,
}

impl UserFn {
    pub(super) fn new(f: Value) -> UserFn {
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
    pub(super) fn library(f: Value, mask: Value) -> UserFn {
        let mut u = UserFn::new(f);
        if !u.params.is_empty() {
            u.params.remove(0);
            u.mask = Some(mask);
        }
        u
    }

    /// `new` or `library`, as the rule says.
    pub(super) fn of(f: Value, library: bool, mask: Value) -> UserFn {
        if library {
            UserFn::library(f, mask)
        } else {
            UserFn::new(f)
        }
    }

    /// Calls it with `args` (converted to its parameter types); the result, loaded from
    /// the `sret` slot when it has one.
    pub(super) fn call(&self, b: &Builder, entry: &Builder, args: &[Value]) -> Value {
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
pub(super) fn coerce(b: &Builder, v: Value, t: Type) -> Value {
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

pub(super) fn extract(b: &Builder, v: Value, path: &[u32]) -> Value {
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

pub(super) fn err(func: Value, msg: String, help: &str) -> Vec<Diagnostic> {
    vec![Diagnostic::new(DiagKind::BadAutodiffCall, msg)
        .in_function(func.source_name())
        .with_help(help.to_string())]
}

/// `err` at a call of `func`: for a checkpointed or fixed-point loop's function, the
/// user's call that became it (the loop's internal function means nothing to the user).
pub(super) fn err_at_loop_call(func: Value, msg: String, help: &str) -> Vec<Diagnostic> {
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
pub(super) struct Args {
    pub(super) primal: Vec<Value>,
    /// Per argument: its shadows (one per lane), empty when it has none.
    pub(super) shadows: Vec<Vec<Value>>,
}

/// Splits a wrapper's parameters: each primal parameter, then `width` shadows when
/// `has_shadow(activity)`.
pub(super) fn split_params(
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
pub(super) fn user_args(
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

/// The activity mask a library rule takes: bit k set when argument k is not constant.
pub(super) fn activity_mask(func: Value, acts: &[ArgActivity]) -> Value {
    let bits = acts
        .iter()
        .take(64)
        .enumerate()
        .filter(|(_, a)| **a != ArgActivity::Const)
        .fold(0u64, |m, (k, _)| m | (1 << k));
    func.ty().context().i64().const_int(bits)
}

/// A builder at the end of a new entry block of `g`, and one for its allocas.
pub(super) fn builders(ctx: ferrozyme_llvm::Context, g: Value) -> (Builder, Builder) {
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
pub(super) fn updates_in_place(func: Value) -> bool {
    if crate::custom::threadprivate::is_copy_lookup(func) {
        return false;
    }
    let name = func.name();
    if let Some(row) = ferrozyme_rules::blas::blas_function(&name) {
        return row.updates_in_place();
    }
    // `bsearch`, `lfind`: they write nothing (`ferrozyme_abi::TABLE_SEARCHES`).
    if ferrozyme_abi::table_search(&name).is_some() {
        return false;
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

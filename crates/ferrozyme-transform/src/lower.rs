//! Lowering of rule expressions (from `ferrozyme-rules`) to LLVM IR — the one place where
//! derivative math becomes instructions.
//!
//! An expression is lowered at the builder's position for a scalar or vector floating type
//! `ty`: constants become splats, `x`/`y`/`z` the call's operands, `r` the primal result,
//! functions the matching overloaded LLVM intrinsics (`llvm.cos.v4f64` ...), comparisons
//! `fcmp` + `uitofp`, and `sel` a `select`. Integer operands (the exponent of `powi`) are
//! converted with `sitofp`.

use ferrozyme_llvm::{Builder, Module, RealPredicate, Type, Value};
use ferrozyme_rules::{BinOp, Cmp, Expr, Fun1, Fun2, Rule, Var};

/// Why a rule could not be lowered: a rule that does not fit its call (a bug in the
/// table or in the transform), reported as an internal error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LowerError {
    /// The expression names an argument the call does not have.
    MissingArgument(usize),
    /// The expression uses the primal result where none is available.
    NoResult,
    /// LLVM has no intrinsic of that name for the type.
    NoIntrinsic(&'static str),
}

impl std::fmt::Display for LowerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LowerError::MissingArgument(i) => write!(f, "rule refers to missing argument {i}"),
            LowerError::NoResult => {
                write!(f, "rule refers to the result, which is unavailable")
            }
            LowerError::NoIntrinsic(name) => write!(f, "intrinsic {name} unavailable"),
        }
    }
}

/// Operands available to an expression.
pub struct Env<'a> {
    pub args: &'a [Value],
    pub result: Option<Value>,
    /// `f(argument k)` already computed by the primal code: (f, k, value).
    pub known: &'a [(Fun1, usize, Value)],
    /// Reciprocals the primal code already computed: (`w`, `c'`, the value of `c' / w`)
    /// with `c'` a power of two, so that `c / w` is `(c / c') * value` without a
    /// division (exact up to the rounding of one product: scaling by a power of two is
    /// exact in binary floating point).
    pub recips: &'a [(Var, f64, Value)],
}

/// The overloaded LLVM intrinsic a one-argument function lowers to (`llvm.cos`, without
/// the type suffix), or for the functions without one the function called instead
/// (`j0`, `__fz_digamma`: `call_scalar`).
pub fn intrinsic_name(f: Fun1) -> &'static str {
    match f {
        Fun1::Sin => "llvm.sin",
        Fun1::Cos => "llvm.cos",
        Fun1::Tan => "llvm.tan",
        Fun1::Exp => "llvm.exp",
        Fun1::Exp2 => "llvm.exp2",
        Fun1::Log => "llvm.log",
        Fun1::Sqrt => "llvm.sqrt",
        Fun1::Abs => "llvm.fabs",
        Fun1::Sinh => "llvm.sinh",
        Fun1::Cosh => "llvm.cosh",
        Fun1::Floor => "llvm.floor",
        Fun1::Trunc => "llvm.trunc",
        // Not intrinsics: the C library's functions, and our digamma (`call_scalar`).
        Fun1::Digamma => DIGAMMA,
        Fun1::J0 => "j0",
        Fun1::J1 => "j1",
        Fun1::Y0 => "y0",
        Fun1::Y1 => "y1",
    }
}

/// The definition of the digamma function linked into a module that needs it
/// (`libdefs/digamma.c`, compiled by `tools/gen_libdefs.sh`).
const DIGAMMA: &str = "__fz_digamma";
const DIGAMMA_IR: &str = include_str!("libdefs/digamma.ll");

/// Functions of the DSL without an LLVM intrinsic, lowered to calls of a `double`
/// function: digamma (ours, `__fz_digamma`, linked internal once per module) and the
/// Bessel functions (the C library's `j0`, `j1`, `y0`, `y1`; a program calling them links
/// `-lm` already). Other float types are converted to `double` and back (the
/// derivative of a `float` Bessel call computed in double, rounded once); vectors lane
/// by lane.
fn call_scalar(
    m: Module,
    b: &Builder,
    f: Fun1,
    a: Value,
    ty: Type,
) -> Result<Option<Value>, LowerError> {
    if !matches!(f, Fun1::Digamma | Fun1::J0 | Fun1::J1 | Fun1::Y0 | Fun1::Y1) {
        return Ok(None);
    }
    let ctx = ty.context();
    let d = ctx.f64();
    let callee = if f == Fun1::Digamma {
        digamma_definition(m)?
    } else {
        m.get_or_declare(intrinsic_name(f), ctx.function_type(d, &[d], false))
    };
    Ok(Some(per_lane(b, ty, &[a], |xs, t| {
        let r = b.call_fn(callee, &[to_double(b, xs[0], t)]);
        from_double(b, r, t)
    })))
}

/// `x` of float type `t` as a `double` (`fpext`, or `fptrunc` from wider types).
fn to_double(b: &Builder, x: Value, t: Type) -> Value {
    let d = t.context().f64();
    if t == d {
        x
    } else if t.fp_bits() > 64 {
        b.fptrunc(x, d)
    } else {
        b.fpext(x, d)
    }
}

/// The `double` `r` back at float type `t`.
fn from_double(b: &Builder, r: Value, t: Type) -> Value {
    if t == t.context().f64() {
        r
    } else if t.fp_bits() > 64 {
        b.fpext(r, t)
    } else {
        b.fptrunc(r, t)
    }
}

/// `one` applied to scalar `args` of type `ty`, or lane by lane when `ty` is a vector
/// (`one` gets each lane of every argument and the element type).
fn per_lane(b: &Builder, ty: Type, args: &[Value], one: impl Fn(&[Value], Type) -> Value) -> Value {
    if ty.kind() != ferrozyme_llvm::TypeKind::Vector {
        return one(args, ty);
    }
    let (e, i32t) = (ty.element_type(), ty.context().i32());
    let mut out = ty.undef();
    for k in 0..ty.vector_len() {
        let lane = i32t.const_int(k as u64);
        let xs: Vec<Value> = args.iter().map(|&a| b.extract_element(a, lane)).collect();
        out = b.insert_element(out, one(&xs, e), lane);
    }
    out
}

/// Bessel functions of integer order: the C library's `jn(int, double)` / `yn`, the order
/// (an integer-valued float expression, `n - 1`) converted back to `int`, other float
/// types through `double` as in [`call_scalar`], vectors lane by lane.
fn call_order(m: Module, b: &Builder, f: Fun2, n: Value, x: Value, ty: Type) -> Value {
    let ctx = ty.context();
    let (d, i32t) = (ctx.f64(), ctx.i32());
    let name = if f == Fun2::Jn { "jn" } else { "yn" };
    let callee = m.get_or_declare(name, ctx.function_type(d, &[i32t, d], false));
    // saturating: the order `n + 1` of `jn(INT_MAX, x)` stays an int (plain `fptosi`
    // would make it poison)
    let to_int = |n: Value, t: Type| match m.intrinsic("llvm.fptosi.sat", &[i32t, t]) {
        Some(s) => b.call_fn(s, &[n]),
        None => b.fptosi(n, i32t),
    };
    per_lane(b, ty, &[n, x], |nx, t| {
        let x = to_double(b, nx[1], t);
        let r = b.call_fn(callee, &[to_int(nx[0], t), x]);
        from_double(b, r, t)
    })
}

/// `__fz_digamma`, linked into `m` (internal) the first time.
fn digamma_definition(m: Module) -> Result<Value, LowerError> {
    if let Some(g) = m.function(DIGAMMA).filter(|g| !g.is_declaration()) {
        return Ok(g);
    }
    ferrozyme_llvm::link_ir_for_target(m, DIGAMMA_IR, "ferrozyme-digamma")
        .map_err(|_| LowerError::NoIntrinsic(DIGAMMA))?;
    let g = m
        .function(DIGAMMA)
        .filter(|g| !g.is_declaration())
        .ok_or(LowerError::NoIntrinsic(DIGAMMA))?;
    g.set_linkage_internal();
    Ok(g)
}

pub fn lower(
    m: Module,
    b: &Builder,
    e: &Expr,
    env: &Env<'_>,
    ty: Type,
) -> Result<Value, LowerError> {
    Ok(match e {
        Expr::Const(c) => ty.const_float(*c),
        Expr::Var(Var::Arg(i)) => {
            let v = *env.args.get(*i).ok_or(LowerError::MissingArgument(*i))?;
            if v.ty().is_integer() {
                b.sitofp(v, ty)
            } else {
                v
            }
        }
        Expr::Var(Var::Result) => env.result.ok_or(LowerError::NoResult)?,
        Expr::Neg(a) => b.fneg(lower(m, b, a, env, ty)?),
        Expr::Bin(op, x, y) => {
            if let (BinOp::Div, Expr::Const(c), Expr::Var(w)) = (op, &**x, &**y) {
                if let Some(&(_, num, r)) = env.recips.iter().find(|(v, _, _)| v == w) {
                    return Ok(if *c == num {
                        r
                    } else {
                        b.fmul(r, ty.const_float(*c / num))
                    });
                }
            }
            let x = lower(m, b, x, env, ty)?;
            let y = lower(m, b, y, env, ty)?;
            match op {
                BinOp::Add => b.fadd(x, y),
                BinOp::Sub => b.fsub(x, y),
                BinOp::Mul => b.fmul(x, y),
                BinOp::Div => b.fdiv(x, y),
            }
        }
        Expr::Call1(f, a) => {
            if let Expr::Var(Var::Arg(k)) = **a {
                if let Some(&(_, _, v)) = env.known.iter().find(|(g, j, _)| g == f && *j == k) {
                    return Ok(v);
                }
            }
            let a = lower(m, b, a, env, ty)?;
            if let Some(v) = call_scalar(m, b, *f, a, ty)? {
                return Ok(v);
            }
            let name = intrinsic_name(*f);
            let f = m
                .intrinsic(name, &[ty])
                .ok_or(LowerError::NoIntrinsic(name))?;
            b.call_fn(f, &[a])
        }
        Expr::Call2(f, x, y) => {
            let x = lower(m, b, x, env, ty)?;
            let y = lower(m, b, y, env, ty)?;
            let name = match f {
                Fun2::Pow => "llvm.pow",
                Fun2::Copysign => "llvm.copysign",
                Fun2::Jn | Fun2::Yn => return Ok(call_order(m, b, *f, x, y, ty)),
            };
            let f = m
                .intrinsic(name, &[ty])
                .ok_or(LowerError::NoIntrinsic(name))?;
            b.call_fn(f, &[x, y])
        }
        Expr::Cmp(c, x, y) => {
            let cond = lower_cmp(m, b, *c, x, y, env, ty)?;
            b.uitofp(cond, ty)
        }
        Expr::Select(c, x, y) => {
            let cond = match c.as_ref() {
                Expr::Cmp(k, p, q) => lower_cmp(m, b, *k, p, q, env, ty)?,
                other => {
                    let v = lower(m, b, other, env, ty)?;
                    b.fcmp(RealPredicate::LLVMRealUNE, v, ty.zero())
                }
            };
            let x = lower(m, b, x, env, ty)?;
            let y = lower(m, b, y, env, ty)?;
            b.select(cond, x, y)
        }
    })
}

fn lower_cmp(
    m: Module,
    b: &Builder,
    c: Cmp,
    x: &Expr,
    y: &Expr,
    env: &Env<'_>,
    ty: Type,
) -> Result<Value, LowerError> {
    let x = lower(m, b, x, env, ty)?;
    let y = lower(m, b, y, env, ty)?;
    let p = match c {
        Cmp::Lt => RealPredicate::LLVMRealOLT,
        Cmp::Le => RealPredicate::LLVMRealOLE,
        Cmp::Gt => RealPredicate::LLVMRealOGT,
        Cmp::Ge => RealPredicate::LLVMRealOGE,
        Cmp::Eq => RealPredicate::LLVMRealOEQ,
        Cmp::Ne => RealPredicate::LLVMRealUNE,
    };
    Ok(b.fcmp(p, x, y))
}

/// `d * partial`, skipping the multiplication for the partials `1` and `-1`.
pub fn scale(
    m: Module,
    b: &Builder,
    d: Value,
    partial: &Expr,
    env: &Env<'_>,
    ty: Type,
) -> Result<Value, LowerError> {
    match partial {
        Expr::Const(c) if *c == 1.0 => Ok(d),
        Expr::Const(c) if *c == -1.0 => Ok(b.fneg(d)),
        Expr::Neg(inner) if matches!(inner.as_ref(), Expr::Const(c) if *c == 1.0) => Ok(b.fneg(d)),
        _ => {
            let p = lower(m, b, partial, env, ty)?;
            Ok(b.fmul(d, p))
        }
    }
}

/// A partial `[-] [X *] (1/Y)`: the reciprocal `1/Y`, the factor `X` and the sign.
pub(crate) struct ReciprocalTerm<'a> {
    pub recip: &'a Expr,
    pub factor: Option<&'a Expr>,
    pub negated: bool,
}

fn is_reciprocal(e: &Expr) -> bool {
    matches!(e, Expr::Bin(BinOp::Div, one, _) if matches!(one.as_ref(), Expr::Const(c) if *c == 1.0))
}

fn reciprocal_term(e: &Expr) -> Option<ReciprocalTerm<'_>> {
    match e {
        Expr::Neg(inner) => {
            let t = reciprocal_term(inner)?;
            Some(ReciprocalTerm {
                negated: !t.negated,
                ..t
            })
        }
        _ if is_reciprocal(e) => Some(ReciprocalTerm {
            recip: e,
            factor: None,
            negated: false,
        }),
        Expr::Bin(BinOp::Mul, x, y) if is_reciprocal(y) => {
            let (factor, negated) = match x.as_ref() {
                Expr::Neg(x) => (x.as_ref(), true),
                x => (x, false),
            };
            Some(ReciprocalTerm {
                recip: y,
                factor: Some(factor),
                negated,
            })
        }
        _ => None,
    }
}

/// The active partials of `rule` as `[-] [X_k *] (1/Y)` with one `Y` for all, when that
/// changes what is emitted: two or more of them, or one with a factor (`-r*(1/y)`). A
/// derivative is then `(sum_k ±X_k d_k) * (1/Y)` (forward) or `±X_k * (d * (1/Y))`
/// (reverse): the seed meets `1/Y` before the factors, so a zero seed gives zero where
/// a partial overflows (`x/y` at `y = 1e-160`: `-r/y` is `-inf`, `0 * -inf` is NaN).
pub(crate) fn shared_reciprocal<'a>(
    rule: &'a Rule,
    active: &[usize],
) -> Option<(&'a Expr, Vec<(usize, ReciprocalTerm<'a>)>)> {
    let mut terms = Vec::with_capacity(active.len());
    for &k in active {
        terms.push((k, reciprocal_term(rule.partials.get(k)?.expr()?)?));
    }
    let recip = terms.first()?.1.recip;
    if terms.iter().any(|(_, t)| t.recip != recip) {
        return None;
    }
    (terms.len() >= 2 || terms[0].1.factor.is_some()).then_some((recip, terms))
}

//! Lowering of rule expressions (from `ferrozyme-rules`) to LLVM IR — the one place where
//! derivative math becomes instructions.
//!
//! An expression is lowered at the builder's position for a scalar or vector floating type
//! `ty`: constants become splats, `x`/`y`/`z` the call's operands, `r` the primal result,
//! functions the matching overloaded LLVM intrinsics (`llvm.cos.v4f64` ...), comparisons
//! `fcmp` + `uitofp`, and `sel` a `select`. Integer operands (the exponent of `powi`) are
//! converted with `sitofp`.

use ferrozyme_llvm::{Builder, Module, RealPredicate, Type, Value};
use ferrozyme_rules::{BinOp, Cmp, Expr, Fun1, Fun2, Var};

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
/// the type suffix).
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
    }
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

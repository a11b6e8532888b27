//! The partial-derivative expression language: AST, evaluator and printer (the
//! parser is in `parse.rs`).
//!
//! Every partial derivative in the rules table is written as a short string
//! in this language and parsed once into an [`Expr`].  The language is kept
//! deliberately tiny so that the transform can lower *every* node to a handful
//! of LLVM instructions (or intrinsic calls), and so that the same tree can be
//! evaluated on `f64` in unit tests.
//!
//! # Grammar
//!
//! ```text
//! expr    := term (('+' | '-') term)*          left associative
//! term    := unary (('*' | '/') unary)*        left associative
//! unary   := '-' unary | primary
//! primary := NUMBER | VAR | CONST | CALL | '(' expr ')'
//! NUMBER  := digits ['.' digits] [('e'|'E') ['+'|'-'] digits]   (also ".5")
//! VAR     := 'x' | 'y' | 'z'        arguments 0, 1, 2
//!          | 'r'                    the primal result of the operation
//!          | 'arg' digits           argument N (extension, so that Display is total)
//! CONST   := 'pi' | 'ln2' | 'ln10'  parsed to Expr::Const
//! CALL    := FUN1 '(' expr ')'
//!          | FUN2 '(' expr ',' expr ')'
//!          | CMP  '(' expr ',' expr ')'  1.0 if the comparison holds, else 0.0
//!          | 'sel' '(' expr ',' expr ',' expr ')'
//! FUN1    := sin cos tan exp exp2 log sqrt abs sinh cosh floor trunc digamma j0 j1 y0 y1
//! FUN2    := pow copysign jn yn
//! CMP     := lt le gt ge eq ne
//! ```
//!
//! Whitespace is insignificant.  Unknown identifiers, a function used without
//! its argument list, a variable used as a function, or a wrong number of
//! arguments are all [`ParseError`]s carrying the byte offset of the problem.
//!
//! # Semantics (the contract with the lowering)
//!
//! * Arithmetic is IEEE `f64` (the transform uses the operand's own float
//!   type; the table never relies on more precision than `float` offers).
//! * Comparisons are *ordered* IEEE comparisons (`fcmp olt` etc.), except `ne`
//!   which is `une`-like: `ne(a, b)` is `!(a == b)`, so NaN compares unequal.
//! * `sel(c, a, b)` is a value select, **not** control flow: both `a` and `b`
//!   are evaluated, then `a` is taken if `c != 0.0` (NaN counts as true) else
//!   `b`.  Rules use it to replace an inf/NaN in the unselected arm, so that
//!   arm may freely be non-finite.
//! * `r` is the primal result of the very operation the rule describes; the
//!   transform must make it available (recompute or cache) whenever
//!   [`Expr::uses_result`] is true.
//!
//! # Printing
//!
//! `Display` prints the DSL back with minimal parentheses.  For every tree
//! produced by [`Expr::parse`], `parse(e.to_string()) == e` holds exactly.
//! (A negative `Const`, which the parser never produces, prints as `-v` and
//! re-parses as `Neg(Const(v))`, which evaluates identically; non-finite
//! constants print as `inf`/`NaN` and do not re-parse.)

use std::f64::consts::{LN_10, LN_2, PI};
use std::fmt;

use crate::parse::{self, ParseError};

/// A leaf variable: an argument of the differentiated operation, or its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Var {
    /// Argument `i` (`x`, `y`, `z` are 0, 1, 2).
    Arg(usize),
    /// The primal result `r` of the operation.
    Result,
}

/// Binary arithmetic operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// One-argument functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fun1 {
    Sin,
    Cos,
    Tan,
    Exp,
    Exp2,
    Log,
    Sqrt,
    Abs,
    Sinh,
    Cosh,
    Floor,
    Trunc,
    /// `d/dx log Gamma(x)` (`crate::special`): no intrinsic, lowered to a definition
    /// the transform links into the module.
    Digamma,
    /// Bessel functions of the first (`j0`, `j1`) and second (`y0`, `y1`) kind: lowered
    /// to the C library's functions.
    J0,
    J1,
    Y0,
    Y1,
}

/// Two-argument functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fun2 {
    Pow,
    Copysign,
    /// Bessel functions of integer order `jn(n, x)`, `yn(n, x)` (`crate::special`): the
    /// order is an integer-valued expression, lowered to the C library's `jn`/`yn` with
    /// the order converted to `int`.
    Jn,
    Yn,
}

/// Comparisons; as expressions they evaluate to 1.0 (true) or 0.0 (false).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

/// A partial-derivative expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Const(f64),
    Var(Var),
    Neg(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    Call1(Fun1, Box<Expr>),
    Call2(Fun2, Box<Expr>, Box<Expr>),
    /// Evaluates to 1.0 if the comparison holds, else 0.0.
    Cmp(Cmp, Box<Expr>, Box<Expr>),
    /// `sel(c, a, b)`: `a` if `c != 0.0`, else `b` (both arms are evaluated).
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
}

impl BinOp {
    /// The operator's symbol in the DSL.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
        }
    }

    /// Evaluate on `f64`.
    pub fn apply(self, a: f64, b: f64) -> f64 {
        match self {
            BinOp::Add => a + b,
            BinOp::Sub => a - b,
            BinOp::Mul => a * b,
            BinOp::Div => a / b,
        }
    }

    fn prec(self) -> u8 {
        match self {
            BinOp::Add | BinOp::Sub => 1,
            BinOp::Mul | BinOp::Div => 2,
        }
    }
}

impl Fun1 {
    /// Every one-argument function, for enumeration.
    pub const ALL: [Fun1; 17] = [
        Fun1::Sin,
        Fun1::Cos,
        Fun1::Tan,
        Fun1::Exp,
        Fun1::Exp2,
        Fun1::Log,
        Fun1::Sqrt,
        Fun1::Abs,
        Fun1::Sinh,
        Fun1::Cosh,
        Fun1::Floor,
        Fun1::Trunc,
        Fun1::Digamma,
        Fun1::J0,
        Fun1::J1,
        Fun1::Y0,
        Fun1::Y1,
    ];

    /// The function's name in the DSL.
    pub fn name(self) -> &'static str {
        match self {
            Fun1::Sin => "sin",
            Fun1::Cos => "cos",
            Fun1::Tan => "tan",
            Fun1::Exp => "exp",
            Fun1::Exp2 => "exp2",
            Fun1::Log => "log",
            Fun1::Sqrt => "sqrt",
            Fun1::Abs => "abs",
            Fun1::Sinh => "sinh",
            Fun1::Cosh => "cosh",
            Fun1::Floor => "floor",
            Fun1::Trunc => "trunc",
            Fun1::Digamma => "digamma",
            Fun1::J0 => "j0",
            Fun1::J1 => "j1",
            Fun1::Y0 => "y0",
            Fun1::Y1 => "y1",
        }
    }

    /// Evaluate on `f64`.
    pub fn apply(self, a: f64) -> f64 {
        match self {
            Fun1::Sin => a.sin(),
            Fun1::Cos => a.cos(),
            Fun1::Tan => a.tan(),
            Fun1::Exp => a.exp(),
            Fun1::Exp2 => a.exp2(),
            Fun1::Log => a.ln(),
            Fun1::Sqrt => a.sqrt(),
            Fun1::Abs => a.abs(),
            Fun1::Sinh => a.sinh(),
            Fun1::Cosh => a.cosh(),
            Fun1::Floor => a.floor(),
            Fun1::Trunc => a.trunc(),
            Fun1::Digamma => crate::special::digamma(a),
            Fun1::J0 => crate::special::bessel_j0(a),
            Fun1::J1 => crate::special::bessel_j1(a),
            Fun1::Y0 => crate::special::bessel_y0(a),
            Fun1::Y1 => crate::special::bessel_y1(a),
        }
    }
}

impl Fun2 {
    /// Every two-argument function, for enumeration.
    pub const ALL: [Fun2; 4] = [Fun2::Pow, Fun2::Copysign, Fun2::Jn, Fun2::Yn];

    /// The function's name in the DSL.
    pub fn name(self) -> &'static str {
        match self {
            Fun2::Pow => "pow",
            Fun2::Copysign => "copysign",
            Fun2::Jn => "jn",
            Fun2::Yn => "yn",
        }
    }

    /// Evaluate on `f64`.
    pub fn apply(self, a: f64, b: f64) -> f64 {
        match self {
            Fun2::Pow => a.powf(b),
            Fun2::Copysign => a.copysign(b),
            Fun2::Jn => crate::special::bessel_jn(a as i32, b),
            Fun2::Yn => crate::special::bessel_yn(a as i32, b),
        }
    }
}

impl Cmp {
    /// Every comparison, for enumeration.
    pub const ALL: [Cmp; 6] = [Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge, Cmp::Eq, Cmp::Ne];

    /// The comparison's function name in the DSL.
    pub fn name(self) -> &'static str {
        match self {
            Cmp::Lt => "lt",
            Cmp::Le => "le",
            Cmp::Gt => "gt",
            Cmp::Ge => "ge",
            Cmp::Eq => "eq",
            Cmp::Ne => "ne",
        }
    }

    /// Evaluate the predicate on `f64` (ordered, except `Ne`, see module docs).
    pub fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
        }
    }
}

pub(crate) fn b(e: Expr) -> Box<Expr> {
    Box::new(e)
}

impl Expr {
    /// Parse an expression of the DSL (see the module docs for the grammar).
    pub fn parse(src: &str) -> Result<Expr, ParseError> {
        parse::parse(src)
    }

    /// Evaluate with `args[i]` bound to `Arg(i)` and `result` bound to `r`.
    ///
    /// Panics if the expression mentions an argument index `>= args.len()`.
    pub fn eval(&self, args: &[f64], result: f64) -> f64 {
        match self {
            Expr::Const(c) => *c,
            Expr::Var(Var::Arg(i)) => args[*i],
            Expr::Var(Var::Result) => result,
            Expr::Neg(e) => -e.eval(args, result),
            Expr::Bin(op, l, r) => op.apply(l.eval(args, result), r.eval(args, result)),
            Expr::Call1(f, a) => f.apply(a.eval(args, result)),
            Expr::Call2(f, a, c) => f.apply(a.eval(args, result), c.eval(args, result)),
            Expr::Cmp(c, l, r) => {
                if c.holds(l.eval(args, result), r.eval(args, result)) {
                    1.0
                } else {
                    0.0
                }
            }
            Expr::Select(c, a, e) => {
                // Both arms are evaluated, as in the lowered IR.
                let (c, a, e) = (
                    c.eval(args, result),
                    a.eval(args, result),
                    e.eval(args, result),
                );
                if c != 0.0 {
                    a
                } else {
                    e
                }
            }
        }
    }

    /// Does the expression mention the primal result `r`?
    pub fn uses_result(&self) -> bool {
        self.any_var(&|v| v == Var::Result)
    }

    /// Does the expression mention argument `i`?
    pub fn uses_arg(&self, i: usize) -> bool {
        self.any_var(&|v| v == Var::Arg(i))
    }

    /// The one-argument functions applied directly to an argument (`cos(x)`), as
    /// (function, argument index).
    pub fn calls_of_args(&self) -> Vec<(Fun1, usize)> {
        let mut out = Vec::new();
        self.walk_calls(&mut out);
        out
    }
    fn walk_calls(&self, out: &mut Vec<(Fun1, usize)>) {
        match self {
            Expr::Const(_) | Expr::Var(_) => {}
            Expr::Call1(f, e) => {
                if let Expr::Var(Var::Arg(k)) = **e {
                    if !out.contains(&(*f, k)) {
                        out.push((*f, k));
                    }
                } else {
                    e.walk_calls(out);
                }
            }
            Expr::Neg(e) => e.walk_calls(out),
            Expr::Bin(_, l, r) | Expr::Call2(_, l, r) | Expr::Cmp(_, l, r) => {
                l.walk_calls(out);
                r.walk_calls(out);
            }
            Expr::Select(c, a, e) => {
                c.walk_calls(out);
                a.walk_calls(out);
                e.walk_calls(out);
            }
        }
    }

    /// Does argument `i` occur other than inside one of the calls `known` (which are
    /// available as values)?
    pub fn uses_arg_outside(&self, i: usize, known: &[(Fun1, usize)]) -> bool {
        self.uses_var_outside(Var::Arg(i), known, &[])
    }

    /// The variables a constant is divided by (`1/y`, `0.5/r`), each once with the
    /// first such constant: the reciprocals a lowering may take from the primal code
    /// instead of dividing.
    pub fn reciprocal_vars(&self) -> Vec<(f64, Var)> {
        let mut out = Vec::new();
        self.walk_reciprocals(&mut out);
        out
    }
    fn walk_reciprocals(&self, out: &mut Vec<(f64, Var)>) {
        match self {
            Expr::Const(_) | Expr::Var(_) => {}
            Expr::Bin(BinOp::Div, l, r) if matches!(**l, Expr::Const(_)) => {
                if let (Expr::Const(c), Expr::Var(v)) = (&**l, &**r) {
                    if !out.iter().any(|(_, w)| w == v) {
                        out.push((*c, *v));
                    }
                } else {
                    r.walk_reciprocals(out);
                }
            }
            Expr::Neg(e) | Expr::Call1(_, e) => e.walk_reciprocals(out),
            Expr::Bin(_, l, r) | Expr::Call2(_, l, r) | Expr::Cmp(_, l, r) => {
                l.walk_reciprocals(out);
                r.walk_reciprocals(out);
            }
            Expr::Select(c, a, e) => {
                c.walk_reciprocals(out);
                a.walk_reciprocals(out);
                e.walk_reciprocals(out);
            }
        }
    }

    /// Does variable `v` occur other than inside one of the calls `known` or one of the
    /// quotients `c / w` with `w` in `recips` (both available as values)?
    pub fn uses_var_outside(&self, v: Var, known: &[(Fun1, usize)], recips: &[Var]) -> bool {
        match self {
            Expr::Const(_) => false,
            Expr::Var(w) => *w == v,
            Expr::Call1(f, e) => {
                if let Expr::Var(Var::Arg(k)) = **e {
                    if known.contains(&(*f, k)) {
                        return false;
                    }
                }
                e.uses_var_outside(v, known, recips)
            }
            Expr::Bin(BinOp::Div, l, r)
                if matches!(**l, Expr::Const(_))
                    && matches!(**r, Expr::Var(w) if recips.contains(&w)) =>
            {
                false
            }
            Expr::Neg(e) => e.uses_var_outside(v, known, recips),
            Expr::Bin(_, l, r) | Expr::Call2(_, l, r) | Expr::Cmp(_, l, r) => {
                l.uses_var_outside(v, known, recips) || r.uses_var_outside(v, known, recips)
            }
            Expr::Select(c, a, e) => {
                c.uses_var_outside(v, known, recips)
                    || a.uses_var_outside(v, known, recips)
                    || e.uses_var_outside(v, known, recips)
            }
        }
    }

    /// Does any variable leaf satisfy `pred`?
    pub fn any_var(&self, pred: &dyn Fn(Var) -> bool) -> bool {
        match self {
            Expr::Const(_) => false,
            Expr::Var(v) => pred(*v),
            Expr::Neg(e) | Expr::Call1(_, e) => e.any_var(pred),
            Expr::Bin(_, l, r) | Expr::Call2(_, l, r) | Expr::Cmp(_, l, r) => {
                l.any_var(pred) || r.any_var(pred)
            }
            Expr::Select(c, a, e) => c.any_var(pred) || a.any_var(pred) || e.any_var(pred),
        }
    }

    /// Binding strength for printing: 1 = `+ -`, 2 = `* /`, 3 = unary minus,
    /// 4 = atoms and calls.
    fn prec(&self) -> u8 {
        match self {
            Expr::Bin(op, _, _) => op.prec(),
            Expr::Neg(_) => 3,
            Expr::Const(c) if c.is_sign_negative() => 3,
            _ => 4,
        }
    }

    fn fmt_wrapped(&self, f: &mut fmt::Formatter<'_>, wrap: bool) -> fmt::Result {
        if wrap {
            write!(f, "({self})")
        } else {
            write!(f, "{self}")
        }
    }
}

impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Var::Arg(0) => f.write_str("x"),
            Var::Arg(1) => f.write_str("y"),
            Var::Arg(2) => f.write_str("z"),
            Var::Arg(i) => write!(f, "arg{i}"),
            Var::Result => f.write_str("r"),
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Const(c) => {
                if *c == PI {
                    f.write_str("pi")
                } else if *c == LN_2 {
                    f.write_str("ln2")
                } else if *c == LN_10 {
                    f.write_str("ln10")
                } else {
                    // Rust's float Display is the shortest string that
                    // round-trips, without an exponent: always re-parseable.
                    write!(f, "{c}")
                }
            }
            Expr::Var(v) => write!(f, "{v}"),
            Expr::Neg(e) => {
                f.write_str("-")?;
                e.fmt_wrapped(f, e.prec() < 3)
            }
            Expr::Bin(op, l, r) => {
                let p = op.prec();
                l.fmt_wrapped(f, l.prec() < p)?;
                match op {
                    BinOp::Add | BinOp::Sub => write!(f, " {} ", op.symbol())?,
                    BinOp::Mul | BinOp::Div => f.write_str(op.symbol())?,
                }
                // Left associativity: an equal-precedence right operand needs
                // parentheses to keep its grouping.
                r.fmt_wrapped(f, r.prec() <= p)
            }
            Expr::Call1(fun, a) => write!(f, "{}({a})", fun.name()),
            Expr::Call2(fun, a, c) => write!(f, "{}({a}, {c})", fun.name()),
            Expr::Cmp(c, l, r) => write!(f, "{}({l}, {r})", c.name()),
            Expr::Select(c, a, e) => write!(f, "sel({c}, {a}, {e})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Expr {
        Expr::parse(s).unwrap_or_else(|e| panic!("{e}"))
    }
    fn x() -> Expr {
        Expr::Var(Var::Arg(0))
    }
    fn y() -> Expr {
        Expr::Var(Var::Arg(1))
    }

    #[test]
    fn reciprocals_of_variables() {
        let e = p("sel(eq(x, 0), 0, 0.5/r)");
        assert_eq!(e.reciprocal_vars(), vec![(0.5, Var::Result)]);
        assert!(!e.uses_var_outside(Var::Result, &[], &[Var::Result]));
        assert!(e.uses_var_outside(Var::Result, &[], &[]));
        // `x` still occurs in the comparison.
        assert!(e.uses_var_outside(Var::Arg(0), &[], &[Var::Result]));
        let d = p("-r*(1/y)");
        assert_eq!(d.reciprocal_vars(), vec![(1.0, Var::Arg(1))]);
        assert!(!d.uses_var_outside(Var::Arg(1), &[], &[Var::Arg(1)]));
        // Only a constant over a variable is a reciprocal.
        assert!(p("x/y").reciprocal_vars().is_empty());
        assert!(p("1/(x*y)").reciprocal_vars().is_empty());
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(
            p("x - y - 1"),
            Expr::Bin(
                BinOp::Sub,
                b(Expr::Bin(BinOp::Sub, b(x()), b(y()))),
                b(Expr::Const(1.0))
            )
        );
        assert_eq!(
            p("x + y * 2"),
            Expr::Bin(
                BinOp::Add,
                b(x()),
                b(Expr::Bin(BinOp::Mul, b(y()), b(Expr::Const(2.0))))
            )
        );
        assert_eq!(
            p("-x*y"),
            Expr::Bin(BinOp::Mul, b(Expr::Neg(b(x()))), b(y()))
        );
        assert_eq!(p("x/y/2").eval(&[8.0, 2.0], 0.0), 2.0);
        assert_eq!(p("(x + y) * 2").eval(&[1.0, 2.0], 0.0), 6.0);
        assert_eq!(p("2 - -x").eval(&[3.0], 0.0), 5.0);
    }

    #[test]
    fn numbers_and_constants() {
        assert_eq!(p("1e-3"), Expr::Const(1e-3));
        assert_eq!(p("0.5"), Expr::Const(0.5));
        assert_eq!(p(".25"), Expr::Const(0.25));
        assert_eq!(p("2.5E+2"), Expr::Const(250.0));
        assert_eq!(p("pi"), Expr::Const(PI));
        assert_eq!(p("ln2"), Expr::Const(LN_2));
        assert_eq!(p("ln10"), Expr::Const(LN_10));
    }

    #[test]
    fn calls_and_eval() {
        let e = p("sel(eq(x, 0), 0, 0.5/r)");
        assert_eq!(e.eval(&[0.0], 0.0), 0.0);
        assert_eq!(e.eval(&[4.0], 2.0), 0.25);
        assert!(e.uses_result() && e.uses_arg(0) && !e.uses_arg(1));
        assert_eq!(p("copysign(1, x)").eval(&[-3.0], 0.0), -1.0);
        assert_eq!(p("pow(x, y)").eval(&[2.0, 3.0], 0.0), 8.0);
        assert_eq!(
            p("lt(x,y) + le(x,y) + gt(x,y) + ge(x,y) + ne(x,y)").eval(&[1.0, 2.0], 0.0),
            3.0
        );
        assert_eq!(p("floor(x) + trunc(y)").eval(&[-1.5, -1.5], 0.0), -3.0);
        assert_eq!(p("arg3 * z").eval(&[0.0, 0.0, 2.0, 5.0], 0.0), 10.0);
    }

    #[test]
    fn errors_have_positions() {
        let cases: &[(&str, usize)] = &[
            ("foo(x)", 0),
            ("sin", 0),
            ("sin(x, y)", 0),
            ("pow(x)", 0),
            ("x(1)", 0),
            ("x +", 3),
            ("(x", 2),
            ("x y", 2),
            ("1e", 2),
            ("x $ y", 2),
            ("sel(x, y)", 0),
            ("", 0),
        ];
        for &(src, pos) in cases {
            let e = Expr::parse(src).expect_err(src);
            assert_eq!(e.pos, pos, "{src}: {e}");
            assert!(e.to_string().contains("parse error"));
        }
    }

    #[test]
    fn display_round_trips() {
        for src in [
            "x - (y - z)",
            "x/(y*z)",
            "x/y*z",
            "-(x + y)",
            "--x",
            "x*-y",
            "-x*y",
            "(x - y) - z",
            "sel(ge(x, 0), 1, -1)",
            "2/sqrt(pi)*exp(-x*x)",
            "1/(x*ln2) + ln10",
            "copysign(1, x)*copysign(1, y)",
            "1e-300 + 123456789012345680000 + 0.1",
            "arg7 + r",
        ] {
            let e = p(src);
            let printed = e.to_string();
            assert_eq!(p(&printed), e, "{src} printed as {printed}");
        }
        assert_eq!(p("x - (y - z)").to_string(), "x - (y - z)");
        assert_eq!(p("((x))*(y)").to_string(), "x*y");
    }
}

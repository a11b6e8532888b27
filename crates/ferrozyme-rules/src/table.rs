//! The rules table: one row per differentiable operation.
//!
//! A row names the operation (`"fmul"`, `"llvm.sin"`, `"sin"`), its
//! [`Family`], one partial derivative per argument written in the expression
//! DSL (see [`crate::expr`]), a sampling domain and a reference `f64`
//! implementation of the primal.  The last two exist only so the unit tests
//! can check every partial against a central finite difference.
//!
//! The partial-derivative string `"_"` means [`Partial::Zero`]: a
//! *structural* zero — the argument never receives a derivative (an integer
//! exponent, or a function that is piecewise constant in that argument).  The
//! transform must not even emit the multiply-by-zero for it.  This is
//! different from the expression `"0"`, which would be lowered literally.
//!
//! # Invariants (all checked by the tests below)
//!
//! * every partial string parses; `partials.len() == arity`;
//! * an expression only mentions `Arg(i)` with `i < arity` (and maybe `r`);
//! * names are unique across the whole table;
//! * every `Expr` partial matches a central finite difference of `primal` at
//!   pseudo-random points of `domain` (away from kinks), and every `Zero`
//!   partial has a vanishing finite difference (except for integer-valued
//!   arguments such as `llvm.powi`'s exponent).
//!
//! # Conventions worth knowing
//!
//! * `llvm.sqrt`/`sqrt`: the derivative at exactly `x == 0` is defined as 0
//!   (not +inf) so that the gradient of a norm of an all-zero vector stays
//!   finite instead of poisoning everything with inf/NaN (the same choice
//!   Enzyme and JAX's safe-norm idioms make).
//! * `llvm.pow`/`pow`: the partial wrt the exponent, `r*log(x)`, is defined as
//!   0 at `x == 0` (its limit for `y > 0`), avoiding `0*-inf = NaN`.  For
//!   `x < 0` it is NaN, as the real derivative does not exist there.
//! * `min`/`max` families send the whole adjoint to one argument on ties:
//!   `minnum`'s partials are `(le(x,y), gt(x,y))` and `maxnum`'s are
//!   `(ge(x,y), lt(x,y))` — exactly one of them is 1 for non-NaN inputs.
//! * `fabs` uses `copysign(1, x)`, as Enzyme does: +1 at +0 and -1 at -0, so the sign of
//!   a zero that came out of a product is kept (the second derivative of `|-x^2|` at 0 is
//!   2, as for `x^2`; with +1 at every zero it came out -2: tests/c/505).
//! * `atan2(x, y)` follows C argument order: `x` is the ordinate.
//! * Partials written `[-] [X *] (1/Y)` with one `Y` (`fdiv`: `1/y`, `-r*(1/y)`) are
//!   applied with the seed scaled by `1/Y` first (ferrozyme-transform `lower.rs`
//!   `shared_reciprocal`): `-r/y` overflows at `x = 2, y = 1e-160` although `x/y` and
//!   `1/y` do not, and a zero seed times it was NaN.
//! * A libm row covers both the `double` name and its `float` twin (`sinf`);
//!   the lookup handles the suffix, so rows are written once.

use std::sync::LazyLock;

use crate::expr::Expr;
use crate::index::NameIndex;

/// A partial derivative of one argument.
#[derive(Clone, Debug, PartialEq)]
pub enum Partial {
    /// Structural zero: this argument never receives a derivative.
    Zero,
    /// `d result / d arg` as an expression of the arguments and `r`.
    Expr(Expr),
}

impl Partial {
    /// The expression, unless this is a structural zero.
    pub fn expr(&self) -> Option<&Expr> {
        match self {
            Partial::Zero => None,
            Partial::Expr(e) => Some(e),
        }
    }

    /// Is this a structural zero?
    pub fn is_zero(&self) -> bool {
        matches!(self, Partial::Zero)
    }
}

/// Which namespace a rule's name lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// An LLVM instruction opcode, as in textual IR (`fmul`).
    Opcode,
    /// An LLVM intrinsic, without its type suffixes (`llvm.sin`).
    Intrinsic,
    /// A C math-library function, `double` name (`sin`; `sinf` maps to it).
    Libm,
}

/// One row of the table.
#[derive(Clone, Debug)]
pub struct Rule {
    /// `"fmul"`, `"llvm.sin"`, `"sin"`.
    pub name: &'static str,
    pub family: Family,
    pub arity: usize,
    /// One per argument; `partials.len() == arity`.
    pub partials: Vec<Partial>,
    /// Reference implementation of the primal, for tests.
    pub primal: fn(&[f64]) -> f64,
    /// Interval from which every argument is sampled in numeric tests.
    pub domain: (f64, f64),
}

impl Rule {
    /// Does any partial mention the primal result `r`?
    pub fn uses_result(&self) -> bool {
        self.partials
            .iter()
            .filter_map(Partial::expr)
            .any(Expr::uses_result)
    }

    /// Are all partials structural zeros (a piecewise-constant operation)?
    pub fn all_zero(&self) -> bool {
        self.partials.iter().all(Partial::is_zero)
    }
}

/// Rules compare by their data; the `primal` function pointer (a test aid)
/// is ignored, as function pointer identity is not meaningful.
impl PartialEq for Rule {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.family == other.family
            && self.arity == other.arity
            && self.partials == other.partials
            && self.domain == other.domain
    }
}

/// The partial-string spelling of [`Partial::Zero`].
const Z: &str = "_";

/// Build one row; a partial that fails to parse is a bug in the table.
fn rule(
    name: &'static str,
    family: Family,
    partials: &[&str],
    domain: (f64, f64),
    primal: fn(&[f64]) -> f64,
) -> Rule {
    let partials = partials
        .iter()
        .map(|src| {
            if *src == Z {
                Partial::Zero
            } else {
                match Expr::parse(src) {
                    Ok(e) => Partial::Expr(e),
                    Err(e) => panic!("rules table row `{name}`: {e}"),
                }
            }
        })
        .collect::<Vec<_>>();
    Rule {
        name,
        family,
        arity: partials.len(),
        partials,
        primal,
        domain,
    }
}

// Sampling domains.
const WIDE: (f64, f64) = (-3.0, 3.0);
const POS: (f64, f64) = (0.1, 5.0);
const UNIT: (f64, f64) = (-0.9, 0.9);
const STEPS: (f64, f64) = (-5.0, 5.0);
const POW: (f64, f64) = (0.2, 3.0);

/// The partials of x86's packed max and min (see [`x86_max`], [`x86_min`]).
const X86_MAX: &[&str] = &["gt(x, y)", "le(x, y)"];
const X86_MIN: &[&str] = &["lt(x, y)", "ge(x, y)"];

/// x86's `maxpd`/`maxps` on one lane: the second operand unless the first is greater.
fn x86_max(a: &[f64]) -> f64 {
    if a[0] > a[1] {
        a[0]
    } else {
        a[1]
    }
}

/// x86's `minpd`/`minps` on one lane: the second operand unless the first is less.
fn x86_min(a: &[f64]) -> f64 {
    if a[0] < a[1] {
        a[0]
    } else {
        a[1]
    }
}

/// `erf` has no `std` implementation; this one sums the everywhere-positive
/// series `erf(x) = 2/sqrt(pi) * exp(-x^2) * sum_n x (2x^2)^n / (2n+1)!!`,
/// accurate to ~1e-15 on the test domains (it is only a test reference).
fn erf(x: f64) -> f64 {
    if x.abs() > 6.0 {
        return x.signum();
    }
    let two_x2 = 2.0 * x * x;
    let (mut term, mut sum, mut n) = (x, x, 0.0);
    while term.abs() > 1e-17 * sum.abs() {
        n += 1.0;
        term *= two_x2 / (2.0 * n + 1.0);
        sum += term;
    }
    2.0 / std::f64::consts::PI.sqrt() * (-x * x).exp() * sum
}

fn build() -> Vec<Rule> {
    use Family::{Intrinsic as I, Libm as L, Opcode as O};
    vec![
        // ---- instruction opcodes ------------------------------------------
        rule("fadd", O, &["1", "1"], WIDE, |a| a[0] + a[1]),
        rule("fsub", O, &["1", "-1"], WIDE, |a| a[0] - a[1]),
        rule("fmul", O, &["y", "x"], WIDE, |a| a[0] * a[1]),
        // -r*(1/y): the quotient is at hand and 1/y is shared with the first partial,
        // one division for both instead of two.
        rule("fdiv", O, &["1/y", "-r*(1/y)"], POS, |a| a[0] / a[1]),
        rule("frem", O, &["1", "-trunc(x/y)"], (0.5, 5.0), |a| {
            a[0] % a[1]
        }),
        rule("fneg", O, &["-1"], WIDE, |a| -a[0]),
        // ---- LLVM intrinsics ----------------------------------------------
        rule("llvm.sqrt", I, &["sel(eq(x, 0), 0, 0.5/r)"], POS, |a| {
            a[0].sqrt()
        }),
        rule("llvm.fabs", I, &["copysign(1, x)"], WIDE, |a| a[0].abs()),
        rule(
            "llvm.pow",
            I,
            &["y*pow(x, y - 1)", "sel(eq(x, 0), 0, r*log(x))"],
            POW,
            |a| a[0].powf(a[1]),
        ),
        // The i32 exponent arrives converted to the float type (sitofp).
        rule("llvm.powi", I, &["y*pow(x, y - 1)", Z], (0.5, 4.0), |a| {
            a[0].powi(a[1] as i32)
        }),
        rule("llvm.exp", I, &["r"], WIDE, |a| a[0].exp()),
        rule("llvm.exp2", I, &["r*ln2"], WIDE, |a| a[0].exp2()),
        rule("llvm.exp10", I, &["r*ln10"], WIDE, |a| 10f64.powf(a[0])),
        rule("llvm.log", I, &["1/x"], POS, |a| a[0].ln()),
        rule("llvm.log2", I, &["1/(x*ln2)"], POS, |a| a[0].log2()),
        rule("llvm.log10", I, &["1/(x*ln10)"], POS, |a| a[0].log10()),
        rule("llvm.sin", I, &["cos(x)"], WIDE, |a| a[0].sin()),
        rule("llvm.cos", I, &["-sin(x)"], WIDE, |a| a[0].cos()),
        rule("llvm.tan", I, &["1 + r*r"], (-1.2, 1.2), |a| a[0].tan()),
        rule("llvm.sinh", I, &["cosh(x)"], WIDE, |a| a[0].sinh()),
        rule("llvm.cosh", I, &["sinh(x)"], WIDE, |a| a[0].cosh()),
        rule("llvm.tanh", I, &["1 - r*r"], WIDE, |a| a[0].tanh()),
        rule("llvm.asin", I, &["1/sqrt(1 - x*x)"], UNIT, |a| a[0].asin()),
        rule("llvm.acos", I, &["-1/sqrt(1 - x*x)"], UNIT, |a| a[0].acos()),
        rule("llvm.atan", I, &["1/(1 + x*x)"], STEPS, |a| a[0].atan()),
        rule(
            "llvm.atan2",
            I,
            &["y/(x*x + y*y)", "-x/(x*x + y*y)"],
            WIDE,
            |a| a[0].atan2(a[1]),
        ),
        rule("llvm.fma", I, &["y", "x", "1"], WIDE, |a| {
            a[0].mul_add(a[1], a[2])
        }),
        rule("llvm.fmuladd", I, &["y", "x", "1"], WIDE, |a| {
            a[0] * a[1] + a[2]
        }),
        rule("llvm.minnum", I, &["le(x, y)", "gt(x, y)"], WIDE, |a| {
            a[0].min(a[1])
        }),
        rule("llvm.minimum", I, &["le(x, y)", "gt(x, y)"], WIDE, |a| {
            a[0].min(a[1])
        }),
        rule("llvm.maxnum", I, &["ge(x, y)", "lt(x, y)"], WIDE, |a| {
            a[0].max(a[1])
        }),
        rule("llvm.maximum", I, &["ge(x, y)", "lt(x, y)"], WIDE, |a| {
            a[0].max(a[1])
        }),
        // x86's packed min/max (`_mm_max_pd`, `_mm256_min_ps`, ... in hand-vectorized
        // code): `x > y ? x : y` and `x < y ? x : y` per lane, the second operand on ties
        // and NaNs, so the adjoint goes where the value came from.
        rule("llvm.x86.sse2.max.pd", I, X86_MAX, WIDE, x86_max),
        rule("llvm.x86.sse.max.ps", I, X86_MAX, WIDE, x86_max),
        rule("llvm.x86.avx.max.pd.256", I, X86_MAX, WIDE, x86_max),
        rule("llvm.x86.avx.max.ps.256", I, X86_MAX, WIDE, x86_max),
        rule("llvm.x86.sse2.min.pd", I, X86_MIN, WIDE, x86_min),
        rule("llvm.x86.sse.min.ps", I, X86_MIN, WIDE, x86_min),
        rule("llvm.x86.avx.min.pd.256", I, X86_MIN, WIDE, x86_min),
        rule("llvm.x86.avx.min.ps.256", I, X86_MIN, WIDE, x86_min),
        rule(
            "llvm.copysign",
            I,
            &["copysign(1, x)*copysign(1, y)", Z],
            WIDE,
            |a| a[0].copysign(a[1]),
        ),
        rule("llvm.canonicalize", I, &["1"], WIDE, |a| a[0]),
        rule("llvm.floor", I, &[Z], STEPS, |a| a[0].floor()),
        rule("llvm.ceil", I, &[Z], STEPS, |a| a[0].ceil()),
        rule("llvm.round", I, &[Z], STEPS, |a| a[0].round()),
        rule("llvm.ldexp", I, &["exp2(y)", Z], WIDE, |a| {
            a[0] * a[1].exp2()
        }),
        rule("llvm.trunc", I, &[Z], STEPS, |a| a[0].trunc()),
        rule("llvm.rint", I, &[Z], STEPS, |a| a[0].round_ties_even()),
        rule("llvm.nearbyint", I, &[Z], STEPS, |a| a[0].round_ties_even()),
        rule("llvm.roundeven", I, &[Z], STEPS, |a| a[0].round_ties_even()),
        // ---- C math library (double names; `f` variants via lookup) ---------
        rule("sin", L, &["cos(x)"], WIDE, |a| a[0].sin()),
        rule("cos", L, &["-sin(x)"], WIDE, |a| a[0].cos()),
        rule("tan", L, &["1 + r*r"], (-1.2, 1.2), |a| a[0].tan()),
        rule("asin", L, &["1/sqrt(1 - x*x)"], UNIT, |a| a[0].asin()),
        rule("acos", L, &["-1/sqrt(1 - x*x)"], UNIT, |a| a[0].acos()),
        rule("atan", L, &["1/(1 + x*x)"], STEPS, |a| a[0].atan()),
        rule(
            "atan2",
            L,
            &["y/(x*x + y*y)", "-x/(x*x + y*y)"],
            WIDE,
            |a| a[0].atan2(a[1]),
        ),
        rule("sinh", L, &["cosh(x)"], WIDE, |a| a[0].sinh()),
        rule("cosh", L, &["sinh(x)"], WIDE, |a| a[0].cosh()),
        rule("tanh", L, &["1 - r*r"], WIDE, |a| a[0].tanh()),
        rule("exp", L, &["r"], WIDE, |a| a[0].exp()),
        rule("exp2", L, &["r*ln2"], WIDE, |a| a[0].exp2()),
        rule("expm1", L, &["r + 1"], WIDE, |a| a[0].exp_m1()),
        rule("log", L, &["1/x"], POS, |a| a[0].ln()),
        rule("log2", L, &["1/(x*ln2)"], POS, |a| a[0].log2()),
        rule("log10", L, &["1/(x*ln10)"], POS, |a| a[0].log10()),
        rule("log1p", L, &["1/(1 + x)"], (-0.5, 5.0), |a| a[0].ln_1p()),
        rule(
            "pow",
            L,
            &["y*pow(x, y - 1)", "sel(eq(x, 0), 0, r*log(x))"],
            POW,
            |a| a[0].powf(a[1]),
        ),
        rule("sqrt", L, &["sel(eq(x, 0), 0, 0.5/r)"], POS, |a| {
            a[0].sqrt()
        }),
        rule("cbrt", L, &["1/(3*r*r)"], POS, |a| a[0].cbrt()),
        // At the origin hypot has no derivative; like sqrt, give 0 there rather than NaN
        // (a zero adjoint times NaN would poison unrelated gradients).
        rule(
            "hypot",
            L,
            &["sel(eq(r, 0), 0, x/r)", "sel(eq(r, 0), 0, y/r)"],
            WIDE,
            |a| a[0].hypot(a[1]),
        ),
        rule("erf", L, &["2/sqrt(pi)*exp(-x*x)"], (-2.5, 2.5), |a| {
            erf(a[0])
        }),
        rule("erfc", L, &["-2/sqrt(pi)*exp(-x*x)"], (-2.5, 2.5), |a| {
            1.0 - erf(a[0])
        }),
        rule("fmax", L, &["ge(x, y)", "lt(x, y)"], WIDE, |a| {
            a[0].max(a[1])
        }),
        rule("fmin", L, &["le(x, y)", "gt(x, y)"], WIDE, |a| {
            a[0].min(a[1])
        }),
        rule("fabs", L, &["copysign(1, x)"], WIDE, |a| a[0].abs()),
        rule(
            "copysign",
            L,
            &["copysign(1, x)*copysign(1, y)", Z],
            WIDE,
            |a| a[0].copysign(a[1]),
        ),
        rule("fma", L, &["y", "x", "1"], WIDE, |a| {
            a[0].mul_add(a[1], a[2])
        }),
        rule("fmod", L, &["1", "-trunc(x/y)"], (0.5, 5.0), |a| {
            a[0] % a[1]
        }),
        rule("asinh", L, &["1/sqrt(x*x + 1)"], WIDE, |a| a[0].asinh()),
        rule("acosh", L, &["1/sqrt(x*x - 1)"], (1.1, 5.0), |a| {
            a[0].acosh()
        }),
        rule("atanh", L, &["1/(1 - x*x)"], (-0.9, 0.9), |a| a[0].atanh()),
        rule("exp10", L, &["r*ln10"], (-2.0, 2.0), |a| 10f64.powf(a[0])),
        rule("fdim", L, &["gt(x, y)", "-gt(x, y)"], WIDE, |a| {
            (a[0] - a[1]).max(0.0)
        }),
        // x * 2^e with an integer exponent; frexp's mantissa is x * 2^-e for the e it
        // writes through its pointer, i.e. r / x (0 at x = 0, where r = 0).
        rule("ldexp", L, &["exp2(y)", Z], WIDE, |a| a[0] * a[1].exp2()),
        rule("scalbn", L, &["exp2(y)", Z], WIDE, |a| a[0] * a[1].exp2()),
        rule("frexp", L, &["sel(eq(x, 0), 0, r/x)", Z], POS, |a| {
            let x = a[0];
            if x == 0.0 {
                0.0
            } else {
                x / 2f64.powi(x.abs().log2().floor() as i32 + 1)
            }
        }),
        // cabs(z) for `double _Complex`, passed as (re, im) on x86-64.
        rule(
            "cabs",
            L,
            &["sel(eq(r, 0), 0, x/r)", "sel(eq(r, 0), 0, y/r)"],
            WIDE,
            |a| a[0].hypot(a[1]),
        ),
        // carg(z) = atan2(im, re) for `double _Complex` passed as (re, im).
        rule(
            "carg",
            L,
            &[
                "sel(eq(x*x + y*y, 0), 0, -y/(x*x + y*y))",
                "sel(eq(x*x + y*y, 0), 0, x/(x*x + y*y))",
            ],
            WIDE,
            |a| a[1].atan2(a[0]),
        ),
        // log|Gamma(x)| and Gamma(x): the digamma function (`special.rs`), as Enzyme has
        // them. lgamma's sign output (`signgam`) is C library state, not a result.
        rule("lgamma", L, &["digamma(x)"], POS, |a| {
            crate::special::log_gamma(a[0])
        }),
        // glibc's reentrant lgamma (`lgammaf_r` too, see `lookup::libm_rule`): the sign of
        // Gamma(x) goes through the `int *` instead of `signgam`; no derivative through it.
        rule("lgamma_r", L, &["digamma(x)", Z], POS, |a| {
            crate::special::log_gamma(a[0])
        }),
        rule("tgamma", L, &["r*digamma(x)"], POS, |a| {
            crate::special::gamma(a[0])
        }),
        // x - n y with n = x/y rounded to nearest (ties to even): n is recovered as
        // (x - r) / y, exact up to one rounding of an integer-valued quotient.
        rule("remainder", L, &["1", "-(x - r)/y"], (0.5, 5.0), |a| {
            let n = (a[0] / a[1]).round_ties_even();
            a[0] - n * a[1]
        }),
        // Bessel functions: J0' = -J1, J1' = J0 - J1/x (1/2 at 0), likewise for Y.
        rule("j0", L, &["-j1(x)"], WIDE, |a| {
            crate::special::bessel_j0(a[0])
        }),
        rule("j1", L, &["sel(eq(x, 0), 0.5, j0(x) - r/x)"], WIDE, |a| {
            crate::special::bessel_j1(a[0])
        }),
        rule("y0", L, &["-y1(x)"], POS, |a| {
            crate::special::bessel_y0(a[0])
        }),
        rule("y1", L, &["y0(x) - r/x"], POS, |a| {
            crate::special::bessel_y1(a[0])
        }),
        // Integer orders (the order is an `int`): Jn' = (J(n-1) - J(n+1)) / 2, likewise Yn.
        rule("jn", L, &[Z, "(jn(x - 1, y) - jn(x + 1, y))/2"], POS, |a| {
            crate::special::bessel_jn(a[0] as i32, a[1])
        }),
        rule("yn", L, &[Z, "(yn(x - 1, y) - yn(x + 1, y))/2"], POS, |a| {
            crate::special::bessel_yn(a[0] as i32, a[1])
        }),
        // remainder whose third argument (an `int *`) receives low bits of the quotient:
        // the same partials as `remainder`, no derivative through the integer.
        rule("remquo", L, &["1", "-(x - r)/y", Z], (0.5, 5.0), |a| {
            let n = (a[0] / a[1]).round_ties_even();
            a[0] - n * a[1]
        }),
        // The next representable number after x towards y: x moved by one unit in the
        // last place, so 1 in x; y only chooses the direction of the step (piecewise
        // constant in y: 0).
        rule("nextafter", L, &["1", Z], WIDE, |a| a[0]),
        // The same step with the direction given as a `long double` (`x86_fp80` on
        // x86-64): the direction gets no derivative, so its type does not matter.
        rule("nexttoward", L, &["1", Z], WIDE, |a| a[0]),
        // The binary exponent of x as a float: piecewise constant.
        rule("logb", L, &[Z], POS, |a| a[0].abs().log2().floor()),
        rule("floor", L, &[Z], STEPS, |a| a[0].floor()),
        rule("ceil", L, &[Z], STEPS, |a| a[0].ceil()),
        rule("round", L, &[Z], STEPS, |a| a[0].round()),
        rule("trunc", L, &[Z], STEPS, |a| a[0].trunc()),
    ]
}

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(build);

/// The whole table, built (and every partial parsed) on first use.
pub fn all_rules() -> &'static [Rule] {
    &RULES
}

/// Find a row by exact name and family (the first, if several have them).
pub fn find_rule(name: &str, family: Family) -> Option<&'static Rule> {
    static INDEX: NameIndex<Family> = NameIndex::new();
    INDEX.find(all_rules(), |r| (r.family, r.name), family, name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Arguments that are integers at the IR level (sampled as integers, no
    /// finite-difference check on them).
    fn integer_args(rule: &Rule) -> &'static [usize] {
        match rule.name {
            "llvm.powi" | "llvm.ldexp" | "ldexp" | "scalbn" => &[1],
            "jn" | "yn" => &[0],
            // a pointer: sampled as a number, never differentiated
            "remquo" => &[2],
            "lgamma_r" => &[1],
            _ => &[],
        }
    }

    /// xorshift64*: tiny deterministic generator for sample points.
    struct Rng(u64);
    impl Rng {
        fn next_f64(&mut self) -> f64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            let v = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
            (v >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    #[test]
    fn every_row_is_well_formed() {
        let mut names = HashSet::new();
        assert!(all_rules().len() >= 70);
        for r in all_rules() {
            assert!(names.insert(r.name), "duplicate row {}", r.name);
            assert_eq!(r.partials.len(), r.arity, "{}", r.name);
            assert!(r.arity >= 1 && r.arity <= 3, "{}", r.name);
            assert!(r.domain.0 < r.domain.1, "{}", r.name);
            match r.family {
                Family::Intrinsic => assert!(r.name.starts_with("llvm."), "{}", r.name),
                _ => assert!(!r.name.starts_with("llvm."), "{}", r.name),
            }
            for (i, p) in r.partials.iter().enumerate() {
                let Some(e) = p.expr() else { continue };
                assert!(
                    !e.any_var(&|v| matches!(v, crate::Var::Arg(j) if j >= r.arity)),
                    "{} partial {i} mentions an argument beyond arity",
                    r.name
                );
                let printed = e.to_string();
                let back = Expr::parse(&printed).unwrap_or_else(|err| panic!("{}: {err}", r.name));
                assert_eq!(
                    &back, e,
                    "{} partial {i}: `{printed}` does not round-trip",
                    r.name
                );
            }
        }
    }

    #[test]
    fn partials_match_finite_differences() {
        for (k, rule) in all_rules().iter().enumerate() {
            let mut rng =
                Rng(0x9E37_79B9_7F4A_7C15 ^ (k as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03));
            let ints = integer_args(rule);
            let (lo, hi) = rule.domain;
            let f = rule.primal;
            for (i, partial) in rule.partials.iter().enumerate() {
                if ints.contains(&i) {
                    assert!(
                        partial.is_zero(),
                        "{}: integer arg {i} must be Zero",
                        rule.name
                    );
                    continue;
                }
                let (mut checked, mut skipped) = (0, 0);
                for _ in 0..20 {
                    let mut args: Vec<f64> = (0..rule.arity)
                        .map(|_| lo + (hi - lo) * rng.next_f64())
                        .collect();
                    for &j in ints {
                        args[j] = args[j].round();
                    }
                    let xi = args[i];
                    let h = 1e-6 * xi.abs().max(1.0);
                    let at = |v: f64| {
                        let mut a = args.clone();
                        a[i] = v;
                        f(&a)
                    };
                    let (fm, f0, fp) = (at(xi - h), at(xi), at(xi + h));
                    let (bwd, fwd) = ((f0 - fm) / h, (fp - f0) / h);
                    // A kink or jump within h of the point: one-sided slopes
                    // disagree; the derivative is not testable there.
                    if (fwd - bwd).abs() > 1e-3 * fwd.abs().max(bwd.abs()).max(1.0) {
                        skipped += 1;
                        continue;
                    }
                    checked += 1;
                    let fd = (fp - fm) / (2.0 * h);
                    match partial {
                        Partial::Zero => assert!(
                            fd.abs() < 1e-7,
                            "{}: Zero partial {i} but finite difference {fd} at {args:?}",
                            rule.name
                        ),
                        Partial::Expr(e) => {
                            let got = e.eval(&args, f0);
                            let tol = 1e-5 * got.abs().max(fd.abs()) + 1e-7 * f0.abs().max(1.0);
                            assert!(
                                (got - fd).abs() <= tol,
                                "{}: partial {i} `{e}` = {got}, finite difference {fd}, at {args:?}",
                                rule.name
                            );
                        }
                    }
                }
                assert!(
                    skipped <= 2 && checked >= 18,
                    "{}: arg {i}: too many kink skips ({skipped})",
                    rule.name
                );
            }
        }
    }

    #[test]
    fn special_points() {
        // sqrt'(0) is 0 by convention, not inf.
        let sqrt = find_rule("llvm.sqrt", Family::Intrinsic).unwrap();
        assert_eq!(sqrt.partials[0].expr().unwrap().eval(&[0.0], 0.0), 0.0);
        // d/dy pow(0, y) is 0, not NaN.
        let pow = find_rule("pow", Family::Libm).unwrap();
        assert_eq!(pow.partials[1].expr().unwrap().eval(&[0.0, 2.0], 0.0), 0.0);
        // min/max: exactly one argument gets the adjoint on a tie.
        for name in [
            "llvm.minnum",
            "llvm.maxnum",
            "llvm.minimum",
            "llvm.maximum",
            "fmin",
            "fmax",
            "llvm.x86.sse2.max.pd",
            "llvm.x86.avx.min.pd.256",
        ] {
            let r = all_rules().iter().find(|r| r.name == name).unwrap();
            let s: f64 = r
                .partials
                .iter()
                .map(|p| p.expr().unwrap().eval(&[1.5, 1.5], 1.5))
                .sum();
            assert_eq!(s, 1.0, "{name}");
        }
        assert!(find_rule("llvm.floor", Family::Intrinsic)
            .unwrap()
            .all_zero());
        assert!(find_rule("llvm.exp", Family::Intrinsic)
            .unwrap()
            .uses_result());
    }

    #[test]
    fn erf_reference_is_accurate() {
        // Known values to 15 digits.
        assert!((erf(0.5) - 0.520_499_877_813_046_5).abs() < 1e-15);
        assert!((erf(-1.0) + 0.842_700_792_949_714_9).abs() < 1e-15);
        assert!((erf(2.0) - 0.995_322_265_018_952_7).abs() < 1e-15);
    }
}

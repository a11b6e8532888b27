//! The complex functions of `<complex.h>` (`cexp`, `clog`, `csqrt`, `csin` ...) as
//! registered-derivative rules in IR text (linked by `builtin.rs` when the module calls
//! them).
//!
//! Each is holomorphic: `dw = f'(z) dz`, a complex multiplication of the perturbation by
//! `k = f'(z)`, written with the result `w` or with another complex function:
//!
//! | function | `k` |
//! |---|---|
//! | `cexp` | `w` |
//! | `clog` | `1 / z` |
//! | `csqrt` | `1 / (2 w)` |
//! | `csin`, `ccos` | `ccos z`, `-csin z` |
//! | `ctan` | `1 + w^2` |
//! | `csinh`, `ccosh` | `ccosh z`, `csinh z` |
//! | `ctanh` | `1 - w^2` |
//! | `casin`, `cacos` | `1 / csqrt(1 - z^2)`, its negative |
//! | `casinh` | `1 / csqrt(1 + z^2)` |
//! | `cacosh` | `1 / (csqrt(z - 1) csqrt(z + 1))` |
//! | `catan`, `catanh` | `1 / (1 + z^2)`, `1 / (1 - z^2)` |
//!
//! The inverse functions' factors use the principal square root, whose branch cuts are
//! those of the function itself (`1 - z^2` is a non-positive real exactly on `casin`'s
//! cuts, `|Re z| >= 1`; `1 + z^2` on `casinh`'s, `|Im z| >= 1`), so off the cuts the
//! factor is the derivative of the principal branch C99 specifies. `cacosh` needs the
//! product of two roots: `csqrt(z^2 - 1)` has the opposite sign for `Re z < 0`.
//!
//! Multiplying a perturbation by `k` maps (dx, dy) to (kr dx - ki dy, ki dx + kr dy); the
//! reverse applies the transpose to the adjoint (gr, gi): (kr gr + ki gi, kr gi - ki gr).
//! At the branch cuts (`clog`, `csqrt` on the negative real axis) the derivative is the
//! one of the side the library returns.
//!
//! The x86-64 C ABI passes a `double complex` as two `double`s and returns `{ double,
//! double }`; a `float complex` travels as one `<2 x float>`. The rules follow each.

/// How `k = f'(z)` is computed.
#[derive(Clone, Copy)]
enum Factor {
    Result,
    Recip,
    HalfRecipResult,
    Other {
        name: &'static str,
        negate: bool,
    },
    OnePlusSquare,
    OneMinusSquare,
    /// `±1 / csqrt(1 ± z^2)`: `casin`, `cacos`, `casinh`.
    RecipSqrt {
        plus: bool,
        negate: bool,
    },
    /// `1 / (csqrt(z - 1) csqrt(z + 1))`: `cacosh`.
    RecipSqrtPair,
    /// `1 / (1 ± z^2)`: `catan`, `catanh`.
    RecipRational {
        plus: bool,
    },
}

const FUNCTIONS: &[(&str, Factor)] = &[
    ("cexp", Factor::Result),
    ("clog", Factor::Recip),
    ("csqrt", Factor::HalfRecipResult),
    (
        "csin",
        Factor::Other {
            name: "ccos",
            negate: false,
        },
    ),
    (
        "ccos",
        Factor::Other {
            name: "csin",
            negate: true,
        },
    ),
    ("ctan", Factor::OnePlusSquare),
    (
        "csinh",
        Factor::Other {
            name: "ccosh",
            negate: false,
        },
    ),
    (
        "ccosh",
        Factor::Other {
            name: "csinh",
            negate: false,
        },
    ),
    ("ctanh", Factor::OneMinusSquare),
    (
        "casin",
        Factor::RecipSqrt {
            plus: false,
            negate: false,
        },
    ),
    (
        "cacos",
        Factor::RecipSqrt {
            plus: false,
            negate: true,
        },
    ),
    (
        "casinh",
        Factor::RecipSqrt {
            plus: true,
            negate: false,
        },
    ),
    ("cacosh", Factor::RecipSqrtPair),
    ("catan", Factor::RecipRational { plus: true }),
    ("catanh", Factor::RecipRational { plus: false }),
];

/// The precisions: (suffix, element type).
const PRECISIONS: &[(&str, &str)] = &[("", "double"), ("f", "float")];

/// Every complex function with a rule, as called in IR (`cexp`, `cexpf` ...).
pub(crate) fn names() -> Vec<String> {
    FUNCTIONS
        .iter()
        .flat_map(|(n, _)| PRECISIONS.iter().map(move |(s, _)| format!("{n}{s}")))
        .collect()
}

/// The declaration of `name` (of precision `fp`) as clang emits it.
pub(crate) fn declaration(name: &str, fp: &str) -> String {
    if fp == "double" {
        format!("declare {{ double, double }} @{name}(double, double)\n")
    } else {
        format!("declare <2 x float> @{name}(<2 x float>)\n")
    }
}

/// The element type of complex function `name`, if it is one of [`names`].
pub(crate) fn precision(name: &str) -> Option<&'static str> {
    for (base, _) in FUNCTIONS {
        for (suffix, fp) in PRECISIONS {
            if name == format!("{base}{suffix}") {
                return Some(fp);
            }
        }
    }
    None
}

/// The functions a rule for `name` calls besides `name` (to be declared).
pub(crate) fn needs(name: &str) -> Vec<String> {
    let fp = precision(name).unwrap_or("double");
    let suffix = if fp == "double" { "" } else { "f" };
    FUNCTIONS
        .iter()
        .filter(|(n, _)| format!("{n}{suffix}") == name)
        .filter_map(|(_, f)| match f {
            Factor::Other { name, .. } => Some(format!("{name}{suffix}")),
            Factor::RecipSqrt { .. } | Factor::RecipSqrtPair => Some(format!("csqrt{suffix}")),
            _ => None,
        })
        .collect()
}

/// How one precision's complex numbers travel in IR (x86-64 C ABI): `double` as two
/// scalars in and `{ double, double }` out, `float` as one `<2 x float>` both ways.
struct Abi {
    fp: &'static str,
    pair: &'static str,
}

impl Abi {
    fn of(fp: &'static str) -> Abi {
        let pair = if fp == "double" {
            "{ double, double }"
        } else {
            "<2 x float>"
        };
        Abi { fp, pair }
    }
    fn is_double(&self) -> bool {
        self.fp == "double"
    }
    /// The parameters holding z = a + bi.
    fn z_params(&self) -> &'static str {
        if self.is_double() {
            "double %a, double %b"
        } else {
            "<2 x float> %z"
        }
    }
    /// Instructions defining `%a` and `%b` from the parameters.
    fn unpack_z(&self) -> String {
        if self.is_double() {
            String::new()
        } else {
            self.get("z", "a", "b")
        }
    }
    /// `%r`, `%i` = the parts of pair `%v`.
    fn get(&self, v: &str, r: &str, i: &str) -> String {
        let pair = self.pair;
        if self.is_double() {
            format!("  %{r} = extractvalue {pair} %{v}, 0\n  %{i} = extractvalue {pair} %{v}, 1\n")
        } else {
            format!("  %{r} = extractelement {pair} %{v}, i32 0\n  %{i} = extractelement {pair} %{v}, i32 1\n")
        }
    }
    /// `%out` = the pair (`%r`, `%i`).
    fn make(&self, r: &str, i: &str, out: &str) -> String {
        let (pair, fp) = (self.pair, self.fp);
        if self.is_double() {
            format!("  %{out}.0 = insertvalue {pair} poison, {fp} %{r}, 0\n  %{out} = insertvalue {pair} %{out}.0, {fp} %{i}, 1\n")
        } else {
            format!("  %{out}.0 = insertelement {pair} poison, {fp} %{r}, i32 0\n  %{out} = insertelement {pair} %{out}.0, {fp} %{i}, i32 1\n")
        }
    }
    /// A call of complex function `name` on z, defining `%out`.
    fn call(&self, name: &str, out: &str) -> String {
        let args = if self.is_double() {
            "double %a, double %b"
        } else {
            "<2 x float> %z"
        };
        format!("  %{out} = call {} @{name}({args})\n", self.pair)
    }
    /// A call of complex function `name` on `%r + %i i`, defining `%out`.
    fn call_parts(&self, name: &str, r: &str, i: &str, out: &str) -> String {
        let (pair, fp) = (self.pair, self.fp);
        if self.is_double() {
            format!("  %{out} = call {pair} @{name}({fp} %{r}, {fp} %{i})\n")
        } else {
            self.make(r, i, &format!("{out}.arg"))
                + &format!("  %{out} = call {pair} @{name}({pair} %{out}.arg)\n")
        }
    }
}

/// `%{out}r`, `%{out}i` = `1 ± z^2` from `%a`, `%b`.
fn one_plus_minus_square(fp: &str, plus: bool, out: &str) -> String {
    let add = if plus { "fadd" } else { "fsub" };
    format!(
        "  %hzaa = fmul {fp} %a, %a\n  %hzbb = fmul {fp} %b, %b\n  %hzab = fmul {fp} %a, %b\n  %hzr = fsub {fp} %hzaa, %hzbb\n  %hzi = fadd {fp} %hzab, %hzab\n  %{out}r = {add} {fp} 1.0, %hzr\n  %{out}i = {add} {fp} 0.0, %hzi\n"
    )
}

/// `%kr`, `%ki` = `±1 / (%{x}r + %{x}i i)`.
fn reciprocal(fp: &str, x: &str, negate: bool) -> String {
    let (re, im) = if negate {
        ("fneg", "fadd")
    } else {
        ("fadd", "fneg")
    };
    let re_arg = if negate {
        format!("{fp} %{x}r")
    } else {
        format!("{fp} 0.0, %{x}r")
    };
    let im_arg = if negate {
        format!("{fp} 0.0, %{x}i")
    } else {
        format!("{fp} %{x}i")
    };
    format!(
        "  %hn1 = fmul {fp} %{x}r, %{x}r\n  %hn2 = fmul {fp} %{x}i, %{x}i\n  %hn = fadd {fp} %hn1, %hn2\n  %hnr = {re} {re_arg}\n  %hni = {im} {im_arg}\n  %kr = fdiv {fp} %hnr, %hn\n  %ki = fdiv {fp} %hni, %hn\n"
    )
}

/// Instructions defining `%kr`, `%ki` (k = f'(z)) from `%a`, `%b` and the result's parts
/// `%wr`, `%wi`.
fn factor_ir(factor: Factor, abi: &Abi, suffix: &str) -> String {
    let fp = abi.fp;
    match factor {
        Factor::Result => format!("  %kr = fadd {fp} %wr, 0.0\n  %ki = fadd {fp} %wi, 0.0\n"),
        Factor::Recip => format!(
            "  %a2 = fmul {fp} %a, %a\n  %b2 = fmul {fp} %b, %b\n  %n = fadd {fp} %a2, %b2\n  %kr = fdiv {fp} %a, %n\n  %nb = fneg {fp} %b\n  %ki = fdiv {fp} %nb, %n\n"
        ),
        Factor::HalfRecipResult => format!(
            "  %w2r = fmul {fp} %wr, %wr\n  %w2i = fmul {fp} %wi, %wi\n  %n1 = fadd {fp} %w2r, %w2i\n  %n = fmul {fp} %n1, 2.0\n  %kr = fdiv {fp} %wr, %n\n  %nwi = fneg {fp} %wi\n  %ki = fdiv {fp} %nwi, %n\n"
        ),
        Factor::Other { name: other, negate } => {
            let mut s = abi.call(&format!("{other}{suffix}"), "o");
            s += &abi.get("o", "or", "oi");
            let op = if negate { "fsub" } else { "fadd" };
            s += &format!("  %kr = {op} {fp} 0.0, %or\n  %ki = {op} {fp} 0.0, %oi\n");
            s
        }
        Factor::OnePlusSquare | Factor::OneMinusSquare => {
            let add = if matches!(factor, Factor::OnePlusSquare) { "fadd" } else { "fsub" };
            format!(
                "  %rr = fmul {fp} %wr, %wr\n  %ii = fmul {fp} %wi, %wi\n  %ri = fmul {fp} %wr, %wi\n  %sqr = fsub {fp} %rr, %ii\n  %sqi = fmul {fp} %ri, 2.0\n  %kr = {add} {fp} 1.0, %sqr\n  %ki = {add} {fp} 0.0, %sqi\n"
            )
        }
        Factor::RecipSqrt { plus, negate } => {
            let mut s = one_plus_minus_square(fp, plus, "hq");
            s += &abi.call_parts(&format!("csqrt{suffix}"), "hqr", "hqi", "hs");
            s += &abi.get("hs", "hsr", "hsi");
            s + &reciprocal(fp, "hs", negate)
        }
        Factor::RecipSqrtPair => {
            let mut s = format!("  %hm = fsub {fp} %a, 1.0\n  %hp = fadd {fp} %a, 1.0\n");
            s += &abi.call_parts(&format!("csqrt{suffix}"), "hm", "b", "hs1");
            s += &abi.call_parts(&format!("csqrt{suffix}"), "hp", "b", "hs2");
            s += &abi.get("hs1", "h1r", "h1i");
            s += &abi.get("hs2", "h2r", "h2i");
            s += &format!(
                "  %hrr = fmul {fp} %h1r, %h2r\n  %hii = fmul {fp} %h1i, %h2i\n  %hri = fmul {fp} %h1r, %h2i\n  %hir = fmul {fp} %h1i, %h2r\n  %hpr = fsub {fp} %hrr, %hii\n  %hpi = fadd {fp} %hri, %hir\n"
            );
            s + &reciprocal(fp, "hp", false)
        }
        Factor::RecipRational { plus } => {
            one_plus_minus_square(fp, plus, "hq") + &reciprocal(fp, "hq", false)
        }
    }
}

/// `aug`, `rev` and `fwd` of complex function `name`.
pub(crate) fn rules_ir(name: &str) -> String {
    let fp = precision(name).expect("invariant: rules are made for the listed functions");
    let suffix = if fp == "double" { "" } else { "f" };
    let factor = FUNCTIONS
        .iter()
        .find(|(n, _)| format!("{n}{suffix}") == name)
        .map(|(_, f)| *f)
        .expect("listed above");
    let abi = Abi::of(fp);
    let (pair, z_params) = (abi.pair, abi.z_params());
    // The result w = f(z), and k.
    let body = abi.unpack_z()
        + &abi.call(name, "w")
        + &abi.get("w", "wr", "wi")
        + &factor_ir(factor, &abi, suffix);
    // aug: the real function, no tape.
    let mut s = format!(
        "define {{ ptr, {pair} }} @__fz_aug.{name}({z_params}) {{\n{}  %r0 = insertvalue {{ ptr, {pair} }} poison, ptr null, 0\n  %r = insertvalue {{ ptr, {pair} }} %r0, {pair} %w, 1\n  ret {{ ptr, {pair} }} %r\n}}\n",
        abi.unpack_z() + &abi.call(name, "w")
    );
    // rev: (da, db) = transpose(k) (gr, gi), returned as a pair of the argument's parts.
    let rev_ret = if abi.is_double() {
        "{ double, double }"
    } else {
        pair
    };
    s += &format!(
        "define {rev_ret} @__fz_rev.{name}({z_params}, {pair} %g, ptr %tape) {{\n{body}{}  %da1 = fmul {fp} %kr, %gr\n  %da2 = fmul {fp} %ki, %gi\n  %da = fadd {fp} %da1, %da2\n  %db1 = fmul {fp} %kr, %gi\n  %db2 = fmul {fp} %ki, %gr\n  %db = fsub {fp} %db1, %db2\n{}  ret {rev_ret} %d\n}}\n",
        abi.get("g", "gr", "gi"),
        abi.make("da", "db", "d")
    );
    // fwd: dw = k dz.
    let (fwd_params, unpack_t) = if abi.is_double() {
        (
            "double %a, double %ta, double %b, double %tb",
            String::new(),
        )
    } else {
        ("<2 x float> %z, <2 x float> %tz", abi.get("tz", "ta", "tb"))
    };
    s += &format!(
        "define {{ {pair}, {pair} }} @__fz_fwd.{name}({fwd_params}) {{\n{body}{unpack_t}  %tr1 = fmul {fp} %kr, %ta\n  %tr2 = fmul {fp} %ki, %tb\n  %tr = fsub {fp} %tr1, %tr2\n  %ti1 = fmul {fp} %ki, %ta\n  %ti2 = fmul {fp} %kr, %tb\n  %ti = fadd {fp} %ti1, %ti2\n{}  %p0 = insertvalue {{ {pair}, {pair} }} poison, {pair} %w, 0\n  %p1 = insertvalue {{ {pair}, {pair} }} %p0, {pair} %t, 1\n  ret {{ {pair}, {pair} }} %p1\n}}\n",
        abi.make("tr", "ti", "t")
    );
    s
}

/// The real-valued functions of a `float complex` (`<2 x float>` in, `float` out) with
/// rules here; their `double` versions take two `double`s and are rows of the rules
/// table. `cabsf`: `d|z| = (a da + b db) / |z|`; `cargf`: `d arg z = (a db - b da) / |z|^2`;
/// both 0 at `z = 0`.
pub(crate) const REAL_VALUED: &[&str] = &["cabsf", "cargf"];

/// The declaration of one of [`REAL_VALUED`].
pub(crate) fn real_valued_declaration(name: &str) -> String {
    format!("declare float @{name}(<2 x float>)\n")
}

/// `aug`, `rev` and `fwd` of one of [`REAL_VALUED`].
pub(crate) fn real_valued_rules_ir(name: &str) -> String {
    // (pa, pb): the partials with respect to the real and imaginary parts.
    let partials = if name == "cabsf" {
        "  %n = fadd float 0.0, %w\n  %pa0 = fdiv float %a, %n\n  %pb0 = fdiv float %b, %n\n"
    } else {
        "  %a2 = fmul float %a, %a\n  %b2 = fmul float %b, %b\n  %n = fadd float %a2, %b2\n  %nb = fneg float %b\n  %pa0 = fdiv float %nb, %n\n  %pb0 = fdiv float %a, %n\n"
    };
    let body = format!(
        "  %a = extractelement <2 x float> %z, i32 0\n  %b = extractelement <2 x float> %z, i32 1\n  %w = call float @{name}(<2 x float> %z)\n{partials}  %zero = fcmp oeq float %n, 0.0\n  %pa = select i1 %zero, float 0.0, float %pa0\n  %pb = select i1 %zero, float 0.0, float %pb0\n"
    );
    let mut s = format!(
        "define {{ ptr, float }} @__fz_aug.{name}(<2 x float> %z) {{\n  %w = call float @{name}(<2 x float> %z)\n  %r0 = insertvalue {{ ptr, float }} poison, ptr null, 0\n  %r = insertvalue {{ ptr, float }} %r0, float %w, 1\n  ret {{ ptr, float }} %r\n}}\n"
    );
    s += &format!(
        "define <2 x float> @__fz_rev.{name}(<2 x float> %z, float %g, ptr %tape) {{\n{body}  %da = fmul float %pa, %g\n  %db = fmul float %pb, %g\n  %o0 = insertelement <2 x float> poison, float %da, i32 0\n  %o1 = insertelement <2 x float> %o0, float %db, i32 1\n  ret <2 x float> %o1\n}}\n"
    );
    s += &format!(
        "define {{ float, float }} @__fz_fwd.{name}(<2 x float> %z, <2 x float> %tz) {{\n{body}  %ta = extractelement <2 x float> %tz, i32 0\n  %tb = extractelement <2 x float> %tz, i32 1\n  %t1 = fmul float %pa, %ta\n  %t2 = fmul float %pb, %tb\n  %t = fadd float %t1, %t2\n  %p0 = insertvalue {{ float, float }} poison, float %w, 0\n  %p1 = insertvalue {{ float, float }} %p0, float %t, 1\n  ret {{ float, float }} %p1\n}}\n"
    );
    s
}

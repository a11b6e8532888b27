//! Name normalisation: from the names that appear in IR to table rows.
//!
//! * **Intrinsics** are overloaded by type and carry *mangling suffixes*:
//!   `llvm.sin.f64`, `llvm.sin.v4f64`, `llvm.powi.f64.i32`,
//!   `llvm.fmuladd.nxv2f64`, `llvm.lifetime.start.p0`.  [`intrinsic_base`]
//!   strips trailing dot-separated segments that look like type manglings
//!   (`f16 bf16 f32 f64 f80 f128 ppcf128`, `iN`, `pN` / `pNi8`, each
//!   optionally prefixed by `vN` or `nxvN`) and the base is looked up in the
//!   table.  A segment that is not a type (`log2`, `start`, `with`) stops the
//!   stripping, so `llvm.log2.f32` becomes `llvm.log2`.
//! * **libm** functions come as the `double` name (`sin`) or the `float`
//!   twin with an `f` suffix (`sinf`); both map to the same row.  The exact
//!   name is tried first, so `erf` is found as itself, and `erff` as `erf`.
//!   `long double` (`sinl`) is not mapped here: what `long double` is depends
//!   on the target, so the call classifier (`ferrozyme-analysis`'s `calls`)
//!   maps `sinl` to `sin`'s row only for x86's `x86_fp80` results; the rule
//!   is lowered at the call's type (`llvm.cos.f80`).
//! * **Zero-derivative intrinsics**: besides the table rows whose partials are
//!   all structural zeros (`llvm.floor`, ...), a second small table lists
//!   intrinsics that never carry a derivative at all — bookkeeping and hints
//!   (`llvm.lifetime.*`, `llvm.dbg.*`, `llvm.assume`), integer-only math
//!   (`llvm.smax`, `llvm.ctpop`), and float-to-integer roundings
//!   (`llvm.lround`).  Each entry states why.  Calls to these are simply
//!   copied into the derivative code (or dropped) and contribute nothing.
//!   Memory intrinsics (`llvm.memcpy`, `llvm.memset`, `llvm.memmove`) are
//!   *not* in this table: they move derivative data and the transform must
//!   handle them structurally.

use crate::table::{find_rule, Family, Rule};

/// Is this dot-separated segment an LLVM type mangling (`f64`, `v4f32`,
/// `nxv2f64`, `i32`, `p0`, `p0i8`)?
fn is_type_suffix(seg: &str) -> bool {
    // Vector prefix: `nxvN` or `vN`.
    let rest = if let Some(r) = seg.strip_prefix("nxv") {
        strip_digits(r)
    } else if let Some(r) = seg.strip_prefix('v') {
        strip_digits(r)
    } else {
        Some(seg)
    };
    let Some(elem) = rest else { return false };
    if matches!(
        elem,
        "f16" | "bf16" | "f32" | "f64" | "f80" | "f128" | "ppcf128"
    ) {
        return true;
    }
    if let Some(r) = elem.strip_prefix('i') {
        return strip_digits(r) == Some("");
    }
    if let Some(r) = elem.strip_prefix('p') {
        // Opaque `p0`, or legacy typed `p0i8` / `p0f64`.
        return match strip_digits(r) {
            Some("") => true,
            Some(pointee) => pointee.len() > 1 && is_type_suffix(pointee),
            None => false,
        };
    }
    false
}

/// Strip a non-empty run of leading ASCII digits; `None` if there is none.
fn strip_digits(s: &str) -> Option<&str> {
    let n = s.bytes().take_while(u8::is_ascii_digit).count();
    (n > 0).then(|| &s[n..])
}

/// The base name of an intrinsic: `llvm.powi.f64.i32` -> `llvm.powi`.
///
/// Names that do not start with `llvm.` are returned unchanged.  At least one
/// segment after `llvm.` is always kept.
pub fn intrinsic_base(name: &str) -> &str {
    if !name.starts_with("llvm.") {
        return name;
    }
    let mut base = name;
    while let Some((head, last)) = base.rsplit_once('.') {
        if head == "llvm" || !is_type_suffix(last) {
            break;
        }
        base = head;
    }
    base
}

/// The derivative rule of an intrinsic, given its full (mangled) name.
pub fn intrinsic_rule(name: &str) -> Option<&'static Rule> {
    find_rule(intrinsic_base(name), Family::Intrinsic)
}

/// The derivative rule of a libm function: `sin` or `sinf` (not `sinl`), and glibc's
/// reentrant `lgamma_r` or `lgammaf_r`.
pub fn libm_rule(name: &str) -> Option<&'static Rule> {
    let find = |n: &str| find_rule(n, Family::Libm);
    find(name)
        .or_else(|| name.strip_suffix('f').and_then(find))
        .or_else(|| {
            name.strip_suffix("f_r")
                .and_then(|base| find(&format!("{base}_r")))
        })
}

/// Intrinsics that never carry a derivative, with the reason.  An entry
/// ending in `.` is a prefix (a whole family); others match the base name
/// exactly (after [`intrinsic_base`]).
const ZERO_DERIVATIVE: &[(&str, &str)] = &[
    // Float -> integer roundings: piecewise constant, integer result.
    (
        "llvm.lround",
        "float-to-integer rounding: integer result, piecewise constant",
    ),
    (
        "llvm.llround",
        "float-to-integer rounding: integer result, piecewise constant",
    ),
    (
        "llvm.lrint",
        "float-to-integer rounding: integer result, piecewise constant",
    ),
    (
        "llvm.llrint",
        "float-to-integer rounding: integer result, piecewise constant",
    ),
    (
        "llvm.fptosi.sat",
        "float-to-integer conversion: integer result",
    ),
    (
        "llvm.fptoui.sat",
        "float-to-integer conversion: integer result",
    ),
    // x86 vector float -> int32 conversions (Eigen's `pexp` takes the exponent with
    // `_mm_cvtpd_epi32`): integer result.
    (
        "llvm.x86.sse2.cvtpd2dq",
        "float-to-integer conversion: integer result",
    ),
    (
        "llvm.x86.sse2.cvttpd2dq",
        "float-to-integer conversion: integer result",
    ),
    (
        "llvm.x86.sse2.cvtps2dq",
        "float-to-integer conversion: integer result",
    ),
    (
        "llvm.x86.avx.cvt.pd2dq.256",
        "float-to-integer conversion: integer result",
    ),
    (
        "llvm.x86.avx.cvtt.pd2dq.256",
        "float-to-integer conversion: integer result",
    ),
    (
        "llvm.x86.avx.cvt.ps2dq.256",
        "float-to-integer conversion: integer result",
    ),
    (
        "llvm.x86.sse2.cvtsd2si",
        "float-to-integer conversion: integer result",
    ),
    (
        "llvm.x86.sse2.cvtsd2si64",
        "float-to-integer conversion: integer result",
    ),
    (
        "llvm.x86.sse.cvtss2si",
        "float-to-integer conversion: integer result",
    ),
    (
        "llvm.x86.sse.cvtss2si64",
        "float-to-integer conversion: integer result",
    ),
    (
        "llvm.is.fpclass",
        "classification predicate: boolean result",
    ),
    // Bookkeeping, hints and debug info.
    ("llvm.lifetime.", "lifetime marker: no data flow"),
    ("llvm.dbg.", "debug info: no data flow"),
    ("llvm.assume", "optimizer hint: no data flow"),
    (
        "llvm.experimental.noalias.scope.decl",
        "alias-analysis hint: no data flow",
    ),
    ("llvm.invariant.", "invariant marker: no data flow"),
    (
        "llvm.stacksave",
        "stack bookkeeping: pointer result, no float data",
    ),
    ("llvm.stackrestore", "stack bookkeeping: no float data"),
    ("llvm.prefetch", "cache hint: no data flow"),
    ("llvm.expect", "branch-weight hint on an integer value"),
    (
        "llvm.expect.with.probability",
        "branch-weight hint on an integer value",
    ),
    ("llvm.donothing", "no-op"),
    ("llvm.sideeffect", "no-op marking a side effect"),
    ("llvm.pseudoprobe", "profiling probe: no data flow"),
    ("llvm.var.annotation", "annotation: no data flow"),
    ("llvm.ptr.annotation", "annotation: no float data"),
    ("llvm.annotation", "annotation on an integer value"),
    ("llvm.trap", "terminates the program: no data flow"),
    ("llvm.debugtrap", "debugger trap: no data flow"),
    ("llvm.ubsantrap", "terminates the program: no data flow"),
    ("llvm.objectsize", "integer result"),
    ("llvm.experimental.widenable.condition", "boolean result"),
    // Integer-only arithmetic: never carries a derivative.
    ("llvm.smax", "integer arithmetic"),
    ("llvm.smin", "integer arithmetic"),
    ("llvm.umax", "integer arithmetic"),
    ("llvm.umin", "integer arithmetic"),
    (
        "llvm.abs",
        "integer arithmetic (the float one is llvm.fabs)",
    ),
    ("llvm.ctpop", "integer bit counting"),
    ("llvm.ctlz", "integer bit counting"),
    ("llvm.cttz", "integer bit counting"),
    ("llvm.bswap", "integer bit manipulation"),
    ("llvm.bitreverse", "integer bit manipulation"),
    ("llvm.fshl", "integer bit manipulation"),
    ("llvm.fshr", "integer bit manipulation"),
    ("llvm.sadd.with.overflow", "integer arithmetic"),
    ("llvm.uadd.with.overflow", "integer arithmetic"),
    ("llvm.ssub.with.overflow", "integer arithmetic"),
    ("llvm.usub.with.overflow", "integer arithmetic"),
    ("llvm.smul.with.overflow", "integer arithmetic"),
    ("llvm.umul.with.overflow", "integer arithmetic"),
    ("llvm.sadd.sat", "integer arithmetic"),
    ("llvm.uadd.sat", "integer arithmetic"),
    ("llvm.ssub.sat", "integer arithmetic"),
    ("llvm.usub.sat", "integer arithmetic"),
    ("llvm.scmp", "integer comparison"),
    ("llvm.ucmp", "integer comparison"),
];

/// Why an intrinsic never carries a derivative, or `None` if it may.
///
/// Covers both the second table above and rule rows whose partials are all
/// structural zeros (`llvm.floor` and friends).
pub fn zero_derivative_reason(name: &str) -> Option<&'static str> {
    if intrinsic_rule(name).is_some_and(Rule::all_zero) {
        return Some("piecewise constant: derivative is zero almost everywhere");
    }
    let base = intrinsic_base(name);
    ZERO_DERIVATIVE.iter().find_map(|&(pat, why)| {
        let hit = if pat.ends_with('.') {
            name.starts_with(pat)
        } else {
            base == pat
        };
        hit.then_some(why)
    })
}

/// Does this intrinsic never carry a derivative?  See [`zero_derivative_reason`].
pub fn zero_derivative_intrinsic(name: &str) -> bool {
    zero_derivative_reason(name).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes() {
        for (full, base) in [
            ("llvm.sin.f64", "llvm.sin"),
            ("llvm.sin.v4f64", "llvm.sin"),
            ("llvm.sqrt.nxv2f64", "llvm.sqrt"),
            ("llvm.powi.f64.i32", "llvm.powi"),
            ("llvm.powi.v2f32.i16", "llvm.powi"),
            ("llvm.log2.f32", "llvm.log2"),
            ("llvm.exp2.bf16", "llvm.exp2"),
            ("llvm.fma.ppcf128", "llvm.fma"),
            ("llvm.lifetime.start.p0", "llvm.lifetime.start"),
            ("llvm.lifetime.start.p0i8", "llvm.lifetime.start"),
            ("llvm.sadd.with.overflow.i32", "llvm.sadd.with.overflow"),
            ("llvm.sin", "llvm.sin"),
            ("llvm.i32", "llvm.i32"),
            ("sin", "sin"),
        ] {
            assert_eq!(intrinsic_base(full), base, "{full}");
        }
    }

    #[test]
    fn intrinsic_lookup() {
        let name = |n: &str| intrinsic_rule(n).map(|r| r.name);
        assert_eq!(name("llvm.sin.v4f64"), Some("llvm.sin"));
        assert_eq!(
            intrinsic_rule("llvm.sin.v4f64"),
            intrinsic_rule("llvm.sin.f64")
        );
        assert_eq!(name("llvm.powi.f64.i32"), Some("llvm.powi"));
        assert_eq!(name("llvm.fmuladd.f32"), Some("llvm.fmuladd"));
        assert_eq!(name("llvm.fmuladd.v2f64"), Some("llvm.fmuladd"));
        assert_eq!(name("llvm.maximum.nxv4f32"), Some("llvm.maximum"));
        assert_eq!(name("llvm.sinh.f80"), Some("llvm.sinh"));
        assert_eq!(name("llvm.memcpy.p0.p0.i64"), None);
        assert_eq!(name("sin"), None);
        assert_eq!(name("llvm.sinx.f64"), None);
        let powi = intrinsic_rule("llvm.powi.f32.i32").unwrap();
        assert!(powi.partials[1].is_zero());
    }

    #[test]
    fn libm_lookup() {
        assert!(libm_rule("exp").is_some());
        assert_eq!(libm_rule("expf"), libm_rule("exp"));
        assert_eq!(libm_rule("sinf").unwrap().name, "sin");
        assert_eq!(libm_rule("erf").unwrap().name, "erf");
        assert_eq!(libm_rule("erff").unwrap().name, "erf");
        assert_eq!(libm_rule("fabsf").unwrap().name, "fabs");
        assert_eq!(libm_rule("hypotf").unwrap().arity, 2);
        assert_eq!(libm_rule("nonexistent"), None);
        assert_eq!(libm_rule("sinl"), None);
        assert_eq!(libm_rule("lgammaf_r").unwrap().name, "lgamma_r");
        assert_eq!(libm_rule("lgammaf_r").unwrap().arity, 2);
        assert_eq!(libm_rule("llvm.sin"), None);
        assert_eq!(libm_rule("fadd"), None);
        assert_eq!(libm_rule("f"), None);
    }

    #[test]
    fn zero_derivative() {
        for n in [
            "llvm.lifetime.start.p0",
            "llvm.lifetime.end.p0",
            "llvm.dbg.value",
            "llvm.dbg.declare",
            "llvm.assume",
            "llvm.experimental.noalias.scope.decl",
            "llvm.stacksave.p0",
            "llvm.stackrestore.p0",
            "llvm.prefetch.p0",
            "llvm.invariant.start.p0",
            "llvm.smax.i32",
            "llvm.umin.v4i64",
            "llvm.abs.i32",
            "llvm.ctpop.i64",
            "llvm.ctlz.i32",
            "llvm.cttz.i8",
            "llvm.expect.i1",
            "llvm.is.fpclass.f64",
            "llvm.floor.f64",
            "llvm.ceil.v4f32",
            "llvm.round.f32",
            "llvm.trunc.f64",
            "llvm.rint.f64",
            "llvm.nearbyint.f64",
            "llvm.roundeven.f64",
            "llvm.lround.i64.f64",
            "llvm.llrint.i64.f32",
        ] {
            assert!(zero_derivative_intrinsic(n), "{n}");
            assert!(!zero_derivative_reason(n).unwrap().is_empty());
        }
        for n in [
            "llvm.sin.f64",
            "llvm.fabs.f64",
            "llvm.memcpy.p0.p0.i64",
            "llvm.copysign.f64",
            "llvm.powi.f64.i32",
            "sin",
        ] {
            assert!(!zero_derivative_intrinsic(n), "{n}");
        }
    }
}

/// The zero-derivative intrinsic table (name or `prefix.`, reason), for documentation.
pub fn zero_derivative_table() -> &'static [(&'static str, &'static str)] {
    ZERO_DERIVATIVE
}

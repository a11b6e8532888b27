//! Math with two results, split into operations that have rules, in the clone being
//! differentiated (`clone::preprocess`, before SSA construction).
//!
//! A row of the rules table describes one result. clang emits four operations with two:
//! `{T, T} @llvm.sincos(x)` (GNU `sincos` under `-ffast-math`), `{T, T} @llvm.modf(x)`
//! (C `modf`/`modff` at every `-O` level, scalar or vectorized `<4 x double>`), and, without
//! fast-math, the library calls `void sincos(x, T *s, T *c)` / `sincosf` (and `modf(x, T *)`
//! where some other front end keeps the call). Each becomes what it computes:
//!
//! * `sincos(x)` -> `sin(x)`, `cos(x)` (`llvm.sin`/`llvm.cos` at the same type; glibc's
//!   `sincos` is the `sin` and `cos` algorithms run together, so the values agree);
//! * `frexp(x)` (`{T, i32} @llvm.frexp(x)`, what `std::frexp(long double)` and boost's
//!   special functions compile to) -> exponent `e = ilogb(x) + 1` (0 for a zero, an
//!   infinity or a NaN, as frexp), mantissa `ldexp(x, -e)` (exact); the mantissa's
//!   derivative is `2^-e` through `llvm.ldexp`'s rule, the exponent an integer;
//! * `modf(x)` -> integral part `trunc(x)` (exact), fractional part `x - trunc(x)` (exact
//!   for finite `x`: for |x| < 1 it is `x`, otherwise the two are within a factor 2),
//!   with modf's signs kept: for `x` with the sign bit set, `-(trunc(x) - x)`, so a
//!   negative integer gives `-0`; and `copysign(0, x)` for an infinite `x`. The
//!   derivative follows: 1 for the fractional part, 0 for the integral part.
//!
//! The library calls store the results through their pointers, so the derivative writes
//! (forward) and reads (reverse) the shadows of `s`, `c` and `*ip` like any store.
//! Calls whose types do not have this shape are left alone (and stay missing-derivative
//! errors). The user's primal program keeps calling the originals.

use ferrozyme_llvm::{Builder, Module, Opcode, RealPredicate, Type, Value};

/// What a call computes, by its callee.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// `{T, T} @llvm.sincos(T)`.
    SincosPair,
    /// `{T, T} @llvm.modf(T)`.
    ModfPair,
    /// `{T, i32} @llvm.frexp(T)`, T a scalar float.
    FrexpPair,
    /// `void sincos(T, ptr, ptr)`.
    SincosStores,
    /// `T modf(T, ptr)`.
    ModfStore,
}

fn kind(call: Value) -> Option<Kind> {
    let g = call.called_function()?;
    let args = call.call_args();
    let x = *args.first()?;
    let t = x.ty();
    if !t.is_fp() {
        return None;
    }
    let rt = call.ty();
    let pair = || rt.kind() == ferrozyme_llvm::TypeKind::Struct && rt.struct_fields() == [t, t];
    let name = g.name();
    let k = if g.is_intrinsic("llvm.sincos") && args.len() == 1 && pair() {
        Kind::SincosPair
    } else if g.is_intrinsic("llvm.modf") && args.len() == 1 && pair() {
        Kind::ModfPair
    } else if g.is_intrinsic("llvm.frexp")
        && args.len() == 1
        && t.is_fp_scalar()
        && ilogb_name(t).is_some()
        && rt.kind() == ferrozyme_llvm::TypeKind::Struct
        && rt.struct_fields() == [t, t.context().i32()]
    {
        Kind::FrexpPair
    } else if !g.is_declaration() || !t.is_fp_scalar() {
        return None;
    } else if matches!(name.as_str(), "sincos" | "sincosf")
        && args.len() == 3
        && args[1].ty().is_pointer()
        && args[2].ty().is_pointer()
        && rt.kind() == ferrozyme_llvm::TypeKind::Void
    {
        Kind::SincosStores
    } else if matches!(name.as_str(), "modf" | "modff")
        && args.len() == 2
        && args[1].ty().is_pointer()
        && rt == t
    {
        Kind::ModfStore
    } else {
        return None;
    };
    // `sincosf` takes floats, `sincos` doubles (a mismatched declaration is left alone).
    let scalar_ok = match name.as_str() {
        "sincos" | "modf" => t == t.context().f64(),
        "sincosf" | "modff" => t == t.context().f32(),
        _ => true,
    };
    scalar_ok.then_some(k)
}

/// Rewrites the two-result math calls of `f` (see the module documentation).
pub fn split(m: Module, f: Value) {
    let calls: Vec<(Value, Kind)> = f.calls().filter_map(|i| kind(i).map(|k| (i, k))).collect();
    if calls.is_empty() {
        return;
    }
    let b = Builder::new(m.context());
    for (call, k) in calls {
        b.position_before(call);
        let args = call.call_args();
        let x = args[0];
        let t = x.ty();
        let intr = |name: &'static str| m.intrinsic(name, &[t]);
        let replacement = match k {
            Kind::SincosPair | Kind::SincosStores => {
                let (Some(sin), Some(cos)) = (intr("llvm.sin"), intr("llvm.cos")) else {
                    continue;
                };
                let (s, c) = (b.call_fn(sin, &[x]), b.call_fn(cos, &[x]));
                if k == Kind::SincosStores {
                    b.store(s, args[1]);
                    b.store(c, args[2]);
                    None
                } else {
                    Some(pair(&b, call.ty(), s, c))
                }
            }
            Kind::FrexpPair => {
                let Some((mant, exp)) = frexp_parts(m, &b, x, t) else {
                    continue;
                };
                Some(pair(&b, call.ty(), mant, exp))
            }
            Kind::ModfPair | Kind::ModfStore => {
                let Some((frac, int)) = modf_parts(m, &b, x, t) else {
                    continue;
                };
                if k == Kind::ModfStore {
                    b.store(int, args[1]);
                    Some(frac)
                } else {
                    Some(pair(&b, call.ty(), frac, int))
                }
            }
        };
        if let Some(v) = replacement {
            call.replace_all_uses_with(v);
        }
        call.erase();
    }
}

fn pair(b: &Builder, ty: Type, first: Value, second: Value) -> Value {
    let agg = b.insert_value(ty.poison(), first, 0);
    b.insert_value(agg, second, 1)
}

/// The C library's `ilogb` for the float type `t` (its integer result carries no
/// derivative: an inactive library call).
fn ilogb_name(t: Type) -> Option<&'static str> {
    let c = t.context();
    if t == c.f32() {
        Some("ilogbf")
    } else if t == c.f64() {
        Some("ilogb")
    } else if t == c.f80() {
        Some("ilogbl")
    } else {
        None
    }
}

/// frexp's (mantissa, exponent) of `x`: `e = ilogb(x) + 1`, or 0 where frexp gives 0 (a
/// zero, an infinity, a NaN: there the mantissa is `x` itself), and `ldexp(x, -e)`.
fn frexp_parts(m: Module, b: &Builder, x: Value, t: Type) -> Option<(Value, Value)> {
    let i32t = t.context().i32();
    let ilogb = m.get_or_declare(ilogb_name(t)?, t.context().function_type(i32t, &[t], false));
    let ldexp = m.intrinsic("llvm.ldexp", &[t, i32t])?;
    let fabs = m.intrinsic("llvm.fabs", &[t])?;
    let k = b.call_fn(ilogb, &[x]);
    let ax = b.call_fn(fabs, &[x]);
    let zero = b.fcmp(RealPredicate::LLVMRealOEQ, ax, t.zero());
    // unordered or equal: a NaN or an infinity
    let nonfinite = b.fcmp(RealPredicate::LLVMRealUEQ, ax, t.const_float(f64::INFINITY));
    let special = b.binop(Opcode::LLVMOr, zero, nonfinite);
    let e = b.select(
        special,
        i32t.const_i64(0),
        b.binop(Opcode::LLVMAdd, k, i32t.const_i64(1)),
    );
    let mant = b.call_fn(ldexp, &[x, b.binop(Opcode::LLVMSub, i32t.const_i64(0), e)]);
    Some((mant, e))
}

/// modf's (fractional, integral) parts of `x` from `trunc`, with modf's signed zeros and
/// its `±0` fractional part at infinity.
fn modf_parts(m: Module, b: &Builder, x: Value, t: Type) -> Option<(Value, Value)> {
    let trunc = m.intrinsic("llvm.trunc", &[t])?;
    let copysign = m.intrinsic("llvm.copysign", &[t])?;
    let fabs = m.intrinsic("llvm.fabs", &[t])?;
    let int = b.call_fn(trunc, &[x]);
    let up = b.fsub(x, int);
    let down = b.fneg(b.fsub(int, x));
    // the sign bit of x (also for -0.0): copysign(1, x) < 0
    let sign = b.call_fn(copysign, &[t.const_float(1.0), x]);
    let negative = b.fcmp(RealPredicate::LLVMRealOLT, sign, t.zero());
    let finite = b.select(negative, down, up);
    let inf = b.fcmp(
        RealPredicate::LLVMRealOEQ,
        b.call_fn(fabs, &[x]),
        t.const_float(f64::INFINITY),
    );
    let zero = b.call_fn(copysign, &[t.zero(), x]);
    Some((b.select(inf, zero, finite), int))
}

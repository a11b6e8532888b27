//! Error estimation (`__enzyme_error_estimate`): forward mode whose tangents are estimates
//! of absolute floating-point error instead of perturbations, in Enzyme's model.
//!
//! For a result `r = f(x_1, ..., x_n)` computed in floating point, an absolute error `e_i`
//! on each operand reaches the result scaled by the magnitude of the partial derivative,
//! and the operation adds its own rounding, machine epsilon of the type relative to the
//! result (`2^-52` for `double`, `2^-23` for `float`, `2^-10` for `half`):
//!
//! ```text
//! e_r = Σ_i |∂f/∂x_i| · e_i + ε · |r|
//! ```
//!
//! Magnitudes, not signs: errors of different operands never cancel. Exact operations
//! (negation) add no rounding; memory, phis, selects and casts move errors like tangents.
//! The hook returns the estimate for the result given the caller's estimates for the
//! arguments (`__enzyme_error_estimate((void *)f, x, 0.0)`: `x` exact). It is a first-order
//! model (the error a perturbation analysis predicts), not a bound that holds for every
//! rounding; tests/c/545 checks it against the error MPFR measures.

use ferrozyme_llvm::{Builder, Module, Type, TypeKind, Value};

/// `|v|`.
pub(super) fn fabs(b: &Builder, m: Module, v: Value) -> Value {
    let f = m
        .intrinsic("llvm.fabs", &[v.ty()])
        .expect("invariant: llvm.fabs exists for every floating type");
    b.call_fn(f, &[v])
}

/// `e + ε·|r|`: the rounding of the operation that produced `r`.
pub(super) fn add_rounding(b: &Builder, m: Module, e: Value, r: Value, ty: Type) -> Value {
    let scalar = if ty.kind() == TypeKind::Vector {
        ty.element_type()
    } else {
        ty
    };
    let eps = match scalar.kind() {
        TypeKind::Float => f64::powi(2.0, -23),
        TypeKind::Half => f64::powi(2.0, -10),
        _ => f64::EPSILON,
    };
    let own = b.fmul(fabs(b, m, r), ty.const_float(eps));
    b.fadd(e, own)
}

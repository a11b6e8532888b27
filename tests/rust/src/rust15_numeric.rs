//! rust15: numeric code as users write it — a float trait of their own with an associated
//! constant (instead of `num_traits`) used generically as `f64` and `f32`, the `f64`
//! methods of geometry and statistics (`hypot`, `atan2`, `ln_1p`, `mul_add`, `exp_m1`,
//! `powi`, `sin_cos`, `log2`, `exp2`, `recip`, `to_radians`), `impl Trait` arguments and
//! results (a Simpson rule taking `impl Fn`, a weighting over `impl Iterator`, a closure
//! returned as `impl Fn`), closures capturing parameters by reference and an accumulator
//! by `&mut`, a const-generic array length, and an RK4 integrator over `[f64; 2]` states.
//! Every derivative is checked against a formula written here or finite differences.

use ferrozyme::{autodiff_forward, autodiff_reverse};
use std::ops::{Add, Div, Mul, Neg, Sub};

/// The float trait a user writes for a library generic over `f32`/`f64`.
pub trait Scalar:
    Copy
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + std::iter::Sum
{
    const ONE: Self;
    fn from_usize(v: usize) -> Self;
    fn sqrt(self) -> Self;
    fn ln_1p(self) -> Self;
    fn hypot(self, other: Self) -> Self;
}

macro_rules! scalar_impl {
    ($t:ty) => {
        impl Scalar for $t {
            const ONE: $t = 1.0;
            fn from_usize(v: usize) -> $t {
                v as $t
            }
            fn sqrt(self) -> $t {
                <$t>::sqrt(self)
            }
            fn ln_1p(self) -> $t {
                <$t>::ln_1p(self)
            }
            fn hypot(self, other: $t) -> $t {
                <$t>::hypot(self, other)
            }
        }
    };
}
scalar_impl!(f64);
scalar_impl!(f32);

/// A smoothed length of a polyline plus a log penalty, generic over the float type.
#[autodiff_reverse(d_soft_length, Duplicated, Const, Active)]
pub fn soft_length<T: Scalar>(x: &[T], eps: T) -> T {
    let len: T = x.windows(2).map(|w| w[0].hypot(w[1])).sum();
    let pen: T = x.iter().map(|&v| (v * v).ln_1p()).sum();
    (len * len + eps).sqrt() + pen / T::from_usize(x.len()) + T::ONE
}

/// Polar coordinates, an affine `mul_add`, `ln_1p`, `exp_m1`, `asinh`: a gradient the
/// test writes by hand.
#[autodiff_reverse(d_geometry, Duplicated, Active)]
#[autodiff_forward(t_geometry, Dual, Dual)]
pub fn geometry(p: &[f64; 6]) -> f64 {
    let [x, y, z, a, b, c] = *p;
    let r = x.hypot(y);
    let theta = y.atan2(x);
    r.powi(3)
        + theta * z
        + a.mul_add(b, c).ln_1p()
        + z.exp_m1()
        + b.asinh()
        + c.mul_add(c, 1.0).sqrt()
}

/// More methods: `sin_cos`, `log2`, `exp2`, `recip`, `to_radians`, `powf`, `log10`, `cbrt`.
#[autodiff_reverse(d_more_methods, Duplicated, Active)]
pub fn more_methods(x: &[f64; 4]) -> f64 {
    let (s, c) = x[0].to_radians().sin_cos();
    s * c + x[1].log2() * x[2].exp2() + x[3].recip() + x[1].powf(x[2]) + x[3].log10() * x[0].cbrt()
}

/// Composite Simpson rule on `[a, b]` with `n` (even) intervals, of any `impl Fn`.
pub fn simpson(f: impl Fn(f64) -> f64, a: f64, b: f64, n: usize) -> f64 {
    let h = (b - a) / n as f64;
    let inner: f64 = (1..n)
        .map(|i| {
            let w = if i % 2 == 1 { 4.0 } else { 2.0 };
            w * f(a + i as f64 * h)
        })
        .sum();
    (f(a) + inner + f(b)) * h / 3.0
}

/// A weighted sum of any iterator of floats, weights by position.
fn weighted(xs: impl Iterator<Item = f64>, w: impl Fn(usize) -> f64) -> f64 {
    xs.enumerate().map(|(i, v)| w(i) * v).sum()
}

/// A closure returned as `impl Fn`, capturing its parameter by value.
fn scaler(s: f64) -> impl Fn(f64) -> f64 {
    move |t| s * t.sin()
}

/// `∫₀¹ (c₀ + c₁t + c₂t²) e^{-t} dt` by Simpson, a weighted sum of squares through
/// `impl Iterator`, and a closure made by `scaler`.
#[autodiff_reverse(d_moments, Duplicated, Active)]
pub fn moments(c: &[f64; 3]) -> f64 {
    let integral = simpson(
        |t| (c[0] + c[1] * t + c[2] * t * t) * (-t).exp(),
        0.0,
        1.0,
        16,
    );
    let squares = weighted(c.iter().map(|v| v * v), |i| (i + 1) as f64);
    let g = scaler(c[0]);
    integral + squares + g(c[1])
}

/// Closures capturing the parameters by reference, a constant by reference, and an
/// accumulator by `&mut`: least squares with a ridge penalty.
#[autodiff_reverse(d_ridge, Duplicated, Const, Active)]
pub fn ridge(x: &[f64], target: &[f64]) -> f64 {
    let lambda = 0.1;
    let resid = |i: usize| x[i] - target[i];
    let reg = |v: &f64| lambda * v * v;
    let mut acc = 0.0;
    let mut push = |v: f64| acc += v;
    for i in 0..x.len() {
        push(resid(i).powi(2));
    }
    push(x.iter().map(reg).sum());
    acc
}

/// A const-generic length: `log Σ e^{β xᵢ} / β`.
#[autodiff_reverse(d_smooth_max, Duplicated, Const, Active)]
pub fn smooth_max<const N: usize>(x: &[f64; N], beta: f64) -> f64 {
    let m = x.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
    let s: f64 = x.iter().map(|v| (beta * (v - m)).exp()).sum();
    m + s.ln() / beta
}

/// Classic RK4 over a two-component state, right-hand side as `impl Fn`.
fn rk4(f: impl Fn([f64; 2]) -> [f64; 2], y0: [f64; 2], t1: f64, n: usize) -> [f64; 2] {
    let h = t1 / n as f64;
    let axpy = |y: [f64; 2], a: f64, k: [f64; 2]| [y[0] + a * k[0], y[1] + a * k[1]];
    let mut y = y0;
    for _ in 0..n {
        let k1 = f(y);
        let k2 = f(axpy(y, h / 2.0, k1));
        let k3 = f(axpy(y, h / 2.0, k2));
        let k4 = f(axpy(y, h, k3));
        y = [
            y[0] + h / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]),
            y[1] + h / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]),
        ];
    }
    y
}

/// Position of an undamped oscillator at t = 2 (exact solution `cos(ω t)`, start [1, 0]).
#[autodiff_reverse(d_oscillator, Active, Active, Active)]
pub fn oscillator(omega: f64, damping: f64) -> f64 {
    rk4(
        |y| [y[1], -omega * omega * y[0] - damping * y[1]],
        [1.0, 0.0],
        2.0,
        200,
    )[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    #[test]
    fn generic_scalar_trait_as_f64_and_f32() {
        let x = [0.4, -1.2, 0.8, 2.0, -0.3];
        let mut dx = [0.0; 5];
        let y = d_soft_length(&x[..], &mut dx[..], 0.5, 1.0);
        assert_close("value", y, soft_length(&x[..], 0.5), EXACT);
        let want = fd_grad(|p| soft_length(p, 0.5), &x);
        assert_all_close("f64", &dx, &want, FD);

        let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
        let mut dx32 = vec![0.0f32; 5];
        d_soft_length(&x32[..], &mut dx32[..], 0.5f32, 1.0f32);
        for (i, (g, w)) in dx32.iter().zip(&want).enumerate() {
            assert!((*g as f64 - w).abs() < 1e-4, "f32[{i}]: {g} vs {w}");
        }
    }

    #[test]
    fn float_methods_against_a_hand_gradient() {
        let p: [f64; 6] = [0.7, -0.4, 0.3, 0.9, -0.6, 1.3];
        let [x, y, z, a, b, c] = p;
        let r2 = x * x + y * y;
        let r = r2.sqrt();
        let theta = y.atan2(x);
        let t1 = 1.0 / (1.0 + a * b + c);
        let ab = 1.0 / (b * b + 1.0).sqrt(); // d asinh(b) / db
        let want = [
            3.0 * r * x - z * y / r2,
            3.0 * r * y + z * x / r2,
            theta + z.exp(),
            b * t1,
            a * t1 + ab,
            t1 + c / (c * c + 1.0).sqrt(),
        ];
        let mut dp = [0.0; 6];
        let v = d_geometry(&p, &mut dp, 1.0);
        assert_close("value", v, geometry(&p), EXACT);
        assert_all_close("hand", &dp, &want, 1e-10);
        assert_all_close(
            "fd",
            &dp,
            &fd_grad(|q| geometry(q.try_into().unwrap()), &p),
            FD,
        );

        // forward mode, against the reverse gradient (dot-product identity) and FD
        let dir = [0.3, -1.0, 0.5, 0.25, 2.0, -0.75];
        let (v2, jv) = t_geometry(&p, &dir);
        assert_close("forward value", v2, v, EXACT);
        let dot: f64 = want.iter().zip(&dir).map(|(g, d)| g * d).sum();
        assert_close("J v", jv, dot, 1e-10);
    }

    #[test]
    fn more_float_methods_against_fd() {
        let x = [40.0, 1.7, 0.6, 2.5];
        let mut dx = [0.0; 4];
        d_more_methods(&x, &mut dx, 1.0);
        let want = fd_grad(|q| more_methods(q.try_into().unwrap()), &x);
        assert_all_close("fd", &dx, &want, FD);
        // the first entry by hand: d/dx [sin(r) cos(r)] with r = x π/180, + log10(x3)/(3 x^(2/3))
        let k = std::f64::consts::PI / 180.0;
        let r = x[0] * k;
        let d0 = k * (2.0 * r).cos() + x[3].log10() / (3.0 * x[0].powf(2.0 / 3.0));
        assert_close("hand", dx[0], d0, EXACT);
    }

    #[test]
    fn impl_trait_arguments_and_results() {
        let c = [0.5, -1.5, 2.0];
        let mut dc = [0.0; 3];
        let y = d_moments(&c, &mut dc, 1.0);
        assert_close("value", y, moments(&c), EXACT);
        // The Simpson rule is linear in the integrand: d/dc_k = simpson(t^k e^{-t}).
        let m = |k: i32| simpson(|t| t.powi(k) * (-t).exp(), 0.0, 1.0, 16);
        let want = [
            m(0) + 2.0 * c[0] + c[1].sin(),
            m(1) + 4.0 * c[1] + c[0] * c[1].cos(),
            m(2) + 6.0 * c[2],
        ];
        assert_all_close("formula", &dc, &want, EXACT);
    }

    #[test]
    fn closures_capturing_by_reference() {
        let x = inputs(7, 151, -2.0, 2.0);
        let t = inputs(7, 152, -1.0, 1.0);
        let mut dx = vec![0.0; 7];
        let y = d_ridge(&x, &mut dx, &t, 1.0);
        assert_close("value", y, ridge(&x, &t), EXACT);
        let want: Vec<f64> = x
            .iter()
            .zip(&t)
            .map(|(a, b)| 2.0 * (a - b) + 0.2 * a)
            .collect();
        assert_all_close("formula", &dx, &want, EXACT);
    }

    #[test]
    fn const_generic_length() {
        let x = [0.3, 1.1, -0.4, 0.9, 1.0];
        let mut dx = [0.0; 5];
        d_smooth_max(&x, &mut dx, 3.0, 1.0);
        // the softmax weights
        let z: f64 = x.iter().map(|v| (3.0 * v).exp()).sum();
        let want: Vec<f64> = x.iter().map(|v| (3.0 * v).exp() / z).collect();
        assert_all_close("softmax", &dx, &want, EXACT);
        let x2 = [2.0, -1.0];
        let mut dx2 = [0.0; 2];
        d_smooth_max(&x2, &mut dx2, 1.0, 1.0);
        let z = 2f64.exp() + (-1f64).exp();
        assert_all_close("N = 2", &dx2, &[2f64.exp() / z, (-1f64).exp() / z], EXACT);
    }

    #[test]
    fn rk4_over_array_states() {
        let (y, dw, dd) = d_oscillator(1.3, 0.0, 1.0);
        // RK4 with h = 0.01 is within 1e-8 of cos(2 ω); its derivative of -2 sin(2 ω)
        assert_close("value", y, (2.6f64).cos(), 1e-8);
        assert_close("d omega", dw, -2.0 * (2.6f64).sin(), 1e-6);
        assert_close("d omega fd", dw, fd1(|w| oscillator(w, 0.0), 1.3), FD);
        assert_close("d damping fd", dd, fd1(|d| oscillator(1.3, d), 0.0), FD);
    }
}

//! front34: a scientist's Rust, differentiated in this integration test's binary: a model
//! `struct` with `impl` methods taking an activation as `&dyn Fn(f64) -> f64`, iterator
//! chains (`zip`, `map`, `fold`, `windows(2)`, `chunks`), `Vec<Vec<f64>>` matrices built
//! inside, `f64::mul_add` / `powi` / `powf` / `hypot`, closures capturing the parameters, a
//! function generic over a `Float`-style trait of our own (used at `f64` and `f32`), and
//! `Option` / `Result` early returns with `?`. Every derivative is checked against central
//! finite differences and, where short, a formula written here.
//!
//! Release builds only, as front24's: in debug builds the pass refuses the standard
//! library's unoptimized `Vec` internals these functions collect into
//! (cannot-deduce-type in `Vec::set_len`), a clear compile-time error, no wrong number.
//! A `HashMap<usize, f64>` accumulated inside stays refused in release too (mismatched
//! activity: the empty map's static control bytes or the allocated table; README front34).
#![cfg(not(debug_assertions))]

use ferrozyme::{autodiff_forward, autodiff_reverse};
use ferrozyme_rust_tests::check::{assert_all_close, assert_close, fd1, fd_grad, EXACT, FD};

/// A two-parameter-per-unit model `y = Σ_k w_k act(a_k x + b_k)`.
pub struct Layer {
    pub units: usize,
}

impl Layer {
    /// The parameters are `[a_0, b_0, w_0, a_1, b_1, w_1, ...]`.
    fn unit(&self, p: &[f64], k: usize) -> (f64, f64, f64) {
        (p[3 * k], p[3 * k + 1], p[3 * k + 2])
    }

    fn predict(&self, p: &[f64], x: f64, act: &dyn Fn(f64) -> f64) -> f64 {
        (0..self.units)
            .map(|k| {
                let (a, b, w) = self.unit(p, k);
                w * act(a.mul_add(x, b))
            })
            .sum()
    }

    fn loss(&self, p: &[f64], xs: &[f64], ys: &[f64], act: &dyn Fn(f64) -> f64) -> f64 {
        let sse = xs
            .iter()
            .zip(ys)
            .map(|(&x, &y)| (self.predict(p, x, act) - y).powi(2))
            .fold(0.0, |acc, e| acc + e);
        0.5 * sse / xs.len() as f64
    }
}

/// The layer's loss with the activation passed as a trait object.
#[autodiff_reverse(d_layer_loss, Const, Duplicated, Const, Const, Const, Active)]
pub fn layer_loss(
    layer: &Layer,
    p: &[f64],
    xs: &[f64],
    ys: &[f64],
    act: &dyn Fn(f64) -> f64,
) -> f64 {
    layer.loss(p, xs, ys, act)
}

fn softplus(z: f64) -> f64 {
    z.exp().ln_1p()
}

#[test]
fn struct_methods_with_a_dyn_fn_activation() {
    let layer = Layer { units: 3 };
    let p = vec![0.7, -0.2, 1.1, -0.4, 0.3, 0.6, 1.3, 0.1, -0.8];
    let xs: Vec<f64> = (0..7).map(|i| -1.0 + 0.35 * i as f64).collect();
    let ys: Vec<f64> = xs.iter().map(|x| (1.3 * x).sin()).collect();
    for (name, act) in [
        ("tanh", &f64::tanh as &dyn Fn(f64) -> f64),
        ("softplus", &softplus as &dyn Fn(f64) -> f64),
    ] {
        let mut dp = vec![0.0; p.len()];
        let l = d_layer_loss(&layer, &p, &mut dp, &xs, &ys, act, 1.0);
        assert_close(name, l, layer_loss(&layer, &p, &xs, &ys, act), EXACT);
        let fd = fd_grad(|v| layer_loss(&layer, v, &xs, &ys, act), &p);
        assert_all_close(name, &dp, &fd, FD);
    }
}

/// A discrete curve's length `Σ hypot(Δx, Δy)` plus a bending energy over
/// `windows(2)` of its segment angles, the points interleaved `[x0, y0, x1, y1, ...]` and
/// split with `chunks(2)`.
#[autodiff_reverse(d_curve_energy, Duplicated, Active, Active)]
pub fn curve_energy(pts: &[f64], stiffness: f64) -> f64 {
    let p: Vec<(f64, f64)> = pts.chunks(2).map(|c| (c[0], c[1])).collect();
    let seg: Vec<(f64, f64)> = p.windows(2).map(|w| (w[1].0 - w[0].0, w[1].1 - w[0].1)).collect();
    let length: f64 = seg.iter().map(|&(dx, dy)| dx.hypot(dy)).sum();
    let angles: Vec<f64> = seg.iter().map(|&(dx, dy)| dy.atan2(dx)).collect();
    let bend = angles
        .windows(2)
        .fold(0.0, |acc, w| (w[1] - w[0]).powi(2).mul_add(stiffness, acc));
    length + bend
}

#[test]
fn curve_length_and_bending_through_windows_and_chunks() {
    let pts: Vec<f64> = (0..6)
        .flat_map(|i| {
            let t = 0.4 * i as f64;
            [t + 0.1 * t.sin(), 0.5 * t * t - 0.2]
        })
        .collect();
    let k = 0.8;
    let mut dpts = vec![0.0; pts.len()];
    let (e, dk) = d_curve_energy(&pts, &mut dpts, k, 1.0);
    assert_close("primal", e, curve_energy(&pts, k), EXACT);
    assert_all_close("d/dpts", &dpts, &fd_grad(|v| curve_energy(v, k), &pts), FD);
    assert_close("d/dk", dk, fd1(|s| curve_energy(&pts, s), k), FD);
    // The length alone: a straight line's derivative along itself is the unit tangent.
    let line = [0.0, 0.0, 3.0, 4.0];
    let mut dl = [0.0; 4];
    let (e0, dk0) = d_curve_energy(&line, &mut dl, k, 1.0);
    assert_close("segment length", e0, 5.0, EXACT);
    assert_all_close("d|segment|", &dl, &[-0.6, -0.8, 0.6, 0.8], EXACT);
    assert_close("no bending term", dk0, 0.0, EXACT);
}

/// `tr(Mᵀ M)^{1/2}` plus `Σ |m_ij|^q` of `M = A B`, with `A` (`n × n`, row-major in a
/// slice) turned into a `Vec<Vec<f64>>` inside and `B` passed as rows.
#[autodiff_reverse(d_matrix_norms, Duplicated, Const, Const, Active, Active)]
pub fn matrix_norms(a: &[f64], b: &[Vec<f64>], n: usize, q: f64) -> f64 {
    let a_rows: Vec<Vec<f64>> = a.chunks(n).map(|r| r.to_vec()).collect();
    let m: Vec<Vec<f64>> = a_rows
        .iter()
        .map(|row| {
            (0..n)
                .map(|j| row.iter().zip(b).fold(0.0, |s, (aik, bk)| aik.mul_add(bk[j], s)))
                .collect()
        })
        .collect();
    let fro = m.iter().flatten().map(|v| v * v).sum::<f64>().sqrt();
    let lq: f64 = m.iter().flatten().map(|v| v.abs().powf(q)).sum();
    fro + lq
}

#[test]
fn vec_of_vec_product_with_powf_norm() {
    let n = 3;
    let a: Vec<f64> = (0..n * n).map(|k| 0.3 * k as f64 - 1.1).collect();
    let b: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| (0.7 * (i + 2 * j) as f64).cos()).collect())
        .collect();
    let q = 2.5;
    let mut da = vec![0.0; n * n];
    let (v, dq) = d_matrix_norms(&a, &mut da, &b, n, q, 1.0);
    assert_close("primal", v, matrix_norms(&a, &b, n, q), EXACT);
    assert_all_close("d/dA", &da, &fd_grad(|x| matrix_norms(x, &b, n, q), &a), FD);
    assert_close("d/dq", dq, fd1(|s| matrix_norms(&a, &b, n, s), q), FD);
}

/// The few float operations a generic numerical routine needs.
pub trait Real: Copy + std::ops::Add<Output = Self> + std::ops::Mul<Output = Self> {
    fn from_f64(v: f64) -> Self;
    fn exp(self) -> Self;
    fn mul_add(self, a: Self, b: Self) -> Self;
}

impl Real for f64 {
    fn from_f64(v: f64) -> Self {
        v
    }
    fn exp(self) -> Self {
        f64::exp(self)
    }
    fn mul_add(self, a: Self, b: Self) -> Self {
        f64::mul_add(self, a, b)
    }
}

impl Real for f32 {
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    fn exp(self) -> Self {
        f32::exp(self)
    }
    fn mul_add(self, a: Self, b: Self) -> Self {
        f32::mul_add(self, a, b)
    }
}

/// A polynomial in Horner form times a Gaussian, generic over the float type.
fn horner_gauss<T: Real>(c: &[T], x: T) -> T {
    let poly = c.iter().rev().fold(T::from_f64(0.0), |acc, &ci| acc.mul_add(x, ci));
    poly * (T::from_f64(-0.5) * x * x).exp()
}

#[autodiff_reverse(d_horner_f64, Duplicated, Active, Active)]
pub fn horner_f64(c: &[f64], x: f64) -> f64 {
    horner_gauss(c, x)
}

#[autodiff_forward(t_horner_f32, Const, Dual, Dual)]
pub fn horner_f32(c: &[f32], x: f32) -> f32 {
    horner_gauss(c, x)
}

#[test]
fn generic_over_a_float_trait_at_f64_and_f32() {
    let c = [0.5, -1.2, 0.3, 0.8];
    let x = 0.7;
    let mut dc = [0.0; 4];
    let (y, dx) = d_horner_f64(&c, &mut dc, x, 1.0);
    assert_close("primal", y, horner_f64(&c, x), EXACT);
    // d/dc_k = x^k g(x); d/dx = (p'(x) - x p(x)) g(x), g = exp(-x²/2).
    let g = (-0.5 * x * x).exp();
    let want: Vec<f64> = (0..4).map(|k| x.powi(k) * g).collect();
    assert_all_close("d/dc", &dc, &want, EXACT);
    let p = c[0] + c[1] * x + c[2] * x * x + c[3] * x * x * x;
    let dp = c[1] + 2.0 * c[2] * x + 3.0 * c[3] * x * x;
    assert_close("d/dx", dx, (dp - x * p) * g, EXACT);
    let cf: Vec<f32> = c.iter().map(|&v| v as f32).collect();
    let (yf, tf) = t_horner_f32(&cf, x as f32, 1.0);
    assert!(((yf as f64) - y).abs() < 1e-5, "f32 primal {yf} vs {y}");
    assert!(((tf as f64) - dx).abs() < 1e-4, "f32 tangent {tf} vs {dx}");
}

#[derive(Debug)]
pub enum FitError {
    NonPositive(usize),
    Empty,
}

/// The log of each concentration, refused (an `Err`) where one is not positive.
fn logs(c: &[f64]) -> Result<Vec<f64>, FitError> {
    c.iter()
        .enumerate()
        .map(|(i, &v)| if v > 0.0 { Ok(v.ln()) } else { Err(FitError::NonPositive(i)) })
        .collect()
}

fn mean(v: &[f64]) -> Option<f64> {
    if v.is_empty() {
        None
    } else {
        Some(v.iter().sum::<f64>() / v.len() as f64)
    }
}

fn log_variance(c: &[f64]) -> Result<f64, FitError> {
    let l = logs(c)?;
    let m = mean(&l).ok_or(FitError::Empty)?;
    Ok(l.iter().map(|v| (v - m).powi(2)).sum::<f64>() / l.len() as f64)
}

/// The variance of the logs, or `fallback · Σ c²` when a concentration is not positive:
/// `?` returns early from the helper on both paths.
#[autodiff_reverse(d_robust_log_variance, Duplicated, Active, Active)]
pub fn robust_log_variance(c: &[f64], fallback: f64) -> f64 {
    match log_variance(c) {
        Ok(v) => v,
        Err(FitError::NonPositive(i)) => fallback * c[i] * c[i],
        Err(FitError::Empty) => 0.0,
    }
}

#[test]
fn option_and_result_early_returns() {
    let ok = [1.5, 0.4, 2.2, 0.9];
    let mut dc = [0.0; 4];
    let (v, df) = d_robust_log_variance(&ok, &mut dc, 3.0, 1.0);
    assert_close("primal", v, robust_log_variance(&ok, 3.0), EXACT);
    // d var(log c) / d c_i = 2 (log c_i - m) / (n c_i).
    let l: Vec<f64> = ok.iter().map(|v| v.ln()).collect();
    let m = l.iter().sum::<f64>() / 4.0;
    let want: Vec<f64> = ok.iter().zip(&l).map(|(c, li)| 2.0 * (li - m) / (4.0 * c)).collect();
    assert_all_close("d/dc (Ok path)", &dc, &want, EXACT);
    assert_close("d/dfallback (Ok path)", df, 0.0, EXACT);

    let bad = [1.5, -0.4, 2.2, 0.9];
    let mut db = [0.0; 4];
    let (v, df) = d_robust_log_variance(&bad, &mut db, 3.0, 1.0);
    assert_close("primal (Err path)", v, 3.0 * 0.16, EXACT);
    assert_all_close("d/dc (Err path)", &db, &[0.0, 3.0 * 2.0 * -0.4, 0.0, 0.0], EXACT);
    assert_close("d/dfallback (Err path)", df, 0.16, EXACT);

    let mut de: [f64; 0] = [];
    let (v, _) = d_robust_log_variance(&[], &mut de, 3.0, 1.0);
    assert_close("primal (empty)", v, 0.0, EXACT);
}

/// A damped oscillator integrated with a closure that captures the parameters `(k, c)`;
/// the loss compares the trajectory with observations at every step.
#[autodiff_reverse(d_oscillator_fit, Duplicated, Const, Active, Active)]
pub fn oscillator_fit(params: &[f64], obs: &[f64], dt: f64) -> f64 {
    let (k, c) = (params[0], params[1]);
    let accel = |x: f64, v: f64| -k * x - c * v;
    let (mut x, mut v) = (1.0f64, 0.0f64);
    let mut loss = 0.0;
    for &o in obs {
        let a = accel(x, v);
        v = a.mul_add(dt, v);
        x = v.mul_add(dt, x);
        loss += (x - o).powi(2);
    }
    loss
}

#[test]
fn closure_capturing_parameters_in_a_time_loop() {
    let obs: Vec<f64> = (1..=40).map(|i| (0.05 * i as f64 * 2.0).cos() * 0.95).collect();
    let params = [3.5, 0.2];
    let dt = 0.05;
    let mut dp = [0.0; 2];
    let (l, ddt) = d_oscillator_fit(&params, &mut dp, &obs, dt, 1.0);
    assert_close("primal", l, oscillator_fit(&params, &obs, dt), EXACT);
    assert_all_close("d/d(k, c)", &dp, &fd_grad(|p| oscillator_fit(p, &obs, dt), &params), FD);
    assert_close("d/ddt", ddt, fd1(|h| oscillator_fit(&params, &obs, h), dt), FD);
}

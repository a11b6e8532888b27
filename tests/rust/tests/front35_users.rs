//! front35: Rust as users write it, eighth round, differentiated in this integration test's
//! binary: a small MLP whose `Vec<f64>` weights are trained by the crate's gradient in a
//! loop, `ndarray`-free matrix code over row-major slices with `chunks_exact`, a trait
//! whose default methods call the required one, a function returning `impl Iterator` of
//! closures, `exp_m1`/`ln_1p`/`atan2`/`sinh`/`cosh`, `Box<dyn Trait>` models in a `Vec`,
//! and forward and reverse mode of the same function agreeing (the dot-product identity
//! `ȳ·(J v) = (Jᵀ ȳ)·v`). Every derivative is checked against a formula written here or
//! central finite differences of the primal.
//!
//! Release builds only, as front24's and front34's: in debug builds the pass refuses the
//! standard library's unoptimized `Vec` internals these functions collect into
//! (cannot-deduce-type in `Vec::set_len`), a clear compile-time error, no wrong number.
#![cfg(not(debug_assertions))]

use ferrozyme::{autodiff_forward, autodiff_reverse};
use ferrozyme_rust_tests::check::{
    assert_all_close, assert_close, fd1, fd_grad, fd_jvp, inputs, EXACT, FD,
};

// ---------------------------------------------------------------------------------------
// A 2-H-1 MLP with tanh, its weights packed in one Vec<f64>, trained by gradient descent.

/// The parameter layout: `W1` (`h × d`, row-major), `b1` (`h`), `w2` (`h`), `b2`.
pub struct Mlp {
    pub d: usize,
    pub h: usize,
}

impl Mlp {
    pub fn n_params(&self) -> usize {
        self.h * self.d + 2 * self.h + 1
    }

    fn forward(&self, p: &[f64], x: &[f64]) -> f64 {
        let (w1, rest) = p.split_at(self.h * self.d);
        let (b1, rest) = rest.split_at(self.h);
        let (w2, b2) = rest.split_at(self.h);
        let hidden: Vec<f64> = w1
            .chunks_exact(self.d)
            .zip(b1)
            .map(|(row, b)| (row.iter().zip(x).map(|(w, xi)| w * xi).sum::<f64>() + b).tanh())
            .collect();
        hidden.iter().zip(w2).map(|(a, w)| a * w).sum::<f64>() + b2[0]
    }
}

/// Mean squared error over the samples (`xs` row-major, `d` per sample).
#[autodiff_reverse(d_mlp_loss, Const, Duplicated, Const, Const, Active)]
pub fn mlp_loss(net: &Mlp, p: &[f64], xs: &[f64], ys: &[f64]) -> f64 {
    let n = ys.len();
    xs.chunks_exact(net.d)
        .zip(ys)
        .map(|(x, y)| (net.forward(p, x) - y).powi(2))
        .sum::<f64>()
        / n as f64
}

#[test]
fn mlp_trained_by_its_gradient_in_a_loop() {
    let net = Mlp { d: 2, h: 6 };
    let n = 24;
    let xs = inputs(2 * n, 35, -1.0, 1.0);
    let ys: Vec<f64> = xs.chunks_exact(2).map(|x| (2.0 * x[0]).sin() * x[1] + 0.3).collect();
    let mut p = inputs(net.n_params(), 7, -0.8, 0.8);

    // The gradient at the start, against finite differences.
    let mut g = vec![0.0; p.len()];
    let l0 = d_mlp_loss(&net, &p, &mut g, &xs, &ys, 1.0);
    assert_close("primal", l0, mlp_loss(&net, &p, &xs, &ys), EXACT);
    assert_all_close("d/dp", &g, &fd_grad(|q| mlp_loss(&net, q, &xs, &ys), &p), FD);

    // 200 steps of gradient descent: the loss falls, and every step's gradient is the one
    // the shadow received (the shadow is zeroed by the caller, as the crate documents).
    let mut last = l0;
    for step in 0..200 {
        g.iter_mut().for_each(|v| *v = 0.0);
        let l = d_mlp_loss(&net, &p, &mut g, &xs, &ys, 1.0);
        assert!(l.is_finite(), "step {step}: loss {l}");
        if step % 50 == 0 {
            assert!(l <= last + 1e-12, "step {step}: loss rose from {last} to {l}");
            last = l;
        }
        p.iter_mut().zip(&g).for_each(|(w, gw)| *w -= 0.2 * gw);
    }
    let l_end = mlp_loss(&net, &p, &xs, &ys);
    assert!(l_end < 0.25 * l0, "the loss fell from {l0} to {l_end} only");
    // Still the right gradient at the trained point.
    g.iter_mut().for_each(|v| *v = 0.0);
    d_mlp_loss(&net, &p, &mut g, &xs, &ys, 1.0);
    assert_all_close("d/dp trained", &g, &fd_grad(|q| mlp_loss(&net, q, &xs, &ys), &p), FD);
}

// ---------------------------------------------------------------------------------------
// Matrix code on row-major slices with chunks_exact: x·A·x + tr(A) + |A x|².

#[autodiff_reverse(d_quad_form, Duplicated, Duplicated, Const, Active)]
pub fn quad_form(a: &[f64], x: &[f64], n: usize) -> f64 {
    let ax: Vec<f64> = a
        .chunks_exact(n)
        .map(|row| row.iter().zip(x).map(|(aij, xj)| aij * xj).sum())
        .collect();
    let xax: f64 = x.iter().zip(&ax).map(|(xi, axi)| xi * axi).sum();
    let trace: f64 = a.chunks_exact(n).enumerate().map(|(i, row)| row[i]).sum();
    xax + trace + ax.iter().map(|v| v * v).sum::<f64>()
}

#[test]
fn row_major_slices_with_chunks_exact() {
    let n = 4;
    let a = inputs(n * n, 11, -1.0, 1.0);
    let x = inputs(n, 12, -1.0, 1.0);
    let (mut da, mut dx) = (vec![0.0; n * n], vec![0.0; n]);
    let v = d_quad_form(&a, &mut da, &x, &mut dx, n, 1.0);
    assert_close("primal", v, quad_form(&a, &x, n), EXACT);
    // d/dx = (A + Aᵀ) x + 2 Aᵀ A x; d/dA = x xᵀ + I + 2 (A x) xᵀ.
    let ax: Vec<f64> = (0..n).map(|i| (0..n).map(|j| a[i * n + j] * x[j]).sum()).collect();
    let want_dx: Vec<f64> = (0..n)
        .map(|k| {
            (0..n).map(|j| (a[k * n + j] + a[j * n + k]) * x[j]).sum::<f64>()
                + 2.0 * (0..n).map(|i| a[i * n + k] * ax[i]).sum::<f64>()
        })
        .collect();
    let want_da: Vec<f64> = (0..n * n)
        .map(|k| {
            let (i, j) = (k / n, k % n);
            x[i] * x[j] + if i == j { 1.0 } else { 0.0 } + 2.0 * ax[i] * x[j]
        })
        .collect();
    assert_all_close("d/dx", &dx, &want_dx, EXACT);
    assert_all_close("d/dA", &da, &want_da, EXACT);
}

// ---------------------------------------------------------------------------------------
// A trait with default methods built on the one a type provides.

pub trait Potential {
    /// The pair energy at distance `r` (required).
    fn energy(&self, r: f64) -> f64;
    /// The energy of a chain of points on a line (default method, calls `energy`).
    fn chain(&self, xs: &[f64]) -> f64 {
        xs.windows(2).map(|w| self.energy((w[1] - w[0]).abs())).sum()
    }
    /// The chain's energy plus a confining term (default method calling a default one).
    fn confined(&self, xs: &[f64], k: f64) -> f64 {
        self.chain(xs) + k * xs.iter().map(|x| x * x).sum::<f64>()
    }
}

pub struct Morse {
    pub depth: f64,
    pub width: f64,
    pub r0: f64,
}

impl Potential for Morse {
    fn energy(&self, r: f64) -> f64 {
        let e = (-self.width * (r - self.r0)).exp_m1();
        self.depth * e * e
    }
}

pub struct Spring {
    pub rest: f64,
}

impl Potential for Spring {
    fn energy(&self, r: f64) -> f64 {
        0.5 * (r - self.rest).powi(2)
    }
    /// Overridden: the chain counts each bond twice (a deliberately different default).
    fn chain(&self, xs: &[f64]) -> f64 {
        xs.windows(2).map(|w| 2.0 * self.energy(w[1] - w[0])).sum()
    }
}

#[autodiff_reverse(d_confined_energy, Const, Duplicated, Active, Active)]
pub fn confined_energy(pot: &impl Potential, xs: &[f64], k: f64) -> f64 {
    pot.confined(xs, k)
}

#[test]
fn trait_default_methods_and_an_override() {
    let xs = [0.0, 1.1, 2.05, 3.3, 4.2];
    let k = 0.15;
    let morse = Morse { depth: 1.3, width: 1.7, r0: 1.0 };
    let mut dx = [0.0; 5];
    let (e, dk) = d_confined_energy(&morse, &xs, &mut dx, k, 1.0);
    assert_close("morse primal", e, confined_energy(&morse, &xs, k), EXACT);
    assert_all_close("morse d/dx", &dx, &fd_grad(|q| confined_energy(&morse, q, k), &xs), FD);
    assert_close("morse d/dk", dk, xs.iter().map(|x| x * x).sum::<f64>(), EXACT);

    let spring = Spring { rest: 1.0 };
    let mut ds = [0.0; 5];
    let (e, _) = d_confined_energy(&spring, &xs, &mut ds, k, 1.0);
    assert_close("spring primal", e, confined_energy(&spring, &xs, k), EXACT);
    // d/dx_i = 2 (s_{i-1} - s_i) + 2 k x_i, s_i = x_{i+1} - x_i - rest (the override).
    let s: Vec<f64> = xs.windows(2).map(|w| w[1] - w[0] - 1.0).collect();
    let want: Vec<f64> = (0..5)
        .map(|i| {
            let left = if i > 0 { 2.0 * s[i - 1] } else { 0.0 };
            let right = if i < 4 { -2.0 * s[i] } else { 0.0 };
            left + right + 2.0 * k * xs[i]
        })
        .collect();
    assert_all_close("spring d/dx (overridden chain)", &ds, &want, EXACT);
}

// ---------------------------------------------------------------------------------------
// `impl Iterator` of closures: a basis expansion f(x) = Σ c_k φ_k(x).

fn basis(scales: &[f64]) -> impl Iterator<Item = impl Fn(f64) -> f64 + '_> + '_ {
    scales.iter().map(|&s| move |x: f64| (s * x).sinh() / (1.0 + s * s))
}

#[autodiff_reverse(d_expansion, Duplicated, Duplicated, Active, Active)]
pub fn expansion(c: &[f64], scales: &[f64], x: f64) -> f64 {
    basis(scales).zip(c).map(|(phi, ck)| ck * phi(x)).sum()
}

#[test]
fn impl_iterator_returning_closures() {
    let c = [0.5, -1.2, 0.8, 0.3];
    let scales = [0.4, 0.9, 1.3, 2.0];
    let x = 0.7;
    let (mut dc, mut ds) = ([0.0; 4], [0.0; 4]);
    let (y, dx) = d_expansion(&c, &mut dc, &scales, &mut ds, x, 1.0);
    assert_close("primal", y, expansion(&c, &scales, x), EXACT);
    let want_dc: Vec<f64> = scales.iter().map(|s| (s * x).sinh() / (1.0 + s * s)).collect();
    assert_all_close("d/dc", &dc, &want_dc, EXACT);
    let want_dx: f64 = c
        .iter()
        .zip(&scales)
        .map(|(ck, s)| ck * s * (s * x).cosh() / (1.0 + s * s))
        .sum();
    assert_close("d/dx", dx, want_dx, EXACT);
    assert_all_close("d/dscales", &ds, &fd_grad(|q| expansion(&c, q, x), &scales), FD);
}

// ---------------------------------------------------------------------------------------
// exp_m1, ln_1p, atan2, sinh, cosh.

#[autodiff_reverse(d_special, Active, Active, Active)]
pub fn special(a: f64, b: f64) -> f64 {
    a.exp_m1() * (b * b).ln_1p() + b.atan2(a) + a.sinh() * b.cosh()
}

#[autodiff_forward(t_special, Dual, Dual, Dual)]
pub fn special_fwd(a: f64, b: f64) -> f64 {
    special(a, b)
}

#[test]
fn exp_m1_ln_1p_atan2_sinh_cosh() {
    for &(a, b) in &[(0.3, -0.8), (-1.2, 0.05), (1e-9, 2.5), (-0.6, -1.4)] {
        let (y, da, db) = d_special(a, b, 1.0);
        assert_close("primal", y, special(a, b), EXACT);
        let r2 = a * a + b * b;
        let want_da = a.exp() * (b * b).ln_1p() - b / r2 + a.cosh() * b.cosh();
        let want_db = a.exp_m1() * 2.0 * b / (1.0 + b * b) + a / r2 + a.sinh() * b.sinh();
        assert_close("d/da", da, want_da, EXACT);
        assert_close("d/db", db, want_db, EXACT);
        let (yf, t) = t_special(a, 0.6, b, -0.25);
        assert_close("forward primal", yf, y, EXACT);
        assert_close("forward tangent", t, 0.6 * want_da - 0.25 * want_db, EXACT);
        assert_close("fd d/da", da, fd1(|s| special(s, b), a), FD);
    }
}

// ---------------------------------------------------------------------------------------
// Box<dyn Trait> models in a Vec, built outside, each reading its slice of the parameters.

pub trait Model {
    fn n_params(&self) -> usize;
    fn predict(&self, p: &[f64], t: f64) -> f64;
}

pub struct Exponential;
pub struct Oscillation {
    pub omega: f64,
}
pub struct Rational;

impl Model for Exponential {
    fn n_params(&self) -> usize {
        2
    }
    fn predict(&self, p: &[f64], t: f64) -> f64 {
        p[0] * (-p[1] * t).exp()
    }
}

impl Model for Oscillation {
    fn n_params(&self) -> usize {
        2
    }
    fn predict(&self, p: &[f64], t: f64) -> f64 {
        p[0] * (self.omega * t).sin() + p[1] * (self.omega * t).cos()
    }
}

impl Model for Rational {
    fn n_params(&self) -> usize {
        1
    }
    fn predict(&self, p: &[f64], t: f64) -> f64 {
        1.0 / (1.0 + p[0] * t * t)
    }
}

/// The sum of the models' predictions against observations, squared.
#[autodiff_reverse(d_ensemble_loss, Const, Duplicated, Const, Const, Active)]
pub fn ensemble_loss(models: &[Box<dyn Model>], p: &[f64], ts: &[f64], obs: &[f64]) -> f64 {
    ts.iter()
        .zip(obs)
        .map(|(&t, &o)| {
            let mut off = 0;
            let mut y = 0.0;
            for m in models {
                y += m.predict(&p[off..off + m.n_params()], t);
                off += m.n_params();
            }
            (y - o).powi(2)
        })
        .sum()
}

#[test]
fn box_dyn_models_in_a_vec() {
    let models: Vec<Box<dyn Model>> = vec![
        Box::new(Exponential),
        Box::new(Oscillation { omega: 2.0 }),
        Box::new(Rational),
        Box::new(Oscillation { omega: 0.5 }),
    ];
    let p = [1.2, 0.7, 0.3, -0.4, 0.9, 0.1, 0.2];
    let ts: Vec<f64> = (0..9).map(|i| 0.25 * i as f64).collect();
    let obs: Vec<f64> = ts.iter().map(|t| (0.8 * t).cos() + 0.1 * t).collect();
    let mut dp = [0.0; 7];
    let l = d_ensemble_loss(&models, &p, &mut dp, &ts, &obs, 1.0);
    assert_close("primal", l, ensemble_loss(&models, &p, &ts, &obs), EXACT);
    assert_all_close("d/dp", &dp, &fd_grad(|q| ensemble_loss(&models, q, &ts, &obs), &p), FD);
}

// ---------------------------------------------------------------------------------------
// Forward and reverse mode of one function: ȳ·(J v) = (Jᵀ ȳ)·v.

/// One explicit step of a damped pendulum chain: `out` gets the new state (positions
/// then velocities), the state read as `[q; v]` pairs through chunks_exact.
#[autodiff_forward(t_chain_step, Dual, Dual, Const)]
#[autodiff_reverse(d_chain_step, Duplicated, Duplicated, Const)]
pub fn chain_step(state: &[f64], out: &mut [f64], dt: f64) {
    let n = state.len() / 2;
    let (q, v) = state.split_at(n);
    let mut acc = vec![0.0; n];
    for (i, pair) in q.windows(2).enumerate() {
        let f = (pair[1] - pair[0]).sin();
        acc[i] += f;
        acc[i + 1] -= f;
    }
    for i in 0..n {
        let a = acc[i] - 0.1 * v[i] - q[i].sin();
        let vn = v[i] + dt * a;
        out[n + i] = vn;
        out[i] = q[i] + dt * vn;
    }
}

#[test]
fn forward_and_reverse_agree_dot_product() {
    let n = 5;
    let state = inputs(2 * n, 3, -1.0, 1.0);
    let dt = 0.05;
    for seed in 0..3u64 {
        let v = inputs(2 * n, 100 + seed, -1.0, 1.0);
        let ybar = inputs(2 * n, 200 + seed, -1.0, 1.0);
        let mut out = vec![0.0; 2 * n];
        let mut jv = vec![0.0; 2 * n];
        t_chain_step(&state, &v, &mut out, &mut jv, dt);
        let f = |s: &[f64]| {
            let mut o = vec![0.0; 2 * n];
            chain_step(s, &mut o, dt);
            o
        };
        assert_all_close("primal", &out, &f(&state), EXACT);
        assert_all_close("J v against fd", &jv, &fd_jvp(f, &state, &v), FD);
        let mut xbar = vec![0.0; 2 * n];
        let mut out2 = vec![0.0; 2 * n];
        let mut ybar_in = ybar.clone();
        d_chain_step(&state, &mut xbar, &mut out2, &mut ybar_in, dt);
        let lhs: f64 = ybar.iter().zip(&jv).map(|(a, b)| a * b).sum();
        let rhs: f64 = xbar.iter().zip(&v).map(|(a, b)| a * b).sum();
        assert_close("ȳ·(J v) = (Jᵀ ȳ)·v", lhs, rhs, EXACT);
    }
}

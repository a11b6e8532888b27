//! front36: Rust as users write it, ninth round, differentiated in this integration test's
//! binary: `sort_by(partial_cmp)` then a rank-weighted sum, a `fold` over a tuple (Welford's
//! variance), `clamp`/`mul_add`/`powi`/`hypot` in one expression, `#[inline(never)]`
//! helpers in another module, `Result` early returns with `?` and a user error type,
//! a `&mut self` method differentiated with its `self` `Duplicated` and called again on
//! the state it left, an optimizer `struct` whose `&mut self` step calls the derivative,
//! a `Vec<Vec<f64>>` Gram matrix built inside, and the forward mode of a 50-input function
//! (one direction at a time and four at once) against its reverse-mode gradient. Every
//! derivative is checked against a formula written here or central finite differences of
//! the primal.
//!
//! Release builds only, as front34's and front35's: in debug builds the pass refuses the
//! standard library's unoptimized `Vec` internals these functions collect into
//! (cannot-deduce-type in `Vec::set_len`), a clear compile-time error, no wrong number.
#![cfg(not(debug_assertions))]

use ferrozyme::{autodiff_forward, autodiff_reverse};
use ferrozyme_rust_tests::check::{assert_all_close, assert_close, fd_grad, inputs, EXACT, FD};

// ---------------------------------------------------------------------------------------
// sort_by(partial_cmp) then a weighted sum: the ordered weighted average.

/// `Σ_k w_k · x_(k)` with `x_(k)` the k-th smallest entry and `w_k = (k + 1) / n`.
#[autodiff_reverse(d_owa, Duplicated, Active)]
pub fn owa(x: &[f64]) -> f64 {
    let mut s = x.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = s.len() as f64;
    s.iter()
        .enumerate()
        .map(|(k, v)| (k as f64 + 1.0) / n * v)
        .sum()
}

#[test]
fn sort_by_partial_cmp_then_weighted_sum() {
    let x = inputs(9, 36, -2.0, 2.0);
    let mut dx = vec![0.0; x.len()];
    let y = d_owa(&x, &mut dx, 1.0);
    assert_close("primal", y, owa(&x), EXACT);
    // Analytic: d/dx_i is the weight of x_i's rank.
    let n = x.len() as f64;
    let want: Vec<f64> = x
        .iter()
        .map(|xi| (x.iter().filter(|xj| *xj < xi).count() as f64 + 1.0) / n)
        .collect();
    assert_all_close("d/dx (rank weights)", &dx, &want, EXACT);
}

// ---------------------------------------------------------------------------------------
// fold over a tuple: Welford's running mean and variance.

#[autodiff_reverse(d_welford_var, Duplicated, Active)]
pub fn welford_var(x: &[f64]) -> f64 {
    let (n, _mean, m2) = x
        .iter()
        .fold((0.0f64, 0.0f64, 0.0f64), |(n, mean, m2), &v| {
            let n1 = n + 1.0;
            let d = v - mean;
            let mean1 = mean + d / n1;
            (n1, mean1, m2 + d * (v - mean1))
        });
    m2 / (n - 1.0)
}

#[test]
fn fold_with_a_tuple_accumulator() {
    let x = inputs(12, 5, -3.0, 3.0);
    let mut dx = vec![0.0; x.len()];
    let v = d_welford_var(&x, &mut dx, 1.0);
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|a| (a - mean).powi(2)).sum::<f64>() / (n - 1.0);
    assert_close("primal (two-pass variance)", v, var, 1e-13);
    // Analytic: d var / d x_i = 2 (x_i - mean) / (n - 1).
    let want: Vec<f64> = x.iter().map(|a| 2.0 * (a - mean) / (n - 1.0)).collect();
    assert_all_close("d/dx", &dx, &want, 1e-12);
}

// ---------------------------------------------------------------------------------------
// clamp, mul_add, powi and hypot in one expression.

#[autodiff_reverse(d_clamped, Duplicated, Active, Active)]
pub fn clamped(x: &[f64], s: f64) -> f64 {
    x.iter()
        .map(|&a| (a * s).clamp(-1.0, 1.0).mul_add(2.0, a.hypot(0.5)).powi(3))
        .sum()
}

#[test]
fn clamp_mul_add_powi_hypot() {
    // Entries on both sides of the clamp's bounds, none near a kink.
    let x = vec![-2.3, -0.7, -0.2, 0.15, 0.6, 1.9, 3.1];
    let s = 0.9;
    let mut dx = vec![0.0; x.len()];
    let (y, ds) = d_clamped(&x, &mut dx, s, 1.0);
    assert_close("primal", y, clamped(&x, s), EXACT);
    // Analytic: u = clamp(a s) (derivative s or 0 in a, a or 0 in s), h = hypot(a, 0.5).
    let mut want_ds = 0.0;
    for (i, &a) in x.iter().enumerate() {
        let inside = (a * s).abs() < 1.0;
        let u = (a * s).clamp(-1.0, 1.0);
        let h = a.hypot(0.5);
        let outer = 3.0 * (2.0 * u + h).powi(2);
        let du_da = if inside { s } else { 0.0 };
        let du_ds = if inside { a } else { 0.0 };
        assert_close(
            &format!("d/dx[{i}]"),
            dx[i],
            outer * (2.0 * du_da + a / h),
            1e-12,
        );
        want_ds += outer * 2.0 * du_ds;
    }
    assert_close("d/ds", ds, want_ds, 1e-12);
}

// ---------------------------------------------------------------------------------------
// #[inline(never)] helpers in another module.

mod kernels {
    /// log(1 + e^x), stable for large x.
    #[inline(never)]
    pub fn softplus(x: f64) -> f64 {
        if x > 20.0 {
            x
        } else {
            x.exp().ln_1p()
        }
    }

    /// `sqrt(Σ w_i x_i²)`, written with an index loop.
    #[inline(never)]
    pub fn weighted_norm(w: &[f64], x: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..x.len() {
            s += w[i] * x[i] * x[i];
        }
        s.sqrt()
    }

    /// Writes `out[i] = softplus(a x_i + b)`.
    #[inline(never)]
    pub fn layer(a: f64, b: f64, x: &[f64], out: &mut [f64]) {
        for (o, xi) in out.iter_mut().zip(x) {
            *o = softplus(a * xi + b);
        }
    }
}

#[autodiff_reverse(d_modular, Duplicated, Const, Active, Active, Active)]
pub fn modular(x: &[f64], w: &[f64], a: f64, b: f64) -> f64 {
    let mut h = vec![0.0; x.len()];
    kernels::layer(a, b, x, &mut h);
    kernels::weighted_norm(w, &h) + kernels::softplus(a - b)
}

#[test]
fn inline_never_helpers_in_another_module() {
    let x = inputs(6, 11, -1.5, 1.5);
    let w = inputs(6, 12, 0.5, 2.0);
    let (a, b) = (0.8, -0.3);
    let mut dx = vec![0.0; x.len()];
    let (y, da, db) = d_modular(&x, &mut dx, &w, a, b, 1.0);
    assert_close("primal", y, modular(&x, &w, a, b), EXACT);
    assert_all_close("d/dx", &dx, &fd_grad(|q| modular(q, &w, a, b), &x), FD);
    let gab = fd_grad(|p| modular(&x, &w, p[0], p[1]), &[a, b]);
    assert_close("d/da", da, gab[0], FD);
    assert_close("d/db", db, gab[1], FD);
}

// ---------------------------------------------------------------------------------------
// Result with `?` and a user error type; the error path falls back to a constant.

#[derive(Debug)]
pub enum FitError {
    NonPositive,
    TooFew,
}

fn log_ratio(a: f64, b: f64) -> Result<f64, FitError> {
    if a <= 0.0 || b <= 0.0 {
        return Err(FitError::NonPositive);
    }
    Ok((a / b).ln())
}

fn mean_log_ratio(x: &[f64]) -> Result<f64, FitError> {
    if x.len() < 2 {
        return Err(FitError::TooFew);
    }
    let mut s = 0.0;
    for p in x.windows(2) {
        s += log_ratio(p[1], p[0])?.powi(2);
    }
    Ok(s / (x.len() - 1) as f64)
}

#[autodiff_reverse(d_robust_loss, Duplicated, Active)]
pub fn robust_loss(x: &[f64]) -> f64 {
    match mean_log_ratio(x) {
        Ok(v) => v,
        Err(FitError::NonPositive) => 1e3,
        Err(FitError::TooFew) => 0.0,
    }
}

#[test]
fn result_question_mark_early_returns() {
    let x = inputs(7, 21, 0.5, 3.0);
    let mut dx = vec![0.0; x.len()];
    let y = d_robust_loss(&x, &mut dx, 1.0);
    assert_close("primal", y, robust_loss(&x), EXACT);
    assert_all_close("d/dx", &dx, &fd_grad(robust_loss, &x), FD);

    // The `?` path taken in the middle of the loop: a constant, a zero gradient.
    let mut bad = x.clone();
    bad[4] = -1.0;
    let mut dbad = vec![7.0; bad.len()];
    let y = d_robust_loss(&bad, &mut dbad, 1.0);
    assert_close("primal (error)", y, 1e3, EXACT);
    assert_all_close("d/dx (error path adds nothing)", &dbad, &[7.0; 7], EXACT);
}

// ---------------------------------------------------------------------------------------
// A `&mut self` method differentiated with `self` Duplicated, called again on the state it
// left; and an optimizer whose `&mut self` step calls a derivative.

#[derive(Clone, Debug, Default)]
pub struct Oscillator {
    pub x: f64,
    pub v: f64,
    pub k: f64,
    pub c: f64,
}

impl Oscillator {
    /// Advances `steps` semi-implicit Euler steps (the state stays in `self`) and returns
    /// the energy at the end.
    #[autodiff_reverse(d_energy_after, Duplicated, Const, Const, Active)]
    pub fn energy_after(&mut self, steps: usize, dt: f64) -> f64 {
        for _ in 0..steps {
            let a = -self.k * self.x.sin() - self.c * self.v;
            self.v += dt * a;
            self.x += dt * self.v;
        }
        0.5 * self.v * self.v + self.k * (1.0 - self.x.cos())
    }
}

fn osc_energy(p: &[f64], steps: usize, dt: f64) -> f64 {
    let mut o = Oscillator {
        x: p[0],
        v: p[1],
        k: p[2],
        c: p[3],
    };
    o.energy_after(steps, dt)
}

#[test]
fn mut_self_method_duplicated_across_calls() {
    let mut osc = Oscillator {
        x: 0.7,
        v: -0.2,
        k: 2.5,
        c: 0.1,
    };
    let (steps, dt) = (40, 0.05);
    for call in 0..3 {
        let before = [osc.x, osc.v, osc.k, osc.c];
        let mut shadow = Oscillator::default();
        let e = osc.d_energy_after(&mut shadow, steps, dt, 1.0);
        // The primal state moved on, as the plain method moves it.
        let mut plain = Oscillator {
            x: before[0],
            v: before[1],
            k: before[2],
            c: before[3],
        };
        assert_close(
            &format!("call {call}: energy"),
            e,
            plain.energy_after(steps, dt),
            EXACT,
        );
        assert_close(&format!("call {call}: x"), osc.x, plain.x, EXACT);
        assert_close(&format!("call {call}: v"), osc.v, plain.v, EXACT);
        let got = [shadow.x, shadow.v, shadow.k, shadow.c];
        let want = fd_grad(|p| osc_energy(p, steps, dt), &before);
        assert_all_close(
            &format!("call {call}: d energy / d initial state"),
            &got,
            &want,
            FD,
        );
    }
}

/// The Rosenbrock valley in `n` dimensions.
#[autodiff_reverse(d_rosen, Duplicated, Active)]
pub fn rosen(x: &[f64]) -> f64 {
    x.windows(2)
        .map(|w| 100.0 * (w[1] - w[0] * w[0]).powi(2) + (1.0 - w[0]).powi(2))
        .sum()
}

/// Adam, its moments kept in the struct between steps.
pub struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    g: Vec<f64>,
    t: i32,
    lr: f64,
}

impl Adam {
    pub fn new(n: usize, lr: f64) -> Self {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            g: vec![0.0; n],
            t: 0,
            lr,
        }
    }

    /// One step on `p`; returns the loss before the step.
    pub fn step(&mut self, p: &mut [f64]) -> f64 {
        self.g.iter_mut().for_each(|g| *g = 0.0);
        let loss = d_rosen(p, &mut self.g, 1.0);
        self.t += 1;
        let (b1, b2) = (0.9f64, 0.999f64);
        for i in 0..p.len() {
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * self.g[i];
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * self.g[i] * self.g[i];
            let mh = self.m[i] / (1.0 - b1.powi(self.t));
            let vh = self.v[i] / (1.0 - b2.powi(self.t));
            p[i] -= self.lr * mh / (vh.sqrt() + 1e-8);
        }
        loss
    }
}

#[test]
fn adam_struct_steps_on_the_derivative() {
    let mut p = vec![-1.2, 1.0, -0.5, 0.8];
    let mut g = vec![0.0; 4];
    d_rosen(&p, &mut g, 1.0);
    assert_all_close("d/dx at the start", &g, &fd_grad(rosen, &p), FD);
    let mut opt = Adam::new(p.len(), 0.02);
    let first = opt.step(&mut p);
    for _ in 0..3000 {
        opt.step(&mut p);
    }
    let last = rosen(&p);
    assert!(
        last < 1e-3 * first,
        "Adam did not descend: {first} -> {last} at {p:?}"
    );
    g.iter_mut().for_each(|v| *v = 0.0);
    d_rosen(&p, &mut g, 1.0);
    assert_all_close("d/dx at the end", &g, &fd_grad(rosen, &p), 1e-5);
}

// ---------------------------------------------------------------------------------------
// A Vec<Vec<f64>> Gram matrix built inside from Vec<Vec<f64>> rows passed Duplicated.

#[autodiff_reverse(d_gram_energy, Duplicated, Active)]
pub fn gram_energy(rows: &Vec<Vec<f64>>) -> f64 {
    let n = rows.len();
    let mut gram = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            gram[i][j] = rows[i].iter().zip(&rows[j]).map(|(a, b)| a * b).sum();
        }
    }
    // ‖G‖_F² plus the log of each diagonal entry.
    gram.iter()
        .enumerate()
        .map(|(i, r)| r.iter().map(|g| g * g).sum::<f64>() + r[i].ln())
        .sum()
}

#[test]
fn vec_vec_gram_matrix_built_inside() {
    let (n, d) = (3, 4);
    let flat = inputs(n * d, 17, -1.0, 1.0);
    let rows: Vec<Vec<f64>> = flat.chunks(d).map(|c| c.to_vec()).collect();
    let mut drows = vec![vec![0.0; d]; n];
    let e = d_gram_energy(&rows, &mut drows, 1.0);
    let from_flat = |q: &[f64]| gram_energy(&q.chunks(d).map(|c| c.to_vec()).collect());
    assert_close("primal", e, from_flat(&flat), EXACT);
    let got: Vec<f64> = drows.concat();
    assert_all_close("d/drows", &got, &fd_grad(from_flat, &flat), FD);
}

// ---------------------------------------------------------------------------------------
// The forward mode of a 50-input function against its reverse gradient.

#[autodiff_forward(t_field, Dual, Dual)]
#[autodiff_forward(t4_field, 4, Dual, Dual)]
#[autodiff_reverse(d_field, Duplicated, Active)]
pub fn field(x: &[f64]) -> f64 {
    let n = x.len();
    let mut e = 0.0;
    for i in 0..n {
        let r = x[(i + 1) % n] - x[i];
        e += (1.0 + r * r).ln() + 0.1 * x[i].cos() * x[(i + 7) % n];
    }
    e
}

#[test]
fn forward_50_inputs_against_reverse() {
    let n = 50;
    let x = inputs(n, 50, -2.0, 2.0);
    let mut grad = vec![0.0; n];
    let y = d_field(&x, &mut grad, 1.0);
    assert_close("primal (reverse)", y, field(&x), EXACT);
    assert_all_close("reverse against fd", &grad, &fd_grad(field, &x), FD);

    // One forward call per unit direction gives the gradient, entry by entry.
    let mut e = vec![0.0; n];
    let mut fwd = vec![0.0; n];
    for i in 0..n {
        e[i] = 1.0;
        let (yf, dy) = t_field(&x, &e);
        assert_close("primal (forward)", yf, y, EXACT);
        fwd[i] = dy;
        e[i] = 0.0;
    }
    assert_all_close("forward e_i = reverse", &fwd, &grad, EXACT);

    // Four random directions at once: each tangent is grad · v.
    let vs: Vec<Vec<f64>> = (0..4).map(|k| inputs(n, 500 + k, -1.0, 1.0)).collect();
    let out = t4_field(&x, &vs[0], &vs[1], &vs[2], &vs[3]);
    assert_close("primal (width 4)", out[0], y, EXACT);
    for k in 0..4 {
        let dot: f64 = grad.iter().zip(&vs[k]).map(|(g, v)| g * v).sum();
        assert_close(
            &format!("direction {k}: J v = ∇f · v"),
            out[k + 1],
            dot,
            EXACT,
        );
    }
}

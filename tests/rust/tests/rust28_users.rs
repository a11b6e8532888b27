//! rust28: code as a user of another crate writes it, differentiated in this crate (an
//! integration test: the derivatives are generated at this test binary's link): linear
//! algebra on plain slices (`chunks_exact` rows, a forward substitution into a local
//! buffer), `impl Trait` arguments and return types, closures captured by `move` and
//! returned from helpers, the iterator adaptors `scan`, `take_while`, `rev` and
//! `step_by`, `f32` code, and batched forward mode. Release and debug builds; each
//! derivative is checked against central finite differences and a formula written here.

use ferrozyme::{autodiff_forward, autodiff_reverse};
use ferrozyme_rust_tests::check::{assert_all_close, assert_close, fd1, fd_grad, EXACT, FD};

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Ridge regression `½|A x - b|² + ½ λ |x|²`, `A` row-major on a slice.
#[autodiff_reverse(d_ridge, Duplicated, Duplicated, Const, Active, Active)]
pub fn ridge(a: &[f64], x: &[f64], b: &[f64], lambda: f64) -> f64 {
    let fit: f64 = a
        .chunks_exact(x.len())
        .zip(b)
        .map(|(row, bi)| {
            let e = dot(row, x) - bi;
            0.5 * e * e
        })
        .sum();
    fit + 0.5 * lambda * dot(x, x)
}

/// `|y|²` of the solution of `L y = b` (`L` lower triangular, row-major), solved by
/// forward substitution into a stack buffer.
#[autodiff_reverse(d_tri_solve_norm, Duplicated, Duplicated, Active)]
pub fn tri_solve_norm(l: &[f64], b: &[f64]) -> f64 {
    let n = b.len();
    let mut buf = [0.0f64; 8];
    let y = &mut buf[..n];
    for i in 0..n {
        let s = dot(&l[i * n..i * n + i], &y[..i]);
        y[i] = (b[i] - s) / l[i * n + i];
    }
    dot(y, y)
}

fn squashed<'a>(x: &'a [f64], f: impl Fn(f64) -> f64 + 'a) -> impl Iterator<Item = f64> + 'a {
    x.iter().map(move |&v| f(v))
}

fn weighted(it: impl Iterator<Item = f64>, w: impl Fn(usize) -> f64) -> f64 {
    it.enumerate().map(|(i, v)| w(i) * v).sum()
}

/// `Σ (1 + i) tanh(x_i)` through helpers taking and returning `impl Trait`.
#[autodiff_reverse(d_impl_trait_loss, Duplicated, Active)]
pub fn impl_trait_loss(x: &[f64]) -> f64 {
    weighted(squashed(x, f64::tanh), |i| 1.0 + i as f64)
}

fn wave(k: f64, c: f64) -> impl Fn(f64) -> f64 {
    move |t| c * (k * t).sin()
}

/// `Σ (c sin(k t) + o)²`: a model closure returned by a helper, wrapped in a second
/// closure that takes it and the offset by `move`.
#[autodiff_reverse(d_moved_closures, Duplicated, Const, Active)]
pub fn moved_closures(p: &[f64], ts: &[f64]) -> f64 {
    let model = wave(p[0], p[1]);
    let offset = p[2];
    let shifted = move |t: f64| model(t) + offset;
    ts.iter().map(|&t| shifted(t).powi(2)).sum()
}

/// Running sums (`scan`) squared while they stay below 3 (`take_while`), plus every
/// second element from the end (`rev().step_by(2)`) weighted by its rank.
#[autodiff_reverse(d_adaptor_mix, Duplicated, Active)]
pub fn adaptor_mix(x: &[f64]) -> f64 {
    let head: f64 = x
        .iter()
        .scan(0.0, |acc, &v| {
            *acc += v;
            Some(*acc)
        })
        .take_while(|s| *s < 3.0)
        .map(|s| s * s)
        .sum();
    let tail: f64 = x
        .iter()
        .rev()
        .step_by(2)
        .enumerate()
        .map(|(i, v)| (i as f64 + 1.0) * v.sin())
        .sum();
    head + tail
}

/// A logistic loss in `f32`: `Σ ln(1 + e^{w_i x_i})`.
#[autodiff_reverse(d_softplus32, Duplicated, Const, Active)]
pub fn softplus32(w: &[f32], x: &[f32]) -> f32 {
    w.iter().zip(x).map(|(a, b)| (a * b).exp().ln_1p()).sum()
}

/// Spherical to Cartesian coordinates; its 3×3 Jacobian in one batched forward call.
#[autodiff_forward(t3_to_cartesian, 3, Dual, Dual)]
pub fn to_cartesian(s: &[f64], out: &mut [f64]) {
    let (r, theta, phi) = (s[0], s[1], s[2]);
    out[0] = r * theta.sin() * phi.cos();
    out[1] = r * theta.sin() * phi.sin();
    out[2] = r * theta.cos();
}

/// The energy of a pendulum; both partial derivatives in one batched forward call.
#[autodiff_forward(t2_energy, 2, Dual, Dual, Dual)]
pub fn energy(theta: f64, omega: f64) -> f64 {
    0.5 * omega * omega + 9.81 * (1.0 - theta.cos())
}

#[test]
fn ridge_on_slices() {
    let (m, n) = (4, 3);
    let a: Vec<f64> = (0..m * n)
        .map(|i| ((i * 7 % 5) as f64 - 2.0) / 3.0)
        .collect();
    let x = [0.3, -1.1, 0.8];
    let b = [1.0, -0.5, 0.25, 2.0];
    let lambda = 0.7;
    let (mut da, mut dx) = (vec![0.0; m * n], [0.0; 3]);
    let (v, dlambda) = d_ridge(&a, &mut da, &x, &mut dx, &b, lambda, 1.0);
    assert_close("value", v, ridge(&a, &x, &b, lambda), EXACT);
    // d/dx = Aᵀ r + λ x, d/dA = r xᵀ, d/dλ = ½|x|², r = A x - b
    let r: Vec<f64> = (0..m).map(|i| dot(&a[i * n..][..n], &x) - b[i]).collect();
    let want_dx: Vec<f64> = (0..n)
        .map(|j| (0..m).map(|i| a[i * n + j] * r[i]).sum::<f64>() + lambda * x[j])
        .collect();
    let want_da: Vec<f64> = (0..m * n).map(|k| r[k / n] * x[k % n]).collect();
    assert_all_close("dx", &dx, &want_dx, EXACT);
    assert_all_close("dA", &da, &want_da, EXACT);
    assert_close("dlambda", dlambda, 0.5 * dot(&x, &x), EXACT);
    assert_all_close("dx fd", &dx, &fd_grad(|q| ridge(&a, q, &b, lambda), &x), FD);
    assert_all_close("dA fd", &da, &fd_grad(|q| ridge(q, &x, &b, lambda), &a), FD);
}

#[test]
fn forward_substitution_into_a_stack_buffer() {
    let l = [2.0, 0.0, 0.0, 0.5, 1.5, 0.0, -0.3, 0.8, 1.2];
    let b = [1.0, -2.0, 0.5];
    let (mut dl, mut db) = ([0.0; 9], [0.0; 3]);
    let v = d_tri_solve_norm(&l, &mut dl, &b, &mut db, 1.0);
    assert_close("value", v, tri_solve_norm(&l, &b), EXACT);
    // y = L⁻¹ b, f = |y|²: df/db = 2 L⁻ᵀ y, df/dL = -(df/db) yᵀ (lower triangle only)
    let mut y = [0.0; 3];
    for i in 0..3 {
        y[i] = (b[i] - (0..i).map(|k| l[i * 3 + k] * y[k]).sum::<f64>()) / l[i * 3 + i];
    }
    let mut g = [0.0; 3];
    for i in (0..3).rev() {
        g[i] = (2.0 * y[i] - (i + 1..3).map(|k| l[k * 3 + i] * g[k]).sum::<f64>()) / l[i * 3 + i];
    }
    assert_all_close("db", &db, &g, EXACT);
    let mut want_dl = [0.0; 9];
    for i in 0..3 {
        for j in 0..=i {
            want_dl[i * 3 + j] = -g[i] * y[j];
        }
    }
    assert_all_close("dL", &dl, &want_dl, EXACT);
    assert_all_close("db fd", &db, &fd_grad(|q| tri_solve_norm(&l, q), &b), FD);
    assert_all_close("dL fd", &dl, &fd_grad(|q| tri_solve_norm(q, &b), &l), FD);
}

#[test]
fn impl_trait_arguments_and_returns() {
    let x = [0.4, -1.3, 0.05, 2.2];
    let mut dx = [0.0; 4];
    let v = d_impl_trait_loss(&x, &mut dx, 1.0);
    assert_close("value", v, impl_trait_loss(&x), EXACT);
    let want: Vec<f64> = x
        .iter()
        .enumerate()
        .map(|(i, v)| (1.0 + i as f64) * (1.0 - v.tanh().powi(2)))
        .collect();
    assert_all_close("dx", &dx, &want, EXACT);
    assert_all_close("dx fd", &dx, &fd_grad(impl_trait_loss, &x), FD);
}

#[test]
fn closures_captured_by_move() {
    let p = [1.3, 0.7, -0.2];
    let ts = [0.0, 0.5, 1.0, 1.7, 2.4];
    let mut dp = [0.0; 3];
    let v = d_moved_closures(&p, &mut dp, &ts, 1.0);
    assert_close("value", v, moved_closures(&p, &ts), EXACT);
    let mut want = [0.0; 3];
    for &t in &ts {
        let r = p[1] * (p[0] * t).sin() + p[2];
        want[0] += 2.0 * r * p[1] * t * (p[0] * t).cos();
        want[1] += 2.0 * r * (p[0] * t).sin();
        want[2] += 2.0 * r;
    }
    assert_all_close("dp", &dp, &want, EXACT);
    assert_all_close("dp fd", &dp, &fd_grad(|q| moved_closures(q, &ts), &p), FD);
}

#[test]
fn scan_take_while_rev_step_by() {
    // running sums 0.5, 1.7, 2.6, 3.4 (stops), …
    let x = [0.5, 1.2, 0.9, 0.8, -0.4, 0.3];
    let mut dx = [0.0; 6];
    let v = d_adaptor_mix(&x, &mut dx, 1.0);
    assert_close("value", v, adaptor_mix(&x), EXACT);
    // head = Σ_{k<3} s_k², s_k = x_0 + … + x_k: d/dx_j = Σ_{j<=k<3} 2 s_k
    let s = [0.5, 1.7, 2.6];
    let mut want = [0.0; 6];
    for j in 0..3 {
        want[j] += (j..3).map(|k| 2.0 * s[k]).sum::<f64>();
    }
    // tail: x_5, x_3, x_1 with weights 1, 2, 3
    for (rank, j) in [5usize, 3, 1].iter().enumerate() {
        want[*j] += (rank as f64 + 1.0) * x[*j].cos();
    }
    assert_all_close("dx", &dx, &want, EXACT);
    assert_all_close("dx fd", &dx, &fd_grad(adaptor_mix, &x), FD);
}

#[test]
fn f32_logistic_loss() {
    let w = [0.5f32, -1.25, 2.0, 0.1];
    let x = [1.5f32, 0.4, -0.3, 3.0];
    let mut dw = [0.0f32; 4];
    let v = d_softplus32(&w, &mut dw, &x, 1.0);
    assert_close("value", v as f64, softplus32(&w, &x) as f64, 1e-6);
    for i in 0..4 {
        // d/dw_i = x_i σ(w_i x_i), computed in f64
        let (wi, xi) = (w[i] as f64, x[i] as f64);
        let want = xi / (1.0 + (-wi * xi).exp());
        assert_close("dw", dw[i] as f64, want, 1e-5);
        let f = |q: f64| ((q * xi).exp()).ln_1p();
        assert_close("dw fd", dw[i] as f64, fd1(f, wi), 1e-5);
    }
}

#[test]
fn batched_forward_jacobian_and_partials() {
    let s: [f64; 3] = [1.5, 0.7, -0.4];
    let (r, th, ph) = (s[0], s[1], s[2]);
    let jac = [
        [
            th.sin() * ph.cos(),
            r * th.cos() * ph.cos(),
            -r * th.sin() * ph.sin(),
        ],
        [
            th.sin() * ph.sin(),
            r * th.cos() * ph.sin(),
            r * th.sin() * ph.cos(),
        ],
        [th.cos(), -r * th.sin(), 0.0],
    ];
    let e = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let mut out = [0.0; 3];
    let mut cols = [[0.0; 3]; 3];
    let [c0, c1, c2] = &mut cols;
    t3_to_cartesian(&s, &e[0], &e[1], &e[2], &mut out, c0, c1, c2);
    let mut want_out = [0.0; 3];
    to_cartesian(&s, &mut want_out);
    assert_all_close("out", &out, &want_out, EXACT);
    for c in 0..3 {
        for row in 0..3 {
            assert_close("J", cols[c][row], jac[row][c], EXACT);
        }
    }
    let (th, om): (f64, f64) = (0.6, -1.4);
    let [v, d_th, d_om] = t2_energy(th, 1.0, 0.0, om, 0.0, 1.0);
    assert_close("energy", v, energy(th, om), EXACT);
    assert_close("dE/dtheta", d_th, 9.81 * th.sin(), EXACT);
    assert_close("dE/domega", d_om, om, EXACT);
    assert_close("dE/dtheta fd", d_th, fd1(|q| energy(q, om), th), FD);
}

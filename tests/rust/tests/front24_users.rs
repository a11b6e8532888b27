//! front24: the library's user-style derivatives (`front24_user`) called from another
//! crate, each checked against central finite differences or a formula written here.
//!
//! Release builds only: in debug builds the pass refuses the standard library's unoptimized
//! `Vec` and `Box` internals these derivatives go through (cannot-deduce-type in
//! `Vec::with_capacity_in`, `set_len`, `SetLenOnDrop::new`, `as_slice`, `Box::new`,
//! `size_of_val_raw`; no derivative for `RawVecInner::deallocate`): a clear compile-time
//! error, no wrong number. tests/README.md, front24.
#![cfg(not(debug_assertions))]

use ferrozyme_rust_tests::check::{assert_all_close, assert_close, fd_grad, EXACT, FD};
use ferrozyme_rust_tests::front24_user::*;

fn flat3(p: &[[f64; 3]]) -> Vec<f64> {
    p.iter().flatten().copied().collect()
}
fn unflat3(v: &[f64]) -> Vec<[f64; 3]> {
    v.chunks(3).map(|c| [c[0], c[1], c[2]]).collect()
}

#[test]
fn particles_built_with_vec_macro() {
    let pos: Vec<[f64; 3]> = (0..5)
        .map(|i| {
            let t = i as f64;
            [0.3 * t - 0.6, (0.9 * t).cos(), 0.4 - 0.15 * t]
        })
        .collect();
    let k = 1.7;
    let mut dpos = vec![[0.0; 3]; pos.len()];
    let (e, dk) = d_particles_vec_macro(&pos, &mut dpos, k, 1.0);
    assert_close("primal", e, particles_vec_macro(&pos, k), EXACT);
    // e = Σ 0.5 k p² (1 + 0.1 p²) + Σ p²: de/dp = k p (1 + 0.2 p²) + 2p, de/dk = Σ 0.5 p² (1 + 0.1 p²).
    let flat = flat3(&pos);
    let want: Vec<f64> = flat
        .iter()
        .map(|p| k * p * (1.0 + 0.2 * p * p) + 2.0 * p)
        .collect();
    assert_all_close("d/dpos analytic", &flat3(&dpos), &want, EXACT);
    let fd = fd_grad(|v| particles_vec_macro(&unflat3(v), k), &flat);
    assert_all_close("d/dpos fd", &flat3(&dpos), &fd, FD);
    let wk: f64 = flat.iter().map(|p| 0.5 * p * p * (1.0 + 0.1 * p * p)).sum();
    assert_close("d/dk", dk, wk, EXACT);
}

#[test]
fn matrix_chain_chunks_exact_rev_epsilon() {
    let n = 4;
    let a: Vec<f64> = (0..n * n)
        .map(|k| ((k * 7 % 11) as f64 - 5.0) / 4.0)
        .collect();
    let x = vec![0.3, -0.8, 1.1, 0.45];
    let u: Vec<f64> = (0..n * n)
        .map(|k| {
            let (i, j) = (k / n, k % n);
            if j < i {
                0.0
            } else if j == i {
                1.5 + 0.25 * i as f64
            } else {
                0.2 * (i + j) as f64 - 0.5
            }
        })
        .collect();
    let t = vec![0.5, -0.5, 0.5, 0.5];
    let (mut da, mut dx) = (vec![0.0; n * n], vec![0.0; n]);
    let y = d_matrix_chain(&a, &mut da, &x, &mut dx, &u, &t, 1.0);
    assert_close("primal", y, matrix_chain(&a, &x, &u, &t), EXACT);
    let fdx = fd_grad(|v| matrix_chain(&a, v, &u, &t), &x);
    assert_all_close("d/dx", &dx, &fdx, FD);
    let fda = fd_grad(|v| matrix_chain(v, &x, &u, &t), &a);
    assert_all_close("d/dA", &da, &fda, FD);
    // A is linear in y = A x: dA = g xᵀ where g = dy, and dx = Aᵀ g.
    let g: Vec<f64> = (0..n).map(|i| da[i * n] / x[0]).collect();
    let atg: Vec<f64> = (0..n)
        .map(|j| (0..n).map(|i| a[i * n + j] * g[i]).sum())
        .collect();
    assert_all_close("dx = Aᵀ (dA / xᵀ)", &dx, &atg, 1e-10);
}

#[test]
fn own_float_trait_generic_model() {
    let x = vec![0.4, -1.2, 0.75, 2.0, -0.3];
    let a = 0.6;
    let mut dx = vec![0.0; x.len()];
    let (y, da) = d_gauss_sum_f64(&x, &mut dx, a, 1.0);
    assert_close("primal", y, gauss_sum(&x, a), EXACT);
    // d/dx_i exp(-a x²) sqrt(1+x²) = exp(-a x²) (x / sqrt(1+x²) - 2 a x sqrt(1+x²))
    let want: Vec<f64> = x
        .iter()
        .map(|v| {
            let (e, r) = ((-a * v * v).exp(), (1.0 + v * v).sqrt());
            e * (v / r - 2.0 * a * v * r)
        })
        .collect();
    assert_all_close("d/dx", &dx, &want, EXACT);
    let wa: f64 = x
        .iter()
        .map(|v| -v * v * (-a * v * v).exp() * (1.0 + v * v).sqrt())
        .sum();
    assert_close("d/da", da, wa, EXACT);
    let v = vec![0.1, -0.2, 0.3, 0.05, -0.4];
    let (y2, t) = df_gauss_sum_f64(&x, &v, a);
    assert_close("forward primal", y2, y, EXACT);
    let dot: f64 = want.iter().zip(&v).map(|(p, q)| p * q).sum();
    assert_close("forward = ∇·v", t, dot, EXACT);
}

#[test]
fn order_statistics_sort_by_partial_cmp() {
    let x = vec![0.9, -0.4, 2.2, 0.1, -1.5, 1.3];
    let w = vec![0.5, 1.0, 1.5, 2.0, 2.5, 3.0];
    let mut dx = vec![0.0; x.len()];
    let y = d_order_stats(&x, &mut dx, &w, 1.0);
    assert_close("primal", y, order_stats(&x, &w), EXACT);
    // x_i has rank r_i; d/dx_i w_r · x |x|^½ = w_r · 1.5 |x|^½.
    let want: Vec<f64> = x
        .iter()
        .map(|v| {
            let rank = x.iter().filter(|o| *o < v).count();
            w[rank] * 1.5 * v.abs().sqrt()
        })
        .collect();
    assert_all_close("d/dx analytic", &dx, &want, EXACT);
    let fd = fd_grad(|v| order_stats(v, &w), &x);
    assert_all_close("d/dx fd", &dx, &fd, FD);
}

#[test]
fn closures_returning_closures() {
    let c = vec![0.3, -0.7, 0.25, 0.1];
    let ts = vec![-0.9, -0.2, 0.4, 1.1];
    let s = 1.4;
    let mut dc = vec![0.0; c.len()];
    let (y, ds) = d_closure_factory(&c, &mut dc, s, &ts, 1.0);
    assert_close("primal", y, closure_factory(&c, s, &ts), EXACT);
    // y = Σ_t s p(t) + sin p(t): dy/dc_k = Σ_t t^k (s + cos p(t)), dy/ds = Σ_t p(t).
    let p = |t: f64| c.iter().rev().fold(0.0, |acc, k| acc * t + k);
    let want: Vec<f64> = (0..c.len())
        .map(|k| {
            ts.iter()
                .map(|&t| t.powi(k as i32) * (s + p(t).cos()))
                .sum()
        })
        .collect();
    assert_all_close("d/dc", &dc, &want, EXACT);
    assert_close("d/ds", ds, ts.iter().map(|&t| p(t)).sum(), EXACT);
    let fd = fd_grad(|v| closure_factory(v, s, &ts), &c);
    assert_all_close("d/dc fd", &dc, &fd, FD);
}

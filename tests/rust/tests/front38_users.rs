//! front38: Rust as new users write it, with the standard collections: a `HashMap<usize,
//! f64>` of per-index weights and a `BTreeMap<usize, f64>` of sparse coefficients passed
//! `Const` and read inside the differentiated function (SipHash of the keys included), a
//! `Vec<Vec<f64>>` built inside and one passed `Const`, iterator chains with
//! `zip`/`map`/`fold`/`rev`, `f64::mul_add` and `powi` (Horner, reverse and forward), a
//! generic numeric helper trait used at `f32` and `f64`, a struct with methods
//! (`&self`/`&mut self`) holding closures, and ndarray-free linear algebra (Cholesky
//! factorization and solve of `A(p)` built from the parameters, a power iteration). All right
//! at once; each derivative against a formula written here or central finite differences.
//!
//! Refused with a clear error and not kept as a test (the refusal tests are feature-gated
//! binaries): a `HashMap` built or filled inside the differentiated function (hashbrown's
//! type-erased in-place rehash swaps the table's entries as untyped 8-byte chunks:
//! cannot-deduce-type in `core::ptr::swap_chunk` while differentiating
//! `RawTable::reserve_rehash`, with the help line saying to accumulate into a `Vec<f64>`
//! indexed by the key or to build the map outside and pass it `Const`).
//!
//! Release builds only, as front34's to front37's.
#![cfg(not(debug_assertions))]

use std::collections::{BTreeMap, HashMap};

use ferrozyme::{autodiff_forward, autodiff_reverse};
use ferrozyme_rust_tests::check::{assert_all_close, assert_close, fd_grad, inputs, EXACT, FD};

// ---------------------------------------------------------------------------------------
// Maps passed `Const`.

/// `Σ_i w[i] x_i³`, the weight looked up in a `HashMap` (1 when absent).
#[autodiff_reverse(d_hash_weighted, Duplicated, Const, Active)]
pub fn hash_weighted(x: &[f64], w: &HashMap<usize, f64>) -> f64 {
    x.iter()
        .enumerate()
        .map(|(i, v)| w.get(&i).copied().unwrap_or(1.0) * v.powi(3))
        .sum()
}

/// `Σ_(k, c) c sin(x_k)` over a sparse `BTreeMap` of coefficients.
#[autodiff_reverse(d_btree_sparse, Duplicated, Const, Active)]
pub fn btree_sparse(x: &[f64], c: &BTreeMap<usize, f64>) -> f64 {
    c.iter().map(|(&k, &ck)| ck * x[k].sin()).sum()
}

#[test]
fn hashmap_and_btreemap_passed_const() {
    let x = inputs(7, 380, -1.5, 1.5);
    let w: HashMap<usize, f64> = (0..5).map(|i| (i, 0.5 + i as f64)).collect();
    let mut dx = vec![0.0; 7];
    let y = d_hash_weighted(&x, &mut dx, &w, 1.0);
    assert_close("primal", y, hash_weighted(&x, &w), EXACT);
    let want: Vec<f64> = (0..7)
        .map(|i| 3.0 * w.get(&i).copied().unwrap_or(1.0) * x[i] * x[i])
        .collect();
    assert_all_close("d/dx hash-weighted", &dx, &want, EXACT);

    let c: BTreeMap<usize, f64> = [(0, 1.5), (2, -0.5), (6, 2.0)].into_iter().collect();
    let mut dx = vec![0.0; 7];
    d_btree_sparse(&x, &mut dx, &c, 2.0);
    let want: Vec<f64> = (0..7)
        .map(|i| 2.0 * c.get(&i).map_or(0.0, |ck| ck * x[i].cos()))
        .collect();
    assert_all_close("d/dx sparse (seed 2)", &dx, &want, EXACT);
}

// ---------------------------------------------------------------------------------------
// Vec<Vec<f64>> and iterator chains.

/// `|A|_F` of `A_ij = x_i x_j + (i + j)`, built inside as a `Vec<Vec<f64>>`.
#[autodiff_reverse(d_outer_norm, Duplicated, Active)]
pub fn outer_norm(x: &[f64]) -> f64 {
    let n = x.len();
    let a: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| x[i] * x[j] + (i + j) as f64).collect())
        .collect();
    a.iter()
        .map(|r| r.iter().map(|v| v * v).sum::<f64>())
        .sum::<f64>()
        .sqrt()
}

/// `Σ_r tanh(a_r · x)` with rows of a `Const` `Vec<Vec<f64>>`, the dot by `fold`/`mul_add`.
#[autodiff_reverse(d_rows_tanh, Duplicated, Const, Active)]
pub fn rows_tanh(x: &[f64], a: &[Vec<f64>]) -> f64 {
    a.iter()
        .map(|r| {
            r.iter()
                .zip(x)
                .fold(0.0, |s, (p, q)| p.mul_add(*q, s))
                .tanh()
        })
        .sum()
}

/// `Σ_t p(t)²` with `p(t) = Σ_k c_k t^k` by Horner (`rev`, `fold`, `mul_add`), `powi(2)`.
#[autodiff_reverse(d_horner_sq, Duplicated, Const, Active)]
pub fn horner_sq(c: &[f64], t: &[f64]) -> f64 {
    t.iter()
        .map(|&ti| c.iter().rev().fold(0.0f64, |acc, &ck| acc.mul_add(ti, ck)))
        .map(|p: f64| p.powi(2))
        .sum()
}

#[autodiff_forward(t_horner_sq, Dual, Const, Dual)]
pub fn horner_sq_fwd(c: &[f64], t: &[f64]) -> f64 {
    horner_sq(c, t)
}

#[test]
fn vec_of_vecs_and_iterator_chains() {
    let x = inputs(6, 381, -1.0, 1.0);
    let mut dx = vec![0.0; 6];
    d_outer_norm(&x, &mut dx, 1.0);
    assert_all_close("d/dx |A|_F", &dx, &fd_grad(outer_norm, &x), FD);

    let a: Vec<Vec<f64>> = (0..4).map(|r| inputs(6, 390 + r, -1.0, 1.0)).collect();
    let mut dx = vec![0.0; 6];
    d_rows_tanh(&x, &mut dx, &a, 1.0);
    let want: Vec<f64> = (0..6)
        .map(|j| {
            a.iter()
                .map(|r| {
                    let s: f64 = r.iter().zip(&x).map(|(p, q)| p * q).sum();
                    (1.0 - s.tanh().powi(2)) * r[j]
                })
                .sum()
        })
        .collect();
    assert_all_close("d/dx Σ tanh(a_r·x)", &dx, &want, EXACT);

    let c = inputs(5, 382, -1.0, 1.0);
    let t = [0.1, -0.4, 0.9, 1.3];
    let mut dc = vec![0.0; 5];
    d_horner_sq(&c, &mut dc, &t, 1.0);
    // d/dc_k Σ_t p(t)² = Σ_t 2 p(t) t^k.
    let p = |ti: f64| (0..5).map(|k| c[k] * ti.powi(k as i32)).sum::<f64>();
    let want: Vec<f64> = (0..5)
        .map(|k| t.iter().map(|&ti| 2.0 * p(ti) * ti.powi(k as i32)).sum())
        .collect();
    assert_all_close("d/dc Horner²", &dc, &want, EXACT);
    let v = inputs(5, 383, -1.0, 1.0);
    let (y, tan) = t_horner_sq(&c, &v, &t);
    assert_close("forward primal", y, horner_sq(&c, &t), EXACT);
    let jv: f64 = want.iter().zip(&v).map(|(g, vi)| g * vi).sum();
    assert_close("forward tangent = ∇·v", tan, jv, EXACT);
}

// ---------------------------------------------------------------------------------------
// A numeric trait of the user's, at f32 and f64.

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

/// `Σ_i exp(-x_i²/2) (1 + x_i/2)`, generic over the float type.
fn bump<T: Real>(x: &[T]) -> T {
    x.iter().fold(T::from_f64(0.0), |s, &v| {
        let g = (T::from_f64(-0.5) * v * v).exp();
        g.mul_add(T::from_f64(0.5).mul_add(v, T::from_f64(1.0)), s)
    })
}

#[autodiff_reverse(d_bump64, Duplicated, Active)]
pub fn bump64(x: &[f64]) -> f64 {
    bump(x)
}

#[autodiff_reverse(d_bump32, Duplicated, Active)]
pub fn bump32(x: &[f32]) -> f32 {
    bump(x)
}

#[test]
fn generic_helper_at_f64_and_f32() {
    let x = inputs(5, 384, -2.0, 2.0);
    // d/dx e^{-x²/2}(1 + x/2) = e^{-x²/2} (1/2 - x (1 + x/2)).
    let want: Vec<f64> = x
        .iter()
        .map(|v| (-0.5 * v * v).exp() * (0.5 - v * (1.0 + 0.5 * v)))
        .collect();
    let mut dx = vec![0.0; 5];
    d_bump64(&x, &mut dx, 1.0);
    assert_all_close("d/dx bump f64", &dx, &want, EXACT);
    let x32: Vec<f32> = x.iter().map(|v| *v as f32).collect();
    let mut dx32 = vec![0.0f32; 5];
    d_bump32(&x32, &mut dx32, 1.0);
    let got: Vec<f64> = dx32.iter().map(|v| *v as f64).collect();
    assert_all_close("d/dx bump f32", &got, &want, 1e-5);
}

// ---------------------------------------------------------------------------------------
// A struct with methods and closures: an explicit Euler integrator.

pub struct Integrator<F: Fn(f64, f64) -> f64> {
    force: F,
    dt: f64,
    pub steps: usize,
}

impl<F: Fn(f64, f64) -> f64> Integrator<F> {
    fn step(&self, s: &mut (f64, f64)) {
        let a = (self.force)(s.0, s.1);
        s.1 += self.dt * a;
        s.0 += self.dt * s.1;
    }
    fn run(&mut self, mut s: (f64, f64), n: usize) -> (f64, f64) {
        for _ in 0..n {
            self.step(&mut s);
            self.steps += 1;
        }
        s
    }
}

/// Final position of a damped, driven oscillator `a = -k x - c v`, `p = [k, c, x0]`.
#[autodiff_reverse(d_oscillator, Duplicated, Active)]
pub fn oscillator(p: &[f64]) -> f64 {
    let (k, c) = (p[0], p[1]);
    let mut it = Integrator {
        force: move |x: f64, v: f64| -k * x - c * v,
        dt: 0.01,
        steps: 0,
    };
    let (x, v) = it.run((p[2], 0.0), 300);
    x + 0.1 * v * it.steps as f64 / 300.0
}

#[test]
fn struct_methods_with_a_closure_field() {
    let p = [2.0, 0.3, 0.8];
    let mut dp = [0.0; 3];
    let y = d_oscillator(&p, &mut dp, 1.0);
    assert_close("primal", y, oscillator(&p), EXACT);
    assert_all_close("d/dp oscillator", &dp, &fd_grad(oscillator, &p), FD);
}

// ---------------------------------------------------------------------------------------
// Linear algebra without a crate: Cholesky of A(p) = B Bᵀ + diag(p) and a solve; a power
// iteration.

fn cholesky(a: &mut [f64], n: usize) {
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        let d = d.sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = s / d;
        }
        for i in 0..j {
            a[i * n + j] = 0.0;
        }
    }
}

/// `bᵀ A(p)⁻¹ b + log det A(p)` (a Gaussian negative log-likelihood's two terms).
#[autodiff_reverse(d_gauss_nll, Duplicated, Const, Const, Active)]
pub fn gauss_nll(p: &[f64], bmat: &[f64], b: &[f64]) -> f64 {
    let n = p.len();
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            let s: f64 = (0..n).map(|k| bmat[i * n + k] * bmat[j * n + k]).sum();
            a[i * n + j] = s + if i == j { p[i] } else { 0.0 };
        }
    }
    cholesky(&mut a, n);
    // L z = b, then bᵀ A⁻¹ b = |z|².
    let mut z = vec![0.0; n];
    for i in 0..n {
        let s: f64 = (0..i).map(|k| a[i * n + k] * z[k]).sum();
        z[i] = (b[i] - s) / a[i * n + i];
    }
    let logdet: f64 = (0..n).map(|i| 2.0 * a[i * n + i].ln()).sum();
    z.iter().map(|v| v * v).sum::<f64>() + logdet
}

/// The dominant eigenvalue's Rayleigh quotient after 60 power iterations of `M(q) =
/// diag(q) + S` (S `Const`, symmetric).
#[autodiff_reverse(d_power, Duplicated, Const, Active)]
pub fn power(q: &[f64], s: &[f64]) -> f64 {
    let n = q.len();
    let mv = |v: &[f64]| -> Vec<f64> {
        (0..n)
            .map(|i| q[i] * v[i] + (0..n).map(|j| s[i * n + j] * v[j]).sum::<f64>())
            .collect()
    };
    let mut v = vec![1.0; n];
    for _ in 0..60 {
        let w = mv(&v);
        let norm = w.iter().map(|x| x * x).sum::<f64>().sqrt();
        v = w.into_iter().map(|x| x / norm).collect();
    }
    let w = mv(&v);
    v.iter().zip(&w).map(|(a, b)| a * b).sum()
}

#[test]
fn cholesky_solve_and_power_iteration() {
    let n = 4;
    let p = inputs(n, 385, 0.5, 1.5);
    let bmat = inputs(n * n, 386, -1.0, 1.0);
    let b = inputs(n, 387, -1.0, 1.0);
    let mut dp = vec![0.0; n];
    let y = d_gauss_nll(&p, &mut dp, &bmat, &b, 1.0);
    assert_close("primal", y, gauss_nll(&p, &bmat, &b), EXACT);
    assert_all_close(
        "d/dp nll",
        &dp,
        &fd_grad(|p| gauss_nll(p, &bmat, &b), &p),
        FD,
    );

    let q = [3.0, 1.0, 0.5, 0.2];
    let s0 = inputs(n * n, 388, -0.3, 0.3);
    let mut s = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            s[i * n + j] = 0.5 * (s0[i * n + j] + s0[j * n + i]);
        }
    }
    let mut dq = vec![0.0; n];
    d_power(&q, &mut dq, &s, 1.0);
    // Hellmann-Feynman: dλ/dq_i = v_i² for the unit eigenvector v, here from FD.
    assert_all_close("d/dq λ_max", &dq, &fd_grad(|q| power(q, &s), &q), FD);
}

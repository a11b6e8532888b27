//! Code as users write it, front24: particles as `Vec<[f64; 3]>` built with `vec!`
//! (`vec![[0.0; 3]; n]`), row-major matrix code over `chunks_exact` with a triangular
//! solve by `iter().rev()`, `f64::EPSILON` guards, a float trait of the user's own with
//! a generic model over it, order statistics through `sort_by(partial_cmp)`, and
//! closures returning closures. The tests (tests/front24_users.rs) check every
//! derivative against a formula or central finite differences.

use ferrozyme::{autodiff_forward, autodiff_reverse};

/// Harmonic forces on particles, accumulated into a `vec![[0.0; 3]; n]`.
pub fn spring_forces(pos: &[[f64; 3]], k: f64) -> Vec<[f64; 3]> {
    let mut f = vec![[0.0; 3]; pos.len()];
    for (fi, p) in f.iter_mut().zip(pos) {
        for d in 0..3 {
            fi[d] = -k * p[d] * (1.0 + 0.1 * p[d] * p[d]);
        }
    }
    f
}

/// Work of the forces along a displacement `pos * 0.5` plus the squared distance to the
/// origin: a loss on particle positions.
#[autodiff_reverse(d_particles_vec_macro, Duplicated, Active, Active)]
pub fn particles_vec_macro(pos: &[[f64; 3]], k: f64) -> f64 {
    let f = spring_forces(pos, k);
    let mut e = 0.0;
    for (fi, p) in f.iter().zip(pos) {
        for d in 0..3 {
            e -= 0.5 * fi[d] * p[d];
        }
    }
    e + pos.iter().flatten().map(|c| c * c).sum::<f64>()
}

/// `y = A x` for a row-major `A` (rows of `x.len()` entries) walked with `chunks_exact`.
pub fn matvec(a: &[f64], x: &[f64]) -> Vec<f64> {
    a.chunks_exact(x.len())
        .map(|row| row.iter().zip(x).map(|(r, v)| r * v).sum())
        .collect()
}

/// Solves `U z = y` for an upper-triangular row-major `U` by back substitution,
/// walking the rows with `iter().rev()`; diagonal entries below `f64::EPSILON` in size
/// leave their unknown at 0 (a guard, never taken by the tests' inputs).
pub fn back_substitute(u: &[f64], y: &[f64]) -> Vec<f64> {
    let n = y.len();
    let mut z = vec![0.0; n];
    for (i, row) in u.chunks_exact(n).enumerate().rev() {
        let s: f64 = (i + 1..n).map(|j| row[j] * z[j]).sum();
        z[i] = if row[i].abs() > f64::EPSILON {
            (y[i] - s) / row[i]
        } else {
            0.0
        };
    }
    z
}

/// Normalizes `v` unless its norm is below `f64::EPSILON`.
pub fn normalized(v: &[f64]) -> Vec<f64> {
    let n = v.iter().map(|c| c * c).sum::<f64>().sqrt();
    if n > f64::EPSILON {
        v.iter().map(|c| c / n).collect()
    } else {
        v.to_vec()
    }
}

/// `|normalize(U⁻¹ A x) - t|²` for row-major `A` (`n × n`), `U` upper triangular.
#[autodiff_reverse(d_matrix_chain, Duplicated, Duplicated, Const, Const, Active)]
pub fn matrix_chain(a: &[f64], x: &[f64], u: &[f64], t: &[f64]) -> f64 {
    let y = matvec(a, x);
    let z = back_substitute(u, &y);
    normalized(&z)
        .iter()
        .zip(t)
        .map(|(p, q)| (p - q) * (p - q))
        .sum()
}

/// A float trait of the user's own (no `num_traits`).
pub trait Real:
    Copy + std::ops::Add<Output = Self> + std::ops::Mul<Output = Self> + std::ops::Sub<Output = Self>
{
    fn lit(v: f64) -> Self;
    fn exp_(self) -> Self;
    fn sqrt_(self) -> Self;
}

impl Real for f64 {
    fn lit(v: f64) -> Self {
        v
    }
    fn exp_(self) -> Self {
        self.exp()
    }
    fn sqrt_(self) -> Self {
        self.sqrt()
    }
}

/// A generic model over `Real`: `Σ exp(-a·x_i²) · sqrt(1 + x_i²)`.
pub fn gauss_sum<T: Real>(x: &[T], a: T) -> T {
    x.iter().fold(T::lit(0.0), |acc, &v| {
        acc + (T::lit(0.0) - a * v * v).exp_() * (T::lit(1.0) + v * v).sqrt_()
    })
}

#[autodiff_reverse(d_gauss_sum_f64, Duplicated, Active, Active)]
pub fn gauss_sum_f64(x: &[f64], a: f64) -> f64 {
    gauss_sum(x, a)
}

#[autodiff_forward(df_gauss_sum_f64, Dual, Const, Dual)]
pub fn gauss_sum_f64_fwd(x: &[f64], a: f64) -> f64 {
    gauss_sum(x, a)
}

/// A weighted sum of order statistics: the values sorted with `sort_by(partial_cmp)`,
/// weighted by rank (`Σ_k w_k · x_(k)`, an L-estimator).
#[autodiff_reverse(d_order_stats, Duplicated, Const, Active)]
pub fn order_stats(x: &[f64], w: &[f64]) -> f64 {
    let mut s = x.to_vec();
    s.sort_by(|p, q| p.partial_cmp(q).unwrap());
    s.iter().zip(w).map(|(v, c)| c * v * v.abs().sqrt()).sum()
}

/// A polynomial as a closure, from its coefficients (Horner).
pub fn poly(c: Vec<f64>) -> impl Fn(f64) -> f64 {
    move |t| c.iter().rev().fold(0.0, |acc, k| acc * t + k)
}

/// A closure that returns a closure: `scaled(s)(f)` is `t ↦ s · f(t)`.
pub fn scaled(s: f64) -> impl Fn(Box<dyn Fn(f64) -> f64>) -> Box<dyn Fn(f64) -> f64> {
    move |f| Box::new(move |t| s * f(t))
}

/// `sin ∘ f` as a closure borrowing `f`.
pub fn sin_of<'a>(f: &'a dyn Fn(f64) -> f64) -> impl Fn(f64) -> f64 + 'a {
    move |t| f(t).sin()
}

/// `Σ_i scaled(s)(poly(c))(t_i) + sin_of(poly(c))(t_i)`, differentiated with
/// respect to the coefficients `c` and the scale `s`.
#[autodiff_reverse(d_closure_factory, Duplicated, Active, Const, Active)]
pub fn closure_factory(c: &[f64], s: f64, ts: &[f64]) -> f64 {
    let p = poly(c.to_vec());
    let q = scaled(s)(Box::new(poly(c.to_vec())));
    let sp = sin_of(&p);
    ts.iter().map(|&t| q(t) + sp(t)).sum()
}

//! Code as users write it, front23: particles as `Vec<[f64; 3]>` moved by velocity
//! Verlet, a dense layer with softmax cross-entropy over `Vec<Vec<f64>>` weights behind
//! `impl Activation`, a least-squares fit over a `Vec<Box<dyn Fn(f64) -> f64>>` basis with
//! closures capturing by reference, `Result`/`Option` early returns with `?`, a float
//! trait generic over `f32`/`f64` using `mul_add`/`powi`/`powf`/`hypot`/`atan2`, Gaussian
//! elimination with partial pivoting on `Vec<Vec<f64>>`, and slices of structs with
//! `chunks_exact`/`fold`. The tests (tests/front23_users.rs) check every derivative
//! against a formula or central finite differences.

use ferrozyme::{autodiff_forward, autodiff_reverse};

/// Velocity Verlet for unit masses in a harmonic trap with pairwise soft repulsion; the
/// total energy is not what we want to conserve here but a loss on the final positions.
pub fn forces(pos: &[[f64; 3]], k: f64) -> Vec<[f64; 3]> {
    // `vec![[0.0; 3]; n]` differentiates here (front24); `vel` below still needs the
    // `collect` (tests/README.md, front23 and front24).
    let mut f: Vec<[f64; 3]> = vec![[0.0; 3]; pos.len()];
    for (i, p) in pos.iter().enumerate() {
        for d in 0..3 {
            f[i][d] -= k * p[d];
        }
        for (j, q) in pos.iter().enumerate().skip(i + 1) {
            let r: [f64; 3] = [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
            let r2 = r.iter().map(|c| c * c).sum::<f64>() + 0.5;
            let s = 1.0 / (r2 * r2);
            for d in 0..3 {
                f[i][d] += 2.0 * s * r[d];
                f[j][d] -= 2.0 * s * r[d];
            }
        }
    }
    f
}

#[autodiff_reverse(d_verlet_loss, Duplicated, Const, Active, Active)]
pub fn verlet_loss(pos0: &[[f64; 3]], steps: usize, k: f64) -> f64 {
    let dt = 0.05;
    let mut pos = pos0.to_vec();
    // `vec![[0.0; 3]; n]` here is still refused in release builds (cannot-deduce-type at
    // the `memcpy` of `core::ptr::write`; tests/README.md, front23 and front24).
    let mut vel: Vec<[f64; 3]> = pos.iter().map(|_| [0.0; 3]).collect();
    let mut f = forces(&pos, k);
    for _ in 0..steps {
        for ((p, v), a) in pos.iter_mut().zip(vel.iter_mut()).zip(&f) {
            for d in 0..3 {
                v[d] += 0.5 * dt * a[d];
                p[d] += dt * v[d];
            }
        }
        f = forces(&pos, k);
        for (v, a) in vel.iter_mut().zip(&f) {
            for d in 0..3 {
                v[d] += 0.5 * dt * a[d];
            }
        }
    }
    pos.iter().map(|p| p[0] * p[0] + 2.0 * p[1] - p[2]).sum::<f64>()
        + 0.5 * vel.iter().flatten().map(|v| v * v).sum::<f64>()
}

/// An activation function chosen by the caller.
pub trait Activation {
    fn apply(&self, z: f64) -> f64;
}
pub struct Tanh;
pub struct Softplus {
    pub beta: f64,
}
impl Activation for Tanh {
    fn apply(&self, z: f64) -> f64 {
        z.tanh()
    }
}
impl Activation for Softplus {
    fn apply(&self, z: f64) -> f64 {
        (1.0 + (self.beta * z).exp()).ln() / self.beta
    }
}

/// A dense layer `act(W x + b)` followed by a linear read-out to class scores.
#[derive(Clone, Debug)]
pub struct Layer {
    pub w: Vec<Vec<f64>>,
    pub b: Vec<f64>,
    pub out: Vec<Vec<f64>>,
}

impl Layer {
    pub fn zeros_like(&self) -> Layer {
        Layer {
            w: self.w.iter().map(|r| vec![0.0; r.len()]).collect(),
            b: vec![0.0; self.b.len()],
            out: self.out.iter().map(|r| vec![0.0; r.len()]).collect(),
        }
    }
    pub fn flat(&self) -> Vec<f64> {
        let mut v: Vec<f64> = self.w.iter().flatten().copied().collect();
        v.extend(&self.b);
        v.extend(self.out.iter().flatten());
        v
    }
    pub fn from_flat(&self, v: &[f64]) -> Layer {
        fn rows(it: &mut impl Iterator<Item = f64>, m: &[Vec<f64>]) -> Vec<Vec<f64>> {
            m.iter().map(|r| it.take(r.len()).collect()).collect()
        }
        let mut it = v.iter().copied();
        let w = rows(&mut it, &self.w);
        let b = (&mut it).take(self.b.len()).collect();
        let out = rows(&mut it, &self.out);
        Layer { w, b, out }
    }
    pub fn scores(&self, x: &[f64], act: &impl Activation) -> Vec<f64> {
        let h: Vec<f64> = self
            .w
            .iter()
            .zip(&self.b)
            .map(|(row, b)| act.apply(row.iter().zip(x).map(|(w, x)| w * x).sum::<f64>() + b))
            .collect();
        self.out
            .iter()
            .map(|row| row.iter().zip(&h).map(|(w, h)| w * h).sum())
            .collect()
    }
}

/// Mean softmax cross-entropy (log-sum-exp shifted by the maximum score).
#[autodiff_reverse(d_cross_entropy, Duplicated, Const, Const, Const, Active)]
pub fn cross_entropy(layer: &Layer, act: &impl Activation, xs: &[Vec<f64>], labels: &[usize]) -> f64 {
    let mut total = 0.0;
    for (x, &c) in xs.iter().zip(labels) {
        let s = layer.scores(x, act);
        let m = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let lse = m + s.iter().map(|v| (v - m).exp()).sum::<f64>().ln();
        total += lse - s[c];
    }
    total / xs.len() as f64
}

/// Least squares over a basis of boxed closures: `Σ_k (Σ_j c_j φ_j(t_k) - y_k)²`; the basis
/// is built by the caller (`Const`), the closures capture data by reference.
#[autodiff_reverse(d_basis_fit, Duplicated, Const, Const, Const, Active)]
pub fn basis_fit(c: &[f64], basis: &[Box<dyn Fn(f64) -> f64 + '_>], t: &[f64], y: &[f64]) -> f64 {
    let model = |tk: f64| -> f64 { c.iter().zip(basis).map(|(cj, phi)| cj * phi(tk)).sum() };
    t.iter().zip(y).map(|(&tk, yk)| (model(tk) - yk).powi(2)).sum()
}

#[derive(Debug, PartialEq)]
pub enum FitError {
    NonPositive(usize),
    Empty,
}

/// Geometric mean of positive data with `?` on a helper's `Result`, and an `Option`
/// chain for the largest ratio; invalid data make the caller's loss zero.
pub fn log_mean(x: &[f64]) -> Result<f64, FitError> {
    if x.is_empty() {
        return Err(FitError::Empty);
    }
    let mut s = 0.0;
    for (i, &v) in x.iter().enumerate() {
        if v <= 0.0 {
            return Err(FitError::NonPositive(i));
        }
        s += v.ln();
    }
    Ok(s / x.len() as f64)
}

pub fn max_ratio(x: &[f64]) -> Option<f64> {
    let first = *x.first()?;
    let best = x.windows(2).map(|w| w[1] / w[0]).reduce(f64::max)?;
    Some(best * first.signum())
}

pub fn scored(x: &[f64]) -> Result<f64, FitError> {
    let g = log_mean(x)?;
    let r = max_ratio(x).ok_or(FitError::Empty)?;
    Ok(g.exp() + r)
}

#[autodiff_reverse(d_scored_or_zero, Duplicated, Active)]
pub fn scored_or_zero(x: &[f64]) -> f64 {
    scored(x).unwrap_or(0.0)
}

/// The float operations a generic polar model needs.
pub trait Float: Copy + std::ops::Add<Output = Self> + std::ops::Mul<Output = Self> + std::ops::Sub<Output = Self> {
    fn mul_add(self, a: Self, b: Self) -> Self;
    fn powi(self, n: i32) -> Self;
    fn powf(self, e: Self) -> Self;
    fn hypot(self, o: Self) -> Self;
    fn atan2(self, o: Self) -> Self;
    fn from_f64(v: f64) -> Self;
}
macro_rules! impl_float {
    ($t:ty) => {
        impl Float for $t {
            fn mul_add(self, a: Self, b: Self) -> Self {
                <$t>::mul_add(self, a, b)
            }
            fn powi(self, n: i32) -> Self {
                <$t>::powi(self, n)
            }
            fn powf(self, e: Self) -> Self {
                <$t>::powf(self, e)
            }
            fn hypot(self, o: Self) -> Self {
                <$t>::hypot(self, o)
            }
            fn atan2(self, o: Self) -> Self {
                <$t>::atan2(self, o)
            }
            fn from_f64(v: f64) -> Self {
                v as $t
            }
        }
    };
}
impl_float!(f32);
impl_float!(f64);

/// `Σ_i r_i^{1.5} + θ_i² + (x_i y_i + 1)³` with `r = hypot(x, y)`, `θ = atan2(y, x)`, over
/// points `[x0, y0, x1, y1, ...]`, written once for both float types.
pub fn polar_model<T: Float>(p: &[T]) -> T {
    p.chunks_exact(2).fold(T::from_f64(0.0), |acc, q| {
        let (x, y) = (q[0], q[1]);
        let r = x.hypot(y);
        let th = y.atan2(x);
        let c = x.mul_add(y, T::from_f64(1.0));
        acc + r.powf(T::from_f64(1.5)) + th * th + c.powi(3)
    })
}

#[autodiff_reverse(d_polar_f64, Duplicated, Active)]
pub fn polar_f64(p: &[f64]) -> f64 {
    polar_model(p)
}

#[autodiff_reverse(d_polar_f32, Duplicated, Active)]
pub fn polar_f32(p: &[f32]) -> f32 {
    polar_model(p)
}

#[autodiff_forward(df_polar_f64, Dual, Dual)]
pub fn polar_f64_fwd(p: &[f64]) -> f64 {
    polar_model(p)
}

/// Solves `A x = b` by Gaussian elimination with partial pivoting (rows swapped in the
/// `Vec<Vec<f64>>`), then returns `c · x`.
pub fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for k in 0..n {
        let p = (k..n)
            .max_by(|&i, &j| a[i][k].abs().partial_cmp(&a[j][k].abs()).unwrap())
            .unwrap();
        a.swap(k, p);
        b.swap(k, p);
        for i in k + 1..n {
            let f = a[i][k] / a[k][k];
            for j in k..n {
                a[i][j] -= f * a[k][j];
            }
            b[i] -= f * b[k];
        }
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|j| a[i][j] * x[j]).sum();
        x[i] = (b[i] - s) / a[i][i];
    }
    x
}

#[autodiff_reverse(d_solve_dot, Duplicated, Duplicated, Const, Active)]
pub fn solve_dot(a: &Vec<Vec<f64>>, b: &[f64], c: &[f64]) -> f64 {
    let x = solve(a.clone(), b.to_vec());
    x.iter().zip(c).map(|(x, c)| x * c).sum()
}

/// A spring between two points of a line with its own stiffness and rest length.
#[derive(Clone, Copy, Debug)]
pub struct Spring {
    pub i: usize,
    pub j: usize,
    pub k: f64,
    pub rest: f64,
}

impl Spring {
    fn energy(&self, x: &[f64]) -> f64 {
        let d = (x[self.j] - x[self.i]).abs() - self.rest;
        0.5 * self.k * d * d
    }
}

/// Springs (a slice of structs, `Duplicated`: stiffness and rest length get adjoints) on
/// points `x` (`Duplicated`), plus a pinning term over pairs of points by `chunks_exact`.
#[autodiff_reverse(d_spring_net, Duplicated, Duplicated, Active)]
pub fn spring_net(springs: &[Spring], x: &[f64]) -> f64 {
    let e = springs.iter().fold(0.0, |acc, s| acc + s.energy(x));
    let pin: f64 = x.chunks_exact(2).map(|p| p[0].mul_add(p[1], -0.25).powi(2)).sum();
    e + 0.1 * pin
}

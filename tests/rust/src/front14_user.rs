//! More code as users write it (front14), built in release and debug: a small MLP whose
//! weights are `Vec<Vec<f64>>` in a struct (the shadow is a struct of the same shape), a
//! trait with a generic driver over two implementations, iterator adaptors the other
//! modules do not use (`chunks_exact`, `scan`, `flat_map`, `step_by`, `rev`, `skip`,
//! `take_while`, `max_by`, `sum` of a `map` over `zip3`), a log-sum-exp, `sort_unstable_by`
//! and `to_vec` (the standard library's sort and copy, refused in debug builds by the type
//! analysis at front13), a closure that captures a `&mut` accumulator, an `f32` generic
//! through a trait, and forward mode through a struct method. Each derivative is checked
//! against finite differences or a formula.

use ferrozyme::{autodiff_forward, autodiff_reverse};

/// A two-layer perceptron: `tanh(W1 x + b1)` then a linear read-out.
#[derive(Clone, Debug)]
pub struct Mlp {
    pub w1: Vec<Vec<f64>>,
    pub b1: Vec<f64>,
    pub w2: Vec<f64>,
}

impl Mlp {
    /// A shadow: zeros of the same shape.
    pub fn zeros_like(&self) -> Mlp {
        Mlp {
            w1: self.w1.iter().map(|r| vec![0.0; r.len()]).collect(),
            b1: vec![0.0; self.b1.len()],
            w2: vec![0.0; self.w2.len()],
        }
    }

    /// All parameters in one vector (rows of `w1`, `b1`, `w2`).
    pub fn flat(&self) -> Vec<f64> {
        let mut v: Vec<f64> = self.w1.iter().flatten().copied().collect();
        v.extend(&self.b1);
        v.extend(&self.w2);
        v
    }

    /// The inverse of `flat`, shaped like `self`.
    pub fn from_flat(&self, v: &[f64]) -> Mlp {
        let mut it = v.iter().copied();
        let mut take = |n: usize| (&mut it).take(n).collect::<Vec<f64>>();
        let w1 = self.w1.iter().map(|r| take(r.len())).collect();
        Mlp {
            w1,
            b1: take(self.b1.len()),
            w2: take(self.w2.len()),
        }
    }

    fn predict(&self, x: &[f64]) -> f64 {
        self.w1
            .iter()
            .zip(&self.b1)
            .map(|(row, b)| (row.iter().zip(x).map(|(w, v)| w * v).sum::<f64>() + b).tanh())
            .zip(&self.w2)
            .map(|(h, w)| h * w)
            .sum()
    }

    /// Mean squared error over samples given as rows of `xs` (`chunks_exact`).
    #[autodiff_reverse(d_mse, Duplicated, Const, Const, Active)]
    pub fn mse(&self, xs: &[f64], ys: &[f64]) -> f64 {
        let d = self.w1[0].len();
        xs.chunks_exact(d)
            .zip(ys)
            .map(|(x, y)| (self.predict(x) - y).powi(2))
            .sum::<f64>()
            / ys.len() as f64
    }
}

/// A model of one input, used through a generic driver.
pub trait Model {
    fn eval(&self, t: f64) -> f64;
}

pub struct Exponential {
    pub rate: f64,
}

pub struct Rational {
    pub a: f64,
    pub b: f64,
}

impl Model for Exponential {
    fn eval(&self, t: f64) -> f64 {
        (-self.rate * t).exp()
    }
}

impl Model for Rational {
    fn eval(&self, t: f64) -> f64 {
        self.a / (1.0 + self.b * t * t)
    }
}

/// Sum of squared residuals of a model at sample times (generic, statically dispatched).
fn residuals<M: Model>(m: &M, ts: &[f64], ys: &[f64]) -> f64 {
    ts.iter()
        .zip(ys)
        .map(|(&t, &y)| (m.eval(t) - y).powi(2))
        .sum()
}

#[autodiff_reverse(d_fit_exp, Active, Const, Const, Active)]
pub fn fit_exp(rate: f64, ts: &[f64], ys: &[f64]) -> f64 {
    residuals(&Exponential { rate }, ts, ys)
}

#[autodiff_reverse(d_fit_rational, Duplicated, Const, Const, Active)]
pub fn fit_rational(p: &[f64; 2], ts: &[f64], ys: &[f64]) -> f64 {
    residuals(&Rational { a: p[0], b: p[1] }, ts, ys)
}

/// Iterator adaptors: a running maximum of prefix sums (`scan`), every other element
/// reversed (`step_by`, `rev`), pairs (`flat_map`), a prefix up to a threshold
/// (`take_while`), the largest by `max_by`.
#[autodiff_reverse(d_adaptors, Duplicated, Active)]
pub fn adaptors(x: &[f64]) -> f64 {
    let prefix: f64 = x
        .iter()
        .scan(0.0, |acc, &v| {
            *acc += v;
            Some(*acc * *acc)
        })
        .sum();
    let alternate: f64 = x.iter().rev().step_by(2).map(|v| v.sin()).sum();
    let pairs: f64 = x
        .iter()
        .flat_map(|&v| [v, v * v])
        .skip(1)
        .map(|v| 0.5 * v)
        .sum();
    let head: f64 = x.iter().take_while(|v| **v < 1.0).map(|v| v.exp()).sum();
    let big = x
        .iter()
        .copied()
        .max_by(|a, b| a.partial_cmp(b).unwrap())
        .unwrap_or(0.0);
    prefix + alternate + pairs + head + 3.0 * big
}

/// Log-sum-exp, stabilized by the maximum (`fold(f64::max)`), and a softmax-weighted sum.
#[autodiff_reverse(d_lse, Duplicated, Active)]
pub fn lse(x: &[f64]) -> f64 {
    let m = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let z: f64 = x.iter().map(|v| (v - m).exp()).sum();
    let soft: f64 = x.iter().map(|v| (v - m).exp() / z * v).sum();
    m + z.ln() + soft
}

/// A trimmed mean: sort a copy (`to_vec`, `sort_unstable_by`), drop the extremes.
#[autodiff_reverse(d_trimmed_mean, Duplicated, Active)]
pub fn trimmed_mean(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap());
    let k = v.len() / 4;
    let kept = &v[k..v.len() - k];
    kept.iter().map(|a| a * a).sum::<f64>() / kept.len() as f64
}

/// A closure capturing a `&mut` accumulator, called in a loop.
#[autodiff_reverse(d_accumulate, Duplicated, Active)]
pub fn accumulate(x: &[f64]) -> f64 {
    let mut total = 0.0;
    let mut add = |v: f64, w: f64| total += w * v.cos();
    for (i, &v) in x.iter().enumerate() {
        add(v, (i + 1) as f64);
    }
    total
}

/// A generic over a float trait, used as `f32`.
pub trait Real: Copy + std::ops::Mul<Output = Self> + std::ops::Add<Output = Self> {
    fn sin(self) -> Self;
}
impl Real for f32 {
    fn sin(self) -> f32 {
        f32::sin(self)
    }
}
fn wave<T: Real>(a: T, x: T) -> T {
    a * x.sin() + x * x
}

#[autodiff_reverse(d_wave32, Active, Active, Active)]
pub fn wave32(a: f32, x: f32) -> f32 {
    wave(a, x)
}

/// Forward mode through a method on a struct by reference.
pub struct Spring {
    pub k: f64,
    pub rest: f64,
}

impl Spring {
    #[autodiff_forward(t_energy, Const, Dual, Dual)]
    pub fn energy(&self, pos: &[f64; 2]) -> f64 {
        let len = (pos[0] * pos[0] + pos[1] * pos[1]).sqrt();
        0.5 * self.k * (len - self.rest).powi(2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    #[test]
    fn mlp_with_nested_vec_weights() {
        let w = inputs(12, 141, -0.7, 0.7);
        let m = Mlp {
            w1: w[..9].chunks(3).map(|r| r.to_vec()).collect(),
            b1: w[9..12].to_vec(),
            w2: vec![0.8, -1.1, 0.5],
        };
        let xs = inputs(15, 142, -1.0, 1.0); // five samples of three inputs
        let ys = inputs(5, 143, -0.5, 0.5);
        let mut dm = m.zeros_like();
        let loss = m.d_mse(&mut dm, &xs, &ys, 1.0);
        assert_close("mse", loss, m.mse(&xs, &ys), 1e-12);
        let want = fd_grad(|p| m.from_flat(p).mse(&xs, &ys), &m.flat());
        assert_all_close("d Mlp", &dm.flat(), &want, FD);
    }

    #[test]
    fn trait_models_through_a_generic_driver() {
        let ts = [0.0, 0.5, 1.0, 1.5, 2.0];
        let ys = [1.0, 0.7, 0.4, 0.3, 0.1];
        let (_, dr) = d_fit_exp(0.8, &ts, &ys, 1.0);
        // d/dr sum (e^{-r t} - y)^2 = sum 2 (e^{-r t} - y) (-t e^{-r t})
        let want: f64 = ts
            .iter()
            .zip(&ys)
            .map(|(&t, &y)| 2.0 * ((-0.8 * t).exp() - y) * (-t * (-0.8 * t).exp()))
            .sum();
        assert_close("d rate", dr, want, EXACT);

        let p = [1.2, 0.6];
        let mut dp = [0.0; 2];
        d_fit_rational(&p, &mut dp, &ts, &ys, 1.0);
        let f = |q: &[f64]| fit_rational(&[q[0], q[1]], &ts, &ys);
        assert_all_close("d rational", &dp, &fd_grad(f, &p), FD);
    }

    #[test]
    fn iterator_adaptors_and_log_sum_exp() {
        let x = [0.3, -0.6, 0.9, 1.4, -0.2, 0.5, 2.1];
        let mut dx = vec![0.0; x.len()];
        d_adaptors(&x, &mut dx, 1.0);
        assert_all_close("adaptors", &dx, &fd_grad(adaptors, &x), FD);

        let mut dx = vec![0.0; x.len()];
        d_lse(&x, &mut dx, 1.0);
        assert_all_close("lse", &dx, &fd_grad(lse, &x), FD);
    }

    #[test]
    fn sort_unstable_copy_and_mut_closure() {
        let x = [0.9, -1.3, 0.2, 2.2, -0.4, 1.1, 0.6, -2.0];
        let mut dx = vec![0.0; x.len()];
        d_trimmed_mean(&x, &mut dx, 1.0);
        assert_all_close("trimmed", &dx, &fd_grad(trimmed_mean, &x), FD);
        // kept: -0.4 0.2 0.6 0.9 (k = 2 dropped at each end): 2 v / 4, zero elsewhere
        let want: Vec<f64> = x
            .iter()
            .map(|&v| {
                if (-0.5..1.0).contains(&v) {
                    v / 2.0
                } else {
                    0.0
                }
            })
            .collect();
        assert_all_close("trimmed formula", &dx, &want, EXACT);

        let x = [0.4, 1.0, -0.8];
        let mut dx = vec![0.0; 3];
        d_accumulate(&x, &mut dx, 1.0);
        let want: Vec<f64> = x
            .iter()
            .enumerate()
            .map(|(i, v)| -((i + 1) as f64) * v.sin())
            .collect();
        assert_all_close("&mut closure", &dx, &want, EXACT);
    }

    #[test]
    fn f32_generic_and_forward_method() {
        let (y, da, dx) = d_wave32(1.5, 0.7, 1.0);
        assert!((y - (1.5 * 0.7f32.sin() + 0.49)).abs() < 1e-6);
        assert!((da - 0.7f32.sin()).abs() < 1e-6, "da {da}");
        assert!((dx - (1.5 * 0.7f32.cos() + 1.4)).abs() < 1e-5, "dx {dx}");

        let s = Spring { k: 3.0, rest: 1.0 };
        let pos = [0.6, 1.2];
        let v = [0.5, -0.25];
        let (e, de) = s.t_energy(&pos, &v);
        assert_close("energy", e, s.energy(&pos), EXACT);
        let g = fd_grad(|p| s.energy(&[p[0], p[1]]), &pos);
        assert_close("forward", de, g[0] * v[0] + g[1] * v[1], FD);
    }
}

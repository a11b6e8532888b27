//! Code as users write it, sixth round (front19), built in release and debug: a small
//! multilayer perceptron with `Vec<Vec<f64>>` weights and ReLU held in a struct
//! (`Duplicated` struct, its shadow a zeroed copy), `f64::hypot`/`atan2`/`powf`,
//! `sort_by(|a, b| a.partial_cmp(b).unwrap())`, a Runge-Kutta integrator generic over a
//! closure `Fn(f64, &[f64]) -> Vec<f64>`, `iter().zip().map().sum()` in reverse and
//! forward mode, and structs with methods taken as `impl Trait` arguments (the annotated
//! function itself generic). Each derivative is checked against a formula or finite
//! differences.

use ferrozyme::{autodiff_forward, autodiff_reverse};

/// A two-layer perceptron: `w2 · relu(W1 x + b1) + b2`.
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    pub w1: Vec<Vec<f64>>,
    pub b1: Vec<f64>,
    pub w2: Vec<f64>,
    pub b2: f64,
}

impl Mlp {
    /// The same shapes, all zeros: the shadow a user passes for the gradient.
    pub fn zeros_like(&self) -> Mlp {
        Mlp {
            w1: self.w1.iter().map(|r| vec![0.0; r.len()]).collect(),
            b1: vec![0.0; self.b1.len()],
            w2: vec![0.0; self.w2.len()],
            b2: 0.0,
        }
    }

    pub fn forward(&self, x: &[f64]) -> f64 {
        let hidden: Vec<f64> = self
            .w1
            .iter()
            .zip(&self.b1)
            .map(|(row, b)| {
                let z: f64 = row.iter().zip(x).map(|(w, xi)| w * xi).sum::<f64>() + b;
                z.max(0.0)
            })
            .collect();
        hidden.iter().zip(&self.w2).map(|(h, w)| h * w).sum::<f64>() + self.b2
    }

    /// All parameters in one flat vector (for finite differences) and back.
    pub fn flat(&self) -> Vec<f64> {
        let mut v: Vec<f64> = self.w1.iter().flatten().copied().collect();
        v.extend(&self.b1);
        v.extend(&self.w2);
        v.push(self.b2);
        v
    }

    pub fn from_flat(&self, v: &[f64]) -> Mlp {
        let mut it = v.iter().copied();
        let mut take = |n: usize| -> Vec<f64> { (&mut it).take(n).collect() };
        let w1 = self.w1.iter().map(|r| take(r.len())).collect();
        let b1 = take(self.b1.len());
        let w2 = take(self.w2.len());
        let b2 = take(1)[0];
        Mlp { w1, b1, w2, b2 }
    }
}

/// Mean squared error of the perceptron over a batch of rows.
#[autodiff_reverse(d_mlp_loss, Duplicated, Const, Const, Active)]
pub fn mlp_loss(net: &Mlp, xs: &[Vec<f64>], ys: &[f64]) -> f64 {
    xs.iter()
        .zip(ys)
        .map(|(x, y)| (net.forward(x) - y).powi(2))
        .sum::<f64>()
        / ys.len() as f64
}

/// Polar and power terms: `Σ hypot(x_i, y_i) + atan2(y_0, x_0) + x_1^{y_1}` for points
/// `p = [x_0, y_0, x_1, y_1, …]` (`x_1 > 0`).
#[autodiff_reverse(d_polar_terms, Duplicated, Active)]
pub fn polar_terms(p: &[f64]) -> f64 {
    let radii: f64 = p.chunks(2).map(|q| q[0].hypot(q[1])).sum();
    radii + p[1].atan2(p[0]) + p[2].powf(p[3])
}

/// The same in forward mode, one direction.
#[autodiff_forward(df_polar_terms, Dual, Dual)]
pub fn polar_terms_fwd(p: &[f64]) -> f64 {
    let radii: f64 = p.chunks(2).map(|q| q[0].hypot(q[1])).sum();
    radii + p[1].atan2(p[0]) + p[2].powf(p[3])
}

/// A trimmed mean of squares: sort a copy with `sort_by(partial_cmp)`, drop the smallest
/// and the largest, average the rest, plus the median of the raw values.
#[autodiff_reverse(d_trimmed, Duplicated, Active)]
pub fn trimmed(x: &[f64]) -> f64 {
    let mut sq: Vec<f64> = x.iter().map(|v| v * v).collect();
    sq.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let inner = &sq[1..sq.len() - 1];
    let mut raw = x.to_vec();
    raw.sort_by(|a, b| a.partial_cmp(b).unwrap());
    inner.iter().sum::<f64>() / inner.len() as f64 + raw[raw.len() / 2]
}

/// Classical Runge-Kutta, generic over the right-hand side.
pub fn rk4<F: Fn(f64, &[f64]) -> Vec<f64>>(f: F, y0: &[f64], t1: f64, steps: usize) -> Vec<f64> {
    let h = t1 / steps as f64;
    let mut y = y0.to_vec();
    let axpy = |y: &[f64], a: f64, k: &[f64]| -> Vec<f64> {
        y.iter().zip(k).map(|(yi, ki)| yi + a * ki).collect()
    };
    for i in 0..steps {
        let t = i as f64 * h;
        let k1 = f(t, &y);
        let k2 = f(t + h / 2.0, &axpy(&y, h / 2.0, &k1));
        let k3 = f(t + h / 2.0, &axpy(&y, h / 2.0, &k2));
        let k4 = f(t + h, &axpy(&y, h, &k3));
        for j in 0..y.len() {
            y[j] += h / 6.0 * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]);
        }
    }
    y
}

/// Linear decay `y' = -k y` of two components from `y0`, integrated to `t = 1`: the
/// final state's sum (parameters `[k, y0_0, y0_1]`).
#[autodiff_reverse(d_decay_end, Duplicated, Const, Active)]
pub fn decay_end(p: &[f64], steps: usize) -> f64 {
    let k = p[0];
    rk4(
        |_t, y| y.iter().map(|v| -k * v).collect(),
        &p[1..3],
        1.0,
        steps,
    )
    .iter()
    .sum()
}

/// A damped, driven oscillator `x'' = -ω² x - c x' + sin t`, fitted at the end time
/// (parameters `[ω, c, x0, v0]`).
#[autodiff_reverse(d_oscillator_fit, Duplicated, Const, Active)]
pub fn oscillator_fit(p: &[f64], target: &[f64]) -> f64 {
    let (w, c) = (p[0], p[1]);
    let rhs = move |t: f64, y: &[f64]| vec![y[1], -w * w * y[0] - c * y[1] + t.sin()];
    let y = rk4(rhs, &p[2..4], 2.0, 40);
    y.iter().zip(target).map(|(a, b)| (a - b).powi(2)).sum()
}

/// Weighted squared distance by a zipped iterator chain.
#[autodiff_reverse(d_weighted_dist, Duplicated, Duplicated, Const, Active)]
pub fn weighted_dist(w: &[f64], x: &[f64], y: &[f64]) -> f64 {
    w.iter()
        .zip(x)
        .zip(y)
        .map(|((w, x), y)| w * (x - y).powi(2))
        .sum()
}

/// The same in forward mode: tangents of `w` and `x`.
#[autodiff_forward(df_weighted_dist, Dual, Dual, Const, Dual)]
pub fn weighted_dist_fwd(w: &[f64], x: &[f64], y: &[f64]) -> f64 {
    w.iter()
        .zip(x)
        .zip(y)
        .map(|((w, x), y)| w * (x - y).powi(2))
        .sum()
}

/// A pair potential, implemented by users' structs with methods.
pub trait Pair {
    fn energy(&self, r: f64) -> f64;
}

/// Lennard-Jones `4ε((σ/r)¹² - (σ/r)⁶)`.
pub struct LennardJones {
    pub eps: f64,
    pub sigma: f64,
}

/// A harmonic bond `½ k (r - r0)²`.
pub struct Harmonic {
    pub k: f64,
    pub r0: f64,
}

impl LennardJones {
    fn sr6(&self, r: f64) -> f64 {
        (self.sigma / r).powi(6)
    }
}

impl Pair for LennardJones {
    fn energy(&self, r: f64) -> f64 {
        let s6 = self.sr6(r);
        4.0 * self.eps * (s6 * s6 - s6)
    }
}

impl Pair for Harmonic {
    fn energy(&self, r: f64) -> f64 {
        0.5 * self.k * (r - self.r0).powi(2)
    }
}

/// Positions of particles on a line, and a method computing their pair energy with any
/// potential passed as `impl Pair`.
pub struct Chain {
    pub x: Vec<f64>,
}

impl Chain {
    pub fn total(&self, pot: &impl Pair) -> f64 {
        let mut e = 0.0;
        for i in 0..self.x.len() {
            for j in i + 1..self.x.len() {
                e += pot.energy((self.x[j] - self.x[i]).abs());
            }
        }
        e
    }
}

/// The annotated function is generic itself (one derivative per potential type).
#[autodiff_reverse(d_chain_energy, Duplicated, Const, Active)]
pub fn chain_energy(chain: &Chain, pot: &impl Pair) -> f64 {
    chain.total(pot)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{assert_all_close, assert_close, fd_grad};

    const FD: f64 = 1e-6;
    const EXACT: f64 = 1e-12;

    fn net() -> Mlp {
        Mlp {
            w1: vec![vec![0.5, -0.3], vec![-0.8, 0.2], vec![0.3, 0.9]],
            b1: vec![0.1, 0.05, -0.2],
            w2: vec![1.2, -0.7, 0.4],
            b2: 0.3,
        }
    }

    #[test]
    fn mlp_vec_of_vec_relu() {
        let net = net();
        let xs: Vec<Vec<f64>> = (0..6)
            .map(|i| vec![(i as f64 * 0.7).sin(), (i as f64 * 0.3).cos() - 0.5])
            .collect();
        let ys: Vec<f64> = (0..6).map(|i| 0.2 * i as f64 - 0.4).collect();
        let mut dnet = net.zeros_like();
        let l = d_mlp_loss(&net, &mut dnet, &xs, &ys, 1.0);
        assert_close("loss", l, mlp_loss(&net, &xs, &ys), EXACT);
        let fd = fd_grad(|v| mlp_loss(&net.from_flat(v), &xs, &ys), &net.flat());
        assert_all_close("fd", &dnet.flat(), &fd, FD);
        // formula: backpropagation by hand
        let mut want = net.zeros_like();
        for (x, y) in xs.iter().zip(&ys) {
            let r = 2.0 * (net.forward(x) - y) / ys.len() as f64;
            want.b2 += r;
            for h in 0..3 {
                let z: f64 = (0..2).map(|j| net.w1[h][j] * x[j]).sum::<f64>() + net.b1[h];
                want.w2[h] += r * z.max(0.0);
                if z > 0.0 {
                    want.b1[h] += r * net.w2[h];
                    for j in 0..2 {
                        want.w1[h][j] += r * net.w2[h] * x[j];
                    }
                }
            }
        }
        assert_all_close("backprop", &dnet.flat(), &want.flat(), EXACT);
    }

    #[test]
    fn hypot_atan2_powf() {
        let p = [0.6, -0.8, 1.7, 0.45, -1.2, 0.3];
        let mut dp = [0.0; 6];
        d_polar_terms(&p, &mut dp, 1.0);
        let mut want = [0.0; 6];
        for i in 0..3 {
            let r = p[2 * i].hypot(p[2 * i + 1]);
            want[2 * i] = p[2 * i] / r;
            want[2 * i + 1] = p[2 * i + 1] / r;
        }
        let r2 = p[0] * p[0] + p[1] * p[1];
        want[0] += -p[1] / r2;
        want[1] += p[0] / r2;
        want[2] += p[3] * p[2].powf(p[3] - 1.0);
        want[3] += p[2].powf(p[3]) * p[2].ln();
        assert_all_close("formula", &dp, &want, EXACT);
        assert_all_close("fd", &dp, &fd_grad(polar_terms, &p), FD);
        let v = [0.3, -0.1, 0.7, 0.2, -0.5, 1.0];
        let (y, t) = df_polar_terms(&p, &v);
        assert_close("primal", y, polar_terms(&p), EXACT);
        let dot: f64 = want.iter().zip(&v).map(|(a, b)| a * b).sum();
        assert_close("forward = ∇·v", t, dot, EXACT);
    }

    #[test]
    fn sort_by_partial_cmp_trimmed_mean() {
        let x = [0.9, -1.4, 0.2, 2.1, -0.5, 1.3, -0.05];
        let mut dx = [0.0; 7];
        let y = d_trimmed(&x, &mut dx, 1.0);
        assert_close("primal", y, trimmed(&x), EXACT);
        // squares: 0.81 1.96 0.04 4.41 0.25 1.69 0.0025 → dropped x[6] (min), x[3] (max)
        // raw sorted: -1.4 -0.5 -0.05 0.2 0.9 1.3 2.1 → median x[2] = 0.2
        let mut want = [0.0; 7];
        for i in [0, 1, 2, 4, 5] {
            want[i] = 2.0 * x[i] / 5.0;
        }
        want[2] += 1.0;
        assert_all_close("formula", &dx, &want, EXACT);
        assert_all_close("fd", &dx, &fd_grad(trimmed, &x), FD);
    }

    #[test]
    fn rk4_generic_over_closure_linear_decay() {
        let p = [0.8, 1.5, -0.4];
        let steps = 10;
        let mut dp = [0.0; 3];
        let y = d_decay_end(&p, &mut dp, steps, 1.0);
        // RK4 on y' = -k y multiplies by R(z) = 1 - z + z²/2 - z³/6 + z⁴/24, z = h k, each step
        let h = 1.0 / steps as f64;
        let z = h * p[0];
        let r = 1.0 - z + z * z / 2.0 - z.powi(3) / 6.0 + z.powi(4) / 24.0;
        let dr = -1.0 + z - z * z / 2.0 + z.powi(3) / 6.0;
        let n = steps as i32;
        let s = p[1] + p[2];
        assert_close("primal", y, r.powi(n) * s, EXACT);
        let want = [n as f64 * r.powi(n - 1) * dr * h * s, r.powi(n), r.powi(n)];
        assert_all_close("formula", &dp, &want, EXACT);
        // and close to the exact flow's derivative -e^{-k} (y0_0 + y0_1)
        assert_close("flow", dp[0], -(-p[0]).exp() * s, 1e-5);
    }

    #[test]
    fn rk4_generic_over_closure_oscillator() {
        let p = [1.3, 0.25, 0.5, -0.2];
        let target = [0.1, 0.3];
        let mut dp = [0.0; 4];
        d_oscillator_fit(&p, &mut dp, &target, 1.0);
        assert_all_close("fd", &dp, &fd_grad(|q| oscillator_fit(q, &target), &p), FD);
    }

    #[test]
    fn zip_map_sum_reverse_and_forward() {
        let w = [0.5, 1.5, 2.0, 0.25];
        let x = [1.0, -0.5, 0.3, 2.2];
        let y = [0.4, 0.1, -0.6, 1.8];
        let (mut dw, mut dx) = ([0.0; 4], [0.0; 4]);
        d_weighted_dist(&w, &mut dw, &x, &mut dx, &y, 1.0);
        let want_w: Vec<f64> = x.iter().zip(&y).map(|(a, b)| (a - b).powi(2)).collect();
        let want_x: Vec<f64> = (0..4).map(|i| 2.0 * w[i] * (x[i] - y[i])).collect();
        assert_all_close("d/dw", &dw, &want_w, EXACT);
        assert_all_close("d/dx", &dx, &want_x, EXACT);
        let (tw, tx) = ([1.0, 0.0, -1.0, 0.5], [0.2, 0.3, 0.0, -1.0]);
        let (v, t) = df_weighted_dist(&w, &tw, &x, &tx, &y);
        assert_close("primal", v, weighted_dist(&w, &x, &y), EXACT);
        let want_t: f64 = (0..4).map(|i| want_w[i] * tw[i] + want_x[i] * tx[i]).sum();
        assert_close("forward", t, want_t, EXACT);
    }

    #[test]
    fn methods_and_impl_trait_arguments() {
        let chain = Chain {
            x: vec![0.0, 1.1, 2.3, 3.2],
        };
        let lj = LennardJones {
            eps: 0.7,
            sigma: 1.0,
        };
        let spring = Harmonic { k: 2.0, r0: 1.0 };
        let mut d = Chain { x: vec![0.0; 4] };
        d_chain_energy(&chain, &mut d, &lj, 1.0);
        let mut want = [0.0; 4];
        for i in 0..4 {
            for j in i + 1..4 {
                let r = chain.x[j] - chain.x[i];
                let s6 = (lj.sigma / r).powi(6);
                let de = 4.0 * lj.eps * (-12.0 * s6 * s6 + 6.0 * s6) / r;
                want[j] += de;
                want[i] -= de;
            }
        }
        assert_all_close("lennard-jones", &d.x, &want, EXACT);
        // translation invariance: the forces sum to zero
        assert_close("Σ", d.x.iter().sum::<f64>(), 0.0, EXACT);
        let mut ds = Chain { x: vec![0.0; 4] };
        d_chain_energy(&chain, &mut ds, &spring, 1.0);
        let fd = fd_grad(
            |v| chain_energy(&Chain { x: v.to_vec() }, &spring),
            &chain.x,
        );
        assert_all_close("harmonic fd", &ds.x, &fd, FD);
    }
}

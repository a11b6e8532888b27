//! Code as users write it, fifth round (front18), built in release and debug: `f64::mul_add`
//! (Horner's rule, reverse and forward), closures captured by `move` and returned from
//! helpers (`impl Fn`, `Box<dyn Fn>`), `Vec<Vec<f64>>` matrices built inside the
//! differentiated function, iterator chains (`enumerate`/`filter`/`flat_map`/`rev`/
//! `take_while`/`product`/`max_by`), a generic function over a user's own float trait,
//! and a struct of `Vec`s updated in place over time steps. Each derivative is checked
//! against a formula or finite differences.

use ferrozyme::{autodiff_forward, autodiff_reverse};

/// A polynomial by Horner's rule with fused multiply-adds: `Σ c_k x^k`.
#[autodiff_reverse(d_horner, Duplicated, Active, Active)]
pub fn horner(c: &[f64], x: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, &ck| acc.mul_add(x, ck))
}

/// The same in forward mode, the tangent in `x` only.
#[autodiff_forward(df_horner, Const, Dual, Dual)]
pub fn horner_fwd(c: &[f64], x: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, &ck| acc.mul_add(x, ck))
}

/// A model made of closures built by helpers that capture the parameters by `move`.
fn damped(a: f64, k: f64) -> impl Fn(f64) -> f64 {
    move |t| a * (-k * t).exp()
}

#[cfg(not(debug_assertions))]
fn boxed_wave(w: f64, phase: f64) -> Box<dyn Fn(f64) -> f64> {
    Box::new(move |t: f64| (w * t + phase).sin())
}

fn wave(w: f64, phase: f64) -> impl Fn(f64) -> f64 {
    move |t: f64| (w * t + phase).sin()
}

/// Least squares of `a e^{-k t} + sin(w t + φ)` against samples, the model a `move`
/// closure over closures returned as `impl Fn`.
#[autodiff_reverse(d_closure_fit, Duplicated, Const, Const, Active)]
pub fn closure_fit(p: &[f64], t: &[f64], y: &[f64]) -> f64 {
    let decay = damped(p[0], p[1]);
    let wave = wave(p[2], p[3]);
    let model = move |s: f64| decay(s) + wave(s);
    t.iter().zip(y).map(|(&s, &ys)| (model(s) - ys).powi(2)).sum::<f64>() / t.len() as f64
}

/// The same with the wave a `Box<dyn Fn>` built (and dropped) inside the differentiated
/// function. Release builds differentiate it; debug builds refuse it with
/// cannot-deduce-type in `core::mem::size_of_val_raw`/`align_of_val_raw` (the box's
/// deallocation reads the size and alignment from the vtable, through a pointer loaded
/// from the box's stack slot, which has a shadow: tests/README.md, front18).
#[cfg(not(debug_assertions))]
#[autodiff_reverse(d_boxed_closure_fit, Duplicated, Const, Const, Active)]
pub fn boxed_closure_fit(p: &[f64], t: &[f64], y: &[f64]) -> f64 {
    let decay = damped(p[0], p[1]);
    let wave = boxed_wave(p[2], p[3]);
    let model = move |s: f64| decay(s) + wave(s);
    t.iter().zip(y).map(|(&s, &ys)| (model(s) - ys).powi(2)).sum::<f64>() / t.len() as f64
}

/// `‖A B - C‖²_F` with `A` (n×m, the parameters) and `B` (m×n) as `Vec<Vec<f64>>` built
/// inside from flat slices, the product by iterator chains.
#[autodiff_reverse(d_nested_product, Duplicated, Const, Const, Const, Active)]
pub fn nested_product(a: &[f64], b: &[f64], c: &[f64], n: usize) -> f64 {
    let m = a.len() / n;
    let am: Vec<Vec<f64>> = a.chunks(m).map(|r| r.to_vec()).collect();
    let bm: Vec<Vec<f64>> = b.chunks(n).map(|r| r.to_vec()).collect();
    let prod: Vec<Vec<f64>> = am
        .iter()
        .map(|row| {
            (0..n)
                .map(|j| row.iter().zip(&bm).map(|(x, brow)| x * brow[j]).sum())
                .collect()
        })
        .collect();
    prod.iter()
        .flat_map(|r| r.iter())
        .zip(c)
        .map(|(p, q)| (p - q) * (p - q))
        .sum()
}

/// Iterator adaptors a user strings together: the positive entries' log-sum, the product
/// of the first entries while they stay below 2, and the largest weighted entry.
#[autodiff_reverse(d_chain_zoo, Duplicated, Active)]
pub fn chain_zoo(x: &[f64]) -> f64 {
    let logs: f64 = x
        .iter()
        .enumerate()
        .filter(|(i, v)| **v > 0.0 && i % 2 == 0)
        .map(|(_, v)| v.ln())
        .sum();
    let prod: f64 = x.iter().take_while(|v| **v < 2.0).product();
    let top = x
        .iter()
        .enumerate()
        .map(|(i, v)| v * (1.0 + i as f64))
        .max_by(|a, b| a.total_cmp(b))
        .unwrap_or(0.0);
    logs + prod + top
}

/// A user's own float trait (what `num_traits::Float` offers, written out), and a generic
/// softplus-sum over it, instantiated for `f64` and `f32`.
pub trait Real: Copy + std::ops::Add<Output = Self> + std::ops::Mul<Output = Self> {
    fn one() -> Self;
    fn exp(self) -> Self;
    fn ln(self) -> Self;
}

impl Real for f64 {
    fn one() -> Self {
        1.0
    }
    fn exp(self) -> Self {
        f64::exp(self)
    }
    fn ln(self) -> Self {
        f64::ln(self)
    }
}

impl Real for f32 {
    fn one() -> Self {
        1.0
    }
    fn exp(self) -> Self {
        f32::exp(self)
    }
    fn ln(self) -> Self {
        f32::ln(self)
    }
}

pub fn softplus_sum<T: Real>(x: &[T], s: T) -> T {
    x.iter()
        .fold(None, |acc: Option<T>, &v| {
            let sp = (T::one() + (s * v).exp()).ln();
            Some(match acc {
                Some(a) => a + sp,
                None => sp,
            })
        })
        .unwrap_or_else(|| T::one() + T::one() * T::one() + (T::one() * T::one()).ln())
}

#[autodiff_reverse(d_softplus64, Duplicated, Active, Active)]
pub fn softplus64(x: &[f64], s: f64) -> f64 {
    softplus_sum(x, s)
}

#[autodiff_reverse(d_softplus32, Duplicated, Active, Active)]
pub fn softplus32(x: &[f32], s: f32) -> f32 {
    softplus_sum(x, s)
}

/// A struct of `Vec`s updated in place over time steps (a particle chain with springs),
/// built inside from the parameters; the loss is the final kinetic plus potential energy.
pub struct Chain {
    pub x: Vec<f64>,
    pub v: Vec<f64>,
}

impl Chain {
    fn step(&mut self, k: f64, dt: f64) {
        let n = self.x.len();
        let f: Vec<f64> = (0..n)
            .map(|i| {
                let left = if i > 0 { self.x[i - 1] } else { 0.0 };
                let right = if i + 1 < n { self.x[i + 1] } else { 0.0 };
                k * (left + right - 2.0 * self.x[i])
            })
            .collect();
        for ((v, x), fi) in self.v.iter_mut().zip(self.x.iter_mut()).zip(&f) {
            *v += dt * fi;
            *x += dt * *v;
        }
    }
}

#[autodiff_reverse(d_chain_energy, Duplicated, Active, Const, Active)]
pub fn chain_energy(x0: &[f64], k: f64, steps: usize) -> f64 {
    let mut c = Chain {
        x: x0.to_vec(),
        v: vec![0.0; x0.len()],
    };
    for _ in 0..steps {
        c.step(k, 0.05);
    }
    c.v.iter().map(|v| 0.5 * v * v).sum::<f64>() + c.x.iter().map(|x| 0.5 * k * x * x).sum::<f64>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{assert_all_close, assert_close, fd1, fd_grad};

    const FD: f64 = 1e-6;
    const EXACT: f64 = 1e-12;

    #[test]
    fn horner_mul_add_reverse_and_forward() {
        let c = [0.5, -1.25, 2.0, 0.75];
        let x = 1.3;
        let mut dc = [0.0; 4];
        let (dx, y) = {
            let r = d_horner(&c, &mut dc, x, 1.0);
            (r.1, r.0)
        };
        assert_close("horner", y, 0.5 - 1.25 * x + 2.0 * x * x + 0.75 * x.powi(3), EXACT);
        // d/dc_k = x^k, d/dx = Σ k c_k x^{k-1}
        let want: Vec<f64> = (0..4).map(|k| x.powi(k)).collect();
        assert_all_close("d/dc", &dc, &want, EXACT);
        let dpx = -1.25 + 4.0 * x + 2.25 * x * x;
        assert_close("d/dx", dx, dpx, EXACT);
        let (_, t) = df_horner(&c, x, 1.0);
        assert_close("forward d/dx", t, dpx, EXACT);
        assert_close("fd", dx, fd1(|q| horner(&c, q), x), FD);
    }

    #[test]
    fn closures_captured_by_move() {
        let t: Vec<f64> = (0..9).map(|i| i as f64 * 0.25).collect();
        let y: Vec<f64> = t.iter().map(|s| 1.5 * (-0.7 * s).exp() + (2.0 * s + 0.3).sin() + 0.05).collect();
        let p = [1.2, 0.5, 1.8, 0.1];
        let mut dp = [0.0; 4];
        d_closure_fit(&p, &mut dp, &t, &y, 1.0);
        assert_all_close("fd", &dp, &fd_grad(|q| closure_fit(q, &t, &y), &p), FD);
        // formula: (2/N) Σ r_s ∂model/∂p
        let mut want = [0.0; 4];
        for (&s, &ys) in t.iter().zip(&y) {
            let e = (-p[1] * s).exp();
            let r = p[0] * e + (p[2] * s + p[3]).sin() - ys;
            let g = [e, -p[0] * s * e, s * (p[2] * s + p[3]).cos(), (p[2] * s + p[3]).cos()];
            for k in 0..4 {
                want[k] += 2.0 * r * g[k] / t.len() as f64;
            }
        }
        assert_all_close("formula", &dp, &want, EXACT);
        #[cfg(not(debug_assertions))]
        {
            let mut db = [0.0; 4];
            d_boxed_closure_fit(&p, &mut db, &t, &y, 1.0);
            assert_all_close("boxed closure", &db, &want, EXACT);
        }
    }

    #[test]
    fn vec_of_vec_matrix_product() {
        let (n, m) = (2, 3);
        let a = [0.3, -1.0, 0.5, 2.0, 0.25, -0.75];
        let b = [1.0, 0.5, -0.5, 2.0, 0.25, 1.5];
        let c = [0.1, 0.2, -0.3, 0.4];
        let mut da = [0.0; 6];
        d_nested_product(&a, &mut da, &b, &c, n, 1.0);
        assert_all_close("fd", &da, &fd_grad(|q| nested_product(q, &b, &c, n), &a), FD);
        // 2 (A B - C) Bᵀ
        let mut want = [0.0; 6];
        for i in 0..n {
            for j in 0..n {
                let r: f64 = (0..m).map(|k| a[i * m + k] * b[k * n + j]).sum::<f64>() - c[i * n + j];
                for k in 0..m {
                    want[i * m + k] += 2.0 * r * b[k * n + j];
                }
            }
        }
        assert_all_close("formula", &da, &want, EXACT);
    }

    #[test]
    fn iterator_adaptor_chain() {
        let x = [0.5, 1.5, 0.8, 3.0, 1.2];
        let mut dx = [0.0; 5];
        d_chain_zoo(&x, &mut dx, 1.0);
        assert_all_close("fd", &dx, &fd_grad(chain_zoo, &x), FD);
        // logs over even indices with v > 0: 1/v; product of x0 x1 x2 (x3 = 3 stops it);
        // max of v (1 + i) is x3 * 4 = 12
        let p = x[0] * x[1] * x[2];
        let want = [1.0 / x[0] + p / x[0], p / x[1], 1.0 / x[2] + p / x[2], 4.0, 1.0 / x[4]];
        assert_all_close("formula", &dx, &want, EXACT);
    }

    #[test]
    fn generic_over_a_users_float_trait() {
        let x = [0.4, -1.1, 2.0];
        let s = 0.8;
        let mut dx = [0.0; 3];
        let (_, ds) = d_softplus64(&x, &mut dx, s, 1.0);
        let sig = |z: f64| 1.0 / (1.0 + (-z).exp());
        let want: Vec<f64> = x.iter().map(|v| s * sig(s * v)).collect();
        assert_all_close("d/dx", &dx, &want, EXACT);
        let want_s: f64 = x.iter().map(|v| v * sig(s * v)).sum();
        assert_close("d/ds", ds, want_s, EXACT);
        let xf = [0.4f32, -1.1, 2.0];
        let mut dxf = [0.0f32; 3];
        let (_, dsf) = d_softplus32(&xf, &mut dxf, 0.8, 1.0);
        for (g, w) in dxf.iter().zip(&want) {
            assert!((*g as f64 - w).abs() < 1e-5, "f32 d/dx {g} vs {w}");
        }
        assert!((dsf as f64 - want_s).abs() < 1e-5, "f32 d/ds {dsf} vs {want_s}");
    }

    #[test]
    fn struct_of_vecs_time_steps() {
        let x0 = [0.3, -0.2, 0.5, 0.1, -0.4];
        let k = 1.7;
        let steps = 20;
        let mut dx0 = [0.0; 5];
        let (_, dk) = d_chain_energy(&x0, &mut dx0, k, steps, 1.0);
        assert_all_close("fd x0", &dx0, &fd_grad(|q| chain_energy(q, k, steps), &x0), FD);
        assert_close("fd k", dk, fd1(|q| chain_energy(&x0, q, steps), k), FD);
    }
}

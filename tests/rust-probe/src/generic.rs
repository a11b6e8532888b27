//! Generic `T: num_traits::Float` code instantiated at `f32` and `f64`, const generics
//! (`[f64; N]`), `std::array::from_fn` and `#[inline(always)]` helpers.

use ferrozyme::autodiff_reverse;
use num_traits::Float;

/// `softplus(z) - y z` summed over the samples, `z = w · x` (logistic regression's
/// negative log-likelihood), with `mul_add`, `max`, `abs`, `ln_1p`, `exp`.
#[autodiff_reverse(d_logistic_nll, Duplicated, Const, Const, Active)]
pub fn logistic_nll<T: Float>(w: &[T], x: &[T], y: &[T]) -> T {
    x.chunks_exact(w.len())
        .zip(y)
        .fold(T::zero(), |acc, (xi, &yi)| {
            let z = xi
                .iter()
                .zip(w)
                .fold(T::zero(), |s, (&a, &b)| a.mul_add(b, s));
            acc + z.max(T::zero()) + (-z.abs()).exp().ln_1p() - yi * z
        })
}

/// Horner's rule over a fixed-size coefficient array, highest degree last.
#[autodiff_reverse(d_horner, Duplicated, Active, Active)]
pub fn horner<const N: usize>(c: &[f64; N], x: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, &ci| acc.mul_add(x, ci))
}

#[inline(always)]
fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// Springs of rest length 1 between all pairs of `N` points: the distance matrix is
/// built whole with `std::array::from_fn` (its diagonal, `hypot(0, 0)`, is never used).
#[autodiff_reverse(d_pair_energy, Duplicated, Active)]
pub fn pair_energy<const N: usize>(p: &[[f64; 2]; N]) -> f64 {
    let d: [[f64; N]; N] = std::array::from_fn(|i| std::array::from_fn(|j| dist(p[i], p[j])));
    let mut e = 0.0;
    for i in 0..N {
        for j in i + 1..N {
            e += (d[i][j] - 1.0).powi(2);
        }
    }
    e
}

/// The pair energy without the diagonal: `from_fn` over the upper triangle only.
#[autodiff_reverse(d_pair_energy_upper, Duplicated, Active)]
pub fn pair_energy_upper<const N: usize>(p: &[[f64; 2]; N]) -> f64 {
    let e: [f64; N] = std::array::from_fn(|i| {
        (i + 1..N)
            .map(|j| (dist(p[i], p[j]) - 1.0).powi(2))
            .sum::<f64>()
    });
    e.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    fn sigmoid(z: f64) -> f64 {
        1.0 / (1.0 + (-z).exp())
    }

    fn nll_grad(w: &[f64], x: &[f64], y: &[f64]) -> Vec<f64> {
        let mut g = vec![0.0; w.len()];
        for (xi, yi) in x.chunks_exact(w.len()).zip(y) {
            let z: f64 = xi.iter().zip(w).map(|(a, b)| a * b).sum();
            for (gk, xk) in g.iter_mut().zip(xi) {
                *gk += (sigmoid(z) - yi) * xk;
            }
        }
        g
    }

    #[test]
    fn float_generic_at_f64_matches_formula() {
        let w = inputs(4, 10);
        let x: Vec<f64> = inputs(24, 11).iter().map(|v| 3.0 * v).collect();
        let y: Vec<f64> = (0..6).map(|i| (i % 2) as f64).collect();
        let mut dw = vec![0.0; 4];
        d_logistic_nll(&w, &mut dw, &x, &y, 1.0);
        assert_all_close("dw f64", &dw, &nll_grad(&w, &x, &y), 1e-12);
    }

    #[test]
    fn float_generic_at_f32_matches_formula() {
        let w = inputs(4, 10);
        let x: Vec<f64> = inputs(24, 11).iter().map(|v| 3.0 * v).collect();
        let y: Vec<f64> = (0..6).map(|i| (i % 2) as f64).collect();
        let w32: Vec<f32> = w.iter().map(|&v| v as f32).collect();
        let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
        let y32: Vec<f32> = y.iter().map(|&v| v as f32).collect();
        let mut dw32 = vec![0.0f32; 4];
        let l = d_logistic_nll(&w32, &mut dw32, &x32, &y32, 1.0f32);
        assert_close("nll f32", l as f64, logistic_nll(&w, &x, &y), 1e-5);
        let want = nll_grad(&w, &x, &y);
        let got: Vec<f64> = dw32.iter().map(|&v| v as f64).collect();
        assert_all_close("dw f32", &got, &want, 1e-5);
    }

    #[test]
    fn const_generic_array_horner() {
        let c = [0.5, -1.0, 2.0, 0.25, -0.75];
        let x = 0.8;
        let mut dc = [0.0; 5];
        let (y, dx) = d_horner(&c, &mut dc, x, 1.0);
        assert_close("p(x)", y, horner(&c, x), EXACT);
        for (k, d) in dc.iter().enumerate() {
            assert_close("dp/dc_k = x^k", *d, x.powi(k as i32), EXACT);
        }
        let want: f64 = (1..5).map(|k| k as f64 * c[k] * x.powi(k as i32 - 1)).sum();
        assert_close("dp/dx", dx, want, EXACT);
        let c3 = [1.0, 2.0, 3.0];
        let mut dc3 = [0.0; 3];
        let (_, dx3) = d_horner(&c3, &mut dc3, -0.5, 2.0);
        assert_close("N = 3 dx", dx3, 2.0 * (2.0 + 6.0 * -0.5), EXACT);
        assert_close("N = 3 dc2", dc3[2], 2.0 * 0.25, EXACT);
    }

    fn flat(p: &[[f64; 2]; 4]) -> Vec<f64> {
        p.iter().flatten().copied().collect()
    }

    fn unflat(q: &[f64]) -> [[f64; 2]; 4] {
        std::array::from_fn(|i| [q[2 * i], q[2 * i + 1]])
    }

    #[test]
    fn array_from_fn_upper_triangle_matches_fd() {
        let p = [[0.0, 0.0], [1.2, 0.1], [0.3, 0.9], [-0.7, 0.4]];
        let mut dp = [[0.0; 2]; 4];
        d_pair_energy_upper(&p, &mut dp, 1.0);
        let fd = fd_grad(|q| pair_energy_upper(&unflat(q)), &flat(&p));
        assert_all_close("dE/dp", &flat(&dp), &fd, FD);
    }

    /// The diagonal `hypot(0, 0)` is computed and never used: its adjoint is zero, and
    /// the gradient must not become NaN (0 · 0/0).
    #[test]
    fn array_from_fn_unused_hypot_diagonal_matches_fd() {
        let p = [[0.0, 0.0], [1.2, 0.1], [0.3, 0.9], [-0.7, 0.4]];
        let mut dp = [[0.0; 2]; 4];
        let e = d_pair_energy(&p, &mut dp, 1.0);
        assert_close("E", e, pair_energy_upper(&p), EXACT);
        let fd = fd_grad(|q| pair_energy(&unflat(q)), &flat(&p));
        assert_all_close("dE/dp", &flat(&dp), &fd, FD);
    }
}

//! What a user new to the crate writes (front13): a struct whose fields are `Vec<f64>`
//! with a `&self` method, linear algebra without a library (a Cholesky factorization and
//! two triangular solves), a matrix-vector layer writing a `&mut [f64]` output through
//! `#[inline(never)]` helpers, sorting (`sort_by` with `partial_cmp`) and `fold(f64::max)`,
//! recursion, a Newton iteration that stops on convergence, `Option` from
//! `iter().position`, `Box<dyn Fn>` closures, an in-place `&mut [f64]` update, and float
//! methods the other modules do not use (`cbrt`, `exp2`, `log10`, `log2`, `exp_m1`, `sinh`,
//! `asinh`, `tan`, `atan`, `signum`, `clamp`, `abs`, `max`, `min`, `ln_1p`). Each derivative is
//! checked against finite differences or a formula, in release and debug builds.

use ferrozyme::autodiff_reverse;

/// A polynomial evaluated at knots: fields are `Vec`s, the shadow is the same struct.
#[derive(Clone, Debug)]
pub struct Poly {
    pub coef: Vec<f64>,
    pub knots: Vec<f64>,
    pub scale: f64,
}

impl Poly {
    #[autodiff_reverse(d_eval_sum, Duplicated, Active)]
    pub fn eval_sum(&self) -> f64 {
        self.knots
            .iter()
            .map(|&t| self.coef.iter().rev().fold(0.0, |acc, &c| acc * t + c))
            .map(|v| self.scale * v.sin())
            .sum()
    }
}

#[inline(never)]
fn softplus(x: f64) -> f64 {
    if x > 30.0 {
        x
    } else {
        x.exp().ln_1p()
    }
}

#[inline(never)]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b.iter()).map(|(x, y)| x * y).sum()
}

/// `out = softplus(W x)`, W row-major `out.len() x x.len()`.
#[autodiff_reverse(d_layer, Duplicated, Duplicated, Duplicated)]
pub fn layer(w: &[f64], x: &[f64], out: &mut [f64]) {
    let n = x.len();
    for (i, o) in out.iter_mut().enumerate() {
        *o = softplus(dot(&w[i * n..(i + 1) * n], x));
    }
}

/// `0.5 b^T A^-1 b + 0.5 log det A` by a Cholesky factorization (A symmetric positive
/// definite, only its lower triangle is read).
#[autodiff_reverse(d_gauss_nll, Duplicated, Duplicated, Const, Active)]
pub fn gauss_nll(a: &[f64], b: &[f64], n: usize) -> f64 {
    let mut l = vec![0.0; n * n];
    for j in 0..n {
        let mut s = a[j * n + j];
        for k in 0..j {
            s -= l[j * n + k] * l[j * n + k];
        }
        let d = s.sqrt();
        l[j * n + j] = d;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= l[i * n + k] * l[j * n + k];
            }
            l[i * n + j] = s / d;
        }
    }
    let mut y = b.to_vec();
    for i in 0..n {
        for k in 0..i {
            y[i] -= l[i * n + k] * y[k];
        }
        y[i] /= l[i * n + i];
    }
    let mut x = y.clone();
    for i in (0..n).rev() {
        for k in i + 1..n {
            x[i] -= l[k * n + i] * x[k];
        }
        x[i] /= l[i * n + i];
    }
    let logdet: f64 = (0..n).map(|i| 2.0 * l[i * n + i].ln()).sum();
    0.5 * dot(&x, b) + 0.5 * logdet
}

/// Sorted values weighted by rank, plus the maximum. In release and debug builds: at
/// front13 debug builds of this crate refused the standard library's sort and `to_vec`
/// with `cannot-deduce-type`; front14 found them accepted (see tests/README.md, front14).
#[autodiff_reverse(d_sorted_loss, Duplicated, Active)]
pub fn sorted_loss(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v.iter()
        .enumerate()
        .map(|(i, a)| (i as f64 + 1.0) * a)
        .sum::<f64>()
        + x.iter().cloned().fold(f64::NEG_INFINITY, f64::max)
}

#[inline(never)]
fn horner(c: &[f64], t: f64) -> f64 {
    if c.is_empty() {
        0.0
    } else {
        c[0] + t * horner(&c[1..], t)
    }
}

/// Recursion (Horner's rule written recursively).
#[autodiff_reverse(d_rec_poly, Duplicated, Active, Active)]
pub fn rec_poly(c: &[f64], t: f64) -> f64 {
    horner(c, t)
}

/// Newton's iteration for sqrt(a), stopped when it has converged.
#[autodiff_reverse(d_newton_sqrt, Active, Active)]
pub fn newton_sqrt(a: f64) -> f64 {
    let mut x = a.max(1.0);
    for _ in 0..100 {
        let nx = 0.5 * (x + a / x);
        if (nx - x).abs() < 1e-15 * x {
            return nx;
        }
        x = nx;
    }
    x
}

/// `Option` from `position`, then a `match`.
#[autodiff_reverse(d_first_big, Duplicated, Active)]
pub fn first_big(x: &[f64]) -> f64 {
    match x.iter().position(|&v| v > 0.5) {
        Some(i) => x[i] / (1.0 + x[0] * x[0]),
        None => x.iter().sum::<f64>(),
    }
}

/// A slice of boxed closures (one captures a value), applied elementwise.
#[autodiff_reverse(d_apply_boxed, Const, Duplicated, Active)]
pub fn apply_boxed(fs: &[Box<dyn Fn(f64) -> f64>], x: &[f64]) -> f64 {
    fs.iter().zip(x).map(|(f, &v)| f(v)).sum()
}

/// Three smoothing sweeps in place (no result: the seed is in the shadow).
#[autodiff_reverse(d_smooth, Duplicated)]
pub fn smooth(u: &mut [f64]) {
    let n = u.len();
    for _ in 0..3 {
        let old = u.to_vec();
        for i in 1..n - 1 {
            u[i] = 0.25 * old[i - 1] + 0.5 * old[i] + 0.25 * old[i + 1] + 0.1 * old[i].powi(2);
        }
    }
}

#[autodiff_reverse(d_more_methods, Duplicated, Active)]
pub fn more_methods(x: &[f64]) -> f64 {
    x[0].powi(3)
        + x[1].exp() * x[2].ln()
        + x[5].sqrt()
        + x[0].abs().max(x[1])
        + x[2].min(x[3])
        + x[4].clamp(-0.3, 0.3)
        + x[5].cbrt()
        + x[0].exp2()
        + x[2].log10()
        + x[2].log2()
        + x[1].exp_m1()
        + x[3].sinh()
        + x[4].asinh()
        + x[5].powf(x[1])
        + x[0].tan()
        + x[1].atan()
        + x[4].signum() * x[3]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::*;

    const X6: [f64; 6] = [0.3, -0.7, 1.2, 0.9, 0.4, 2.0];

    #[test]
    fn struct_with_vec_fields() {
        let p = Poly {
            coef: vec![0.5, -1.0, 0.25, 0.1],
            knots: vec![-1.0, 0.2, 0.7, 1.3],
            scale: 1.5,
        };
        let mut dp = Poly {
            coef: vec![0.0; 4],
            knots: vec![0.0; 4],
            scale: 0.0,
        };
        let y = p.d_eval_sum(&mut dp, 1.0);
        assert_close("value", y, p.eval_sum(), 1e-12);
        let flat = |v: &[f64]| {
            Poly {
                coef: v[..4].to_vec(),
                knots: v[4..8].to_vec(),
                scale: v[8],
            }
            .eval_sum()
        };
        let mut pv = p.coef.clone();
        pv.extend(&p.knots);
        pv.push(p.scale);
        let mut got = dp.coef.clone();
        got.extend(&dp.knots);
        got.push(dp.scale);
        assert_all_close("d Poly", &got, &fd_grad(flat, &pv), FD);
    }

    #[test]
    fn layer_with_output_slice_and_linear_algebra() {
        let w = inputs(12, 61, -0.8, 0.8);
        let x = inputs(4, 62, -1.0, 1.0);
        let seed = [1.0, -2.0, 0.5];
        let (mut out, mut dout) = (vec![0.0; 3], seed.to_vec());
        let (mut dw, mut dx) = (vec![0.0; 12], vec![0.0; 4]);
        d_layer(&w, &mut dw, &x, &mut dx, &mut out, &mut dout);
        let l = |wv: &[f64], xv: &[f64]| {
            let mut o = vec![0.0; 3];
            layer(wv, xv, &mut o);
            o.iter().zip(&seed).map(|(a, b)| a * b).sum::<f64>()
        };
        assert_all_close("dW", &dw, &fd_grad(|p| l(p, &x), &w), FD);
        assert_all_close("dx", &dx, &fd_grad(|p| l(&w, p), &x), FD);

        {
            let a = [4.0, 1.0, 0.5, 1.0, 3.0, 0.2, 0.5, 0.2, 2.0];
            let b = [1.0, -1.0, 0.5];
            let (mut da, mut db) = (vec![0.0; 9], vec![0.0; 3]);
            d_gauss_nll(&a, &mut da, &b, &mut db, 3, 1.0);
            assert_all_close("dA", &da, &fd_grad(|p| gauss_nll(p, &b, 3), &a), FD);
            assert_all_close("db", &db, &fd_grad(|p| gauss_nll(&a, p, 3), &b), FD);
        }
    }

    #[test]
    fn sorting_recursion_newton_option() {
        {
            let mut dx = vec![0.0; 6];
            d_sorted_loss(&X6, &mut dx, 1.0);
            assert_all_close("sort_by", &dx, &fd_grad(sorted_loss, &X6), FD);
            // ranks of X6: -0.7 0.3 0.4 0.9 1.2 2.0, plus 1 for the maximum
            assert_all_close("ranks", &dx, &[2.0, 1.0, 5.0, 4.0, 3.0, 7.0], EXACT);
        }

        let c = [1.0, -0.5, 0.25, 0.3];
        let mut dc = vec![0.0; 4];
        let (_, dt) = d_rec_poly(&c, &mut dc, 0.8, 1.0);
        assert_all_close("dc", &dc, &[1.0, 0.8, 0.64, 0.512], EXACT);
        assert_close("dt", dt, -0.5 + 2.0 * 0.25 * 0.8 + 3.0 * 0.3 * 0.64, EXACT);

        let (y, da) = d_newton_sqrt(7.0, 1.0);
        assert_close("sqrt", y, 7f64.sqrt(), EXACT);
        assert_close("d sqrt", da, 0.5 / 7f64.sqrt(), 1e-9);

        let mut dx = vec![0.0; 6];
        d_first_big(&X6, &mut dx, 1.0);
        assert_all_close("Option", &dx, &fd_grad(first_big, &X6), FD);
    }

    #[test]
    fn boxed_closures_in_place_update_and_float_methods() {
        let k = 3.0;
        let fs: Vec<Box<dyn Fn(f64) -> f64>> = vec![
            Box::new(|v: f64| v * v),
            Box::new(move |v: f64| k * v.sin()),
            Box::new(|v: f64| v.exp()),
        ];
        let x = [0.5, 1.0, -0.3];
        let mut dx = vec![0.0; 3];
        d_apply_boxed(&fs, &x, &mut dx, 1.0);
        assert_all_close(
            "Box<dyn Fn>",
            &dx,
            &[1.0, 3.0 * 1f64.cos(), (-0.3f64).exp()],
            EXACT,
        );

        {
            let u0 = [0.1, 0.5, -0.3, 0.8, 0.2, -0.6];
            let seed = [1.0, 2.0, -1.0, 0.5, 0.3, 1.5];
            let (mut u, mut du) = (u0.to_vec(), seed.to_vec());
            d_smooth(&mut u, &mut du);
            let l = |p: &[f64]| {
                let mut q = p.to_vec();
                smooth(&mut q);
                q.iter().zip(&seed).map(|(a, b)| a * b).sum::<f64>()
            };
            assert_all_close("in place", &du, &fd_grad(l, &u0), FD);
        }

        let xm = [0.3, 0.7, 1.2, 0.9, 0.2, 2.0];
        let mut dxm = vec![0.0; 6];
        d_more_methods(&xm, &mut dxm, 1.0);
        assert_all_close("float methods", &dxm, &fd_grad(more_methods, &xm), FD);
    }
}

//! Losses written with `ndarray` and `nalgebra` types (front17), differentiated with the
//! `ferrozyme` attributes. The parameters cross the derivative's boundary as slices (the
//! attributes duplicate references to memory of floats); inside, users build views,
//! owned arrays and fixed-size vectors from them. Each derivative is checked against
//! finite differences and a formula.

pub mod front18;
pub mod front19;

use ferrozyme::autodiff_reverse;
use nalgebra::{DMatrix, DVector, Matrix2, Vector2, Vector3};
use ndarray::{Array2, ArrayView1, ArrayView2, Axis};

/// Least squares `|A x - b|²` through `ndarray` views of the caller's slices.
#[autodiff_reverse(d_lsq_views, Const, Duplicated, Const, Active)]
pub fn lsq_views(a: &[f64], x: &[f64], b: &[f64]) -> f64 {
    let av = ArrayView2::from_shape((b.len(), x.len()), a).unwrap();
    let r = av.dot(&ArrayView1::from(x)) - &ArrayView1::from(b);
    r.dot(&r)
}

/// Softmax cross-entropy of a linear model with owned `ndarray` arrays built inside
/// (`from_shape_vec`, `mapv`, `sum_axis`, row iteration). The logits are one
/// matrix-vector product per sample (`wᵀ x_s`); `softmax_xent_gemm` computes them as one
/// matrix-matrix `dot` (`matrixmultiply`'s packed GEMM, refused before front19;
/// tests/README.md front17, front19).
#[autodiff_reverse(d_softmax_xent, Duplicated, Const, Const, Active)]
pub fn softmax_xent(w: &[f64], x: &[f64], labels: &[usize]) -> f64 {
    let n = labels.len();
    let d = x.len() / n;
    let k = w.len() / d;
    let wm = Array2::from_shape_vec((d, k), w.to_vec()).unwrap();
    let xm = Array2::from_shape_vec((n, d), x.to_vec()).unwrap();
    let mut logits = Array2::<f64>::zeros((n, k));
    for (mut zr, xr) in logits.axis_iter_mut(Axis(0)).zip(xm.axis_iter(Axis(0))) {
        zr.assign(&wm.t().dot(&xr));
    }
    xent(&logits, &wm, labels)
}

/// `softmax_xent` with the logits as one matrix-matrix `dot` (was the feature
/// `ndarray-gemm` until rust28; now in every build, so one build checks both).
#[autodiff_reverse(d_softmax_xent_gemm, Duplicated, Const, Const, Active)]
pub fn softmax_xent_gemm(w: &[f64], x: &[f64], labels: &[usize]) -> f64 {
    let n = labels.len();
    let d = x.len() / n;
    let k = w.len() / d;
    let wm = Array2::from_shape_vec((d, k), w.to_vec()).unwrap();
    let xm = Array2::from_shape_vec((n, d), x.to_vec()).unwrap();
    xent(&xm.dot(&wm), &wm, labels)
}

/// The mean cross-entropy of the rows of `logits` plus `1e-2 |w|²`.
fn xent(logits: &Array2<f64>, wm: &Array2<f64>, labels: &[usize]) -> f64 {
    let mut loss = 0.0;
    for (row, &y) in logits.axis_iter(Axis(0)).zip(labels) {
        let m = row.fold(f64::NEG_INFINITY, |a, &v| a.max(v));
        let lse = row.mapv(|v| (v - m).exp()).sum().ln() + m;
        loss += lse - row[y];
    }
    let l2 = wm.mapv(|v| v * v).sum_axis(Axis(0)).sum();
    loss / labels.len() as f64 + 1e-2 * l2
}

/// A spring network in the plane with `nalgebra` fixed-size vectors: `Σ ½ (|p_i - p_j| -
/// L)²` over the given edges, plus a pin of node 0 to the origin.
#[autodiff_reverse(d_springs, Duplicated, Const, Active)]
pub fn springs(p: &[f64], edges: &[(usize, usize)]) -> f64 {
    let node = |i: usize| Vector2::new(p[2 * i], p[2 * i + 1]);
    let mut e = 0.5 * node(0).norm_squared();
    for &(i, j) in edges {
        let l = (node(i) - node(j)).norm();
        e += 0.5 * (l - 1.0).powi(2);
    }
    e
}

/// `log det(S) + tr(S⁻¹ Y)` of `S = L Lᵀ + I` (a 2×2 covariance fit) with `nalgebra`
/// fixed-size matrices: `determinant`, `try_inverse`, `trace`, cross product of 3-vectors.
#[autodiff_reverse(d_cov_fit, Duplicated, Const, Active)]
pub fn cov_fit(l: &[f64], y: &[f64]) -> f64 {
    let lm = Matrix2::new(l[0], 0.0, l[1], l[2]);
    let s = lm * lm.transpose() + Matrix2::identity();
    let ym = Matrix2::new(y[0], y[1], y[2], y[3]);
    let inv = s.try_inverse().unwrap_or_else(Matrix2::identity);
    let a = Vector3::new(l[0], l[1], l[2]);
    s.determinant().ln() + (inv * ym).trace() + 0.01 * a.cross(&Vector3::x()).norm_squared()
}

/// `xᵀ M x` with `nalgebra` dynamic matrices built from slices.
#[autodiff_reverse(d_quad_dyn, Const, Duplicated, Active)]
pub fn quad_dyn(m: &[f64], x: &[f64]) -> f64 {
    let n = x.len();
    let mm = DMatrix::from_row_slice(n, n, m);
    let xv = DVector::from_column_slice(x);
    xv.dot(&(&mm * &xv))
}

/// Central finite differences.
pub fn fd_grad(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    let mut xp = x.to_vec();
    (0..x.len())
        .map(|i| {
            let h = 1e-6 * x[i].abs().max(1.0);
            xp[i] = x[i] + h;
            let a = f(&xp);
            xp[i] = x[i] - h;
            let b = f(&xp);
            xp[i] = x[i];
            (a - b) / (2.0 * h)
        })
        .collect()
}

#[track_caller]
pub fn assert_all_close(what: &str, got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let scale = 1f64.max(g.abs()).max(w.abs());
        assert!(
            (g - w).abs() <= tol * scale,
            "{what}[{i}]: got {g:e}, want {w:e}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FD: f64 = 1e-6;
    const EXACT: f64 = 1e-12;

    // Debug builds crashed here before front18 (SIGSEGV: the constant matrix's row
    // pointer, one half of ndarray's `stride_offset` pair, got a null shadow; and the
    // row pointer kept as an integer in `unrolled_dot`'s tail lost its shadow).
    #[test]
    fn ndarray_views_least_squares() {
        let a = [1.0, 2.0, 0.5, -1.0, 3.0, 0.25];
        let b = [0.3, -0.7, 1.1];
        let x = [0.4, -0.2];
        let mut dx = [0.0; 2];
        d_lsq_views(&a, &x, &mut dx, &b, 1.0);
        assert_all_close("fd", &dx, &fd_grad(|q| lsq_views(&a, q, &b), &x), FD);
        // 2 Aᵀ (A x - b)
        let r: Vec<f64> = (0..3)
            .map(|i| a[2 * i] * x[0] + a[2 * i + 1] * x[1] - b[i])
            .collect();
        let want: Vec<f64> = (0..2)
            .map(|j| 2.0 * (0..3).map(|i| a[2 * i + j] * r[i]).sum::<f64>())
            .collect();
        assert_all_close("formula", &dx, &want, EXACT);
    }

    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "debug builds: cannot-deduce-type in ndarray's Zip/axis iterators (tests/README.md, front17, front18)"
    )]
    fn ndarray_owned_softmax_cross_entropy() {
        #[cfg(not(debug_assertions))]
        {
            let (n, d, k) = (4, 3, 3);
            let x: Vec<f64> = (0..n * d)
                .map(|i| ((i * 7 % 11) as f64 - 5.0) / 4.0)
                .collect();
            let w: Vec<f64> = (0..d * k)
                .map(|i| ((i * 5 % 7) as f64 - 3.0) / 5.0)
                .collect();
            let labels = [0usize, 2, 1, 2];
            let mut dw = vec![0.0; d * k];
            d_softmax_xent(&w, &mut dw, &x, &labels, 1.0);
            assert_all_close(
                "fd",
                &dw,
                &fd_grad(|q| softmax_xent(q, &x, &labels), &w),
                FD,
            );
            // the matrix-matrix `dot` variant: the same function, the same gradient
            let mut dw_gemm = vec![0.0; d * k];
            d_softmax_xent_gemm(&w, &mut dw_gemm, &x, &labels, 1.0);
            assert_all_close(
                "gemm fd",
                &dw_gemm,
                &fd_grad(|q| softmax_xent_gemm(q, &x, &labels), &w),
                FD,
            );
            // (softmax - onehot) xᵀ / n + 2λ w
            let mut want = vec![0.0; d * k];
            for s in 0..n {
                let z: Vec<f64> = (0..k)
                    .map(|c| (0..d).map(|t| x[s * d + t] * w[t * k + c]).sum())
                    .collect();
                let m = z.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                let den: f64 = z.iter().map(|v| (v - m).exp()).sum();
                for c in 0..k {
                    let p = (z[c] - m).exp() / den - if c == labels[s] { 1.0 } else { 0.0 };
                    for t in 0..d {
                        want[t * k + c] += p * x[s * d + t] / n as f64;
                    }
                }
            }
            for (g, wi) in want.iter_mut().zip(&w) {
                *g += 2e-2 * wi;
            }
            assert_all_close("formula", &dw, &want, EXACT);
            assert_all_close("gemm formula", &dw_gemm, &want, EXACT);
        }
    }

    #[test]
    fn nalgebra_fixed_size_springs() {
        let p = [0.1, 0.2, 1.0, -0.5, 0.7, 0.9, -0.6, 0.4];
        let edges = [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)];
        let mut dp = [0.0; 8];
        let e = d_springs(&p, &mut dp, &edges, 1.0);
        assert!((e - springs(&p, &edges)).abs() < 1e-14);
        assert_all_close("fd", &dp, &fd_grad(|q| springs(q, &edges), &p), FD);
        // the springs are translation invariant: only the pin moves the sum of forces
        let sx: f64 = dp.iter().step_by(2).sum();
        let sy: f64 = dp.iter().skip(1).step_by(2).sum();
        assert_all_close("Σ forces = pin", &[sx, sy], &[p[0], p[1]], EXACT);
    }

    #[test]
    fn nalgebra_covariance_fit() {
        let l = [1.2, 0.3, 0.8];
        let y = [2.0, 0.4, 0.4, 1.5];
        let mut dl = [0.0; 3];
        d_cov_fit(&l, &mut dl, &y, 1.0);
        assert_all_close("fd", &dl, &fd_grad(|q| cov_fit(q, &y), &l), FD);
    }

    #[test]
    fn nalgebra_dynamic_quadratic_form() {
        let m = [2.0, 0.5, 0.1, 0.5, 3.0, -0.2, 0.1, -0.2, 1.0];
        let x = [0.3, -1.2, 0.8];
        let mut dx = [0.0; 3];
        d_quad_dyn(&m, &x, &mut dx, 1.0);
        // (M + Mᵀ) x
        let want: Vec<f64> = (0..3)
            .map(|i| (0..3).map(|j| (m[3 * i + j] + m[3 * j + i]) * x[j]).sum())
            .collect();
        assert_all_close("formula", &dx, &want, EXACT);
    }
}

//! front18: more losses as `ndarray`/`nalgebra`/`num-traits` users write them, in release
//! and debug builds: `Matrix3`/`Vector3` geometry (rotation about an axis, cross and dot
//! products, `normalize`, `transpose`, matrix-vector products), `DVector` norms
//! (`norm`, `norm_squared`, `normalize`, `dot`, `lp_norm`), `ArrayView` slicing with
//! `s![]`, `mapv`, `fold_axis`, `sum_axis`, columns, and a generic function over
//! `num_traits::Float` instantiated for `f64` and `f32`. Each derivative is checked against
//! finite differences and, where short, a formula.

use ferrozyme::autodiff_reverse;
use nalgebra::{DVector, Matrix3, Vector3};
use ndarray::{s, ArrayView1, ArrayView2, Axis};
use num_traits::Float;

/// Rodrigues' rotation of the points about the unit axis `k` by angle θ (parameters
/// `[θ, kx, ky, kz]`, the axis normalized inside), the squared distance to targets.
#[autodiff_reverse(d_rotate_fit, Duplicated, Const, Const, Active)]
pub fn rotate_fit(p: &[f64], pts: &[f64], targets: &[f64]) -> f64 {
    let k = Vector3::new(p[1], p[2], p[3]).normalize();
    let kx = Matrix3::new(0.0, -k.z, k.y, k.z, 0.0, -k.x, -k.y, k.x, 0.0);
    let r = Matrix3::identity() + kx * p[0].sin() + kx * kx * (1.0 - p[0].cos());
    let mut e = 0.0;
    for (a, b) in pts.chunks(3).zip(targets.chunks(3)) {
        let v = Vector3::new(a[0], a[1], a[2]);
        let w = Vector3::new(b[0], b[1], b[2]);
        e += (r * v - w).norm_squared();
    }
    // an orthogonality check folded in: ‖RᵀR - I‖² (zero for a rotation, so its gradient
    // is zero too)
    e + (r.transpose() * r - Matrix3::identity()).norm_squared()
}

/// Triangle areas and normals of a mesh of 3-vectors: `Σ |n_t · up|` with the normal
/// `(b - a) × (c - a)`, plus the squared area.
#[autodiff_reverse(d_mesh_terms, Duplicated, Const, Active)]
pub fn mesh_terms(v: &[f64], tris: &[[usize; 3]]) -> f64 {
    let at = |i: usize| Vector3::new(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
    let up = Vector3::z();
    tris.iter()
        .map(|t| {
            let n = (at(t[1]) - at(t[0])).cross(&(at(t[2]) - at(t[0])));
            n.dot(&up).abs() + 0.25 * n.norm_squared()
        })
        .sum()
}

/// `DVector` norms: `‖x‖₂ + ‖x‖₂² + ‖x‖₃ + (x/‖x‖) · u`.
#[autodiff_reverse(d_dvec_norms, Duplicated, Const, Active)]
pub fn dvec_norms(x: &[f64], u: &[f64]) -> f64 {
    let xv = DVector::from_column_slice(x);
    let uv = DVector::from_column_slice(u);
    xv.norm() + xv.norm_squared() + xv.lp_norm(3) + xv.normalize().dot(&uv)
}

/// Debug builds refuse it (cannot-deduce-type in ndarray's `Zip::prefer_f`/`and`/
/// `collect_with_partial`, `fold_axis`, `sum_axis`: the arithmetic of two views builds an
/// owned array through `Zip`, whose layout bookkeeping is moved as integers; as for the
/// softmax loss, tests/README.md front17/front18): compiled in release builds only.
#[cfg(not(debug_assertions))]
/// A windowed smoothness loss on a 2-D field through `ArrayView2` slicing: interior
/// differences with `s![1.., ..] - s![..-1, ..]`, row maxima with `fold_axis`, column
/// sums with `sum_axis`, and a `mapv` penalty on one column.
#[autodiff_reverse(d_field_loss, Duplicated, Const, Active)]
pub fn field_loss(f: &[f64], shape: (usize, usize)) -> f64 {
    let a = ArrayView2::from_shape(shape, f).unwrap();
    let dy = &a.slice(s![1.., ..]) - &a.slice(s![..-1, ..]);
    let dx = &a.slice(s![.., 1..]) - &a.slice(s![.., ..-1]);
    let smooth = dy.mapv(|d| d * d).sum() + dx.mapv(|d| d * d).sum();
    let row_max = a.fold_axis(Axis(1), f64::NEG_INFINITY, |m, &v| m.max(v));
    let col_sum = a.sum_axis(Axis(0));
    let edge = a.column(0).mapv(|v| (v - 1.0).powi(2)).sum();
    smooth + row_max.sum() + 0.5 * col_sum.dot(&col_sum) + edge
}

/// Debug builds refuse it (mismatched activity in ndarray's `OffsetTuple::stride_offset`
/// and `as_slice_memory_order`: a pointer constant or differentiable depending on the
/// run reaches an `insertvalue`; the base binary too): release builds only.
#[cfg(not(debug_assertions))]
/// An `ArrayView1` strided view (`s![..;2]`, every other entry) dotted with a reversed
/// view (`s![..;-1]`).
#[autodiff_reverse(d_strided_views, Duplicated, Active)]
pub fn strided_views(x: &[f64]) -> f64 {
    let v = ArrayView1::from(x);
    let even = v.slice(s![..;2]);
    let back = v.slice(s![..;-1]);
    let head = back.slice(s![..even.len()]);
    even.dot(&head) + v.mapv(f64::exp).sum().ln()
}

/// A generic log-sum-exp written against `num_traits::Float`.
pub fn lse<T: Float>(x: &[T], t: T) -> T {
    let m = x.iter().fold(T::neg_infinity(), |a, &b| a.max(b));
    let s = x.iter().fold(T::zero(), |acc, &v| acc + ((v - m) / t).exp());
    m + t * s.ln()
}

#[autodiff_reverse(d_lse64, Duplicated, Active, Active)]
pub fn lse64(x: &[f64], t: f64) -> f64 {
    lse(x, t)
}

#[autodiff_reverse(d_lse32, Duplicated, Active, Active)]
pub fn lse32(x: &[f32], t: f32) -> f32 {
    lse(x, t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{assert_all_close, fd_grad};

    const FD: f64 = 1e-6;
    const EXACT: f64 = 1e-12;

    #[test]
    fn nalgebra_rotation_fit() {
        let pts = [1.0, 0.0, 0.5, -0.3, 2.0, 1.0, 0.2, -1.0, 0.7];
        let targets = [0.9, 0.4, 0.5, -1.0, 1.5, 1.1, 0.6, -0.8, 0.7];
        let p = [0.4, 0.2, -0.1, 1.0];
        let mut dp = [0.0; 4];
        d_rotate_fit(&p, &mut dp, &pts, &targets, 1.0);
        assert_all_close("fd", &dp, &fd_grad(|q| rotate_fit(q, &pts, &targets), &p), FD);
        // the loss depends on the axis' direction only: ∂L/∂k · k = 0
        let radial: f64 = (1..4).map(|i| dp[i] * p[i]).sum();
        assert!(radial.abs() < 1e-12, "radial derivative {radial}");
    }

    #[test]
    fn nalgebra_mesh_cross_products() {
        let v = [0.0, 0.0, 0.1, 1.0, 0.2, 0.0, 0.3, 1.1, -0.2, 1.2, 1.0, 0.4];
        let tris = [[0, 1, 2], [1, 3, 2]];
        let mut dv = [0.0; 12];
        d_mesh_terms(&v, &mut dv, &tris, 1.0);
        assert_all_close("fd", &dv, &fd_grad(|q| mesh_terms(q, &tris), &v), FD);
        // translation invariance: the x, y and z components each sum to 0
        for c in 0..3 {
            let s: f64 = (0..4).map(|i| dv[3 * i + c]).sum();
            assert!(s.abs() < 1e-12, "component {c} sums to {s}");
        }
    }

    #[test]
    fn nalgebra_dvector_norms() {
        let x = [0.5, -1.2, 2.0, 0.3];
        let u = [1.0, 0.0, -0.5, 2.0];
        let mut dx = [0.0; 4];
        d_dvec_norms(&x, &mut dx, &u, 1.0);
        assert_all_close("fd", &dx, &fd_grad(|q| dvec_norms(q, &u), &x), FD);
        let n2: f64 = x.iter().map(|v| v * v).sum::<f64>().sqrt();
        let n3: f64 = x.iter().map(|v| v.abs().powi(3)).sum::<f64>().cbrt();
        let xu: f64 = x.iter().zip(&u).map(|(a, b)| a * b).sum();
        let want: Vec<f64> = (0..4)
            .map(|i| {
                x[i] / n2
                    + 2.0 * x[i]
                    + x[i] * x[i].abs() / (n3 * n3)
                    + u[i] / n2
                    - xu * x[i] / n2.powi(3)
            })
            .collect();
        assert_all_close("formula", &dx, &want, 1e-10);
    }

    #[cfg(not(debug_assertions))]
    #[test]
    fn ndarray_slicing_fold_axis() {
        let shape = (3, 4);
        let f: Vec<f64> = (0..12).map(|i| ((i * 5 % 7) as f64 - 3.0) / 4.0).collect();
        let mut df = vec![0.0; 12];
        d_field_loss(&f, &mut df, shape, 1.0);
        assert_all_close("fd", &df, &fd_grad(|q| field_loss(q, shape), &f), FD);
    }

    #[cfg(not(debug_assertions))]
    #[test]
    fn ndarray_strided_and_reversed_views() {
        let x = [0.3, -0.5, 1.2, 0.8, -0.1];
        let mut dx = [0.0; 5];
        let (_, y) = (0, d_strided_views(&x, &mut dx, 1.0));
        assert!((y - strided_views(&x)).abs() < EXACT);
        assert_all_close("fd", &dx, &fd_grad(strided_views, &x), FD);
    }

    #[test]
    fn num_traits_float_generic() {
        let x = [0.3, 1.5, -0.7, 1.1];
        let t = 0.6;
        let mut dx = [0.0; 4];
        let (_, dt) = d_lse64(&x, &mut dx, t, 1.0);
        let z: Vec<f64> = x.iter().map(|v| (v / t).exp()).collect();
        let s: f64 = z.iter().sum();
        let want: Vec<f64> = z.iter().map(|e| e / s).collect();
        assert_all_close("softmax", &dx, &want, EXACT);
        // d/dt [t ln Σ e^{x/t}] = ln Σ e^{x/t} - Σ softmax_i x_i / t
        let want_t = s.ln() - x.iter().zip(&want).map(|(v, p)| v * p).sum::<f64>() / t;
        assert_all_close("d/dt", &[dt], &[want_t], 1e-10);
        let xf = [0.3f32, 1.5, -0.7, 1.1];
        let mut dxf = [0.0f32; 4];
        let (_, dtf) = d_lse32(&xf, &mut dxf, 0.6, 1.0);
        for (g, w) in dxf.iter().zip(&want) {
            assert!((*g as f64 - w).abs() < 1e-5, "f32 {g} vs {w}");
        }
        assert!((dtf as f64 - want_t).abs() < 1e-4, "f32 d/dt {dtf} vs {want_t}");
    }
}

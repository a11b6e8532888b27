//! front19: `ndarray` and `nalgebra` as users write them, release and debug builds:
//! `Array1::mapv`, `dot` of vectors, `sum_axis`/`mean_axis`, matrix-matrix products
//! (ndarray's `Array2::dot` and nalgebra's `DMatrix` products larger than 5 × 5, both
//! `matrixmultiply`'s packed GEMM, in `f64` and `f32`), and a linear solve through
//! nalgebra's `lu().solve`. Each derivative is checked against a formula (computed with
//! the libraries' own primal code) and finite differences.
//!
//! Debug builds: the `ndarray` losses are compiled out (`mapv`, `sum_axis` and owned-array
//! arithmetic build arrays through `Zip` and `from_shape_trusted_iter_unchecked`, which
//! the pass refuses in unoptimized ndarray code: cannot-deduce-type on the dimension and
//! stride bookkeeping, and mismatched activity in `as_slice_memory_order`; tests/README.md
//! front17-front19). The `nalgebra` ones run in debug and release.

use ferrozyme::autodiff_reverse;
use nalgebra::{DMatrix, DVector};
#[cfg(not(debug_assertions))]
use ndarray::{Array1, ArrayView1, ArrayView2, Axis};

#[cfg(not(debug_assertions))]
/// `Σ tanh(x_i) w_i + x · x` with an owned `Array1` from `mapv` and vector `dot`s.
#[autodiff_reverse(d_vector_terms, Duplicated, Const, Active)]
pub fn vector_terms(x: &[f64], w: &[f64]) -> f64 {
    let xv = ArrayView1::from(x);
    let t: Array1<f64> = xv.mapv(f64::tanh);
    t.dot(&ArrayView1::from(w)) + xv.dot(&xv)
}

#[cfg(not(debug_assertions))]
/// Column means and row sums of a data matrix: `‖mean_axis(0)‖² + Σ (sum_axis(1))³`.
#[autodiff_reverse(d_axis_stats, Duplicated, Const, Active)]
pub fn axis_stats(a: &[f64], shape: (usize, usize)) -> f64 {
    let m = ArrayView2::from_shape(shape, a).unwrap();
    let mean = m.mean_axis(Axis(0)).unwrap();
    let rows = m.sum_axis(Axis(1));
    mean.dot(&mean) + rows.mapv(|r| r * r * r).sum()
}

#[cfg(not(debug_assertions))]
/// `‖A - C‖²_F` of 2-D views through an owned copy: `a.to_owned() - c` (ndarray's
/// `zip_mut_with` of an owned array and a view of the constant input).
#[autodiff_reverse(d_owned_minus_view, Duplicated, Const, Const, Active)]
pub fn owned_minus_view(a: &[f64], c: &[f64], shape: (usize, usize)) -> f64 {
    let am = ArrayView2::from_shape(shape, a).unwrap();
    let cm = ArrayView2::from_shape(shape, c).unwrap();
    let r = am.to_owned() - cm;
    r.mapv(|v| v * v).sum()
}

#[cfg(not(debug_assertions))]
/// `‖A B - C‖²_F` with ndarray's matrix-matrix `dot` (A: n×k parameters, B: k×m).
#[autodiff_reverse(d_ndarray_gemm, Duplicated, Const, Const, Const, Active)]
pub fn ndarray_gemm(a: &[f64], b: &[f64], c: &[f64], dims: (usize, usize, usize)) -> f64 {
    let (n, k, m) = dims;
    let am = ArrayView2::from_shape((n, k), a).unwrap();
    let bm = ArrayView2::from_shape((k, m), b).unwrap();
    let cm = ArrayView2::from_shape((n, m), c).unwrap();
    let r = am.dot(&bm) - cm;
    r.mapv(|v| v * v).sum()
}

#[cfg(not(debug_assertions))]
/// The same in `f32`, with the transposed view `Aᵀ` of a k×n matrix (strides of a
/// transpose reach the GEMM).
#[autodiff_reverse(d_ndarray_gemm_t32, Duplicated, Const, Const, Active)]
pub fn ndarray_gemm_t32(at: &[f32], b: &[f32], dims: (usize, usize, usize)) -> f32 {
    let (n, k, m) = dims;
    let a = ArrayView2::from_shape((k, n), at).unwrap();
    let bm = ArrayView2::from_shape((k, m), b).unwrap();
    a.t().dot(&bm).mapv(|v| v.sin()).sum()
}

/// `tr((A B)ᵀ (A B))` of dynamic nalgebra matrices of 6 × 6 (nalgebra multiplies dynamic
/// matrices larger than 5 × 5 with `matrixmultiply`).
#[autodiff_reverse(d_dmatrix_product, Duplicated, Duplicated, Const, Active)]
pub fn dmatrix_product(a: &[f64], b: &[f64], n: usize) -> f64 {
    let am = DMatrix::from_row_slice(n, n, a);
    let bm = DMatrix::from_row_slice(n, n, b);
    (&am * &bm).norm_squared()
}

/// `cᵀ A⁻¹ b` through nalgebra's LU decomposition with partial pivoting.
#[autodiff_reverse(d_lu_solve, Duplicated, Duplicated, Const, Active)]
pub fn lu_solve(a: &[f64], b: &[f64], c: &[f64]) -> f64 {
    let n = b.len();
    let am = DMatrix::from_row_slice(n, n, a);
    let x = am.lu().solve(&DVector::from_column_slice(b)).unwrap();
    x.dot(&DVector::from_column_slice(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{assert_all_close, fd_grad};

    const FD: f64 = 1e-6;
    #[cfg_attr(debug_assertions, allow(dead_code))]
    const EXACT: f64 = 1e-12;

    fn data(n: usize, seed: usize) -> Vec<f64> {
        (0..n)
            .map(|i| (((i * 7 + seed * 3) % 13) as f64 - 6.0) / 5.0)
            .collect()
    }

    #[cfg(not(debug_assertions))]
    #[test]
    fn array1_mapv_and_vector_dot() {
        let x = [0.3, -1.2, 0.8, 2.0];
        let w = [1.5, -0.5, 0.25, 1.0];
        let mut dx = [0.0; 4];
        d_vector_terms(&x, &mut dx, &w, 1.0);
        let want: Vec<f64> = (0..4)
            .map(|i| w[i] * (1.0 - x[i].tanh().powi(2)) + 2.0 * x[i])
            .collect();
        assert_all_close("formula", &dx, &want, EXACT);
        assert_all_close("fd", &dx, &fd_grad(|q| vector_terms(q, &w), &x), FD);
    }

    #[cfg(not(debug_assertions))]
    #[test]
    fn mean_axis_and_sum_axis() {
        let (r, c) = (3, 4);
        let a = data(r * c, 1);
        let mut da = vec![0.0; r * c];
        d_axis_stats(&a, &mut da, (r, c), 1.0);
        let mut want = vec![0.0; r * c];
        for i in 0..r {
            let row: f64 = (0..c).map(|j| a[i * c + j]).sum();
            for j in 0..c {
                let mean: f64 = (0..r).map(|t| a[t * c + j]).sum::<f64>() / r as f64;
                want[i * c + j] = 2.0 * mean / r as f64 + 3.0 * row * row;
            }
        }
        assert_all_close("formula", &da, &want, EXACT);
        assert_all_close("fd", &da, &fd_grad(|q| axis_stats(q, (r, c)), &a), FD);
    }

    // The derivative added the adjoint of `c` into `c` itself before front19 (its view,
    // built by `from_shape_impl` with a phi choosing the data pointer or null, was its
    // own shadow, and the subtraction's reverse sweep was not guarded; tests/c/885).
    #[cfg(not(debug_assertions))]
    #[test]
    fn ndarray_const_input_is_left_unchanged() {
        let shape = (2, 3);
        let a = [1.0, 2.0, 0.5, -1.0, 3.0, 0.25];
        let c0 = vec![0.3, -0.7, 1.1, 0.2, 0.1, -0.4];
        let c = c0.clone();
        let mut da = [0.0; 6];
        d_owned_minus_view(&a, &mut da, &c, shape, 1.0);
        let c = std::hint::black_box(c);
        assert_eq!(c, c0, "the constant input was written");
        let want: Vec<f64> = (0..6).map(|i| 2.0 * (a[i] - c0[i])).collect();
        assert_all_close("2 (a - c)", &da, &want, EXACT);
    }

    #[cfg(not(debug_assertions))]
    #[test]
    fn ndarray_matrix_matrix_dot() {
        // large enough for matrixmultiply's packed path in every dimension
        let (n, k, m) = (7, 9, 6);
        let (a, b, c) = (data(n * k, 1), data(k * m, 2), data(n * m, 3));
        let mut da = vec![0.0; n * k];
        let l = d_ndarray_gemm(&a, &mut da, &b, &c, (n, k, m), 1.0);
        let l0 = ndarray_gemm(&a, &b, &c, (n, k, m));
        assert!((l - l0).abs() <= 1e-12 * l0.abs(), "{l} vs {l0}");
        // 2 (A B - C) Bᵀ
        let mut want = vec![0.0; n * k];
        for i in 0..n {
            for j in 0..m {
                let ab: f64 = (0..k).map(|t| a[i * k + t] * b[t * m + j]).sum();
                let r = ab - c[i * m + j];
                for t in 0..k {
                    want[i * k + t] += 2.0 * r * b[t * m + j];
                }
            }
        }
        assert_all_close("formula", &da, &want, 1e-10);
        assert_all_close(
            "fd",
            &da,
            &fd_grad(|q| ndarray_gemm(q, &b, &c, (n, k, m)), &a),
            FD,
        );
        // the constant operands are read, never written
        let (b1, c1) = std::hint::black_box((b.clone(), c.clone()));
        assert_eq!(
            (b1, c1),
            (data(k * m, 2), data(n * m, 3)),
            "constant inputs written"
        );
    }

    #[cfg(not(debug_assertions))]
    #[test]
    fn ndarray_transposed_dot_f32() {
        let (n, k, m) = (6, 8, 7);
        let at: Vec<f32> = data(k * n, 4).iter().map(|&v| v as f32 * 0.3).collect();
        let b: Vec<f32> = data(k * m, 5).iter().map(|&v| v as f32 * 0.3).collect();
        let mut dat = vec![0.0f32; k * n];
        d_ndarray_gemm_t32(&at, &mut dat, &b, (n, k, m), 1.0);
        // d/dAᵀ[t][i] = Σ_j cos((AB)_ij) B[t][j], in f64
        for t in 0..k {
            for i in 0..n {
                let want: f64 = (0..m)
                    .map(|j| {
                        let ab: f64 = (0..k)
                            .map(|s| at[s * n + i] as f64 * b[s * m + j] as f64)
                            .sum();
                        ab.cos() * b[t * m + j] as f64
                    })
                    .sum();
                let got = dat[t * n + i] as f64;
                assert!((got - want).abs() < 1e-4, "[{t}][{i}]: {got} vs {want}");
            }
        }
    }

    #[test]
    fn nalgebra_dynamic_product_6x6() {
        let n = 6;
        let (a, b) = (data(n * n, 6), data(n * n, 7));
        let (mut da, mut db) = (vec![0.0; n * n], vec![0.0; n * n]);
        d_dmatrix_product(&a, &mut da, &b, &mut db, n, 1.0);
        // P = A B: d/dA = 2 P Bᵀ, d/dB = 2 Aᵀ P
        let am = DMatrix::from_row_slice(n, n, &a);
        let bm = DMatrix::from_row_slice(n, n, &b);
        let p = &am * &bm;
        let ga = 2.0 * &p * bm.transpose();
        let gb = 2.0 * am.transpose() * &p;
        let row_major = |g: &DMatrix<f64>| -> Vec<f64> {
            (0..n)
                .flat_map(|i| (0..n).map(move |j| (i, j)))
                .map(|(i, j)| g[(i, j)])
                .collect()
        };
        assert_all_close("d/dA", &da, &row_major(&ga), 1e-10);
        assert_all_close("d/dB", &db, &row_major(&gb), 1e-10);
        assert_all_close("fd", &da, &fd_grad(|q| dmatrix_product(q, &b, n), &a), FD);
    }

    #[test]
    fn nalgebra_lu_solve() {
        let n = 4;
        let mut a = data(n * n, 8);
        for i in 0..n {
            a[i * n + i] += 4.0;
        }
        let b = [0.5, -1.0, 2.0, 0.25];
        let c = [1.0, 0.3, -0.7, 0.2];
        let (mut da, mut db) = (vec![0.0; n * n], vec![0.0; n]);
        d_lu_solve(&a, &mut da, &b, &mut db, &c, 1.0);
        // x = A⁻¹ b, λ = A⁻ᵀ c: d/dA = -λ xᵀ, d/db = λ
        let am = DMatrix::from_row_slice(n, n, &a);
        let x = am
            .clone()
            .lu()
            .solve(&DVector::from_column_slice(&b))
            .unwrap();
        let lam = am
            .transpose()
            .lu()
            .solve(&DVector::from_column_slice(&c))
            .unwrap();
        let want_a: Vec<f64> = (0..n * n).map(|t| -lam[t / n] * x[t % n]).collect();
        assert_all_close("d/dA", &da, &want_a, 1e-10);
        assert_all_close("d/db", &db, lam.as_slice(), 1e-10);
        assert_all_close("fd", &da, &fd_grad(|q| lu_solve(q, &b, &c), &a), FD);
    }
}

//! BLAS and LAPACK: the library family whose derivatives call the library again.
//!
//! Scientific codes spend their time in BLAS; differentiating a reference implementation
//! instruction by instruction would be slow, and the vendor library has no IR anyway.
//! Each row here names a function whose derivative rules (in
//! `ferrozyme-transform/src/custom/blas/rules.c`, linked as IR) are written in terms of
//! BLAS/LAPACK calls: the adjoint of a matrix product is two products, the adjoint of a
//! Cholesky factorization two triangular solves and a triangular product. The rows are
//! data for the transform (which functions get rules) and for the documentation
//! (`ferrozyme rules`); the math itself is checked numerically by the end-to-end programs
//! `tests/c/51x_blas_*.c` against the same computations written as loops, finite
//! differences and the dot-product identity between the modes.

/// How a function takes its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interface {
    /// `cblas_*`: values, a layout argument (row- or column-major) for matrices.
    Cblas,
    /// Fortran's `*_` symbols: every argument by reference, column-major.
    Fortran,
}

/// One function with derivative rules.
#[derive(Clone, Copy, Debug)]
pub struct BlasRow {
    /// The symbol (`cblas_dgemm`, `dgemm_`).
    pub name: &'static str,
    pub interface: Interface,
    /// What it computes.
    pub computes: &'static str,
    /// What the reverse rule does (the forward rule is its transpose).
    pub adjoint: &'static str,
}

const DOT: &str = "r = x . y";
const DOT_ADJ: &str = "dx += dr y, dy += dr x (axpy)";
const AXPY: &str = "y += a x";
const AXPY_ADJ: &str = "dx += a dy (axpy), da += x . dy (dot)";
const COPY: &str = "y = x";
const COPY_ADJ: &str = "dx += dy (axpy), dy = 0";
const SCAL: &str = "x = a x";
const SCAL_ADJ: &str = "da += x . dx (dot), dx = a dx (scal)";
const NRM2: &str = "r = |x|";
const NRM2_ADJ: &str = "dx += (dr / r) x (axpy; 0 at x = 0)";
const GEMV: &str = "y = alpha op(A) x + beta y";
const GEMV_ADJ: &str = "dx += alpha op(A)^T dy (gemv), dA += alpha dy x^T (ger), dalpha += dy . op(A) x, dbeta += dy . y, dy = beta dy";
const GER: &str = "A += alpha x y^T";
const GER_ADJ: &str = "dx += alpha dA y, dy += alpha dA^T x (gemv), dalpha += x^T dA y";
const GEMM: &str = "C = alpha op(A) op(B) + beta C";
const GEMM_ADJ: &str = "dA += alpha dC op(B)^T, dB += alpha op(A)^T dC (gemm), dalpha += <dC, op(A) op(B)>, dbeta += <dC, C>, dC = beta dC";
const POTRF: &str = "A = L L^T (or U^T U), in place";
const POTRF_ADJ: &str =
    "P = Phi(L^T dL) (trmm), S = L^-T P L^-1 (two trsm), dA = S + S^T below the diagonal, S on it";
const POTRS: &str = "B = A^-1 B from A's Cholesky factor, in place";
const POTRS_ADJ: &str =
    "dB = A^-1 dX (potrs), dL += tril((G + G^T) L) with G = -dB X^T (gemm, trmm)";

impl BlasRow {
    /// Does it read memory it also writes (`y += a x`, `x = a x`, `C = .. + beta C`, the
    /// factorizations in place)? Running it twice then differs from running it once.
    pub fn updates_in_place(&self) -> bool {
        ![DOT, NRM2, COPY].contains(&self.computes)
    }
}

const fn row(
    name: &'static str,
    interface: Interface,
    computes: &'static str,
    adjoint: &'static str,
) -> BlasRow {
    BlasRow {
        name,
        interface,
        computes,
        adjoint,
    }
}

use Interface::{Cblas, Fortran};

/// Every function with rules, double and single precision.
pub const BLAS_FUNCTIONS: &[BlasRow] = &[
    row("cblas_ddot", Cblas, DOT, DOT_ADJ),
    row("cblas_sdot", Cblas, DOT, DOT_ADJ),
    row("ddot_", Fortran, DOT, DOT_ADJ),
    row("sdot_", Fortran, DOT, DOT_ADJ),
    row("cblas_daxpy", Cblas, AXPY, AXPY_ADJ),
    row("cblas_saxpy", Cblas, AXPY, AXPY_ADJ),
    row("daxpy_", Fortran, AXPY, AXPY_ADJ),
    row("saxpy_", Fortran, AXPY, AXPY_ADJ),
    row("cblas_dcopy", Cblas, COPY, COPY_ADJ),
    row("cblas_scopy", Cblas, COPY, COPY_ADJ),
    row("dcopy_", Fortran, COPY, COPY_ADJ),
    row("scopy_", Fortran, COPY, COPY_ADJ),
    row("cblas_dscal", Cblas, SCAL, SCAL_ADJ),
    row("cblas_sscal", Cblas, SCAL, SCAL_ADJ),
    row("dscal_", Fortran, SCAL, SCAL_ADJ),
    row("sscal_", Fortran, SCAL, SCAL_ADJ),
    row("cblas_dnrm2", Cblas, NRM2, NRM2_ADJ),
    row("cblas_snrm2", Cblas, NRM2, NRM2_ADJ),
    row("dnrm2_", Fortran, NRM2, NRM2_ADJ),
    row("snrm2_", Fortran, NRM2, NRM2_ADJ),
    row("cblas_dgemv", Cblas, GEMV, GEMV_ADJ),
    row("cblas_sgemv", Cblas, GEMV, GEMV_ADJ),
    row("dgemv_", Fortran, GEMV, GEMV_ADJ),
    row("sgemv_", Fortran, GEMV, GEMV_ADJ),
    row("cblas_dger", Cblas, GER, GER_ADJ),
    row("cblas_sger", Cblas, GER, GER_ADJ),
    row("cblas_dgemm", Cblas, GEMM, GEMM_ADJ),
    row("cblas_sgemm", Cblas, GEMM, GEMM_ADJ),
    row("dgemm_", Fortran, GEMM, GEMM_ADJ),
    row("sgemm_", Fortran, GEMM, GEMM_ADJ),
    row("dpotrf_", Fortran, POTRF, POTRF_ADJ),
    row("spotrf_", Fortran, POTRF, POTRF_ADJ),
    row("dpotrs_", Fortran, POTRS, POTRS_ADJ),
    row("spotrs_", Fortran, POTRS, POTRS_ADJ),
];

/// The row of a BLAS/LAPACK symbol, if it has rules.
pub fn blas_function(name: &str) -> Option<&'static BlasRow> {
    BLAS_FUNCTIONS.iter().find(|r| r.name == name)
}

/// The names of a function's three rule functions (augmented forward, reverse, forward)
/// in the rule IR.
pub fn rule_names(name: &str) -> [String; 3] {
    [
        format!("__fz_blas_aug_{name}"),
        format!("__fz_blas_rev_{name}"),
        format!("__fz_blas_fwd_{name}"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_unique_and_paired() {
        let mut seen = std::collections::HashSet::new();
        for r in BLAS_FUNCTIONS {
            assert!(seen.insert(r.name), "duplicate {}", r.name);
            assert_eq!(
                r.name.ends_with('_'),
                r.interface == Interface::Fortran,
                "{}",
                r.name
            );
            // Every double-precision function has its single-precision twin.
            let twin = if let Some(rest) = r.name.strip_prefix("cblas_d") {
                Some(format!("cblas_s{rest}"))
            } else {
                r.name.strip_prefix('d').map(|rest| format!("s{rest}"))
            };
            if let Some(t) = twin {
                assert!(blas_function(&t).is_some(), "{} has no twin {t}", r.name);
            }
        }
        assert!(blas_function("cblas_dgemm").is_some());
        assert!(blas_function("dgemm").is_none());
    }
}

/* Definitions of numba's LAPACK helpers that Ferrozyme can differentiate.
 *
 * numba runs np.linalg.solve, det, slogdet and inv through `numba_xgesv`,
 * `numba_xxgetrf` and `numba_ez_xxgetri`, np.linalg.cholesky through `numba_xxpotrf`,
 * np.linalg.qr through `numba_ez_geqrf` and `numba_ez_xxgqr` (numba/_lapack.c), which call the LAPACK of
 * SciPy through function pointers: no IR, no derivative rule. When a specialization
 * calls them, ferrozyme/numba.py links this file's IR into the module (llvm-link-22)
 * before `ferrozyme opt`, so the pass differentiates these loops instead. They follow
 * LAPACK's contracts for real kinds ('d' double, 's' float): column-major storage,
 * LU with partial pivoting (the row of the largest |a| in the column, the first one on
 * ties, as dgetf2), 1-based `ipiv`, return value `info` (> 0: U(info, info) is exactly
 * zero, the factorization is complete but singular; gesv then leaves b alone). Complex
 * kinds return -1 (numba then raises); they carry no real derivative anyway.
 *
 * Numerically these are the unblocked algorithms (dgetf2/dgetrs/dgetri's definition),
 * fine for the small systems njit code solves; the results agree with LAPACK to
 * rounding. The derivative of a pivoted LU is that of the branch taken at the input.
 * The per-kind functions stay out of line: inlined into one dispatcher, the same `void *`
 * would be read as double and as float, and type analysis could not type its memory.
 */
#include <stdint.h>
#include <stdlib.h>

#include "numba_shim_kinds.h"

typedef int F_INT;

#define DEFINE_LU(T, SUF)                                                                 \
  static __attribute__((noinline)) int64_t getrf_##SUF(int64_t m, int64_t n, T *a, int64_t lda, F_INT *ipiv) {      \
    int64_t info = 0, kmax = m < n ? m : n;                                               \
    for (int64_t k = 0; k < kmax; k++) {                                                  \
      int64_t p = k;                                                                      \
      T best = a[k + k * lda] < 0 ? -a[k + k * lda] : a[k + k * lda];                     \
      for (int64_t i = k + 1; i < m; i++) {                                               \
        T v = a[i + k * lda] < 0 ? -a[i + k * lda] : a[i + k * lda];                      \
        if (v > best) {                                                                   \
          best = v;                                                                       \
          p = i;                                                                          \
        }                                                                                 \
      }                                                                                   \
      ipiv[k] = (F_INT)(p + 1);                                                           \
      if (a[p + k * lda] == 0) {                                                          \
        if (info == 0) info = k + 1;                                                      \
        continue;                                                                         \
      }                                                                                   \
      if (p != k)                                                                         \
        for (int64_t j = 0; j < n; j++) {                                                 \
          T t = a[k + j * lda];                                                           \
          a[k + j * lda] = a[p + j * lda];                                                \
          a[p + j * lda] = t;                                                             \
        }                                                                                 \
      T piv = a[k + k * lda];                                                             \
      for (int64_t i = k + 1; i < m; i++) a[i + k * lda] /= piv;                          \
      for (int64_t j = k + 1; j < n; j++) {                                               \
        T akj = a[k + j * lda];                                                           \
        for (int64_t i = k + 1; i < m; i++) a[i + j * lda] -= a[i + k * lda] * akj;       \
      }                                                                                   \
    }                                                                                     \
    return info;                                                                          \
  }                                                                                       \
  /* Solve (P L U) X = B in place, B n x nrhs with leading dimension ldb. */              \
  static __attribute__((noinline)) void getrs_##SUF(int64_t n, int64_t nrhs, const T *a, int64_t lda,               \
                          const F_INT *ipiv, T *b, int64_t ldb) {                          \
    for (int64_t c = 0; c < nrhs; c++) {                                                  \
      T *x = b + c * ldb;                                                                 \
      for (int64_t k = 0; k < n; k++) {                                                   \
        int64_t p = ipiv[k] - 1;                                                          \
        if (p != k) {                                                                     \
          T t = x[k];                                                                     \
          x[k] = x[p];                                                                    \
          x[p] = t;                                                                       \
        }                                                                                 \
      }                                                                                   \
      for (int64_t k = 0; k < n; k++)                                                     \
        for (int64_t i = k + 1; i < n; i++) x[i] -= a[i + k * lda] * x[k];                \
      for (int64_t k = n - 1; k >= 0; k--) {                                              \
        x[k] /= a[k + k * lda];                                                           \
        for (int64_t i = 0; i < k; i++) x[i] -= a[i + k * lda] * x[k];                    \
      }                                                                                   \
    }                                                                                     \
  }                                                                                       \
  /* The inverse from the LU factors: solve A X = I, then copy X over a. */               \
  static __attribute__((noinline)) int64_t getri_##SUF(int64_t n, T *a, int64_t lda, const F_INT *ipiv) {           \
    for (int64_t k = 0; k < n; k++)                                                       \
      if (a[k + k * lda] == 0) return k + 1;                                              \
    T *x = (T *)malloc((size_t)(n * n) * sizeof(T));                                      \
    if (!x) return -1;                                                                    \
    for (int64_t j = 0; j < n; j++)                                                       \
      for (int64_t i = 0; i < n; i++) x[i + j * n] = i == j ? (T)1 : (T)0;                \
    getrs_##SUF(n, n, a, lda, ipiv, x, n);                                                \
    for (int64_t j = 0; j < n; j++)                                                       \
      for (int64_t i = 0; i < n; i++) a[i + j * lda] = x[i + j * n];                      \
    free(x);                                                                              \
    return 0;                                                                             \
  }

DEFINE_LU(double, d)
DEFINE_LU(float, s)

int numba_xxgetrf(char kind, int64_t m, int64_t n, void *a, int64_t lda, F_INT *ipiv) {
  if (KIND_D(kind)) return (int)getrf_d(m, n, (double *)a, lda, ipiv);
  if (KIND_S(kind)) return (int)getrf_s(m, n, (float *)a, lda, ipiv);
  return -1;
}

int numba_xgesv(char kind, int64_t n, int64_t nrhs, void *a, int64_t lda, F_INT *ipiv, void *b,
                int64_t ldb) {
  int64_t info;
  if (KIND_D(kind)) {
    info = getrf_d(n, n, (double *)a, lda, ipiv);
    if (info == 0) getrs_d(n, nrhs, (const double *)a, lda, ipiv, (double *)b, ldb);
    return (int)info;
  }
  if (KIND_S(kind)) {
    info = getrf_s(n, n, (float *)a, lda, ipiv);
    if (info == 0) getrs_s(n, nrhs, (const float *)a, lda, ipiv, (float *)b, ldb);
    return (int)info;
  }
  return -1;
}

int numba_ez_xxgetri(char kind, int64_t n, void *a, int64_t lda, F_INT *ipiv) {
  if (KIND_D(kind)) return (int)getri_d(n, (double *)a, lda, ipiv);
  if (KIND_S(kind)) return (int)getri_s(n, (float *)a, lda, ipiv);
  return -1;
}

/* Cholesky factorization (front46: np.linalg.cholesky), dpotf2's definition: uplo 'U'
 * gives A = U^T U in the upper triangle (column-major), 'L' gives A = L L^T in the lower
 * one; the other triangle is left alone. info > 0: the leading minor of that order is not
 * positive definite (the factorization stops there, the diagonal entry holds the
 * non-positive value, as LAPACK leaves it). numba passes 'U' on its C-order copy, which is
 * the lower factor in C order. */
#define DEFINE_CHOLESKY(T, SUF, SQRT)                                                     \
  static __attribute__((noinline)) int64_t potrf_##SUF(char uplo, int64_t n, T *a, int64_t lda) { \
    int upper = uplo == 'U' || uplo == 'u';                                               \
    /* Element (i, j) of the triangle being factored, i <= j for upper: (j, i) of L. */  \
    for (int64_t j = 0; j < n; j++) {                                                     \
      T ajj = a[j + j * lda];                                                             \
      for (int64_t k = 0; k < j; k++) {                                                   \
        T ljk = upper ? a[k + j * lda] : a[j + k * lda];                                  \
        ajj -= ljk * ljk;                                                                 \
      }                                                                                   \
      if (!(ajj > 0)) {                                                                   \
        a[j + j * lda] = ajj;                                                             \
        return j + 1;                                                                     \
      }                                                                                   \
      ajj = SQRT(ajj);                                                                    \
      a[j + j * lda] = ajj;                                                               \
      for (int64_t i = j + 1; i < n; i++) {                                               \
        T *lij = upper ? &a[j + i * lda] : &a[i + j * lda];                               \
        T s = *lij;                                                                       \
        for (int64_t k = 0; k < j; k++)                                                   \
          s -= (upper ? a[k + i * lda] * a[k + j * lda] : a[i + k * lda] * a[j + k * lda]); \
        *lij = s / ajj;                                                                   \
      }                                                                                   \
    }                                                                                     \
    return 0;                                                                             \
  }

DEFINE_CHOLESKY(double, d, __builtin_sqrt)
DEFINE_CHOLESKY(float, s, __builtin_sqrtf)

int numba_xxpotrf(char kind, char uplo, int64_t n, void *a, int64_t lda) {
  if (KIND_D(kind)) return (int)potrf_d(uplo, n, (double *)a, lda);
  if (KIND_S(kind)) return (int)potrf_s(uplo, n, (float *)a, lda);
  return -1;
}

/* QR (front46: np.linalg.qr), dgeqr2's and dorg2r's definitions: Householder reflectors
 * H(i) = I - tau v v^T with v(i) = 1, LAPACK's sign convention (beta = -sign(alpha) |(alpha,
 * x)|, so R's diagonal may be negative, as numpy's), the reflectors below R's diagonal, then
 * Q's first n columns built from the first k of them in place. */
#define DEFINE_QR(T, SUF, SQRT)                                                           \
  /* A(i:m, j0:n) := H A(i:m, j0:n), v = A(i:m, i) with v(i) taken as 1. */              \
  static void reflect_##SUF(int64_t m, int64_t n, T *a, int64_t lda, int64_t i, int64_t j0, T tau) { \
    for (int64_t j = j0; j < n; j++) {                                                    \
      T w = a[i + j * lda];                                                               \
      for (int64_t r = i + 1; r < m; r++) w += a[r + i * lda] * a[r + j * lda];           \
      w *= tau;                                                                           \
      a[i + j * lda] -= w;                                                                \
      for (int64_t r = i + 1; r < m; r++) a[r + j * lda] -= a[r + i * lda] * w;           \
    }                                                                                     \
  }                                                                                       \
  static __attribute__((noinline)) void geqrf_##SUF(int64_t m, int64_t n, T *a, int64_t lda, T *tau) { \
    int64_t k = m < n ? m : n;                                                            \
    for (int64_t i = 0; i < k; i++) {                                                     \
      T alpha = a[i + i * lda], ss = 0;                                                   \
      for (int64_t r = i + 1; r < m; r++) ss += a[r + i * lda] * a[r + i * lda];          \
      if (ss == 0) {                                                                      \
        tau[i] = 0;                                                                       \
        continue;                                                                         \
      }                                                                                   \
      T norm = SQRT(alpha * alpha + ss);                                                  \
      T beta = alpha >= 0 ? -norm : norm;                                                 \
      tau[i] = (beta - alpha) / beta;                                                     \
      T scale = 1 / (alpha - beta);                                                       \
      for (int64_t r = i + 1; r < m; r++) a[r + i * lda] *= scale;                        \
      a[i + i * lda] = beta;                                                              \
      if (i + 1 < n) {                                                                    \
        T d = a[i + i * lda];                                                             \
        a[i + i * lda] = 1;                                                               \
        reflect_##SUF(m, n, a, lda, i, i + 1, tau[i]);                                    \
        a[i + i * lda] = d;                                                               \
      }                                                                                   \
    }                                                                                     \
  }                                                                                       \
  static __attribute__((noinline)) void orgqr_##SUF(int64_t m, int64_t n, int64_t k, T *a, int64_t lda, const T *tau) { \
    for (int64_t j = k; j < n; j++) {                                                     \
      for (int64_t r = 0; r < m; r++) a[r + j * lda] = 0;                                 \
      a[j + j * lda] = 1;                                                                 \
    }                                                                                     \
    for (int64_t i = k - 1; i >= 0; i--) {                                                \
      if (i + 1 < n) {                                                                    \
        a[i + i * lda] = 1;                                                               \
        reflect_##SUF(m, n, a, lda, i, i + 1, tau[i]);                                    \
      }                                                                                   \
      for (int64_t r = i + 1; r < m; r++) a[r + i * lda] *= -tau[i];                      \
      a[i + i * lda] = 1 - tau[i];                                                        \
      for (int64_t r = 0; r < i; r++) a[r + i * lda] = 0;                                 \
    }                                                                                     \
  }

DEFINE_QR(double, d, __builtin_sqrt)
DEFINE_QR(float, s, __builtin_sqrtf)

int numba_ez_geqrf(char kind, int64_t m, int64_t n, void *a, int64_t lda, void *tau) {
  if (KIND_D(kind)) return geqrf_d(m, n, (double *)a, lda, (double *)tau), 0;
  if (KIND_S(kind)) return geqrf_s(m, n, (float *)a, lda, (float *)tau), 0;
  return -1;
}

int numba_ez_xxgqr(char kind, int64_t m, int64_t n, int64_t k, void *a, int64_t lda, void *tau) {
  if (KIND_D(kind)) return orgqr_d(m, n, k, (double *)a, lda, (const double *)tau), 0;
  if (KIND_S(kind)) return orgqr_s(m, n, k, (float *)a, lda, (const float *)tau), 0;
  return -1;
}

/* Symmetric eigenproblems, SVD and least squares (front47: np.linalg.eigh, eigvalsh, svd,
 * pinv, lstsq, and what numba builds on them: matrix_rank, cond, norm(A, 2)). numba calls
 * `numba_ez_xxxevd` (dsyevd), `numba_ez_gesdd` (dgesdd) and `numba_ez_gelsd` (dgelsd); here
 * they are Jacobi methods, whose steps are smooth in the matrix, so differentiating the
 * iteration gives the derivative of the decomposition (as the iteration converges, the
 * derivatives converge too; two sweeps after convergence let them settle).
 *
 * The rotation of a 2 x 2 symmetric block [[app, apq], [apq, aqq]] is t = tan(phi) in the
 * form 2 apq sign(d) / (|d| + sqrt(d^2 + 4 apq^2)), d = aqq - app, which is Numerical
 * Recipes' t = sign(theta) / (|theta| + sqrt(theta^2 + 1)), theta = d / (2 apq), without the
 * division by apq: a rotation is never skipped because apq is small or zero (its tangent
 * need not be), only when the block is a multiple of the identity (d = apq = 0, a
 * degenerate pair whose eigenvectors have no derivative).
 *
 * Contracts as LAPACK's for real kinds (column-major, eigenvalues ascending, singular
 * values descending, rank from rcond * s[0], rcond < 0 meaning the machine epsilon). The
 * signs of eigenvectors and singular vectors are not LAPACK's (no routine fixes them): an
 * objective should not depend on them (w, V diag V^T, |V|, U S V^T, pinv, lstsq do not).
 * Zero singular values get left vectors completing an orthonormal basis (Gram-Schmidt on
 * the unit vector furthest from the span), as do 'A' (full_matrices) columns beyond
 * min(m, n). Complex kinds return -1. */
#define DEFINE_JACOBI(T, SUF, SQRT, EPS)                                                  \
  static T rot_##SUF(T app, T aqq, T apq) {                                               \
    T d = aqq - app;                                                                      \
    T ad = d < 0 ? -d : d;                                                                \
    T sg = d < 0 ? (T)-1 : (T)1;                                                          \
    return 2 * apq * sg / (ad + SQRT(d * d + 4 * apq * apq));                             \
  }                                                                                       \
  /* Columns p and q of an r x * matrix (leading dimension ld) rotated by (c, s). */      \
  static void rotcols_##SUF(int64_t r, T *x, int64_t ld, int64_t p, int64_t q, T c, T s) { \
    for (int64_t k = 0; k < r; k++) {                                                     \
      T xp = x[k + p * ld], xq = x[k + q * ld];                                           \
      x[k + p * ld] = c * xp - s * xq;                                                    \
      x[k + q * ld] = s * xp + c * xq;                                                    \
    }                                                                                     \
  }                                                                                       \
  /* Cyclic Jacobi on a full symmetric n x n matrix s (overwritten: diagonal = the        \
   * eigenvalues), accumulating the rotations in v (n x n, set to the identity). */       \
  static __attribute__((noinline)) int64_t syjac_##SUF(int64_t n, T *s, T *v) {          \
    for (int64_t j = 0; j < n; j++)                                                       \
      for (int64_t i = 0; i < n; i++) v[i + j * n] = i == j ? (T)1 : (T)0;                \
    int64_t extra = 0;                                                                    \
    for (int sweep = 0; sweep < 100; sweep++) {                                           \
      T off = 0, all = 0;                                                                 \
      for (int64_t j = 0; j < n; j++)                                                     \
        for (int64_t i = 0; i < n; i++) {                                                 \
          T e = s[i + j * n] * s[i + j * n];                                              \
          all += e;                                                                       \
          if (i != j) off += e;                                                           \
        }                                                                                 \
      if (off <= EPS * EPS * all && ++extra > 2) return 0;                                \
      for (int64_t p = 0; p < n; p++)                                                     \
        for (int64_t q = p + 1; q < n; q++) {                                             \
          T app = s[p + p * n], aqq = s[q + q * n], apq = s[p + q * n];                   \
          if (apq == 0 && app == aqq) continue;                                           \
          T t = rot_##SUF(app, aqq, apq);                                                 \
          T c = 1 / SQRT(1 + t * t), sn = t * c;                                          \
          rotcols_##SUF(n, s, n, p, q, c, sn); /* S J */                                  \
          for (int64_t k = 0; k < n; k++) { /* J^T (S J) */                               \
            T xp = s[p + k * n], xq = s[q + k * n];                                       \
            s[p + k * n] = c * xp - sn * xq;                                              \
            s[q + k * n] = sn * xp + c * xq;                                              \
          }                                                                               \
          rotcols_##SUF(n, v, n, p, q, c, sn);                                            \
        }                                                                                 \
    }                                                                                     \
    return 1; /* no convergence */                                                        \
  }                                                                                       \
  /* dsyevd: the eigenvalues of the symmetric matrix whose uplo triangle a holds, in w    \
   * ascending; jobz 'V': the eigenvectors over a (column j for w[j]). */                  \
  static __attribute__((noinline)) int64_t syevd_##SUF(char jobz, char uplo, int64_t n, T *a, int64_t lda, T *w) { \
    int upper = uplo == 'U' || uplo == 'u';                                               \
    T *s = (T *)malloc((size_t)(2 * n * n) * sizeof(T));                                  \
    if (!s) return -1;                                                                    \
    T *v = s + n * n;                                                                     \
    for (int64_t j = 0; j < n; j++)                                                       \
      for (int64_t i = 0; i < n; i++) {                                                   \
        int64_t lo = i < j ? i : j, hi = i < j ? j : i;                                   \
        s[i + j * n] = upper ? a[lo + hi * lda] : a[hi + lo * lda];                       \
      }                                                                                   \
    int64_t info = syjac_##SUF(n, s, v);                                                  \
    for (int64_t j = 0; j < n; j++) w[j] = s[j + j * n];                                  \
    for (int64_t j = 0; j < n; j++) { /* ascending, vectors along */                      \
      int64_t b = j;                                                                      \
      for (int64_t k = j + 1; k < n; k++)                                                 \
        if (w[k] < w[b]) b = k;                                                           \
      if (b != j) {                                                                       \
        T t = w[j];                                                                       \
        w[j] = w[b];                                                                      \
        w[b] = t;                                                                         \
        for (int64_t k = 0; k < n; k++) {                                                 \
          T x = v[k + j * n];                                                             \
          v[k + j * n] = v[k + b * n];                                                    \
          v[k + b * n] = x;                                                               \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
    if (jobz == 'V' || jobz == 'v')                                                       \
      for (int64_t j = 0; j < n; j++)                                                     \
        for (int64_t i = 0; i < n; i++) a[i + j * lda] = v[i + j * n];                    \
    free(s);                                                                              \
    return info;                                                                          \
  }                                                                                       \
  /* Column j of the r x * matrix x (leading dimension r): a unit vector orthogonal to     \
   * columns 0..j-1 (orthonormal), from the unit vector with the largest remainder. */    \
  static void complete_##SUF(int64_t r, T *x, int64_t j, T *y) {                          \
    T best = -1;                                                                          \
    for (int64_t e = 0; e < r; e++) {                                                     \
      for (int64_t k = 0; k < r; k++) y[k] = k == e ? (T)1 : (T)0;                        \
      for (int pass = 0; pass < 2; pass++)                                                \
        for (int64_t c = 0; c < j; c++) {                                                 \
          T d = 0;                                                                        \
          for (int64_t k = 0; k < r; k++) d += x[k + c * r] * y[k];                       \
          for (int64_t k = 0; k < r; k++) y[k] -= d * x[k + c * r];                       \
        }                                                                                 \
      T nn = 0;                                                                           \
      for (int64_t k = 0; k < r; k++) nn += y[k] * y[k];                                  \
      if (nn > best) {                                                                    \
        best = nn;                                                                        \
        T inv = 1 / SQRT(nn);                                                             \
        for (int64_t k = 0; k < r; k++) x[k + j * r] = y[k] * inv;                        \
      }                                                                                   \
    }                                                                                     \
  }                                                                                       \
  /* One-sided Jacobi SVD of the m x n matrix a: s (min(m, n), descending); U's first      \
   * ucols columns into u (leading dimension ldu), V^T's first vrows rows into vt.        \
   * Jacobi runs on the columns of a, or of a^T when m < n (then U and V swap roles). */   \
  static __attribute__((noinline)) int64_t gesvd_##SUF(int64_t m, int64_t n, const T *a, int64_t lda, T *s, \
                                                        T *u, int64_t ldu, int64_t ucols, T *vt, int64_t ldvt, \
                                                        int64_t vrows) {                  \
    int tr = m < n;                                                                       \
    int64_t r = tr ? n : m, c = tr ? m : n; /* g: r x c, r >= c */                        \
    T *g = (T *)malloc((size_t)(r * r + c * c + r) * sizeof(T));                          \
    if (!g) return -1;                                                                    \
    T *w = g + r * r, *y = w + c * c; /* g has room for r columns (completion) */         \
    for (int64_t j = 0; j < c; j++)                                                       \
      for (int64_t i = 0; i < r; i++) g[i + j * r] = tr ? a[j + i * lda] : a[i + j * lda]; \
    for (int64_t j = 0; j < c; j++)                                                       \
      for (int64_t i = 0; i < c; i++) w[i + j * c] = i == j ? (T)1 : (T)0;                \
    int64_t info = 1, extra = 0;                                                          \
    for (int sweep = 0; sweep < 100 && info; sweep++) {                                   \
      T worst = 0;                                                                        \
      for (int64_t p = 0; p < c; p++)                                                     \
        for (int64_t q = p + 1; q < c; q++) {                                             \
          T al = 0, be = 0, ga = 0;                                                       \
          for (int64_t k = 0; k < r; k++) {                                               \
            al += g[k + p * r] * g[k + p * r];                                            \
            be += g[k + q * r] * g[k + q * r];                                            \
            ga += g[k + p * r] * g[k + q * r];                                            \
          }                                                                               \
          if (ga == 0 && al == be) continue;                                              \
          T rel = ga * ga / (al * be);                                                    \
          if (rel > worst) worst = rel;                                                   \
          T t = rot_##SUF(al, be, ga);                                                    \
          T cs = 1 / SQRT(1 + t * t), sn = t * cs;                                        \
          rotcols_##SUF(r, g, r, p, q, cs, sn);                                           \
          rotcols_##SUF(c, w, c, p, q, cs, sn);                                           \
        }                                                                                 \
      if (!(worst > EPS * EPS) && ++extra > 2) info = 0;                                  \
    }                                                                                     \
    for (int64_t j = 0; j < c; j++) {                                                     \
      T nn = 0;                                                                           \
      for (int64_t k = 0; k < r; k++) nn += g[k + j * r] * g[k + j * r];                  \
      s[j] = SQRT(nn);                                                                    \
    }                                                                                     \
    for (int64_t j = 0; j < c; j++) { /* descending, vectors along */                     \
      int64_t b = j;                                                                      \
      for (int64_t k = j + 1; k < c; k++)                                                 \
        if (s[k] > s[b]) b = k;                                                           \
      if (b != j) {                                                                       \
        T t = s[j];                                                                       \
        s[j] = s[b];                                                                      \
        s[b] = t;                                                                         \
        for (int64_t k = 0; k < r; k++) {                                                 \
          T x = g[k + j * r];                                                             \
          g[k + j * r] = g[k + b * r];                                                    \
          g[k + b * r] = x;                                                               \
        }                                                                                 \
        for (int64_t k = 0; k < c; k++) {                                                 \
          T x = w[k + j * c];                                                             \
          w[k + j * c] = w[k + b * c];                                                    \
          w[k + b * c] = x;                                                               \
        }                                                                                 \
      }                                                                                   \
    }                                                                                     \
    /* The left vectors (of a, or of a^T): g's columns over their norms. */               \
    int64_t lcols = tr ? vrows : ucols;                                                   \
    if (lcols < c) lcols = c;                                                             \
    for (int64_t j = 0; j < lcols; j++) {                                                 \
      if (j < c && s[j] > 0)                                                              \
        for (int64_t k = 0; k < r; k++) g[k + j * r] /= s[j];                             \
      else                                                                                \
        complete_##SUF(r, g, j, y);                                                       \
    }                                                                                     \
    /* U = g (r = m) or w (c = m); V = w or g. */                                         \
    for (int64_t j = 0; j < ucols; j++)                                                   \
      for (int64_t i = 0; i < m; i++) u[i + j * ldu] = tr ? w[i + j * c] : g[i + j * r];  \
    for (int64_t j = 0; j < n; j++)                                                       \
      for (int64_t i = 0; i < vrows; i++) vt[i + j * ldvt] = tr ? g[j + i * r] : w[j + i * c]; \
    free(g);                                                                              \
    return info;                                                                          \
  }                                                                                       \
  /* dgelsd: the minimum-norm least-squares solution of a x = b (b: ldb x nrhs, m rows    \
   * in, n rows out), through the SVD; s gets the singular values, *rank the number above \
   * rcond * s[0]. For a full-rank m > n system, rows n..m-1 of b get U_perp^T b, whose   \
   * sum of squares numba reports as the residual. */                                     \
  static __attribute__((noinline)) int64_t gelsd_##SUF(int64_t m, int64_t n, int64_t nrhs, const T *a, int64_t lda, \
                                                        T *b, int64_t ldb, T *s, double rcond, F_INT *rank) { \
    int64_t k = m < n ? m : n;                                                            \
    T *u = (T *)malloc((size_t)(m * m + k * n + m) * sizeof(T));                          \
    if (!u) return -1;                                                                    \
    T *vt = u + m * m, *z = vt + k * n;                                                   \
    int64_t info = gesvd_##SUF(m, n, a, lda, s, u, m, m, vt, k, k);                       \
    T tol = (T)(rcond < 0 ? (double)EPS : rcond) * s[0];                                  \
    int64_t rk = 0;                                                                       \
    while (rk < k && s[rk] > tol) rk++;                                                   \
    *rank = (F_INT)rk;                                                                    \
    for (int64_t c = 0; c < nrhs; c++) {                                                  \
      T *x = b + c * ldb;                                                                 \
      for (int64_t i = 0; i < m; i++) { /* z = U^T b */                                   \
        T d = 0;                                                                          \
        for (int64_t l = 0; l < m; l++) d += u[l + i * m] * x[l];                         \
        z[i] = d;                                                                         \
      }                                                                                   \
      for (int64_t j = 0; j < n; j++) { /* x = V diag(1/s) z, rank terms */               \
        T d = 0;                                                                          \
        for (int64_t i = 0; i < rk; i++) d += vt[i + j * k] * (z[i] / s[i]);              \
        x[j] = d;                                                                         \
      }                                                                                   \
      for (int64_t i = n; i < m; i++) x[i] = z[i];                                        \
    }                                                                                     \
    free(u);                                                                              \
    return info;                                                                          \
  }

DEFINE_JACOBI(double, d, __builtin_sqrt, 2.220446049250313e-16)
DEFINE_JACOBI(float, s, __builtin_sqrtf, 1.1920929e-07f)

int numba_ez_xxxevd(char kind, char jobz, char uplo, int64_t n, void *a, int64_t lda, void *w) {
  if (KIND_D(kind)) return (int)syevd_d(jobz, uplo, n, (double *)a, lda, (double *)w);
  if (KIND_S(kind)) return (int)syevd_s(jobz, uplo, n, (float *)a, lda, (float *)w);
  return -1;
}

int numba_ez_gesdd(char kind, char jobz, int64_t m, int64_t n, void *a, int64_t lda, void *s, void *u,
                   int64_t ldu, void *vt, int64_t ldvt) {
  int64_t k = m < n ? m : n;
  int64_t ucols = jobz == 'A' ? m : jobz == 'S' ? k : 0, vrows = jobz == 'A' ? n : jobz == 'S' ? k : 0;
  if (jobz != 'A' && jobz != 'S' && jobz != 'N') return -1;
  if (KIND_D(kind)) return (int)gesvd_d(m, n, (const double *)a, lda, (double *)s, (double *)u, ldu, ucols,
                                       (double *)vt, ldvt, vrows);
  if (KIND_S(kind)) return (int)gesvd_s(m, n, (const float *)a, lda, (float *)s, (float *)u, ldu, ucols,
                                       (float *)vt, ldvt, vrows);
  return -1;
}

int numba_ez_gelsd(char kind, int64_t m, int64_t n, int64_t nrhs, void *a, int64_t lda, void *b, int64_t ldb,
                   void *s, double rcond, F_INT *rank) {
  if (KIND_D(kind)) return (int)gelsd_d(m, n, nrhs, (const double *)a, lda, (double *)b, ldb, (double *)s, rcond, rank);
  if (KIND_S(kind)) return (int)gelsd_s(m, n, nrhs, (const float *)a, lda, (float *)b, ldb, (float *)s, rcond, rank);
  return -1;
}

/* numba's reshape helper (numba/_helperlib.c) computes strides from shapes: integers
 * only, so its calls carry no derivative (np.linalg.solve reshapes its right-hand side). */
extern int numba_attempt_nocopy_reshape(int64_t nd, const int64_t *dims, const int64_t *strides,
                                        int64_t newnd, const int64_t *newdims, int64_t *newstrides,
                                        int64_t itemsize, int is_f_order);
void *__enzyme_inactivefn[] = {(void *)numba_attempt_nocopy_reshape};

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
  if (kind == 'd') return (int)getrf_d(m, n, (double *)a, lda, ipiv);
  if (kind == 's') return (int)getrf_s(m, n, (float *)a, lda, ipiv);
  return -1;
}

int numba_xgesv(char kind, int64_t n, int64_t nrhs, void *a, int64_t lda, F_INT *ipiv, void *b,
                int64_t ldb) {
  int64_t info;
  if (kind == 'd') {
    info = getrf_d(n, n, (double *)a, lda, ipiv);
    if (info == 0) getrs_d(n, nrhs, (const double *)a, lda, ipiv, (double *)b, ldb);
    return (int)info;
  }
  if (kind == 's') {
    info = getrf_s(n, n, (float *)a, lda, ipiv);
    if (info == 0) getrs_s(n, nrhs, (const float *)a, lda, ipiv, (float *)b, ldb);
    return (int)info;
  }
  return -1;
}

int numba_ez_xxgetri(char kind, int64_t n, void *a, int64_t lda, F_INT *ipiv) {
  if (kind == 'd') return (int)getri_d(n, (double *)a, lda, ipiv);
  if (kind == 's') return (int)getri_s(n, (float *)a, lda, ipiv);
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
  if (kind == 'd') return (int)potrf_d(uplo, n, (double *)a, lda);
  if (kind == 's') return (int)potrf_s(uplo, n, (float *)a, lda);
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
  if (kind == 'd') return geqrf_d(m, n, (double *)a, lda, (double *)tau), 0;
  if (kind == 's') return geqrf_s(m, n, (float *)a, lda, (float *)tau), 0;
  return -1;
}

int numba_ez_xxgqr(char kind, int64_t m, int64_t n, int64_t k, void *a, int64_t lda, void *tau) {
  if (kind == 'd') return orgqr_d(m, n, k, (double *)a, lda, (const double *)tau), 0;
  if (kind == 's') return orgqr_s(m, n, k, (float *)a, lda, (const float *)tau), 0;
  return -1;
}

/* numba's reshape helper (numba/_helperlib.c) computes strides from shapes: integers
 * only, so its calls carry no derivative (np.linalg.solve reshapes its right-hand side). */
extern int numba_attempt_nocopy_reshape(int64_t nd, const int64_t *dims, const int64_t *strides,
                                        int64_t newnd, const int64_t *newdims, int64_t *newstrides,
                                        int64_t itemsize, int is_f_order);
void *__enzyme_inactivefn[] = {(void *)numba_attempt_nocopy_reshape};

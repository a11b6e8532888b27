/* Definitions of numba's BLAS helpers that Ferrozyme can differentiate.
 *
 * numba runs np.dot and the @ operator on float arrays through `numba_xxdot` (vector .
 * vector), `numba_xxgemv` (matrix . vector) and `numba_xxgemm` (matrix . matrix), and
 * np.linalg.norm's 2-norm of vectors through `numba_xxnrm2` (numba/_lapack.c), which call SciPy's BLAS through function pointers: no IR, no
 * derivative rule. When a specialization calls them, ferrozyme/numba.py links this
 * file's IR into the module (llvm-link-22) before `ferrozyme opt`, as it does with
 * numba_lapack.c, so the pass differentiates these loops instead. They follow the
 * contracts numba calls them with, for real kinds ('d' double, 's' float): unit
 * increments, column-major storage with leading dimensions (numba passes C-order arrays
 * as their transposes), `trans` 'n' or 't', `alpha` and `beta` through pointers to one
 * element, `beta == 0` overwriting `y`/`c` without reading it (BLAS's rule: NaN there
 * does not propagate). Complex kinds return -1 (numba then stops: they carry no real
 * derivative anyway).
 *
 * These are the plain loops (BLAS's reference definition): results agree with an
 * optimized BLAS to rounding, slower for large matrices (njit code differentiated here
 * multiplies small ones). The per-kind functions stay out of line, as in
 * numba_lapack.c: one `void *` read as double and as float in one body would leave type
 * analysis unable to type its memory.
 */
#include <math.h>
#include <stdint.h>

#include "numba_shim_kinds.h"

#define DEFINE_BLAS(T, SUF, SQRT)                                                           \
  static __attribute__((noinline)) T dot_##SUF(int64_t n, const T *x, const T *y) {         \
    T s = 0;                                                                                \
    for (int64_t i = 0; i < n; i++) s += x[i] * y[i];                                       \
    return s;                                                                               \
  }                                                                                         \
  /* |x|_2 scaled by max |x_i| as BLAS's nrm2 (no overflow for large entries); 0 for n < 1 \
   * or incx < 1, as BLAS. Between changes of the largest entry the scale cancels, so the  \
   * derivative is x / |x|; at x = 0 the branch gives 0. */                                \
  static __attribute__((noinline)) T nrm2_##SUF(int64_t n, const T *x, int64_t incx) {      \
    if (n < 1 || incx < 1) return 0;                                                        \
    T scale = 0;                                                                            \
    for (int64_t i = 0; i < n; i++) {                                                       \
      T v = x[i * incx] < 0 ? -x[i * incx] : x[i * incx];                                   \
      if (v > scale) scale = v;                                                             \
    }                                                                                       \
    if (scale == 0) return 0;                                                               \
    T s = 0;                                                                                \
    for (int64_t i = 0; i < n; i++) {                                                       \
      T r = x[i * incx] / scale;                                                            \
      s += r * r;                                                                           \
    }                                                                                       \
    return scale * SQRT(s);                                                                 \
  }                                                                                         \
  /* y = alpha op(A) x + beta y, A m x n column-major (op(A) = A or its transpose). */      \
  static __attribute__((noinline)) void gemv_##SUF(char trans, int64_t m, int64_t n,        \
                                                   const T *alpha, const T *a, int64_t lda, \
                                                   const T *x, const T *beta, T *y) {       \
    int t = trans == 't' || trans == 'T' || trans == 'c' || trans == 'C';                   \
    int64_t leny = t ? n : m, lenx = t ? m : n;                                             \
    for (int64_t i = 0; i < leny; i++) {                                                    \
      T s = 0;                                                                              \
      for (int64_t j = 0; j < lenx; j++) s += (t ? a[j + i * lda] : a[i + j * lda]) * x[j]; \
      y[i] = *beta == 0 ? *alpha * s : *alpha * s + *beta * y[i];                           \
    }                                                                                       \
  }                                                                                         \
  /* C = alpha op(A) op(B) + beta C, op(A) m x k, op(B) k x n, all column-major. */         \
  static __attribute__((noinline)) void gemm_##SUF(char transa, char transb, int64_t m,     \
                                                   int64_t n, int64_t k, const T *alpha,    \
                                                   const T *a, int64_t lda, const T *b,     \
                                                   int64_t ldb, const T *beta, T *c,        \
                                                   int64_t ldc) {                           \
    int ta = transa == 't' || transa == 'T' || transa == 'c' || transa == 'C';              \
    int tb = transb == 't' || transb == 'T' || transb == 'c' || transb == 'C';              \
    for (int64_t j = 0; j < n; j++)                                                         \
      for (int64_t i = 0; i < m; i++) {                                                     \
        T s = 0;                                                                            \
        for (int64_t l = 0; l < k; l++)                                                     \
          s += (ta ? a[l + i * lda] : a[i + l * lda]) * (tb ? b[j + l * ldb] : b[l + j * ldb]); \
        c[i + j * ldc] = *beta == 0 ? *alpha * s : *alpha * s + *beta * c[i + j * ldc];     \
      }                                                                                     \
  }

DEFINE_BLAS(double, d, sqrt)
DEFINE_BLAS(float, s, sqrtf)

int numba_xxdot(char kind, char conjugate, int64_t n, void *dx, void *dy, void *result) {
  (void)conjugate; /* real kinds: conjugation is the identity */
  if (KIND_D(kind)) {
    *(double *)result = dot_d(n, (const double *)dx, (const double *)dy);
    return 0;
  }
  if (KIND_S(kind)) {
    *(float *)result = dot_s(n, (const float *)dx, (const float *)dy);
    return 0;
  }
  return -1;
}

int numba_xxgemv(char kind, char trans, int64_t m, int64_t n, void *alpha, void *a, int64_t lda,
                 void *x, void *beta, void *y) {
  if (KIND_D(kind)) {
    gemv_d(trans, m, n, (const double *)alpha, (const double *)a, lda, (const double *)x,
           (const double *)beta, (double *)y);
    return 0;
  }
  if (KIND_S(kind)) {
    gemv_s(trans, m, n, (const float *)alpha, (const float *)a, lda, (const float *)x,
           (const float *)beta, (float *)y);
    return 0;
  }
  return -1;
}

int numba_xxgemm(char kind, char transa, char transb, int64_t m, int64_t n, int64_t k, void *alpha,
                 void *a, int64_t lda, void *b, int64_t ldb, void *beta, void *c, int64_t ldc) {
  if (KIND_D(kind)) {
    gemm_d(transa, transb, m, n, k, (const double *)alpha, (const double *)a, lda,
           (const double *)b, ldb, (const double *)beta, (double *)c, ldc);
    return 0;
  }
  if (KIND_S(kind)) {
    gemm_s(transa, transb, m, n, k, (const float *)alpha, (const float *)a, lda,
           (const float *)b, ldb, (const float *)beta, (float *)c, ldc);
    return 0;
  }
  return -1;
}

int numba_xxnrm2(char kind, int64_t n, void *x, int64_t incx, void *result) {
  if (KIND_D(kind)) {
    *(double *)result = nrm2_d(n, (const double *)x, incx);
    return 0;
  }
  if (KIND_S(kind)) {
    *(float *)result = nrm2_s(n, (const float *)x, incx);
    return 0;
  }
  return -1;
}

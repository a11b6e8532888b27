/* Ferrozyme's derivative rules for BLAS and LAPACK, compiled to rules.ll by
 * tools/gen_blas_rules.sh and linked into modules that call these functions
 * (crates/ferrozyme-transform/src/custom/blas.rs).
 *
 * For each supported function `f` there are three entry points in the convention of
 * registered derivatives (custom/convention.rs), with one extra leading parameter:
 *
 *   __fz_blas_aug_<f>(mask, args...)           runs f, caches what the reverse needs,
 *                                              returns the tape (and f's result);
 *   __fz_blas_rev_<f>(mask, args..., [dr,] tape) adds to the shadows, returns the
 *                                              adjoints of f's float scalar arguments;
 *   __fz_blas_fwd_<f>(mask, args...)           f and its tangent.
 *
 * `args` are f's arguments, each pointer followed by its shadow (NULL when the memory
 * has none: constant at the call), and in forward mode each float scalar followed by its
 * tangent (0 when constant). `mask` has bit k set when f's argument k is active at the
 * call, which tells a float scalar without a shadow (alpha, beta) whether its adjoint is
 * wanted: caching for it is skipped otherwise.
 *
 * Fortran entry points (`ddot_` ...) take every argument by reference; the scalars they
 * point to (sizes, strides, flags, alpha, beta) are read once, when f runs, and kept in
 * the tape for the reverse. Complex types, banded and packed formats are not covered.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef int blasint;

enum { RowMajor = 101, ColMajor = 102 };
enum { NoTrans = 111, Trans = 112, ConjTrans = 113, ConjNoTrans = 114 };

#define FZ_CAT2(a, b) a##b
#define FZ_CAT(a, b) FZ_CAT2(a, b)

/* ---- the kernels, for double and float ------------------------------------------------ */
#define T double
#define FN(x) FZ_CAT(d, x)
#define FZ(x) FZ_CAT(__fz_blas_d_, x)
#include "rules.h"
#undef T
#undef FN
#undef FZ

#define T float
#define FN(x) FZ_CAT(s, x)
#define FZ(x) FZ_CAT(__fz_blas_s_, x)
#include "rules.h"
#undef T
#undef FN
#undef FZ

static char __fz_blas_trans(int t) { return (t == NoTrans || t == ConjNoTrans) ? 'N' : 'T'; }
static char __fz_blas_flipc(char t) { return (t == 'N' || t == 'n') ? 'T' : 'N'; }
static char __fz_blas_up(const char *c) { return (*c == 'U' || *c == 'u') ? 'U' : 'L'; }
static char __fz_blas_tr(const char *c) { return (*c == 'N' || *c == 'n') ? 'N' : 'T'; }

#define BIT(k) ((mask >> (k)) & 1ul)

/* ---- the entry points, for double (d) and float (s) ------------------------------------ */
#define ENTRY_POINTS(T, P)                                                                    \
  typedef struct { void *tape; T r; } __fz_blas_##P##_ret;                                    \
  typedef struct { T r, d; } __fz_blas_##P##_pair;                                            \
  typedef struct { T alpha, beta; } __fz_blas_##P##_ab;                                       \
                                                                                              \
  /* cblas_?dot(n, x, incx, y, incy) */                                                       \
  __fz_blas_##P##_ret __fz_blas_aug_cblas_##P##dot(unsigned long mask, blasint n, const T *x, \
                                                   T *dx, blasint incx, const T *y, T *dy,   \
                                                   blasint incy) {                           \
    __fz_blas_##P##_ret o;                                                                    \
    (void)mask;                                                                               \
    o.tape = __fz_blas_##P##_dot_aug(n, x, dx, incx, y, dy, incy, &o.r);                      \
    return o;                                                                                 \
  }                                                                                           \
  void __fz_blas_rev_cblas_##P##dot(unsigned long mask, blasint n, const T *x, T *dx,         \
                                    blasint incx, const T *y, T *dy, blasint incy, T dr,     \
                                    void *tape) {                                             \
    (void)mask, (void)x, (void)y;                                                             \
    __fz_blas_##P##_dot_rev(n, dx, incx, dy, incy, dr, tape);                                 \
  }                                                                                           \
  __fz_blas_##P##_pair __fz_blas_fwd_cblas_##P##dot(unsigned long mask, blasint n, const T *x,\
                                                    const T *dx, blasint incx, const T *y,   \
                                                    const T *dy, blasint incy) {             \
    __fz_blas_##P##_pair o;                                                                   \
    (void)mask;                                                                               \
    o.d = __fz_blas_##P##_dot_fwd(n, x, dx, incx, y, dy, incy, &o.r);                         \
    return o;                                                                                 \
  }                                                                                           \
  /* ?dot_(n*, x, incx*, y, incy*) */                                                         \
  typedef struct { void *inner; blasint n, incx, incy; } __fz_blas_##P##_fdot;                \
  __fz_blas_##P##_ret __fz_blas_aug_##P##dot_(unsigned long mask, const blasint *n,           \
                                              const blasint *dn, const T *x, T *dx,           \
                                              const blasint *incx, const blasint *dincx,      \
                                              const T *y, T *dy, const blasint *incy,         \
                                              const blasint *dincy) {                         \
    __fz_blas_##P##_ret o;                                                                    \
    __fz_blas_##P##_fdot *t = (__fz_blas_##P##_fdot *)malloc(sizeof *t);                      \
    (void)mask, (void)dn, (void)dincx, (void)dincy;                                           \
    t->n = *n, t->incx = *incx, t->incy = *incy;                                              \
    t->inner = __fz_blas_##P##_dot_aug(t->n, x, dx, t->incx, y, dy, t->incy, &o.r);           \
    o.tape = t;                                                                               \
    return o;                                                                                 \
  }                                                                                           \
  void __fz_blas_rev_##P##dot_(unsigned long mask, const blasint *n, const blasint *dn,       \
                               const T *x, T *dx, const blasint *incx, const blasint *dincx, \
                               const T *y, T *dy, const blasint *incy, const blasint *dincy, \
                               T dr, void *tape) {                                            \
    __fz_blas_##P##_fdot *t = (__fz_blas_##P##_fdot *)tape;                                   \
    (void)mask, (void)n, (void)dn, (void)x, (void)incx, (void)dincx, (void)y, (void)incy,     \
        (void)dincy;                                                                          \
    __fz_blas_##P##_dot_rev(t->n, dx, t->incx, dy, t->incy, dr, t->inner);                    \
    free(t);                                                                                  \
  }                                                                                           \
  __fz_blas_##P##_pair __fz_blas_fwd_##P##dot_(unsigned long mask, const blasint *n,          \
                                               const blasint *dn, const T *x, const T *dx,    \
                                               const blasint *incx, const blasint *dincx,     \
                                               const T *y, const T *dy, const blasint *incy,  \
                                               const blasint *dincy) {                        \
    __fz_blas_##P##_pair o;                                                                   \
    (void)mask, (void)dn, (void)dincx, (void)dincy;                                           \
    o.d = __fz_blas_##P##_dot_fwd(*n, x, dx, *incx, y, dy, *incy, &o.r);                      \
    return o;                                                                                 \
  }                                                                                           \
                                                                                              \
  /* cblas_?axpy(n, alpha, x, incx, y, incy) */                                               \
  void *__fz_blas_aug_cblas_##P##axpy(unsigned long mask, blasint n, T a, const T *x, T *dx,  \
                                      blasint incx, T *y, T *dy, blasint incy) {              \
    (void)dx;                                                                                 \
    return __fz_blas_##P##_axpy_aug(BIT(1), n, a, x, incx, y, dy, incy);                      \
  }                                                                                           \
  T __fz_blas_rev_cblas_##P##axpy(unsigned long mask, blasint n, T a, const T *x, T *dx,      \
                                  blasint incx, T *y, T *dy, blasint incy, void *tape) {      \
    (void)mask, (void)x, (void)y;                                                             \
    return __fz_blas_##P##_axpy_rev(n, a, dx, incx, dy, incy, tape);                          \
  }                                                                                           \
  void __fz_blas_fwd_cblas_##P##axpy(unsigned long mask, blasint n, T a, T da, const T *x,    \
                                     const T *dx, blasint incx, T *y, T *dy, blasint incy) {  \
    (void)mask;                                                                               \
    __fz_blas_##P##_axpy_fwd(n, a, da, x, dx, incx, y, dy, incy);                             \
  }                                                                                           \
  /* ?axpy_(n*, alpha*, x, incx*, y, incy*) */                                                \
  typedef struct { void *inner; blasint n, incx, incy; T a; } __fz_blas_##P##_faxpy;          \
  void *__fz_blas_aug_##P##axpy_(unsigned long mask, const blasint *n, const blasint *dn,     \
                                 const T *a, T *da, const T *x, T *dx, const blasint *incx,   \
                                 const blasint *dincx, T *y, T *dy, const blasint *incy,      \
                                 const blasint *dincy) {                                      \
    __fz_blas_##P##_faxpy *t = (__fz_blas_##P##_faxpy *)malloc(sizeof *t);                    \
    (void)mask, (void)dn, (void)dx, (void)dincx, (void)dincy;                                 \
    t->n = *n, t->incx = *incx, t->incy = *incy, t->a = *a;                                   \
    t->inner = __fz_blas_##P##_axpy_aug(da != 0, t->n, t->a, x, t->incx, y, dy, t->incy);     \
    return t;                                                                                 \
  }                                                                                           \
  void __fz_blas_rev_##P##axpy_(unsigned long mask, const blasint *n, const blasint *dn,      \
                                const T *a, T *da, const T *x, T *dx, const blasint *incx,    \
                                const blasint *dincx, T *y, T *dy, const blasint *incy,       \
                                const blasint *dincy, void *tape) {                           \
    __fz_blas_##P##_faxpy *t = (__fz_blas_##P##_faxpy *)tape;                                 \
    (void)mask, (void)n, (void)dn, (void)a, (void)x, (void)incx, (void)dincx, (void)y,        \
        (void)incy, (void)dincy;                                                              \
    T g = __fz_blas_##P##_axpy_rev(t->n, t->a, dx, t->incx, dy, t->incy, t->inner);           \
    if (da) *da += g;                                                                         \
    free(t);                                                                                  \
  }                                                                                           \
  void __fz_blas_fwd_##P##axpy_(unsigned long mask, const blasint *n, const blasint *dn,      \
                                const T *a, const T *da, const T *x, const T *dx,             \
                                const blasint *incx, const blasint *dincx, T *y, T *dy,       \
                                const blasint *incy, const blasint *dincy) {                  \
    (void)mask, (void)dn, (void)dincx, (void)dincy;                                           \
    __fz_blas_##P##_axpy_fwd(*n, *a, da ? *da : 0, x, dx, *incx, y, dy, *incy);               \
  }                                                                                           \
                                                                                              \
  /* cblas_?copy(n, x, incx, y, incy) */                                                      \
  void *__fz_blas_aug_cblas_##P##copy(unsigned long mask, blasint n, const T *x, T *dx,       \
                                      blasint incx, T *y, T *dy, blasint incy) {             \
    (void)mask, (void)dx, (void)dy;                                                           \
    __fz_blas_##P##_copy_aug(n, x, incx, y, incy);                                            \
    return 0;                                                                                 \
  }                                                                                           \
  void __fz_blas_rev_cblas_##P##copy(unsigned long mask, blasint n, const T *x, T *dx,        \
                                     blasint incx, T *y, T *dy, blasint incy, void *tape) {  \
    (void)mask, (void)x, (void)y, (void)tape;                                                 \
    __fz_blas_##P##_copy_rev(n, dx, incx, dy, incy);                                          \
  }                                                                                           \
  void __fz_blas_fwd_cblas_##P##copy(unsigned long mask, blasint n, const T *x, const T *dx,  \
                                     blasint incx, T *y, T *dy, blasint incy) {              \
    (void)mask;                                                                               \
    __fz_blas_##P##_copy_fwd(n, x, dx, incx, y, dy, incy);                                    \
  }                                                                                           \
  /* ?copy_(n*, x, incx*, y, incy*) */                                                        \
  typedef struct { blasint n, incx, incy; } __fz_blas_##P##_fcopy;                            \
  void *__fz_blas_aug_##P##copy_(unsigned long mask, const blasint *n, const blasint *dn,     \
                                 const T *x, T *dx, const blasint *incx,                      \
                                 const blasint *dincx, T *y, T *dy, const blasint *incy,      \
                                 const blasint *dincy) {                                      \
    __fz_blas_##P##_fcopy *t = (__fz_blas_##P##_fcopy *)malloc(sizeof *t);                    \
    (void)mask, (void)dn, (void)dx, (void)dincx, (void)dy, (void)dincy;                       \
    t->n = *n, t->incx = *incx, t->incy = *incy;                                              \
    __fz_blas_##P##_copy_aug(t->n, x, t->incx, y, t->incy);                                   \
    return t;                                                                                 \
  }                                                                                           \
  void __fz_blas_rev_##P##copy_(unsigned long mask, const blasint *n, const blasint *dn,      \
                                const T *x, T *dx, const blasint *incx,                       \
                                const blasint *dincx, T *y, T *dy, const blasint *incy,       \
                                const blasint *dincy, void *tape) {                           \
    __fz_blas_##P##_fcopy *t = (__fz_blas_##P##_fcopy *)tape;                                 \
    (void)mask, (void)n, (void)dn, (void)x, (void)incx, (void)dincx, (void)y, (void)incy;     \
    (void)dincy;                                                                              \
    __fz_blas_##P##_copy_rev(t->n, dx, t->incx, dy, t->incy);                                 \
    free(t);                                                                                  \
  }                                                                                           \
  void __fz_blas_fwd_##P##copy_(unsigned long mask, const blasint *n, const blasint *dn,      \
                                const T *x, const T *dx, const blasint *incx,                 \
                                const blasint *dincx, T *y, T *dy, const blasint *incy,       \
                                const blasint *dincy) {                                       \
    (void)mask, (void)dn, (void)dincx, (void)dincy;                                           \
    __fz_blas_##P##_copy_fwd(*n, x, dx, *incx, y, dy, *incy);                                 \
  }                                                                                           \
                                                                                              \
  /* cblas_?scal(n, alpha, x, incx) */                                                        \
  void *__fz_blas_aug_cblas_##P##scal(unsigned long mask, blasint n, T a, T *x, T *dx,        \
                                      blasint incx) {                                         \
    return __fz_blas_##P##_scal_aug(BIT(1), n, a, x, dx, incx);                               \
  }                                                                                           \
  T __fz_blas_rev_cblas_##P##scal(unsigned long mask, blasint n, T a, T *x, T *dx,            \
                                  blasint incx, void *tape) {                                 \
    (void)mask, (void)x;                                                                      \
    return __fz_blas_##P##_scal_rev(n, a, dx, incx, tape);                                    \
  }                                                                                           \
  void __fz_blas_fwd_cblas_##P##scal(unsigned long mask, blasint n, T a, T da, T *x, T *dx,   \
                                     blasint incx) {                                          \
    (void)mask;                                                                               \
    __fz_blas_##P##_scal_fwd(n, a, da, x, dx, incx);                                          \
  }                                                                                           \
  /* ?scal_(n*, alpha*, x, incx*) */                                                          \
  typedef struct { void *inner; blasint n, incx; T a; } __fz_blas_##P##_fscal;                \
  void *__fz_blas_aug_##P##scal_(unsigned long mask, const blasint *n, const blasint *dn,     \
                                 const T *a, T *da, T *x, T *dx, const blasint *incx,         \
                                 const blasint *dincx) {                                      \
    __fz_blas_##P##_fscal *t = (__fz_blas_##P##_fscal *)malloc(sizeof *t);                    \
    (void)mask, (void)dn, (void)dincx;                                                        \
    t->n = *n, t->incx = *incx, t->a = *a;                                                    \
    t->inner = __fz_blas_##P##_scal_aug(da != 0, t->n, t->a, x, dx, t->incx);                 \
    return t;                                                                                 \
  }                                                                                           \
  void __fz_blas_rev_##P##scal_(unsigned long mask, const blasint *n, const blasint *dn,      \
                                const T *a, T *da, T *x, T *dx, const blasint *incx,          \
                                const blasint *dincx, void *tape) {                           \
    __fz_blas_##P##_fscal *t = (__fz_blas_##P##_fscal *)tape;                                 \
    (void)mask, (void)n, (void)dn, (void)a, (void)x, (void)incx, (void)dincx;                 \
    T g = __fz_blas_##P##_scal_rev(t->n, t->a, dx, t->incx, t->inner);                        \
    if (da) *da += g;                                                                         \
    free(t);                                                                                  \
  }                                                                                           \
  void __fz_blas_fwd_##P##scal_(unsigned long mask, const blasint *n, const blasint *dn,      \
                                const T *a, const T *da, T *x, T *dx, const blasint *incx,    \
                                const blasint *dincx) {                                       \
    (void)mask, (void)dn, (void)dincx;                                                        \
    __fz_blas_##P##_scal_fwd(*n, *a, da ? *da : 0, x, dx, *incx);                             \
  }                                                                                           \
                                                                                              \
  /* cblas_?nrm2(n, x, incx) */                                                               \
  __fz_blas_##P##_ret __fz_blas_aug_cblas_##P##nrm2(unsigned long mask, blasint n,           \
                                                    const T *x, T *dx, blasint incx) {       \
    __fz_blas_##P##_ret o;                                                                    \
    (void)mask;                                                                               \
    o.tape = __fz_blas_##P##_nrm2_aug(n, x, dx, incx, &o.r);                                  \
    return o;                                                                                 \
  }                                                                                           \
  void __fz_blas_rev_cblas_##P##nrm2(unsigned long mask, blasint n, const T *x, T *dx,        \
                                     blasint incx, T dr, void *tape) {                        \
    (void)mask, (void)x;                                                                      \
    __fz_blas_##P##_nrm2_rev(n, dx, incx, dr, tape);                                          \
  }                                                                                           \
  __fz_blas_##P##_pair __fz_blas_fwd_cblas_##P##nrm2(unsigned long mask, blasint n,          \
                                                     const T *x, const T *dx, blasint incx) { \
    __fz_blas_##P##_pair o;                                                                   \
    (void)mask;                                                                               \
    o.d = __fz_blas_##P##_nrm2_fwd(n, x, dx, incx, &o.r);                                     \
    return o;                                                                                 \
  }                                                                                           \
  /* ?nrm2_(n*, x, incx*) */                                                                  \
  typedef struct { void *inner; blasint n, incx; } __fz_blas_##P##_fnrm2;                     \
  __fz_blas_##P##_ret __fz_blas_aug_##P##nrm2_(unsigned long mask, const blasint *n,          \
                                               const blasint *dn, const T *x, T *dx,          \
                                               const blasint *incx, const blasint *dincx) {   \
    __fz_blas_##P##_ret o;                                                                    \
    __fz_blas_##P##_fnrm2 *t = (__fz_blas_##P##_fnrm2 *)malloc(sizeof *t);                    \
    (void)mask, (void)dn, (void)dincx;                                                        \
    t->n = *n, t->incx = *incx;                                                               \
    t->inner = __fz_blas_##P##_nrm2_aug(t->n, x, dx, t->incx, &o.r);                          \
    o.tape = t;                                                                               \
    return o;                                                                                 \
  }                                                                                           \
  void __fz_blas_rev_##P##nrm2_(unsigned long mask, const blasint *n, const blasint *dn,      \
                                const T *x, T *dx, const blasint *incx, const blasint *dincx, \
                                T dr, void *tape) {                                           \
    __fz_blas_##P##_fnrm2 *t = (__fz_blas_##P##_fnrm2 *)tape;                                 \
    (void)mask, (void)n, (void)dn, (void)x, (void)incx, (void)dincx;                          \
    __fz_blas_##P##_nrm2_rev(t->n, dx, t->incx, dr, t->inner);                                \
    free(t);                                                                                  \
  }                                                                                           \
  __fz_blas_##P##_pair __fz_blas_fwd_##P##nrm2_(unsigned long mask, const blasint *n,         \
                                                const blasint *dn, const T *x, const T *dx,   \
                                                const blasint *incx, const blasint *dincx) {  \
    __fz_blas_##P##_pair o;                                                                   \
    (void)mask, (void)dn, (void)dincx;                                                        \
    o.d = __fz_blas_##P##_nrm2_fwd(*n, x, dx, *incx, &o.r);                                   \
    return o;                                                                                 \
  }                                                                                           \
                                                                                              \
  /* cblas_?gemv(layout, trans, m, n, alpha, A, lda, x, incx, beta, y, incy): row-major is   \
   * the column-major transpose (the other trans, m and n swapped). */                        \
  void *__fz_blas_aug_cblas_##P##gemv(unsigned long mask, int layout, int trans, blasint m,   \
                                      blasint n, T alpha, const T *a, T *da, blasint lda,     \
                                      const T *x, T *dx, blasint incx, T beta, T *y, T *dy,   \
                                      blasint incy) {                                         \
    char t = __fz_blas_trans(trans);                                                          \
    if (layout == RowMajor)                                                                   \
      return __fz_blas_##P##_gemv_aug(BIT(4), BIT(9), __fz_blas_flipc(t), n, m, alpha, a, da, \
                                      lda, x, dx, incx, beta, y, dy, incy);                   \
    return __fz_blas_##P##_gemv_aug(BIT(4), BIT(9), t, m, n, alpha, a, da, lda, x, dx, incx,  \
                                    beta, y, dy, incy);                                       \
  }                                                                                           \
  __fz_blas_##P##_ab __fz_blas_rev_cblas_##P##gemv(                                           \
      unsigned long mask, int layout, int trans, blasint m, blasint n, T alpha, const T *a,   \
      T *da, blasint lda, const T *x, T *dx, blasint incx, T beta, T *y, T *dy, blasint incy, \
      void *tape) {                                                                           \
    __fz_blas_##P##_ab o;                                                                     \
    char t = __fz_blas_trans(trans);                                                          \
    (void)mask, (void)a, (void)x, (void)y;                                                    \
    if (layout == RowMajor)                                                                   \
      __fz_blas_##P##_gemv_rev(__fz_blas_flipc(t), n, m, alpha, da, lda, dx, incx, beta, dy,  \
                               incy, &o.alpha, &o.beta, tape);                                \
    else                                                                                      \
      __fz_blas_##P##_gemv_rev(t, m, n, alpha, da, lda, dx, incx, beta, dy, incy, &o.alpha,   \
                               &o.beta, tape);                                                \
    return o;                                                                                 \
  }                                                                                           \
  void __fz_blas_fwd_cblas_##P##gemv(unsigned long mask, int layout, int trans, blasint m,    \
                                     blasint n, T alpha, T dalpha, const T *a, const T *da,   \
                                     blasint lda, const T *x, const T *dx, blasint incx,      \
                                     T beta, T dbeta, T *y, T *dy, blasint incy) {            \
    char t = __fz_blas_trans(trans);                                                          \
    (void)mask;                                                                               \
    if (layout == RowMajor)                                                                   \
      __fz_blas_##P##_gemv_fwd(__fz_blas_flipc(t), n, m, alpha, dalpha, a, da, lda, x, dx,    \
                               incx, beta, dbeta, y, dy, incy);                               \
    else                                                                                      \
      __fz_blas_##P##_gemv_fwd(t, m, n, alpha, dalpha, a, da, lda, x, dx, incx, beta, dbeta,  \
                               y, dy, incy);                                                  \
  }                                                                                           \
  /* ?gemv_(trans*, m*, n*, alpha*, A, lda*, x, incx*, beta*, y, incy*) */                   \
  typedef struct {                                                                            \
    void *inner;                                                                              \
    blasint m, n, lda, incx, incy;                                                            \
    T alpha, beta;                                                                            \
    char t;                                                                                   \
  } __fz_blas_##P##_fgemv;                                                                    \
  void *__fz_blas_aug_##P##gemv_(                                                             \
      unsigned long mask, const char *tr, const char *dtr, const blasint *m,                  \
      const blasint *dm, const blasint *n, const blasint *dn, const T *alpha, T *dalpha,      \
      const T *a, T *da, const blasint *lda, const blasint *dlda, const T *x, T *dx,          \
      const blasint *incx, const blasint *dincx, const T *beta, T *dbeta, T *y, T *dy,        \
      const blasint *incy, const blasint *dincy) {                                            \
    __fz_blas_##P##_fgemv *t = (__fz_blas_##P##_fgemv *)malloc(sizeof *t);                    \
    (void)mask, (void)dtr, (void)dm, (void)dn, (void)dlda, (void)dincx, (void)dincy;          \
    t->t = __fz_blas_tr(tr), t->m = *m, t->n = *n, t->lda = *lda, t->incx = *incx;            \
    t->incy = *incy, t->alpha = *alpha, t->beta = *beta;                                      \
    t->inner = __fz_blas_##P##_gemv_aug(dalpha != 0, dbeta != 0, t->t, t->m, t->n, t->alpha,  \
                                        a, da, t->lda, x, dx, t->incx, t->beta, y, dy,        \
                                        t->incy);                                             \
    return t;                                                                                 \
  }                                                                                           \
  void __fz_blas_rev_##P##gemv_(                                                              \
      unsigned long mask, const char *tr, const char *dtr, const blasint *m,                  \
      const blasint *dm, const blasint *n, const blasint *dn, const T *alpha, T *dalpha,      \
      const T *a, T *da, const blasint *lda, const blasint *dlda, const T *x, T *dx,          \
      const blasint *incx, const blasint *dincx, const T *beta, T *dbeta, T *y, T *dy,        \
      const blasint *incy, const blasint *dincy, void *tape) {                                \
    __fz_blas_##P##_fgemv *t = (__fz_blas_##P##_fgemv *)tape;                                 \
    T ga, gb;                                                                                 \
    (void)mask, (void)tr, (void)dtr, (void)m, (void)dm, (void)n, (void)dn, (void)alpha;       \
    (void)a, (void)lda, (void)dlda, (void)x, (void)incx, (void)dincx, (void)beta, (void)y;    \
    (void)incy, (void)dincy;                                                                  \
    __fz_blas_##P##_gemv_rev(t->t, t->m, t->n, t->alpha, da, t->lda, dx, t->incx, t->beta,    \
                             dy, t->incy, &ga, &gb, t->inner);                                \
    if (dalpha) *dalpha += ga;                                                                \
    if (dbeta) *dbeta += gb;                                                                  \
    free(t);                                                                                  \
  }                                                                                           \
  void __fz_blas_fwd_##P##gemv_(                                                              \
      unsigned long mask, const char *tr, const char *dtr, const blasint *m,                  \
      const blasint *dm, const blasint *n, const blasint *dn, const T *alpha,                 \
      const T *dalpha, const T *a, const T *da, const blasint *lda, const blasint *dlda,      \
      const T *x, const T *dx, const blasint *incx, const blasint *dincx, const T *beta,      \
      const T *dbeta, T *y, T *dy, const blasint *incy, const blasint *dincy) {               \
    (void)mask, (void)dtr, (void)dm, (void)dn, (void)dlda, (void)dincx, (void)dincy;          \
    __fz_blas_##P##_gemv_fwd(__fz_blas_tr(tr), *m, *n, *alpha, dalpha ? *dalpha : 0, a, da,   \
                             *lda, x, dx, *incx, *beta, dbeta ? *dbeta : 0, y, dy, *incy);    \
  }                                                                                           \
                                                                                              \
  /* cblas_?ger(layout, m, n, alpha, x, incx, y, incy, A, lda): row-major is the            \
   * column-major A^T += alpha y x^T (m and n, x and y swapped). */                           \
  void *__fz_blas_aug_cblas_##P##ger(unsigned long mask, int layout, blasint m, blasint n,    \
                                     T alpha, const T *x, T *dx, blasint incx, const T *y,    \
                                     T *dy, blasint incy, T *a, T *da, blasint lda) {         \
    if (layout == RowMajor)                                                                   \
      return __fz_blas_##P##_ger_aug(BIT(3), n, m, alpha, y, dy, incy, x, dx, incx, a, da,    \
                                     lda);                                                    \
    return __fz_blas_##P##_ger_aug(BIT(3), m, n, alpha, x, dx, incx, y, dy, incy, a, da, lda); \
  }                                                                                           \
  T __fz_blas_rev_cblas_##P##ger(unsigned long mask, int layout, blasint m, blasint n,        \
                                 T alpha, const T *x, T *dx, blasint incx, const T *y, T *dy, \
                                 blasint incy, T *a, T *da, blasint lda, void *tape) {        \
    (void)mask, (void)x, (void)y, (void)a;                                                    \
    if (layout == RowMajor)                                                                   \
      return __fz_blas_##P##_ger_rev(n, m, alpha, dy, incy, dx, incx, da, lda, tape);         \
    return __fz_blas_##P##_ger_rev(m, n, alpha, dx, incx, dy, incy, da, lda, tape);           \
  }                                                                                           \
  void __fz_blas_fwd_cblas_##P##ger(unsigned long mask, int layout, blasint m, blasint n,     \
                                    T alpha, T dalpha, const T *x, const T *dx, blasint incx, \
                                    const T *y, const T *dy, blasint incy, T *a, T *da,       \
                                    blasint lda) {                                            \
    (void)mask;                                                                               \
    if (layout == RowMajor)                                                                   \
      __fz_blas_##P##_ger_fwd(n, m, alpha, dalpha, y, dy, incy, x, dx, incx, a, da, lda);     \
    else                                                                                      \
      __fz_blas_##P##_ger_fwd(m, n, alpha, dalpha, x, dx, incx, y, dy, incy, a, da, lda);     \
  }                                                                                           \
                                                                                              \
  /* cblas_?gemm(layout, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc): row-major C  \
   * = alpha op(A) op(B) + beta C is column-major C^T = alpha op(B)^T op(A)^T + beta C^T. */ \
  void *__fz_blas_aug_cblas_##P##gemm(unsigned long mask, int layout, int ta, int tb,         \
                                      blasint m, blasint n, blasint k, T alpha, const T *a,   \
                                      T *da, blasint lda, const T *b, T *db, blasint ldb,     \
                                      T beta, T *c, T *dc, blasint ldc) {                     \
    char A = __fz_blas_trans(ta), B = __fz_blas_trans(tb);                                    \
    if (layout == RowMajor)                                                                   \
      return __fz_blas_##P##_gemm_aug(BIT(6), BIT(11), B, A, n, m, k, alpha, b, db, ldb, a,   \
                                      da, lda, beta, c, dc, ldc);                             \
    return __fz_blas_##P##_gemm_aug(BIT(6), BIT(11), A, B, m, n, k, alpha, a, da, lda, b, db, \
                                    ldb, beta, c, dc, ldc);                                   \
  }                                                                                           \
  __fz_blas_##P##_ab __fz_blas_rev_cblas_##P##gemm(                                           \
      unsigned long mask, int layout, int ta, int tb, blasint m, blasint n, blasint k,        \
      T alpha, const T *a, T *da, blasint lda, const T *b, T *db, blasint ldb, T beta, T *c,  \
      T *dc, blasint ldc, void *tape) {                                                       \
    __fz_blas_##P##_ab o;                                                                     \
    char A = __fz_blas_trans(ta), B = __fz_blas_trans(tb);                                    \
    (void)mask, (void)a, (void)b, (void)c;                                                    \
    if (layout == RowMajor)                                                                   \
      __fz_blas_##P##_gemm_rev(B, A, n, m, k, alpha, db, ldb, da, lda, beta, dc, ldc,         \
                               &o.alpha, &o.beta, tape);                                      \
    else                                                                                      \
      __fz_blas_##P##_gemm_rev(A, B, m, n, k, alpha, da, lda, db, ldb, beta, dc, ldc,         \
                               &o.alpha, &o.beta, tape);                                      \
    return o;                                                                                 \
  }                                                                                           \
  void __fz_blas_fwd_cblas_##P##gemm(unsigned long mask, int layout, int ta, int tb,          \
                                     blasint m, blasint n, blasint k, T alpha, T dalpha,      \
                                     const T *a, const T *da, blasint lda, const T *b,        \
                                     const T *db, blasint ldb, T beta, T dbeta, T *c, T *dc,  \
                                     blasint ldc) {                                           \
    char A = __fz_blas_trans(ta), B = __fz_blas_trans(tb);                                    \
    (void)mask;                                                                               \
    if (layout == RowMajor)                                                                   \
      __fz_blas_##P##_gemm_fwd(B, A, n, m, k, alpha, dalpha, b, db, ldb, a, da, lda, beta,    \
                               dbeta, c, dc, ldc);                                            \
    else                                                                                      \
      __fz_blas_##P##_gemm_fwd(A, B, m, n, k, alpha, dalpha, a, da, lda, b, db, ldb, beta,    \
                               dbeta, c, dc, ldc);                                            \
  }                                                                                           \
  /* ?gemm_(ta*, tb*, m*, n*, k*, alpha*, A, lda*, B, ldb*, beta*, C, ldc*) */               \
  typedef struct {                                                                            \
    void *inner;                                                                              \
    blasint m, n, k, lda, ldb, ldc;                                                           \
    T alpha, beta;                                                                            \
    char ta, tb;                                                                              \
  } __fz_blas_##P##_fgemm;                                                                    \
  void *__fz_blas_aug_##P##gemm_(                                                             \
      unsigned long mask, const char *ta, const char *dta, const char *tb, const char *dtb,   \
      const blasint *m, const blasint *dm, const blasint *n, const blasint *dn,               \
      const blasint *k, const blasint *dk, const T *alpha, T *dalpha, const T *a, T *da,      \
      const blasint *lda, const blasint *dlda, const T *b, T *db, const blasint *ldb,         \
      const blasint *dldb, const T *beta, T *dbeta, T *c, T *dc, const blasint *ldc,          \
      const blasint *dldc) {                                                                  \
    __fz_blas_##P##_fgemm *t = (__fz_blas_##P##_fgemm *)malloc(sizeof *t);                    \
    (void)mask, (void)dta, (void)dtb, (void)dm, (void)dn, (void)dk, (void)dlda, (void)dldb;   \
    (void)dldc;                                                                               \
    t->ta = __fz_blas_tr(ta), t->tb = __fz_blas_tr(tb), t->m = *m, t->n = *n, t->k = *k;      \
    t->lda = *lda, t->ldb = *ldb, t->ldc = *ldc, t->alpha = *alpha, t->beta = *beta;          \
    t->inner = __fz_blas_##P##_gemm_aug(dalpha != 0, dbeta != 0, t->ta, t->tb, t->m, t->n,    \
                                        t->k, t->alpha, a, da, t->lda, b, db, t->ldb,         \
                                        t->beta, c, dc, t->ldc);                              \
    return t;                                                                                 \
  }                                                                                           \
  void __fz_blas_rev_##P##gemm_(                                                              \
      unsigned long mask, const char *ta, const char *dta, const char *tb, const char *dtb,   \
      const blasint *m, const blasint *dm, const blasint *n, const blasint *dn,               \
      const blasint *k, const blasint *dk, const T *alpha, T *dalpha, const T *a, T *da,      \
      const blasint *lda, const blasint *dlda, const T *b, T *db, const blasint *ldb,         \
      const blasint *dldb, const T *beta, T *dbeta, T *c, T *dc, const blasint *ldc,          \
      const blasint *dldc, void *tape) {                                                      \
    __fz_blas_##P##_fgemm *t = (__fz_blas_##P##_fgemm *)tape;                                 \
    T ga, gb;                                                                                 \
    (void)mask, (void)ta, (void)dta, (void)tb, (void)dtb, (void)m, (void)dm, (void)n;         \
    (void)dn, (void)k, (void)dk, (void)alpha, (void)a, (void)lda, (void)dlda, (void)b;        \
    (void)ldb, (void)dldb, (void)beta, (void)c, (void)ldc, (void)dldc;                        \
    __fz_blas_##P##_gemm_rev(t->ta, t->tb, t->m, t->n, t->k, t->alpha, da, t->lda, db,        \
                             t->ldb, t->beta, dc, t->ldc, &ga, &gb, t->inner);                \
    if (dalpha) *dalpha += ga;                                                                \
    if (dbeta) *dbeta += gb;                                                                  \
    free(t);                                                                                  \
  }                                                                                           \
  void __fz_blas_fwd_##P##gemm_(                                                              \
      unsigned long mask, const char *ta, const char *dta, const char *tb, const char *dtb,   \
      const blasint *m, const blasint *dm, const blasint *n, const blasint *dn,               \
      const blasint *k, const blasint *dk, const T *alpha, const T *dalpha, const T *a,       \
      const T *da, const blasint *lda, const blasint *dlda, const T *b, const T *db,          \
      const blasint *ldb, const blasint *dldb, const T *beta, const T *dbeta, T *c, T *dc,    \
      const blasint *ldc, const blasint *dldc) {                                              \
    (void)mask, (void)dta, (void)dtb, (void)dm, (void)dn, (void)dk, (void)dlda, (void)dldb;   \
    (void)dldc;                                                                               \
    __fz_blas_##P##_gemm_fwd(__fz_blas_tr(ta), __fz_blas_tr(tb), *m, *n, *k, *alpha,          \
                             dalpha ? *dalpha : 0, a, da, *lda, b, db, *ldb, *beta,           \
                             dbeta ? *dbeta : 0, c, dc, *ldc);                                \
  }                                                                                           \
                                                                                              \
  /* ?potrf_(uplo*, n*, A, lda*, info*) */                                                    \
  typedef struct { void *inner; blasint n, lda; char uplo; } __fz_blas_##P##_fpotrf;          \
  void *__fz_blas_aug_##P##potrf_(unsigned long mask, const char *uplo, const char *duplo,    \
                                  const blasint *n, const blasint *dn, T *a, T *da,           \
                                  const blasint *lda, const blasint *dlda, blasint *info,     \
                                  blasint *dinfo) {                                           \
    __fz_blas_##P##_fpotrf *t = (__fz_blas_##P##_fpotrf *)malloc(sizeof *t);                  \
    (void)mask, (void)duplo, (void)dn, (void)dlda, (void)dinfo;                               \
    t->uplo = __fz_blas_up(uplo), t->n = *n, t->lda = *lda;                                   \
    t->inner = __fz_blas_##P##_potrf_aug(t->uplo, t->n, a, da, t->lda, info);                 \
    return t;                                                                                 \
  }                                                                                           \
  void __fz_blas_rev_##P##potrf_(unsigned long mask, const char *uplo, const char *duplo,     \
                                 const blasint *n, const blasint *dn, T *a, T *da,            \
                                 const blasint *lda, const blasint *dlda, blasint *info,      \
                                 blasint *dinfo, void *tape) {                                \
    __fz_blas_##P##_fpotrf *t = (__fz_blas_##P##_fpotrf *)tape;                               \
    (void)mask, (void)uplo, (void)duplo, (void)n, (void)dn, (void)a, (void)lda, (void)dlda;   \
    (void)info, (void)dinfo;                                                                  \
    __fz_blas_##P##_potrf_rev(t->uplo, t->n, da, t->lda, t->inner);                           \
    free(t);                                                                                  \
  }                                                                                           \
  void __fz_blas_fwd_##P##potrf_(unsigned long mask, const char *uplo, const char *duplo,     \
                                 const blasint *n, const blasint *dn, T *a, T *da,            \
                                 const blasint *lda, const blasint *dlda, blasint *info,      \
                                 blasint *dinfo) {                                            \
    (void)mask, (void)duplo, (void)dn, (void)dlda, (void)dinfo;                               \
    __fz_blas_##P##_potrf_fwd(__fz_blas_up(uplo), *n, a, da, *lda, info);                     \
  }                                                                                           \
                                                                                              \
  /* ?potrs_(uplo*, n*, nrhs*, A, lda*, B, ldb*, info*) */                                    \
  typedef struct {                                                                            \
    void *inner;                                                                              \
    blasint n, nrhs, lda, ldb;                                                                \
    char uplo;                                                                                \
  } __fz_blas_##P##_fpotrs;                                                                   \
  void *__fz_blas_aug_##P##potrs_(unsigned long mask, const char *uplo, const char *duplo,    \
                                  const blasint *n, const blasint *dn, const blasint *nrhs,   \
                                  const blasint *dnrhs, const T *a, T *da,                    \
                                  const blasint *lda, const blasint *dlda, T *b, T *db,       \
                                  const blasint *ldb, const blasint *dldb, blasint *info,     \
                                  blasint *dinfo) {                                           \
    __fz_blas_##P##_fpotrs *t = (__fz_blas_##P##_fpotrs *)malloc(sizeof *t);                  \
    (void)mask, (void)duplo, (void)dn, (void)dnrhs, (void)dlda, (void)dldb, (void)dinfo;      \
    t->uplo = __fz_blas_up(uplo), t->n = *n, t->nrhs = *nrhs, t->lda = *lda, t->ldb = *ldb;   \
    t->inner = __fz_blas_##P##_potrs_aug(t->uplo, t->n, t->nrhs, a, da, t->lda, b, db,        \
                                         t->ldb, info);                                       \
    return t;                                                                                 \
  }                                                                                           \
  void __fz_blas_rev_##P##potrs_(unsigned long mask, const char *uplo, const char *duplo,     \
                                 const blasint *n, const blasint *dn, const blasint *nrhs,    \
                                 const blasint *dnrhs, const T *a, T *da, const blasint *lda, \
                                 const blasint *dlda, T *b, T *db, const blasint *ldb,        \
                                 const blasint *dldb, blasint *info, blasint *dinfo,          \
                                 void *tape) {                                                \
    __fz_blas_##P##_fpotrs *t = (__fz_blas_##P##_fpotrs *)tape;                               \
    (void)mask, (void)uplo, (void)duplo, (void)n, (void)dn, (void)nrhs, (void)dnrhs, (void)a; \
    (void)lda, (void)dlda, (void)b, (void)ldb, (void)dldb, (void)info, (void)dinfo;           \
    __fz_blas_##P##_potrs_rev(t->uplo, t->n, t->nrhs, da, t->lda, db, t->ldb, t->inner);      \
    free(t);                                                                                  \
  }                                                                                           \
  void __fz_blas_fwd_##P##potrs_(unsigned long mask, const char *uplo, const char *duplo,     \
                                 const blasint *n, const blasint *dn, const blasint *nrhs,    \
                                 const blasint *dnrhs, const T *a, const T *da,               \
                                 const blasint *lda, const blasint *dlda, T *b, T *db,        \
                                 const blasint *ldb, const blasint *dldb, blasint *info,      \
                                 blasint *dinfo) {                                            \
    (void)mask, (void)duplo, (void)dn, (void)dnrhs, (void)dlda, (void)dldb, (void)dinfo;      \
    __fz_blas_##P##_potrs_fwd(__fz_blas_up(uplo), *n, *nrhs, a, da, *lda, b, db, *ldb, info); \
  }

ENTRY_POINTS(double, d)
ENTRY_POINTS(float, s)

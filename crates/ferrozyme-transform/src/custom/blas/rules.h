/* Derivative rules of BLAS and LAPACK functions, written once for a real type T and
 * included by rules.c for double (prefix d) and float (prefix s). See rules.c for the
 * calling convention; every rule calls BLAS again (a derivative of gemm is gemms).
 *
 * The kernels are column-major and take Fortran-style character flags ('N', 'T');
 * CBLAS row-major calls are mapped to column-major ones (a row-major matrix is the
 * transpose of a column-major one with the same leading dimension). Vectors keep their
 * strides (negative ones included: every BLAS call below uses the caller's stride, and
 * cached copies are in BLAS's logical order with stride 1). */

/* ---- Fortran BLAS/LAPACK entry points the rules call -------------------------------- */
extern T FN(dot_)(const blasint *, const T *, const blasint *, const T *, const blasint *);
extern void FN(axpy_)(const blasint *, const T *, const T *, const blasint *, T *,
                      const blasint *);
extern void FN(scal_)(const blasint *, const T *, T *, const blasint *);
extern void FN(copy_)(const blasint *, const T *, const blasint *, T *, const blasint *);
extern T FN(nrm2_)(const blasint *, const T *, const blasint *);
extern void FN(gemv_)(const char *, const blasint *, const blasint *, const T *, const T *,
                      const blasint *, const T *, const blasint *, const T *, T *,
                      const blasint *);
extern void FN(ger_)(const blasint *, const blasint *, const T *, const T *, const blasint *,
                     const T *, const blasint *, T *, const blasint *);
extern void FN(gemm_)(const char *, const char *, const blasint *, const blasint *,
                      const blasint *, const T *, const T *, const blasint *, const T *,
                      const blasint *, const T *, T *, const blasint *);
extern void FN(trsm_)(const char *, const char *, const char *, const char *, const blasint *,
                      const blasint *, const T *, const T *, const blasint *, T *,
                      const blasint *);
extern void FN(trmm_)(const char *, const char *, const char *, const char *, const blasint *,
                      const blasint *, const T *, const T *, const blasint *, T *,
                      const blasint *);
extern void FN(potrf_)(const char *, const blasint *, T *, const blasint *, blasint *);
extern void FN(potrs_)(const char *, const blasint *, const blasint *, const T *,
                       const blasint *, T *, const blasint *, blasint *);

/* ---- small helpers ------------------------------------------------------------------- */

/* A copy of n elements of x (stride incx) with stride 1, in BLAS's logical order. */
static T *FZ(copy_vec)(blasint n, const T *x, blasint incx) {
  if (n <= 0) return NULL;
  T *c = (T *)malloc(sizeof(T) * (size_t)n);
  blasint one = 1;
  FN(copy_)(&n, x, &incx, c, &one);
  return c;
}

/* A compact copy (leading dimension max(1, rows)) of a column-major rows x cols matrix. */
static T *FZ(copy_mat)(blasint rows, blasint cols, const T *a, blasint lda) {
  if (rows <= 0 || cols <= 0) return NULL;
  T *c = (T *)malloc(sizeof(T) * (size_t)rows * (size_t)cols);
  for (blasint j = 0; j < cols; j++)
    memcpy(c + (size_t)j * rows, a + (size_t)j * lda, sizeof(T) * (size_t)rows);
  return c;
}

static blasint FZ(ld)(blasint rows) { return rows > 1 ? rows : 1; }

static char FZ(flip)(char t) { return (t == 'N' || t == 'n') ? 'T' : 'N'; }

static int FZ(notrans)(char t) { return t == 'N' || t == 'n'; }

/* Sum of a(i,j) * b(i,j) over a rows x cols block of two column-major matrices. */
static T FZ(frob)(blasint rows, blasint cols, const T *a, blasint lda, const T *b, blasint ldb) {
  T s = 0;
  for (blasint j = 0; j < cols; j++)
    for (blasint i = 0; i < rows; i++) s += a[i + (size_t)j * lda] * b[i + (size_t)j * ldb];
  return s;
}

/* a := s a over a rows x cols block (exact zeros for s == 0, as BLAS's beta == 0). */
static void FZ(scale_mat)(blasint rows, blasint cols, T s, T *a, blasint lda) {
  for (blasint j = 0; j < cols; j++)
    for (blasint i = 0; i < rows; i++)
      a[i + (size_t)j * lda] = s == 0 ? 0 : s * a[i + (size_t)j * lda];
}

/* x := s x over n elements with stride incx (exact zeros for s == 0). */
static void FZ(scale_vec)(blasint n, T s, T *x, blasint incx) {
  if (n <= 0) return;
  if (s == 0) {
    blasint step = incx < 0 ? -incx : incx;
    for (blasint i = 0; i < n; i++) x[(size_t)i * step] = 0;
    return;
  }
  FN(scal_)(&n, &s, x, &incx);
}

/* ---- dot: r = x . y ------------------------------------------------------------------ */

typedef struct { T *x, *y; } FZ(dot_tape);

static void *FZ(dot_aug)(blasint n, const T *x, T *dx, blasint incx, const T *y, T *dy,
                         blasint incy, T *r) {
  FZ(dot_tape) *t = (FZ(dot_tape) *)calloc(1, sizeof *t);
  if (dy) t->x = FZ(copy_vec)(n, x, incx);
  if (dx) t->y = FZ(copy_vec)(n, y, incy);
  *r = FN(dot_)(&n, x, &incx, y, &incy);
  return t;
}

static void FZ(dot_rev)(blasint n, T *dx, blasint incx, T *dy, blasint incy, T dr, void *tape) {
  FZ(dot_tape) *t = (FZ(dot_tape) *)tape;
  blasint one = 1;
  if (n > 0 && dx && t->y) FN(axpy_)(&n, &dr, t->y, &one, dx, &incx);
  if (n > 0 && dy && t->x) FN(axpy_)(&n, &dr, t->x, &one, dy, &incy);
  free(t->x);
  free(t->y);
  free(t);
}

static T FZ(dot_fwd)(blasint n, const T *x, const T *dx, blasint incx, const T *y,
                     const T *dy, blasint incy, T *r) {
  *r = FN(dot_)(&n, x, &incx, y, &incy);
  T d = 0;
  if (dx) d += FN(dot_)(&n, dx, &incx, y, &incy);
  if (dy) d += FN(dot_)(&n, x, &incx, dy, &incy);
  return d;
}

/* ---- axpy: y += a x ------------------------------------------------------------------ */

static void *FZ(axpy_aug)(int a_active, blasint n, T a, const T *x, blasint incx, T *y,
                          T *dy, blasint incy) {
  T *xc = (a_active && dy) ? FZ(copy_vec)(n, x, incx) : NULL;
  if (n > 0) FN(axpy_)(&n, &a, x, &incx, y, &incy);
  return xc;
}

/* Returns da. */
static T FZ(axpy_rev)(blasint n, T a, T *dx, blasint incx, T *dy, blasint incy, void *tape) {
  T *xc = (T *)tape;
  T da = 0;
  blasint one = 1;
  if (n > 0 && dy) {
    if (dx) FN(axpy_)(&n, &a, dy, &incy, dx, &incx);
    if (xc) da = FN(dot_)(&n, xc, &one, dy, &incy);
  }
  free(xc);
  return da;
}

static void FZ(axpy_fwd)(blasint n, T a, T da, const T *x, const T *dx, blasint incx, T *y,
                         T *dy, blasint incy) {
  if (n <= 0) return;
  if (dy) {
    if (dx) FN(axpy_)(&n, &a, dx, &incx, dy, &incy);
    if (da != 0) FN(axpy_)(&n, &da, x, &incx, dy, &incy);
  }
  FN(axpy_)(&n, &a, x, &incx, y, &incy);
}

/* ---- copy: y = x ---------------------------------------------------------------------- */

static void FZ(copy_aug)(blasint n, const T *x, blasint incx, T *y, blasint incy) {
  if (n > 0) FN(copy_)(&n, x, &incx, y, &incy);
}

/* dx += dy, then dy = 0 (y's old value is gone). */
static void FZ(copy_rev)(blasint n, T *dx, blasint incx, T *dy, blasint incy) {
  T one = 1;
  if (n <= 0 || !dy) return;
  if (dx) FN(axpy_)(&n, &one, dy, &incy, dx, &incx);
  FZ(scale_vec)(n, 0, dy, incy);
}

static void FZ(copy_fwd)(blasint n, const T *x, const T *dx, blasint incx, T *y, T *dy,
                         blasint incy) {
  if (n <= 0) return;
  if (dy) {
    if (dx)
      FN(copy_)(&n, dx, &incx, dy, &incy);
    else
      FZ(scale_vec)(n, 0, dy, incy);
  }
  FN(copy_)(&n, x, &incx, y, &incy);
}

/* ---- scal: x *= a -------------------------------------------------------------------- */

static void *FZ(scal_aug)(int a_active, blasint n, T a, T *x, T *dx, blasint incx) {
  T *xc = (a_active && dx) ? FZ(copy_vec)(n, x, incx) : NULL;
  FZ(scale_vec)(n, a, x, incx);
  return xc;
}

static T FZ(scal_rev)(blasint n, T a, T *dx, blasint incx, void *tape) {
  T *xc = (T *)tape;
  T da = 0;
  blasint one = 1;
  if (n > 0 && dx) {
    if (xc) da = FN(dot_)(&n, xc, &one, dx, &incx);
    FZ(scale_vec)(n, a, dx, incx);
  }
  free(xc);
  return da;
}

static void FZ(scal_fwd)(blasint n, T a, T da, T *x, T *dx, blasint incx) {
  if (n > 0 && dx) {
    FZ(scale_vec)(n, a, dx, incx);
    if (da != 0) FN(axpy_)(&n, &da, x, &incx, dx, &incx);
  }
  FZ(scale_vec)(n, a, x, incx);
}

/* ---- nrm2: r = |x| ------------------------------------------------------------------- */

typedef struct { T *x; T r; } FZ(nrm2_tape);

static void *FZ(nrm2_aug)(blasint n, const T *x, T *dx, blasint incx, T *r) {
  FZ(nrm2_tape) *t = (FZ(nrm2_tape) *)calloc(1, sizeof *t);
  *r = FN(nrm2_)(&n, x, &incx);
  t->r = *r;
  if (dx) t->x = FZ(copy_vec)(n, x, incx);
  return t;
}

static void FZ(nrm2_rev)(blasint n, T *dx, blasint incx, T dr, void *tape) {
  FZ(nrm2_tape) *t = (FZ(nrm2_tape) *)tape;
  blasint one = 1;
  /* The derivative at x = 0 is taken as 0 (a subgradient). */
  if (n > 0 && dx && t->x && t->r != 0) {
    T s = dr / t->r;
    FN(axpy_)(&n, &s, t->x, &one, dx, &incx);
  }
  free(t->x);
  free(t);
}

static T FZ(nrm2_fwd)(blasint n, const T *x, const T *dx, blasint incx, T *r) {
  *r = FN(nrm2_)(&n, x, &incx);
  if (!dx || *r == 0) return 0;
  return FN(dot_)(&n, x, &incx, dx, &incx) / *r;
}

/* ---- gemv (column-major): y = alpha op(A) x + beta y --------------------------------- */

typedef struct { T *a, *x, *y; blasint lda; } FZ(gemv_tape);

static void *FZ(gemv_aug)(int alpha_active, int beta_active, char tr, blasint m, blasint n,
                          T alpha, const T *a, T *da, blasint lda, const T *x, T *dx,
                          blasint incx, T beta, T *y, T *dy, blasint incy) {
  FZ(gemv_tape) *t = (FZ(gemv_tape) *)calloc(1, sizeof *t);
  blasint lenx = FZ(notrans)(tr) ? n : m, leny = FZ(notrans)(tr) ? m : n;
  if (dy) {
    if (dx || alpha_active) t->a = FZ(copy_mat)(m, n, a, lda);
    if (da || alpha_active) t->x = FZ(copy_vec)(lenx, x, incx);
    if (beta_active) t->y = FZ(copy_vec)(leny, y, incy);
  }
  t->lda = FZ(ld)(m);
  if (m > 0 && n > 0) FN(gemv_)(&tr, &m, &n, &alpha, a, &lda, x, &incx, &beta, y, &incy);
  else FZ(scale_vec)(leny, beta, y, incy);
  return t;
}

static void FZ(gemv_rev)(char tr, blasint m, blasint n, T alpha, T *da, blasint lda, T *dx,
                         blasint incx, T beta, T *dy, blasint incy, T *dalpha, T *dbeta,
                         void *tape) {
  FZ(gemv_tape) *t = (FZ(gemv_tape) *)tape;
  blasint leny = FZ(notrans)(tr) ? m : n, one = 1;
  T d1 = 1, d0 = 0;
  *dalpha = 0;
  *dbeta = 0;
  if (dy && leny > 0) {
    if (dx && t->a && m > 0 && n > 0) {
      char ft = FZ(flip)(tr);
      FN(gemv_)(&ft, &m, &n, &alpha, t->a, &t->lda, dy, &incy, &d1, dx, &incx);
    }
    if (da && t->x && m > 0 && n > 0) {
      if (FZ(notrans)(tr)) FN(ger_)(&m, &n, &alpha, dy, &incy, t->x, &one, da, &lda);
      else FN(ger_)(&m, &n, &alpha, t->x, &one, dy, &incy, da, &lda);
    }
    if (t->a && t->x && m > 0 && n > 0) {
      T *tmp = (T *)malloc(sizeof(T) * (size_t)leny);
      FN(gemv_)(&tr, &m, &n, &d1, t->a, &t->lda, t->x, &one, &d0, tmp, &one);
      *dalpha = FN(dot_)(&leny, dy, &incy, tmp, &one);
      free(tmp);
    }
    if (t->y) *dbeta = FN(dot_)(&leny, dy, &incy, t->y, &one);
    FZ(scale_vec)(leny, beta, dy, incy);
  }
  free(t->a);
  free(t->x);
  free(t->y);
  free(t);
}

static void FZ(gemv_fwd)(char tr, blasint m, blasint n, T alpha, T dalpha, const T *a,
                         const T *da, blasint lda, const T *x, const T *dx, blasint incx,
                         T beta, T dbeta, T *y, T *dy, blasint incy) {
  blasint leny = FZ(notrans)(tr) ? m : n;
  T d1 = 1;
  int mat = m > 0 && n > 0;
  if (dy && leny > 0) {
    FZ(scale_vec)(leny, beta, dy, incy);
    if (dbeta != 0) FN(axpy_)(&leny, &dbeta, y, &incy, dy, &incy);
    if (da && mat) FN(gemv_)(&tr, &m, &n, &alpha, da, &lda, x, &incx, &d1, dy, &incy);
    if (dx && mat) FN(gemv_)(&tr, &m, &n, &alpha, a, &lda, dx, &incx, &d1, dy, &incy);
    if (dalpha != 0 && mat) FN(gemv_)(&tr, &m, &n, &dalpha, a, &lda, x, &incx, &d1, dy, &incy);
  }
  if (mat) FN(gemv_)(&tr, &m, &n, &alpha, a, &lda, x, &incx, &beta, y, &incy);
  else FZ(scale_vec)(leny, beta, y, incy);
}

/* ---- ger (column-major): A += alpha x y^T ------------------------------------------------ */

typedef struct { T *x, *y; } FZ(ger_tape);

static void *FZ(ger_aug)(int alpha_active, blasint m, blasint n, T alpha, const T *x, T *dx,
                         blasint incx, const T *y, T *dy, blasint incy, T *a, T *da,
                         blasint lda) {
  FZ(ger_tape) *t = (FZ(ger_tape) *)calloc(1, sizeof *t);
  if (da && (dy || alpha_active)) t->x = FZ(copy_vec)(m, x, incx);
  if (da && (dx || alpha_active)) t->y = FZ(copy_vec)(n, y, incy);
  if (m > 0 && n > 0) FN(ger_)(&m, &n, &alpha, x, &incx, y, &incy, a, &lda);
  return t;
}

/* dx += alpha dA y, dy += alpha dA^T x; returns dalpha = x^T dA y. dA is unchanged. */
static T FZ(ger_rev)(blasint m, blasint n, T alpha, T *dx, blasint incx, T *dy, blasint incy,
                     const T *da, blasint lda, void *tape) {
  FZ(ger_tape) *t = (FZ(ger_tape) *)tape;
  T dalpha = 0, one = 1, zero = 0;
  blasint ione = 1;
  if (m > 0 && n > 0 && da) {
    if (dx && t->y) FN(gemv_)("N", &m, &n, &alpha, da, &lda, t->y, &ione, &one, dx, &incx);
    if (dy && t->x) FN(gemv_)("T", &m, &n, &alpha, da, &lda, t->x, &ione, &one, dy, &incy);
    if (t->x && t->y) {
      T *w = (T *)malloc(sizeof(T) * (size_t)m);
      FN(gemv_)("N", &m, &n, &one, da, &lda, t->y, &ione, &zero, w, &ione);
      dalpha = FN(dot_)(&m, t->x, &ione, w, &ione);
      free(w);
    }
  }
  free(t->x);
  free(t->y);
  free(t);
  return dalpha;
}

static void FZ(ger_fwd)(blasint m, blasint n, T alpha, T dalpha, const T *x, const T *dx,
                        blasint incx, const T *y, const T *dy, blasint incy, T *a, T *da,
                        blasint lda) {
  if (m <= 0 || n <= 0) return;
  if (da) {
    if (dx) FN(ger_)(&m, &n, &alpha, dx, &incx, y, &incy, da, &lda);
    if (dy) FN(ger_)(&m, &n, &alpha, x, &incx, dy, &incy, da, &lda);
    if (dalpha != 0) FN(ger_)(&m, &n, &dalpha, x, &incx, y, &incy, da, &lda);
  }
  FN(ger_)(&m, &n, &alpha, x, &incx, y, &incy, a, &lda);
}

/* ---- gemm (column-major): C = alpha op(A) op(B) + beta C ----------------------------- */

typedef struct { T *a, *b, *c; blasint lda, ldb; } FZ(gemm_tape);

static void *FZ(gemm_aug)(int alpha_active, int beta_active, char ta, char tb, blasint m,
                          blasint n, blasint k, T alpha, const T *a, T *da, blasint lda,
                          const T *b, T *db, blasint ldb, T beta, T *c, T *dc, blasint ldc) {
  FZ(gemm_tape) *t = (FZ(gemm_tape) *)calloc(1, sizeof *t);
  blasint ar = FZ(notrans)(ta) ? m : k, ac = FZ(notrans)(ta) ? k : m;
  blasint br = FZ(notrans)(tb) ? k : n, bc = FZ(notrans)(tb) ? n : k;
  if (dc) {
    if (db || alpha_active) t->a = FZ(copy_mat)(ar, ac, a, lda);
    if (da || alpha_active) t->b = FZ(copy_mat)(br, bc, b, ldb);
    if (beta_active) t->c = FZ(copy_mat)(m, n, c, ldc);
  }
  t->lda = FZ(ld)(ar);
  t->ldb = FZ(ld)(br);
  if (m > 0 && n > 0) {
    if (k > 0) FN(gemm_)(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
    else FZ(scale_mat)(m, n, beta, c, ldc);
  }
  return t;
}

static void FZ(gemm_rev)(char ta, char tb, blasint m, blasint n, blasint k, T alpha, T *da,
                         blasint lda, T *db, blasint ldb, T beta, T *dc, blasint ldc,
                         T *dalpha, T *dbeta, void *tape) {
  FZ(gemm_tape) *t = (FZ(gemm_tape) *)tape;
  T d1 = 1, d0 = 0;
  char N = 'N', Tr = 'T';
  *dalpha = 0;
  *dbeta = 0;
  if (dc && m > 0 && n > 0) {
    if (da && t->b && k > 0) {
      if (FZ(notrans)(ta)) {
        char ft = FZ(flip)(tb);
        FN(gemm_)(&N, &ft, &m, &k, &n, &alpha, dc, &ldc, t->b, &t->ldb, &d1, da, &lda);
      } else {
        FN(gemm_)(&tb, &Tr, &k, &m, &n, &alpha, t->b, &t->ldb, dc, &ldc, &d1, da, &lda);
      }
    }
    if (db && t->a && k > 0) {
      if (FZ(notrans)(tb)) {
        char ft = FZ(flip)(ta);
        FN(gemm_)(&ft, &N, &k, &n, &m, &alpha, t->a, &t->lda, dc, &ldc, &d1, db, &ldb);
      } else {
        FN(gemm_)(&Tr, &ta, &n, &k, &m, &alpha, dc, &ldc, t->a, &t->lda, &d1, db, &ldb);
      }
    }
    if (t->a && t->b && k > 0) {
      T *p = (T *)malloc(sizeof(T) * (size_t)m * (size_t)n);
      FN(gemm_)(&ta, &tb, &m, &n, &k, &d1, t->a, &t->lda, t->b, &t->ldb, &d0, p, &m);
      *dalpha = FZ(frob)(m, n, dc, ldc, p, m);
      free(p);
    }
    if (t->c) *dbeta = FZ(frob)(m, n, dc, ldc, t->c, m);
    FZ(scale_mat)(m, n, beta, dc, ldc);
  }
  free(t->a);
  free(t->b);
  free(t->c);
  free(t);
}

static void FZ(gemm_fwd)(char ta, char tb, blasint m, blasint n, blasint k, T alpha,
                         T dalpha, const T *a, const T *da, blasint lda, const T *b,
                         const T *db, blasint ldb, T beta, T dbeta, T *c, T *dc, blasint ldc) {
  T d1 = 1;
  if (m <= 0 || n <= 0) return;
  if (dc) {
    FZ(scale_mat)(m, n, beta, dc, ldc);
    if (dbeta != 0)
      for (blasint j = 0; j < n; j++)
        for (blasint i = 0; i < m; i++)
          dc[i + (size_t)j * ldc] += dbeta * c[i + (size_t)j * ldc];
    if (k > 0) {
      if (da) FN(gemm_)(&ta, &tb, &m, &n, &k, &alpha, da, &lda, b, &ldb, &d1, dc, &ldc);
      if (db) FN(gemm_)(&ta, &tb, &m, &n, &k, &alpha, a, &lda, db, &ldb, &d1, dc, &ldc);
      if (dalpha != 0) FN(gemm_)(&ta, &tb, &m, &n, &k, &dalpha, a, &lda, b, &ldb, &d1, dc, &ldc);
    }
  }
  if (k > 0) FN(gemm_)(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
  else FZ(scale_mat)(m, n, beta, c, ldc);
}

/* ---- potrf: A = L L^T (uplo 'L') or U^T U (uplo 'U'), in place ------------------------ */

/* The factor as a compact lower-triangular n x n matrix (U transposed for 'U'), zero
 * above the diagonal. */
static T *FZ(lower_of)(char uplo, blasint n, const T *a, blasint lda) {
  T *l = (T *)calloc((size_t)n * (size_t)n, sizeof(T));
  int lower = uplo == 'L' || uplo == 'l';
  for (blasint j = 0; j < n; j++)
    for (blasint i = j; i < n; i++)
      l[i + (size_t)j * n] = lower ? a[i + (size_t)j * lda] : a[j + (size_t)i * lda];
  return l;
}

/* Writes (or, with add, adds) the lower triangle of the compact x into the triangle
 * `uplo` of a (transposed for 'U'). */
static void FZ(store_lower)(char uplo, blasint n, const T *x, T *a, blasint lda, int add) {
  int lower = uplo == 'L' || uplo == 'l';
  for (blasint j = 0; j < n; j++)
    for (blasint i = j; i < n; i++) {
      T *p = lower ? &a[i + (size_t)j * lda] : &a[j + (size_t)i * lda];
      *p = add ? *p + x[i + (size_t)j * n] : x[i + (size_t)j * n];
    }
}

/* Phi(X): the lower triangle with the diagonal halved (in place, compact n x n). */
static void FZ(phi)(blasint n, T *x) {
  for (blasint j = 0; j < n; j++)
    for (blasint i = 0; i < n; i++) {
      if (i < j) x[i + (size_t)j * n] = 0;
      else if (i == j) x[i + (size_t)j * n] *= (T)0.5;
    }
}

typedef struct { T *l; blasint info; } FZ(potrf_tape);

static void *FZ(potrf_aug)(char uplo, blasint n, T *a, T *da, blasint lda, blasint *info) {
  FZ(potrf_tape) *t = (FZ(potrf_tape) *)calloc(1, sizeof *t);
  FN(potrf_)(&uplo, &n, a, &lda, info);
  t->info = *info;
  if (da && n > 0) t->l = FZ(lower_of)(uplo, n, a, lda);
  return t;
}

/* Adjoint of the factorization: with P = Phi(L^T Lbar), S = L^-T P L^-1, the adjoint of
 * the referenced triangle of A is S + S^T off the diagonal and S on it. */
static void FZ(potrf_rev)(char uplo, blasint n, T *da, blasint lda, void *tape) {
  FZ(potrf_tape) *t = (FZ(potrf_tape) *)tape;
  if (da && t->l && n > 0) {
    if (t->info != 0) {
      /* The factorization failed: there is no derivative to give. */
      T nan = (T)NAN;
      T *x = (T *)malloc(sizeof(T) * (size_t)n * (size_t)n);
      for (size_t i = 0; i < (size_t)n * (size_t)n; i++) x[i] = nan;
      FZ(store_lower)(uplo, n, x, da, lda, 0);
      free(x);
    } else {
      T d1 = 1;
      char L = 'L', R = 'R', Lo = 'L', N = 'N', Tr = 'T';
      T *p = FZ(lower_of)(uplo, n, da, lda); /* Lbar, lower */
      FN(trmm_)(&L, &Lo, &Tr, &N, &n, &n, &d1, t->l, &n, p, &n); /* L^T Lbar */
      FZ(phi)(n, p);
      FN(trsm_)(&R, &Lo, &N, &N, &n, &n, &d1, t->l, &n, p, &n); /* P L^-1 */
      FN(trsm_)(&L, &Lo, &Tr, &N, &n, &n, &d1, t->l, &n, p, &n); /* L^-T (P L^-1) */
      T *s = (T *)malloc(sizeof(T) * (size_t)n * (size_t)n);
      for (blasint j = 0; j < n; j++)
        for (blasint i = 0; i < n; i++)
          s[i + (size_t)j * n] = i == j ? p[i + (size_t)j * n]
                                        : p[i + (size_t)j * n] + p[j + (size_t)i * n];
      FZ(store_lower)(uplo, n, s, da, lda, 0);
      free(s);
      free(p);
    }
  }
  free(t->l);
  free(t);
}

/* Tangent of the factorization: dL = L Phi(L^-1 dA L^-T), dA symmetric from the
 * referenced triangle. */
static void FZ(potrf_fwd)(char uplo, blasint n, T *a, T *da, blasint lda, blasint *info) {
  FN(potrf_)(&uplo, &n, a, &lda, info);
  if (!da || n <= 0) return;
  T *l = FZ(lower_of)(uplo, n, a, lda);
  T *m = FZ(lower_of)(uplo, n, da, lda);
  for (blasint j = 0; j < n; j++)
    for (blasint i = 0; i < j; i++) m[i + (size_t)j * n] = m[j + (size_t)i * n];
  T d1 = 1;
  char L = 'L', R = 'R', Lo = 'L', N = 'N', Tr = 'T';
  FN(trsm_)(&L, &Lo, &N, &N, &n, &n, &d1, l, &n, m, &n);  /* L^-1 dA */
  FN(trsm_)(&R, &Lo, &Tr, &N, &n, &n, &d1, l, &n, m, &n); /* (L^-1 dA) L^-T */
  FZ(phi)(n, m);
  FN(trmm_)(&L, &Lo, &N, &N, &n, &n, &d1, l, &n, m, &n); /* L Phi(.) */
  FZ(store_lower)(uplo, n, m, da, lda, 0);
  free(l);
  free(m);
}

/* ---- potrs: B := A^-1 B with A's factor (uplo), in place ---------------------------- */

typedef struct { T *l, *x; } FZ(potrs_tape);

static void *FZ(potrs_aug)(char uplo, blasint n, blasint nrhs, const T *a, T *da, blasint lda,
                           T *b, T *db, blasint ldb, blasint *info) {
  FZ(potrs_tape) *t = (FZ(potrs_tape) *)calloc(1, sizeof *t);
  FN(potrs_)(&uplo, &n, &nrhs, a, &lda, b, &ldb, info);
  if (db && n > 0 && nrhs > 0) {
    t->l = FZ(lower_of)(uplo, n, a, lda);
    if (da) t->x = FZ(copy_mat)(n, nrhs, b, ldb);
  }
  return t;
}

/* Bbar_in = A^-1 Xbar (replacing Xbar in db); Abar = -Bbar_in X^T; the factor's adjoint
 * (L = lower factor, A = L L^T) is tril((Abar + Abar^T) L), added to da's triangle. */
static void FZ(potrs_rev)(char uplo, blasint n, blasint nrhs, T *da, blasint lda, T *db,
                          blasint ldb, void *tape) {
  FZ(potrs_tape) *t = (FZ(potrs_tape) *)tape;
  if (db && t->l && n > 0 && nrhs > 0) {
    blasint info = 0;
    char Lo = 'L';
    FN(potrs_)(&Lo, &n, &nrhs, t->l, &n, db, &ldb, &info);
    if (da && t->x) {
      T dm1 = -1, d0 = 0, d1 = 1;
      char N = 'N', Tr = 'T', L = 'L', R = 'R';
      T *abar = (T *)malloc(sizeof(T) * (size_t)n * (size_t)n);
      FN(gemm_)(&N, &Tr, &n, &n, &nrhs, &dm1, db, &ldb, t->x, &n, &d0, abar, &n);
      for (blasint j = 0; j < n; j++)
        for (blasint i = j; i < n; i++) {
          T s = abar[i + (size_t)j * n] + abar[j + (size_t)i * n];
          abar[i + (size_t)j * n] = s;
          abar[j + (size_t)i * n] = s;
        }
      FN(trmm_)(&R, &Lo, &N, &N, &n, &n, &d1, t->l, &n, abar, &n); /* (Abar + Abar^T) L */
      FZ(store_lower)(uplo, n, abar, da, lda, 1);
      (void)L;
      free(abar);
    }
  }
  free(t->l);
  free(t->x);
  free(t);
}

/* dX = A^-1 (dB - dA X), dA = dL L^T + L dL^T. */
static void FZ(potrs_fwd)(char uplo, blasint n, blasint nrhs, const T *a, const T *da,
                          blasint lda, T *b, T *db, blasint ldb, blasint *info) {
  FN(potrs_)(&uplo, &n, &nrhs, a, &lda, b, &ldb, info);
  if (!db || n <= 0 || nrhs <= 0) return;
  char Lo = 'L', N = 'N', Tr = 'T', L = 'L';
  T d1 = 1;
  T *l = FZ(lower_of)(uplo, n, a, lda);
  if (da) {
    T *dl = FZ(lower_of)(uplo, n, da, lda);
    T *w = FZ(copy_mat)(n, nrhs, b, ldb); /* X */
    T *v = FZ(copy_mat)(n, nrhs, b, ldb);
    FN(trmm_)(&L, &Lo, &Tr, &N, &n, &nrhs, &d1, l, &n, w, &n);  /* L^T X */
    FN(trmm_)(&L, &Lo, &N, &N, &n, &nrhs, &d1, dl, &n, w, &n);  /* dL L^T X */
    FN(trmm_)(&L, &Lo, &Tr, &N, &n, &nrhs, &d1, dl, &n, v, &n); /* dL^T X */
    FN(trmm_)(&L, &Lo, &N, &N, &n, &nrhs, &d1, l, &n, v, &n);   /* L dL^T X */
    for (blasint j = 0; j < nrhs; j++)
      for (blasint i = 0; i < n; i++)
        db[i + (size_t)j * ldb] -= w[i + (size_t)j * n] + v[i + (size_t)j * n];
    free(dl);
    free(w);
    free(v);
  }
  blasint inf = 0;
  FN(potrs_)(&Lo, &n, &nrhs, l, &n, db, &ldb, &inf);
  free(l);
}

// OPT: O0 O2
// LLI: O0 O2
// ARGS: -lopenblas
// BLAS levels 2 and 3: cblas_dgemv and cblas_dgemm in row- and column-major layout with
// every transpose combination, the Fortran dgemm_ and dgemv_, single-precision sgemm;
// alpha and beta active. Oracles: the same products written as loops (differentiated by
// Ferrozyme's core), finite differences, and forward vs reverse (dot-product identity).
#include "fz_test.h"
#include <cblas.h>

extern double __enzyme_fwddiff(void *, ...);
typedef fz_grad2 g2;

extern void dgemm_(const char *, const char *, const int *, const int *, const int *,
                   const double *, const double *, const int *, const double *, const int *,
                   const double *, double *, const int *);
extern void dgemv_(const char *, const int *, const int *, const double *, const double *,
                   const int *, const double *, const int *, const double *, double *,
                   const int *);

#define M 3
#define K 4
#define NN 2
/* Storage big enough for any orientation (leading dimensions padded by 1). */
#define LD 5
#define SZ (LD * LD)

static double W[SZ]; /* weights of the loss on C */

/* Element (i, j) of a matrix in `layout` with leading dimension ld. */
static inline int at(int layout, int i, int j, int ld) {
  return layout == CblasRowMajor ? i * ld + j : i + j * ld;
}

/* Loss of C = alpha op(A) op(B) + beta C for one (layout, ta, tb): sum W .* C. */
static double loss_blas(int layout, int ta, int tb, const double *a, const double *b,
                        const double *c0, double alpha, double beta) {
  double c[SZ];
  for (int i = 0; i < SZ; i++) c[i] = c0[i];
  int lda = LD, ldb = LD, ldc = LD;
  cblas_dgemm(layout, ta, tb, M, NN, K, alpha, a, lda, b, ldb, beta, c, ldc);
  double s = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < NN; j++) s += W[at(layout, i, j, LD)] * c[at(layout, i, j, ldc)];
  return s;
}

static double loss_loops(int layout, int ta, int tb, const double *a, const double *b,
                         const double *c0, double alpha, double beta) {
  double s = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < NN; j++) {
      double p = 0;
      for (int l = 0; l < K; l++) {
        double av = ta == CblasNoTrans ? a[at(layout, i, l, LD)] : a[at(layout, l, i, LD)];
        double bv = tb == CblasNoTrans ? b[at(layout, l, j, LD)] : b[at(layout, j, l, LD)];
        p += av * bv;
      }
      double cij = alpha * p + beta * c0[at(layout, i, j, LD)];
      s += W[at(layout, i, j, LD)] * cij;
    }
  return s;
}

/* gemv then a dot with weights: y = alpha op(A) x + beta y. */
static double gemv_blas(int layout, int tr, const double *a, const double *x, const double *y0,
                        double alpha, double beta) {
  double y[LD];
  for (int i = 0; i < LD; i++) y[i] = y0[i];
  cblas_dgemv(layout, tr, M, K, alpha, a, LD, x, 1, beta, y, 1);
  int leny = tr == CblasNoTrans ? M : K;
  double s = 0;
  for (int i = 0; i < leny; i++) s += W[i] * y[i];
  return s;
}

static double gemv_loops(int layout, int tr, const double *a, const double *x, const double *y0,
                         double alpha, double beta) {
  int leny = tr == CblasNoTrans ? M : K, lenx = tr == CblasNoTrans ? K : M;
  double s = 0;
  for (int i = 0; i < leny; i++) {
    double p = 0;
    for (int l = 0; l < lenx; l++)
      p += (tr == CblasNoTrans ? a[at(layout, i, l, LD)] : a[at(layout, l, i, LD)]) * x[l];
    s += W[i] * (alpha * p + beta * y0[i]);
  }
  return s;
}

/* Fortran symbols, column-major, A^T B. */
static double loss_fortran(const double *a, const double *b, const double *c0, double alpha,
                           double beta) {
  double c[SZ], y[LD] = {0};
  for (int i = 0; i < SZ; i++) c[i] = c0[i];
  int m = M, n = NN, k = K, ld = LD, one = 1;
  dgemm_("T", "N", &m, &n, &k, &alpha, a, &ld, b, &ld, &beta, c, &ld);
  dgemv_("N", &m, &n, &alpha, c, &ld, b, &one, &beta, y, &one); /* y = alpha C b[0:2] */
  double s = 0;
  for (int i = 0; i < M; i++) s += W[i] * y[i];
  return s;
}

static double loss_fortran_loops(const double *a, const double *b, const double *c0,
                                 double alpha, double beta) {
  double c[SZ];
  for (int i = 0; i < SZ; i++) c[i] = c0[i];
  for (int i = 0; i < M; i++)
    for (int j = 0; j < NN; j++) {
      double p = 0;
      for (int l = 0; l < K; l++) p += a[l + i * LD] * b[l + j * LD];
      c[i + j * LD] = alpha * p + beta * c0[i + j * LD];
    }
  double s = 0;
  for (int i = 0; i < M; i++) {
    double y = 0;
    for (int j = 0; j < NN; j++) y += c[i + j * LD] * b[j];
    s += W[i] * alpha * y;
  }
  return s;
}

/* Single precision. */
static float loss_sgemm(const float *a, const float *b, float *c) {
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, M, NN, K, 1.0f, a, LD, b, LD, 0.0f, c,
              LD);
  float s = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < NN; j++) s += c[i + j * LD];
  return s;
}

static double A0[SZ], B0[SZ], C0[SZ], X0[LD], Y0[LD];
static int L_, TA, TB;
static double e_a(void *c) { (void)c; return loss_loops(L_, TA, TB, A0, B0, C0, 0.9, -0.4); }

int main(void) {
  fz_seed(511);
  fz_fill(W, SZ, -1, 1);
  fz_fill(A0, SZ, -1, 1);
  fz_fill(B0, SZ, -1, 1);
  fz_fill(C0, SZ, -1, 1);
  fz_fill(X0, LD, -1, 1);
  fz_fill(Y0, LD, -1, 1);
  const int layouts[2] = {CblasRowMajor, CblasColMajor};
  const int trans[2] = {CblasNoTrans, CblasTrans};
  const double alpha = 0.9, beta = -0.4;
  for (int li = 0; li < 2; li++)
    for (int a_ = 0; a_ < 2; a_++)
      for (int b_ = 0; b_ < 2; b_++) {
        int lay = layouts[li], ta = trans[a_], tb = trans[b_];
        char what[96];
        snprintf(what, sizeof what, "gemm layout=%d ta=%d tb=%d", lay, ta, tb);
        fz_check(what, loss_blas(lay, ta, tb, A0, B0, C0, alpha, beta),
                 loss_loops(lay, ta, tb, A0, B0, C0, alpha, beta), 1e-13);
        double da[SZ] = {0}, db[SZ] = {0}, dc[SZ] = {0}, la[SZ] = {0}, lb[SZ] = {0},
               lc[SZ] = {0};
        g2 gb = __enzyme_autodiff2((void *)loss_blas, enzyme_const, lay, enzyme_const, ta,
                                   enzyme_const, tb, enzyme_dup, A0, da, enzyme_dup, B0, db,
                                   enzyme_dup, C0, dc, alpha, beta);
        g2 gl = __enzyme_autodiff2((void *)loss_loops, enzyme_const, lay, enzyme_const, ta,
                                   enzyme_const, tb, enzyme_dup, A0, la, enzyme_dup, B0, lb,
                                   enzyme_dup, C0, lc, alpha, beta);
        fz_check_arr("gemm reverse dA vs loops", da, la, SZ, 1e-12);
        fz_check_arr("gemm reverse dB vs loops", db, lb, SZ, 1e-12);
        fz_check_arr("gemm reverse dC vs loops", dc, lc, SZ, 1e-12);
        fz_check("gemm reverse dalpha vs loops", gb.d0, gl.d0, 1e-12);
        fz_check("gemm reverse dbeta vs loops", gb.d1, gl.d1, 1e-12);
        L_ = lay, TA = ta, TB = tb;
        double fd[SZ];
        fz_fd_grad(e_a, NULL, A0, SZ, fd);
        fz_check_arr("gemm reverse dA vs finite differences", da, fd, SZ, 1e-6);
        /* Forward along random directions, against the loops and the identity. */
        double va[SZ], vb[SZ], vc[SZ], sa = 0.25, sb = -0.5;
        fz_fill(va, SZ, -1, 1);
        fz_fill(vb, SZ, -1, 1);
        fz_fill(vc, SZ, -1, 1);
        double tb_ = __enzyme_fwddiff((void *)loss_blas, enzyme_const, lay, enzyme_const, ta,
                                      enzyme_const, tb, enzyme_dup, A0, va, enzyme_dup, B0, vb,
                                      enzyme_dup, C0, vc, alpha, sa, beta, sb);
        double tl = __enzyme_fwddiff((void *)loss_loops, enzyme_const, lay, enzyme_const, ta,
                                     enzyme_const, tb, enzyme_dup, A0, va, enzyme_dup, B0, vb,
                                     enzyme_dup, C0, vc, alpha, sa, beta, sb);
        fz_check("gemm forward vs loops", tb_, tl, 1e-12);
        double ip = sa * gl.d0 + sb * gl.d1;
        for (int i = 0; i < SZ; i++) ip += va[i] * la[i] + vb[i] * lb[i] + vc[i] * lc[i];
        fz_check("gemm dot-product identity", tb_, ip, 1e-12);
      }
  /* gemv: x and A active, alpha/beta active; constant A once. */
  for (int li = 0; li < 2; li++)
    for (int t_ = 0; t_ < 2; t_++) {
      int lay = layouts[li], tr = trans[t_];
      double da[SZ] = {0}, dx[LD] = {0}, dy[LD] = {0}, la[SZ] = {0}, lx[LD] = {0},
             ly[LD] = {0};
      g2 gb = __enzyme_autodiff2((void *)gemv_blas, enzyme_const, lay, enzyme_const, tr,
                                 enzyme_dup, A0, da, enzyme_dup, X0, dx, enzyme_dup, Y0, dy,
                                 alpha, beta);
      g2 gl = __enzyme_autodiff2((void *)gemv_loops, enzyme_const, lay, enzyme_const, tr,
                                 enzyme_dup, A0, la, enzyme_dup, X0, lx, enzyme_dup, Y0, ly,
                                 alpha, beta);
      fz_check_arr("gemv reverse dA vs loops", da, la, SZ, 1e-12);
      fz_check_arr("gemv reverse dx vs loops", dx, lx, LD, 1e-12);
      fz_check_arr("gemv reverse dy vs loops", dy, ly, LD, 1e-12);
      fz_check("gemv reverse dalpha vs loops", gb.d0, gl.d0, 1e-12);
      fz_check("gemv reverse dbeta vs loops", gb.d1, gl.d1, 1e-12);
      double dx2[LD] = {0}, lx2[LD] = {0};
      __enzyme_autodiff2((void *)gemv_blas, enzyme_const, lay, enzyme_const, tr, enzyme_const,
                         A0, enzyme_dup, X0, dx2, enzyme_const, Y0, enzyme_const, alpha,
                         enzyme_const, beta);
      __enzyme_autodiff2((void *)gemv_loops, enzyme_const, lay, enzyme_const, tr, enzyme_const,
                         A0, enzyme_dup, X0, lx2, enzyme_const, Y0, enzyme_const, alpha,
                         enzyme_const, beta);
      fz_check_arr("gemv reverse, A const: dx vs loops", dx2, lx2, LD, 1e-12);
      double va[SZ], vx[LD], vy[LD];
      fz_fill(va, SZ, -1, 1);
      fz_fill(vx, LD, -1, 1);
      fz_fill(vy, LD, -1, 1);
      double t1 = __enzyme_fwddiff((void *)gemv_blas, enzyme_const, lay, enzyme_const, tr,
                                   enzyme_dup, A0, va, enzyme_dup, X0, vx, enzyme_dup, Y0, vy,
                                   alpha, 0.5, beta, -1.5);
      double t2 = __enzyme_fwddiff((void *)gemv_loops, enzyme_const, lay, enzyme_const, tr,
                                   enzyme_dup, A0, va, enzyme_dup, X0, vx, enzyme_dup, Y0, vy,
                                   alpha, 0.5, beta, -1.5);
      fz_check("gemv forward vs loops", t1, t2, 1e-12);
    }
  /* Fortran dgemm_ + dgemv_. */
  {
    double da[SZ] = {0}, db[SZ] = {0}, dc[SZ] = {0}, la[SZ] = {0}, lb[SZ] = {0}, lc[SZ] = {0};
    g2 gb = __enzyme_autodiff2((void *)loss_fortran, enzyme_dup, A0, da, enzyme_dup, B0, db,
                               enzyme_dup, C0, dc, alpha, beta);
    g2 gl = __enzyme_autodiff2((void *)loss_fortran_loops, enzyme_dup, A0, la, enzyme_dup, B0,
                               lb, enzyme_dup, C0, lc, alpha, beta);
    fz_check("fortran primal", loss_fortran(A0, B0, C0, alpha, beta),
             loss_fortran_loops(A0, B0, C0, alpha, beta), 1e-13);
    fz_check_arr("fortran reverse dA", da, la, SZ, 1e-12);
    fz_check_arr("fortran reverse dB", db, lb, SZ, 1e-12);
    fz_check_arr("fortran reverse dC", dc, lc, SZ, 1e-12);
    fz_check("fortran reverse dalpha", gb.d0, gl.d0, 1e-12);
    fz_check("fortran reverse dbeta", gb.d1, gl.d1, 1e-12);
  }
  /* sgemm: d/dA of sum(A B) = rows of B summed. */
  {
    float af[SZ], bf[SZ], cf[SZ] = {0}, daf[SZ] = {0}, dcf[SZ] = {0};
    for (int i = 0; i < SZ; i++) af[i] = (float)A0[i], bf[i] = (float)B0[i];
    __enzyme_autodiff((void *)loss_sgemm, enzyme_dup, af, daf, enzyme_const, bf, enzyme_dup,
                      cf, dcf);
    for (int i = 0; i < M; i++)
      for (int l = 0; l < K; l++) {
        float want = 0;
        for (int j = 0; j < NN; j++) want += bf[l + j * LD];
        fz_check("sgemm reverse dA", daf[i + l * LD], want, 1e-5);
      }
  }
  return fz_finish();
}

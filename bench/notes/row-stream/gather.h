/* bench/notes/row-stream/gather.h (bruss36): the *gather* form of the reverse of
 * bench/src/brusselator_periodic_br.c written as plain scalar loops, i.e. what a transform
 * could emit before the post-AD optimizer and leave to LoopVectorize: row i of dx is
 * accumulated once, from row i's own partials plus the adjoint rows i - 1 and i + 1 (and
 * the column neighbours) re-read from dout, which is zeroed only after the row loop (or,
 * with -DZROW, row i - 1 at iteration i and rows 0 and N - 1 at the end). The wrap
 * columns are peeled by hand as clang peels the primal's. hand_gs: the parameter
 * adjoints in per-column arrays (in-order sums, vectorizable without fast-math);
 * hand_gr: scalar sums marked reassociable (bruss14's reductions); hand_gh: hand_gr with
 * column 1 peeled too, so that the vector body's dx stores start on a 64-byte line in
 * the benchmark's layout (bruss35's head). Included by bruss_variant.h next to hand.h
 * (README.md). Measurement code: every harness check passes with each. */
#include <string.h>
static inline __attribute__((always_inline)) void gcell(int j, int jm1, int jp1, const double *u, const double *v,
   const double *uu, const double *ud, const double *vu, const double *vd,
   const double *bu, const double *bv, const double *buu, const double *bud, const double *bvu, const double *bvd,
   double *gu, double *gv, double *cA, double *cB, double *ca, double A, double a) {
      double U = u[j], V = v[j];
      double BU = bu[j], BV = bv[j];
      double lap_u = ud[j] + uu[j] + u[jp1] + u[jm1] - 4.0 * U;
      double lap_v = vd[j] + vu[j] + v[jp1] + v[jm1] - 4.0 * V;
      double nbu = bud[j] + buu[j] + bu[jp1] + bu[jm1] - 4.0 * BU;
      double nbv = bvd[j] + bvu[j] + bv[jp1] + bv[jm1] - 4.0 * BV;
      cA[j] += (BV - BU) * U; cB[j] += BU; ca[j] += BU * lap_u + BV * lap_v;
      gu[j] += BU * (2.0 * U * V - (A + 1.0)) + BV * (A - 2.0 * U * V) + a * nbu;
      gv[j] += (BU - BV) * U * U + a * nbv;
}
__attribute__((noinline)) void hand_gs(double *restrict dout, const double *restrict x, double *restrict gx,
    const double *restrict p, double *restrict gp) {
  double A = p[0], alpha = p[2];
  double dx = 1.0 / N, a = alpha / (dx * dx);
  const double *u = x, *v = x + N * N;
  double *bu = dout, *bv = dout + N * N;
  double *gu = gx, *gv = gx + N * N;
  double cA[N] = {0}, cB[N] = {0}, ca[N] = {0};
  for (int i = 0; i < N; i++) {
    int ip1, im1;
    if (i == N - 1) ip1 = 0; else ip1 = i + 1;
    if (i == 0) im1 = N - 1; else im1 = i - 1;
#define ARGS u + N * i, v + N * i, u + N * ip1, u + N * im1, v + N * ip1, v + N * im1, \
      bu + N * i, bv + N * i, bu + N * ip1, bu + N * im1, bv + N * ip1, bv + N * im1, gu + N * i, gv + N * i, cA, cB, ca, A, a
    gcell(0, N - 1, 1, ARGS);
    for (int j = 1; j < N - 1; j++) gcell(j, j - 1, j + 1, ARGS);
    gcell(N - 1, N - 2, 0, ARGS);
#ifdef ZROW
    if (i >= 2) for (int j = 0; j < N; j++) { bu[N * (i - 1) + j] = 0; bv[N * (i - 1) + j] = 0; }
#endif
  }
#ifdef ZROW
  for (int j = 0; j < N; j++) { bu[j] = 0; bv[j] = 0; bu[N * (N - 1) + j] = 0; bv[N * (N - 1) + j] = 0; }
#else
  for (int k = 0; k < 2 * N * N; k++) dout[k] = 0;
#endif
  double sA = 0, sB = 0, sa = 0;
  for (int j = 0; j < N; j++) { sA += cA[j]; sB += cB[j]; sa += ca[j]; }
  gp[0] += sA; gp[1] += sB; gp[2] += sa / (dx * dx);
}
/* gather-form reverse of brusselator_periodic_br in plain scalar loops (what a transform
 * could emit before the post-AD optimizer): each dx cell written once. */

static inline __attribute__((always_inline)) void gcellr(int j, int jm1, int jp1, const double *u, const double *v,
   const double *uu, const double *ud, const double *vu, const double *vd,
   const double *bu, const double *bv, const double *buu, const double *bud, const double *bvu, const double *bvd,
   double *gu, double *gv, double *cA, double *cB, double *ca, double A, double a) {
      double U = u[j], V = v[j];
      double BU = bu[j], BV = bv[j];
      double lap_u = ud[j] + uu[j] + u[jp1] + u[jm1] - 4.0 * U;
      double lap_v = vd[j] + vu[j] + v[jp1] + v[jm1] - 4.0 * V;
      double nbu = bud[j] + buu[j] + bu[jp1] + bu[jm1] - 4.0 * BU;
      double nbv = bvd[j] + bvu[j] + bv[jp1] + bv[jm1] - 4.0 * BV;
      {
#pragma clang fp reassociate(on)
 *cA += (BV - BU) * U; *cB += BU; *ca += BU * lap_u + BV * lap_v; }
      gu[j] += BU * (2.0 * U * V - (A + 1.0)) + BV * (A - 2.0 * U * V) + a * nbu;
      gv[j] += (BU - BV) * U * U + a * nbv;
}
__attribute__((noinline)) void hand_gr(double *restrict dout, const double *restrict x, double *restrict gx,
    const double *restrict p, double *restrict gp) {
  double A = p[0], alpha = p[2];
  double dx = 1.0 / N, a = alpha / (dx * dx);
  const double *u = x, *v = x + N * N;
  double *bu = dout, *bv = dout + N * N;
  double *gu = gx, *gv = gx + N * N;
  double sA = 0, sB = 0, sa = 0; double *cA = &sA, *cB = &sB, *ca = &sa;
  for (int i = 0; i < N; i++) {
    int ip1, im1;
    if (i == N - 1) ip1 = 0; else ip1 = i + 1;
    if (i == 0) im1 = N - 1; else im1 = i - 1;
#define ARGS u + N * i, v + N * i, u + N * ip1, u + N * im1, v + N * ip1, v + N * im1, \
      bu + N * i, bv + N * i, bu + N * ip1, bu + N * im1, bv + N * ip1, bv + N * im1, gu + N * i, gv + N * i, cA, cB, ca, A, a
    gcellr(0, N - 1, 1, ARGS);
    for (int j = 1; j < N - 1; j++) gcellr(j, j - 1, j + 1, ARGS);
    gcellr(N - 1, N - 2, 0, ARGS);
#ifdef ZROW
    if (i >= 2) for (int j = 0; j < N; j++) { bu[N * (i - 1) + j] = 0; bv[N * (i - 1) + j] = 0; }
#endif
  }
#ifdef ZROW
  for (int j = 0; j < N; j++) { bu[j] = 0; bv[j] = 0; bu[N * (N - 1) + j] = 0; bv[N * (N - 1) + j] = 0; }
#else
  for (int k = 0; k < 2 * N * N; k++) dout[k] = 0;
#endif
  gp[0] += sA; gp[1] += sB; gp[2] += sa / (dx * dx);
}

__attribute__((noinline)) void hand_gh(double *restrict dout, const double *restrict x, double *restrict gx,
    const double *restrict p, double *restrict gp) {
  double A = p[0], alpha = p[2];
  double dx = 1.0 / N, a = alpha / (dx * dx);
  const double *u = x, *v = x + N * N;
  double *bu = dout, *bv = dout + N * N;
  double *gu = gx, *gv = gx + N * N;
  double sA = 0, sB = 0, sa = 0; double *cA = &sA, *cB = &sB, *ca = &sa;
  for (int i = 0; i < N; i++) {
    int ip1, im1;
    if (i == N - 1) ip1 = 0; else ip1 = i + 1;
    if (i == 0) im1 = N - 1; else im1 = i - 1;
#undef ARGS
#define ARGS u + N * i, v + N * i, u + N * ip1, u + N * im1, v + N * ip1, v + N * im1, \
      bu + N * i, bv + N * i, bu + N * ip1, bu + N * im1, bv + N * ip1, bv + N * im1, gu + N * i, gv + N * i, cA, cB, ca, A, a
    gcellr(0, N - 1, 1, ARGS);
    gcellr(1, 0, 2, ARGS);
    for (int j = 2; j < N - 1; j++) gcellr(j, j - 1, j + 1, ARGS);
    gcellr(N - 1, N - 2, 0, ARGS);
#ifdef ZROW
    if (i >= 2) for (int j = 0; j < N; j++) { bu[N * (i - 1) + j] = 0; bv[N * (i - 1) + j] = 0; }
#endif
  }
#ifdef ZROW
  for (int j = 0; j < N; j++) { bu[j] = 0; bv[j] = 0; bu[N * (N - 1) + j] = 0; bv[N * (N - 1) + j] = 0; }
#else
  for (int k = 0; k < 2 * N * N; k++) dout[k] = 0;
#endif
  gp[0] += sA; gp[1] += sB; gp[2] += sa / (dx * dx);
}

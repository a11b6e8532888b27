// OPT: O1 O2 O3
// CFLAGS: -march=x86-64-v4
// REQUIRES: avx512f
// bench/src/brusselator_periodic_br.c's right-hand side (32 x 32 cells, u and v blocks of
// one state array, three parameters, the forcing; tests/c/1365) with AVX-512, its
// gradient's shadow 0, 8, ..., 56 bytes past a 64-byte line: the reverse column loops'
// head loop (bruss35, crates/ferrozyme-transform/src/streams/line.rs) runs as many
// columns as that offset asks (0 to 5 of the 6 the tail would run, none for 6 or 7),
// and the streams continue through head, main and tail loops.
// Oracles: dx bit for bit against the same function without `restrict` (no stream, no
// split; dx must not depend on the offset); the parameter adjoints within 1e-13 of their
// values at offset 0 (their sums are reassociated reductions, bruss14: which cells the
// vector instructions cover, so the offset, may change their last bits) and within
// 1e-12 of the twin's (another order); dx and dalpha against five-point finite
// differences (F is a cubic polynomial in (x, p): exact up to rounding); the output
// shadow zeroed.
#include "fz_test.h"

enum { N = 32, NN = N * N, NS = 2 * NN };

static double forcing(double x, double y, double t) {
  return ((x - 0.3) * (x - 0.3) + (y - 0.6) * (y - 0.6) <= 0.01 && t >= 1.1) ? 5.0 : 0.0;
}

#define PBR(NAME, Q)                                                                        \
  void NAME(double *Q out, const double *Q x, const double *Q p, double t) {                \
    double A = p[0], B = p[1], alpha = p[2];                                                \
    double dx = 1.0 / N;                                                                    \
    double a = alpha / (dx * dx);                                                           \
    const double *u = x, *v = x + N * N;                                                    \
    double *du = out, *dv = out + N * N;                                                    \
    for (int i = 0; i < N; i++) {                                                           \
      int ip1, im1;                                                                         \
      if (i == N - 1) ip1 = 0; else ip1 = i + 1;                                            \
      if (i == 0) im1 = N - 1; else im1 = i - 1;                                            \
      for (int j = 0; j < N; j++) {                                                         \
        int jp1, jm1;                                                                       \
        if (j == N - 1) jp1 = 0; else jp1 = j + 1;                                          \
        if (j == 0) jm1 = N - 1; else jm1 = j - 1;                                          \
        double uij = u[N * i + j], vij = v[N * i + j];                                      \
        double lap_u = u[N * im1 + j] + u[N * ip1 + j] + u[N * i + jp1] + u[N * i + jm1] -  \
                       4.0 * uij;                                                           \
        double lap_v = v[N * im1 + j] + v[N * ip1 + j] + v[N * i + jp1] + v[N * i + jm1] -  \
                       4.0 * vij;                                                           \
        du[N * i + j] = a * lap_u + B + uij * uij * vij - (A + 1.0) * uij +                 \
                        forcing(i * dx, j * dx, t);                                         \
        dv[N * i + j] = a * lap_v + A * uij - uij * uij * vij;                              \
      }                                                                                     \
    }                                                                                       \
  }
PBR(periodic_br, restrict)
PBR(periodic_br_twin, )

static double xs[NS], outs[NS], lam[NS], want[NS];
static double gx[NS + 8] __attribute__((aligned(64)));
static double gt[NS + 8] __attribute__((aligned(64)));
static double seed[NS + 8] __attribute__((aligned(64)));
static double p[3] = {3.4, 1.0, 10.0}, gp0[3];

static double dot(void *q) {
  (void)q;
  periodic_br(outs, xs, p, 2.1);
  double s = 0;
  for (int i = 0; i < NS; i++) s += lam[i] * outs[i];
  return s;
}

int main(void) {
  fz_seed(1381);
  fz_fill(xs, NS, 0.2, 1.6);
  fz_fill(lam, NS, -1.0, 1.0);
  for (int off = 0; off < 8; off++) {
    double *g = gx + off, *g2 = gt + off, *dout = seed + (off + 5) % 8;
    double gp[3] = {0, 0, 0}, gp2[3] = {0, 0, 0};
    memset(g, 0, NS * sizeof(double));
    memset(g2, 0, NS * sizeof(double));
    memcpy(dout, lam, NS * sizeof(double));
    __enzyme_autodiff((void *)periodic_br, enzyme_dupnoneed, outs, dout, enzyme_dup, xs, g,
                      enzyme_dup, p, gp, enzyme_const, 2.1);
    double left = 0;
    for (int i = 0; i < NS; i++) left += fabs(dout[i]);
    fz_check("output shadow zeroed", left, 0.0, 0.0);
    memcpy(dout, lam, NS * sizeof(double));
    __enzyme_autodiff((void *)periodic_br_twin, enzyme_dupnoneed, outs, dout, enzyme_dup, xs,
                      g2, enzyme_dup, p, gp2, enzyme_const, 2.1);
    char what[64];
    snprintf(what, sizeof what, "dx bitwise = twin at +%d", off * 8);
    fz_check(what, (double)memcmp(g, g2, NS * sizeof(double)), 0.0, 0.0);
    if (off == 0) memcpy(gp0, gp, sizeof gp);
    for (int k = 0; k < 3; k++) {
      snprintf(what, sizeof what, "dp[%d] at +%d = at +0", k, off * 8);
      fz_check(what, gp[k], gp0[k], 1e-13);
    }
    for (int k = 0; k < 3; k++) fz_check("dp vs twin", gp[k], gp2[k], 1e-12);
    for (int i = 0; i < NS; i++) want[i] = fz_fd5_ptr(dot, 0, &xs[i]);
    fz_check_arr("dx vs finite differences", g, want, NS, 1e-8);
    fz_check("dalpha vs finite differences", gp[2], fz_fd5_ptr(dot, 0, &p[2]), 1e-8);
  }
  return fz_finish();
}

// OPT: O1 O2 O3
// CFLAGS: -march=x86-64-v4
// REQUIRES: avx512f
// bench/src/brusselator_periodic_br.c's right-hand side as the benchmark has it (issue 14,
// bruss34): 32 x 32 cells, u and v blocks of one state array, periodic neighbours chosen
// with `if`, three parameters and the forcing, compiled with AVX-512 as `-O3
// -march=native` does on this project's Zen 4/5 machines: clang peels the wrap columns
// before AD, the reverse pass peels the first and last rows (peel_rows.rs) and carries
// the column streams, and the post-AD pipeline unrolls the column loop into 512-bit code.
// The arrays sit where the benchmark's static context puts them: the state 16 bytes past
// a 64-byte line, the output shadow and the gradient 48 bytes past one, so every 512-bit
// access of the derivative straddles two lines (bruss34: on Zen 4 that layout, not the
// code's shape, is where the derivative's time goes).
// Oracles: dx, dA and dalpha against five-point finite differences of lambda . F (F is a
// cubic polynomial in (x, p), so the stencil is exact up to rounding), dB analytically;
// the forward derivative (__enzyme_fwddiff) in a random direction against the reverse
// gradient (dot-product identity); the output shadow zeroed by the call; a second call
// adds the same gradient.
#include "fz_modes.h"

enum { N = 32, NN = N * N, NS = 2 * NN };

static double forcing(double x, double y, double t) {
  return ((x - 0.3) * (x - 0.3) + (y - 0.6) * (y - 0.6) <= 0.01 && t >= 1.1) ? 5.0 : 0.0;
}

void periodic_br(double *restrict out, const double *restrict x, const double *restrict p,
                 double t) {
  double A = p[0], B = p[1], alpha = p[2];
  double dx = 1.0 / N;
  double a = alpha / (dx * dx);
  const double *u = x, *v = x + N * N;
  double *du = out, *dv = out + N * N;
  for (int i = 0; i < N; i++) {
    int ip1, im1;
    if (i == N - 1) ip1 = 0; else ip1 = i + 1;
    if (i == 0) im1 = N - 1; else im1 = i - 1;
    for (int j = 0; j < N; j++) {
      int jp1, jm1;
      if (j == N - 1) jp1 = 0; else jp1 = j + 1;
      if (j == 0) jm1 = N - 1; else jm1 = j - 1;
      double uij = u[N * i + j], vij = v[N * i + j];
      double lap_u = u[N * im1 + j] + u[N * ip1 + j] + u[N * i + jp1] + u[N * i + jm1] - 4.0 * uij;
      double lap_v = v[N * im1 + j] + v[N * ip1 + j] + v[N * i + jp1] + v[N * i + jm1] - 4.0 * vij;
      du[N * i + j] = a * lap_u + B + uij * uij * vij - (A + 1.0) * uij + forcing(i * dx, j * dx, t);
      dv[N * i + j] = a * lap_v + A * uij - uij * uij * vij;
    }
  }
}

/* one pool, 64-byte aligned; each array at its offset within a line */
static double pool[8 * (NS + 16) + 64] __attribute__((aligned(64)));
static double *at(int k, int bytes) { return pool + k * (NS + 16) + bytes / 8; }

typedef struct {
  double *x, *out, *lam, *p;
  double t;
} ctx_t;

static double dot(void *q) {
  ctx_t *c = q;
  periodic_br(c->out, c->x, c->p, c->t);
  double s = 0;
  for (int i = 0; i < NS; i++) s += c->lam[i] * c->out[i];
  return s;
}

int main(void) {
  static double p[3] = {3.4, 1.0, 10.0}, gp[3], gp2[3], dp_dir[3];
  ctx_t c = {at(0, 16), at(1, 16), at(2, 48), p, 2.1};
  double *dout = at(3, 48), *gx = at(4, 48), *want = at(5, 16), *dir = at(6, 16),
         *tan = at(7, 16);
  fz_seed(1365);
  fz_fill(c.x, NS, 0.2, 1.6);
  fz_fill(c.lam, NS, -1.0, 1.0);
  fz_fill(dir, NS, -1.0, 1.0);
  fz_fill(dp_dir, 3, -1.0, 1.0);

  memcpy(dout, c.lam, NS * sizeof(double));
  fz_zero(gx, NS);
  __enzyme_autodiff((void *)periodic_br, enzyme_dupnoneed, c.out, dout, enzyme_dup, c.x, gx,
                    enzyme_dup, c.p, gp, enzyme_const, c.t);
  double left = 0;
  for (int i = 0; i < NS; i++) left += fabs(dout[i]);
  fz_check("output shadow zeroed", left, 0.0, 0.0);

  for (int i = 0; i < NS; i++) want[i] = fz_fd5_ptr(dot, &c, &c.x[i]);
  fz_check_arr("dx vs finite differences", gx, want, NS, 1e-8);
  fz_check("dA vs finite differences", gp[0], fz_fd5_ptr(dot, &c, &c.p[0]), 1e-8);
  fz_check("dalpha vs finite differences", gp[2], fz_fd5_ptr(dot, &c, &c.p[2]), 1e-8);
  /* F_u is B plus terms without B: dB is the sum of lambda over u (finite differences of a
   * dot product of size 1e5 in a step of 1e-3 would keep only 7 digits) */
  double sum_lu = 0;
  for (int i = 0; i < NN; i++) sum_lu += c.lam[i];
  fz_check("dB = sum of lambda_u", gp[1], sum_lu, 1e-12);

  /* dot-product identity: lambda . (J dir) = (J^T lambda) . dir */
#ifdef FZ_MODE_RESULTS
  __enzyme_fwddiff_void((void *)periodic_br, enzyme_dup, c.out, tan, enzyme_dup, c.x, dir,
                        enzyme_dup, c.p, dp_dir, enzyme_const, c.t);
  double fwd = 0, rev = 0;
  for (int i = 0; i < NS; i++) fwd += c.lam[i] * tan[i], rev += gx[i] * dir[i];
  for (int k = 0; k < 3; k++) rev += gp[k] * dp_dir[k];
  fz_check("forward . lambda = reverse . direction", fwd, rev, 1e-10);
#endif

  /* a second call adds to the gradient it is given */
  for (int i = 0; i < NS; i++) want[i] = 2.0 * gx[i];
  memcpy(gp2, gp, sizeof gp);
  memcpy(dout, c.lam, NS * sizeof(double));
  __enzyme_autodiff((void *)periodic_br, enzyme_dupnoneed, c.out, dout, enzyme_dup, c.x, gx,
                    enzyme_dup, c.p, gp2, enzyme_const, c.t);
  fz_check_arr("dx after a second call", gx, want, NS, 1e-12);
  for (int k = 0; k < 3; k++) fz_check("dp after a second call", gp2[k], 2.0 * gp[k], 1e-12);
  return fz_finish();
}

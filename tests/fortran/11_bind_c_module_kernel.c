// SOURCES: src/chain_kernel.f90
// A `bind(c)` subroutine of a Fortran module (src/chain_kernel.f90) called and
// differentiated from C: a 2-D coordinate array seen column-major, a `pure` helper on
// array sections, single-precision (real(c_float)) weights differentiated too, an
// `intent(inout)` work array (duplicated: its shadow is scratch), ATAN2, SQRT, SUM and
// MAXVAL. Checked against central finite differences, forward mode against reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

void chain_energy(int n, const double *pos, const float *w, double *work, double *e);

#define N 7

static double pos[2 * N], work[N];
static float w[N];

static double eval(void *ctx) {
  (void)ctx;
  double e;
  chain_energy(N, pos, w, work, &e);
  return e;
}

int main(void) {
  fz_seed(1101);
  for (int i = 0; i < N; i++) {
    pos[2 * i] = 1.1 * i + 0.3 * fz_uniform(-1, 1);
    pos[2 * i + 1] = 0.4 * fz_uniform(-1, 1);
    w[i] = (float)(1.0 + 0.25 * i);
  }
  double dpos[2 * N], dwork[N], e = 0, de = 1;
  float dw[N];
  fz_zero(dpos, 2 * N);
  fz_zero(dwork, N);
  for (int i = 0; i < N; i++) dw[i] = 0;
  __enzyme_autodiff((void *)chain_energy, enzyme_const, N, enzyme_dup, pos, dpos, enzyme_dup, w,
                    dw, enzyme_dup, work, dwork, enzyme_dup, &e, &de);
  fz_check("energy", e, eval(0), 1e-12);
  for (int k = 0; k < 2 * N; k++) {
    char name[32];
    snprintf(name, sizeof name, "d pos fd [%d]", k);
    fz_check(name, dpos[k], fz_fd_ptr(eval, 0, &pos[k]), 1e-6);
  }
  /* d e / d w_i = 0.5 (|p_i - p_{i+1}| - 1)^2, from double positions. */
  for (int i = 0; i < N - 1; i++) {
    double dx = pos[2 * i] - pos[2 * i + 2], dy = pos[2 * i + 1] - pos[2 * i + 3];
    double s = sqrt(dx * dx + dy * dy) - 1;
    char name[32];
    snprintf(name, sizeof name, "d w [%d]", i);
    fz_check(name, dw[i], 0.5 * s * s, 1e-6);
  }
  double v[2 * N], t[N];
  fz_fill(v, 2 * N, -1, 1);
  fz_zero(t, N);
  double te = 0;
  __enzyme_fwddiff((void *)chain_energy, enzyme_const, N, enzyme_dup, pos, v, enzyme_const, w,
                   enzyme_dup, work, t, enzyme_dup, &e, &te);
  double dot = 0;
  for (int k = 0; k < 2 * N; k++) dot += dpos[k] * v[k];
  fz_check("forward vs reverse", te, dot, 1e-10);
  return fz_finish();
}

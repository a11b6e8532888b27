// OMP_THREADS: 1 2 4
// OPT: O0 O2
// Nested parallelism switched on (omp_set_max_active_levels(2)): an outer team of two
// threads over blocks, each running an inner `parallel for num_threads(2)` team with a
// dynamic schedule and a `reduction(+:)`, so four threads of two inner teams, each
// numbered 0 and 1 in its own team, run at once. Each inner iteration is nonlinear (its
// reverse needs taped values) and the outer thread combines its block's sum through an
// atomic update; `omp_get_wtime` timing inside the regions is inactive. Checked against
// the serial program's gradient (differentiated too, and checked against central
// differences), forward mode with the dot product, repeated to give a race a chance.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define B 4
#define N 24

static double elapsed;

double nested(const double *x, const double *w) {
  double total = 0;
#pragma omp parallel for num_threads(2) schedule(static, 1)
  for (int b = 0; b < B; b++) {
    double t0 = omp_get_wtime(), s = 0;
#pragma omp parallel for num_threads(2) schedule(dynamic, 3) reduction(+ : s)
    for (int i = 0; i < N; i++) s += sin(x[i] * w[b]) * x[(i + b) % N];
    double blk = s * s * w[b];
#pragma omp atomic
    total += blk;
    double t1 = omp_get_wtime();
#pragma omp atomic
    elapsed += t1 - t0;
  }
  return total;
}

double serial(const double *x, const double *w) {
  double total = 0;
  for (int b = 0; b < B; b++) {
    double s = 0;
    for (int i = 0; i < N; i++) s += sin(x[i] * w[b]) * x[(i + b) % N];
    total += s * s * w[b];
  }
  return total;
}

static const double *fd_w;
static double serial_x(void *x) { return serial((const double *)x, fd_w); }

int main(void) {
  omp_set_max_active_levels(2);
  double x[N], w[B], dx[N], dw[B], gx[N] = {0}, gw[B] = {0}, v[N], vw[B];
  fz_seed(64);
  fz_fill(x, N, -1, 1);
  fz_fill(w, B, 0.5, 1.5);
  fz_fill(v, N, -1, 1);
  fz_fill(vw, B, -1, 1);
  __enzyme_autodiff((void *)serial, enzyme_dup, x, gx, enzyme_dup, w, gw);
  fd_w = w;
  for (int i = 0; i < N; i += 5) fz_check("serial vs fd", gx[i], fz_fd_ptr(serial_x, x, &x[i]), 1e-6);
  int bad = 0;
  for (int rep = 0; rep < 5; rep++) {
    fz_zero(dx, N);
    fz_zero(dw, B);
    __enzyme_autodiff((void *)nested, enzyme_dup, x, dx, enzyme_dup, w, dw);
    if (!fz_close(nested(x, w), serial(x, w), 1e-12)) bad++;
    for (int i = 0; i < N; i++)
      if (!fz_close(dx[i], gx[i], 1e-12)) bad++;
    for (int b = 0; b < B; b++)
      if (!fz_close(dw[b], gw[b], 1e-12)) bad++;
  }
  fz_check("mismatches over 5 repetitions", bad, 0, 0);
  fz_check_arr("dx (first 6)", dx, gx, 6, 1e-12);
  fz_check_arr("dw", dw, gw, B, 1e-12);
  double t = __enzyme_fwddiff((void *)nested, enzyme_dup, x, v, enzyme_dup, w, vw), want = 0;
  for (int i = 0; i < N; i++) want += gx[i] * v[i];
  for (int b = 0; b < B; b++) want += gw[b] * vw[b];
  fz_check("forward tangent vs gradient . v", t, want, 1e-12);
  return elapsed >= 0 ? fz_finish() : 1;
}

// OMP_THREADS: 1 2 3
// OPT: O0 O2
// OpenMP as a solver library writes it, the parallel regions inside called functions:
//  * `smooth_max`: `parallel for collapse(2)` over a 2-D field with `reduction(max:)`
//    of an active value (the derivative goes to the winning cell) and `reduction(+:)`;
//  * `thread_partials`: each thread accumulates into its own slot of a partial-sum
//    array indexed by `omp_get_thread_num()` under `schedule(dynamic, 3)`, and per-thread
//    scratch rows (`scratch + tid * NX`, malloc'd outside) hold a stencil before the
//    sums; the partials are added after the region;
//  * `atomic_bins`: `omp atomic` updates of bins shared by all threads and a `critical`
//    section that keeps a running product.
// The loss combines the three. Reverse mode against central differences, forward mode
// against reverse (the dot-product identity), at 1, 2 and 3 threads.
#include <omp.h>
#include <stdlib.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define NX 9
#define NY 7
#define NB 4
#define MAXT 8

static double smooth_max(const double *u) {
  double m = -1e300, s = 0;
#pragma omp parallel for collapse(2) reduction(max : m) reduction(+ : s)
  for (int j = 1; j < NY - 1; j++)
    for (int i = 1; i < NX - 1; i++) {
      double c = u[j * NX + i];
      double lap = u[j * NX + i - 1] + u[j * NX + i + 1] + u[(j - 1) * NX + i] +
                   u[(j + 1) * NX + i] - 4 * c;
      double v = c * c + 0.3 * lap;
      if (v > m) m = v;
      s += lap * lap;
    }
  return m + 0.1 * s;
}

static double thread_partials(const double *u, double *scratch) {
  double partial[MAXT] = {0};
#pragma omp parallel
  {
    int tid = omp_get_thread_num();
    double *row = scratch + tid * NX;
#pragma omp for schedule(dynamic, 3)
    for (int j = 0; j < NY; j++) {
      for (int i = 0; i < NX; i++) row[i] = sin(u[j * NX + i]) * (1 + 0.1 * j);
      double acc = 0;
      for (int i = 1; i < NX - 1; i++) acc += row[i] * (row[i - 1] + row[i + 1]);
      partial[tid] += acc;
    }
  }
  double total = 0;
  for (int t = 0; t < MAXT; t++) total += partial[t];
  return total;
}

static double atomic_bins(const double *u) {
  double bins[NB] = {0}, prod = 1;
#pragma omp parallel for
  for (int k = 0; k < NX * NY; k++) {
    double v = exp(0.2 * u[k]);
#pragma omp atomic
    bins[k % NB] += v * u[k];
    if (k % 10 == 0) {
#pragma omp critical
      prod *= 1 + 0.1 * u[k] * u[k];
    }
  }
  double s = prod;
  for (int b = 0; b < NB; b++) s += bins[b] * bins[b] * (b + 1);
  return s;
}

double field_loss(const double *u, double *scratch) {
  return smooth_max(u) + thread_partials(u, scratch) + 0.01 * atomic_bins(u);
}

static double u[NX * NY];
static double *scr;
static double eval(void *ctx) {
  (void)ctx;
  return field_loss(u, scr);
}

int main(void) {
  fz_seed(47);
  fz_fill(u, NX * NY, -1, 1);
  scr = malloc(sizeof(double) * MAXT * NX);
  double *dscr = calloc(MAXT * NX, sizeof(double));
  if (omp_get_max_threads() > MAXT) omp_set_num_threads(MAXT);
  double du[NX * NY];
  fz_zero(du, NX * NY);
  __enzyme_autodiff((void *)field_loss, enzyme_dup, u, du, enzyme_dup, scr, dscr);
  for (int k = 0; k < NX * NY; k++) {
    char name[32];
    snprintf(name, sizeof name, "d/du[%d]", k);
    fz_check(name, du[k], fz_fd_ptr(eval, 0, &u[k]), 1e-6);
  }
  double tu[NX * NY], want = 0;
  for (int k = 0; k < NX * NY; k++) {
    tu[k] = 0.01 * (k % 7) - 0.03;
    want += tu[k] * du[k];
  }
  for (int k = 0; k < MAXT * NX; k++) dscr[k] = 0;
  double tf = __enzyme_fwddiff((void *)field_loss, enzyme_dup, u, tu, enzyme_dup, scr, dscr);
  fz_check("forward . v = reverse . v", tf, want, 1e-10);
  free(scr);
  free(dscr);
  return fz_finish();
}

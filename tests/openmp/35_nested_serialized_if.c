// OMP_THREADS: 1 2 3
// OPT: O0 O2
// A parallel region with a false `if` clause inside another team: `row` runs a
// `parallel if(n > 1000)` region (serialized: a team of one) whose first worksharing loop
// ends with an implicit barrier of that team before the second reads its results, and `energy` calls it from every
// thread of an outer `parallel for`. The reverse of the serialized region must run in a
// team of one too: its mirrored barrier would otherwise be a barrier of the outer team,
// reached by one thread (a hang, or threads released out of step). Checked against
// central finite differences; forward mode against reverse mode.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define R 5
#define C 5

static double row(const double *x, int n) {
  double s = 0, t[C];
#pragma omp parallel if (n > 1000)
  {
#pragma omp for
    for (int j = 0; j < n; j++) t[j] = sin(x[j]);
    /* implicit barrier: the next loop reads its neighbours' t */
#pragma omp for reduction(+ : s)
    for (int j = 0; j < n; j++) s += t[j] * x[(j + 1) % n] + t[(j + 2) % n];
  }
  return s;
}

double energy(const double *x, int r) {
  double e = 0;
#pragma omp parallel for reduction(+ : e)
  for (int i = 0; i < r; i++) {
    double v = row(x + i * C, C);
    e += v * v;
  }
  return e;
}

static double x[R * C];
static double eval(void *ctx) {
  (void)ctx;
  return energy(x, R);
}

int main(void) {
  fz_seed(3333);
  fz_fill(x, R * C, -1, 1);
  double dx[R * C];
  fz_zero(dx, R * C);
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, R);
  for (int i = 0; i < R * C; i++) {
    char name[32];
    snprintf(name, sizeof name, "fd[%d]", i);
    fz_check(name, dx[i], fz_fd_ptr(eval, 0, &x[i]), 1e-6);
  }
  /* Forward mode along v against the reverse gradient. */
  double v[R * C], dot = 0;
  fz_fill(v, R * C, -1, 1);
  for (int i = 0; i < R * C; i++) dot += dx[i] * v[i];
  double t = __enzyme_fwddiff((void *)energy, enzyme_dup, x, v, enzyme_const, R);
  fz_check("forward . v = reverse . v", t, dot, 1e-10);
  return fz_finish();
}

// OMP_THREADS: 1 2 4
// OPT: O0 O2
// The coefficients a `parallel for` reduction reads are chosen at run time: an
// `enzyme_const` table, or the active state itself (`coef = use_table ? table : x`). The
// region gets `coef` through its by-reference capture (the address of its home at -O0,
// a select at -O2), so whether its shadow is the table itself (no derivative) or dx is
// only known when the program runs: runtime activity (the constant pointer is its own
// shadow, the region's derivative guarded by `shadow != primal`). Both choices, reverse
// and forward mode; oracles: the serial program (the same sums without OpenMP,
// differentiated too) to 1e-12, central differences of the primal, forward mode by the
// dot-product identity, and the table unchanged afterwards.
#include <math.h>
#include <omp.h>
#include "fz_test.h"

extern int enzyme_dup, enzyme_const;
extern double __enzyme_fwddiff(void *, ...);

double energy(double *x, const double *table, int n, int use_table) {
  const double *coef = use_table ? table : x;
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += coef[i] * sin(x[i]) + coef[(i + 1) % n] * x[i] * x[i];
  return s;
}

double energy_serial(double *x, const double *table, int n, int use_table) {
  const double *coef = use_table ? table : x;
  double s = 0;
  for (int i = 0; i < n; i++) s += coef[i] * sin(x[i]) + coef[(i + 1) % n] * x[i] * x[i];
  return s;
}

enum { N = 9 };
static double X[N], T[N];
static int USE;
static double eval(void *ctx) {
  (void)ctx;
  return energy_serial(X, T, N, USE);
}

int main(void) {
  fz_seed(73);
  double x0[N], t0[N];
  fz_fill(x0, N, -1, 1);
  fz_fill(T, N, -0.5, 0.5);
  for (int i = 0; i < N; i++) t0[i] = T[i];
  for (int use = 0; use <= 1; use++) {
    USE = use;
    for (int i = 0; i < N; i++) X[i] = x0[i];
    double fd[N];
    fz_fd_grad(eval, 0, X, N, fd);
    double x[N], dx[N] = {0}, ds[N] = {0};
    for (int i = 0; i < N; i++) x[i] = x0[i];
    __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, T, N, use);
    __enzyme_autodiff((void *)energy_serial, enzyme_dup, x, ds, enzyme_const, T, N, use);
    fz_check_arr(use ? "table: gradient vs serial program" : "self: gradient vs serial program",
                 dx, ds, N, 1e-12);
    fz_check_arr(use ? "table: gradient vs central differences"
                     : "self: gradient vs central differences",
                 dx, fd, N, 1e-6);
    double v[N], dot = 0;
    for (int i = 0; i < N; i++) v[i] = 0.1 * i - 0.3, dot += v[i] * dx[i];
    double tan = __enzyme_fwddiff((void *)energy, enzyme_dup, x, v, enzyme_const, T, N, use);
    fz_check(use ? "table: forward = <gradient, v>" : "self: forward = <gradient, v>", tan, dot,
             1e-10);
    int same = 1;
    for (int i = 0; i < N; i++) same &= T[i] == t0[i] && x[i] == x0[i];
    fz_check("enzyme_const table and x unchanged", same, 1, 0);
  }
  return fz_finish();
}

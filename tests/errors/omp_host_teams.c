// CFLAGS: -fopenmp
// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: __kmpc_fork_teams
// EXPECT-ERROR-LINE: #pragma omp teams
// A host `teams distribute parallel for` (OpenMP 5: a league of teams on the host, the
// iterations distributed over the teams, then over each team's threads) is not
// differentiated: libomp's `__kmpc_fork_teams` is rejected by name, with the remedy
// (a `parallel for`, tests/openmp/56). Probed by hpc32's tests/openmp/56.
#include <omp.h>
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

double energy(const double *x, int n) {
  double e = 0;
#pragma omp teams distribute parallel for reduction(+ : e)
  for (int i = 0; i < n; i++) e += x[i] * x[i] * (1.0 + 0.1 * i);
  return e;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, 4);
  return (int)dx[0];
}

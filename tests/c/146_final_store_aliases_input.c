// OPT: O0 O1 O2 O3
// The result is stored at the very end through a pointer that aliases the input
// array (`out == &x[1]`). Combined mode performs such final stores after the
// reverse sweep (so the reverse sweep can re-read inputs instead of caching
// them); with the alias the re-read values must still be the ones the forward
// sweep saw, and the derivative must follow the overwrite.
#include "fz_test.h"

__attribute__((noinline)) void cubes(const double *x, double *out, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i] + sin(x[i]) * x[(i + 1) % n];
  *out = s;
}

#define N 6
int main(void) {
  fz_seed(146);
  double x[N], x0[N], dx[N], w[N];
  fz_fill(x0, N, -1, 1);
  fz_fill(w, N, -1, 1);
  memcpy(x, x0, sizeof x);
  memcpy(dx, w, sizeof dx);
  /* x_after[j] = x[j] (j != 1), x_after[1] = s(x): dx_after = w (j != 1) + w1 * ds/dx */
  __enzyme_autodiff((void *)cubes, enzyme_dup, x, dx, enzyme_dup, x + 1, dx + 1, enzyme_const, N);
  double want[N];
  for (int j = 0; j < N; j++) {
    double ds = 3 * x0[j] * x0[j] + cos(x0[j]) * x0[(j + 1) % N] + sin(x0[(j + N - 1) % N]);
    want[j] = (j != 1 ? w[j] : 0.0) + w[1] * ds;
  }
  fz_check_arr("dx", dx, want, N, 1e-10);
  /* The primal effect happened too: x[1] holds s(x0). */
  double s = 0;
  for (int i = 0; i < N; i++) s += x0[i] * x0[i] * x0[i] + sin(x0[i]) * x0[(i + 1) % N];
  fz_check("x[1] after", x[1], s, 1e-12);
  return fz_finish();
}

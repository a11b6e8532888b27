// OPT: O0 O2
// ARGS: -lopenblas
// Split mode across time steps, as users checkpoint by hand: `__enzyme_augmentfwd` of one
// step, S times on the same state (each call overwrites what the previous step read),
// then `__enzyme_reverse` of the steps in reverse order with their tapes. The step
// updates its state in place through `cblas_daxpy` and `cblas_dscal` (built-in BLAS
// rules, which must keep the x and alpha they read in their tapes), a registered
// gradient squaring in place (its tape: the old values), and a loop run through
// `__enzyme_checkpoint_for`. Oracle: central differences of the whole S-step run.
#include "fz_test.h"
#include "fz_modes.h"
#include <cblas.h>
#include <enzyme/checkpoint.h>
#define N 4
#define S 4
__attribute__((noinline)) void sq(double *x, int n) { for (int i = 0; i < n; i++) x[i] = x[i] * x[i]; }
void *sq_aug(double *x, double *dx, int n) { (void)dx; double *old = malloc(n * sizeof *old);
  for (int i = 0; i < n; i++) old[i] = x[i], x[i] = x[i] * x[i]; return old; }
void sq_rev(double *x, double *dx, int n, void *tape) { (void)x; double *old = tape;
  for (int i = 0; i < n; i++) dx[i] *= 2 * old[i]; free(old); }
void *__enzyme_register_gradient_sq[] = {(void *)sq, (void *)sq_aug, (void *)sq_rev};
__attribute__((noinline)) static void inner(int64_t i, double *u, double dt) {
  double t[N];
  for (int k = 0; k < N; k++) t[k] = u[k] + dt * (u[(k + 1) % N] - u[k] * u[k] * 0.3 + 0.01 * i);
  for (int k = 0; k < N; k++) u[k] = t[k];
}
/* one time step: state x, y updated in place; a active */
void step(double *x, double *y, double a) {
  cblas_daxpy(N, a, x, 1, y, 1);       /* y += a x  (needs x, a) */
  for (int i = 0; i < N; i++) x[i] = 0.5 * sin(y[i]) + 0.1 * x[i];
  cblas_dscal(N, 0.9, x, 1);
  sq(x, N);
  __enzyme_checkpoint_for((void *)inner, 0, 3, enzyme_checkpoint_region, y, (int64_t)(N * sizeof(double)), y, 0.1);
  cblas_daxpy(N, -0.3 * a, y, 1, x, 1);
}
double run(const double *z) {
  double x[N], y[N];
  memcpy(x, z, sizeof x); memcpy(y, z + N, sizeof y);
  for (int s = 0; s < S; s++) step(x, y, z[2 * N]);
  double r = 0; for (int i = 0; i < N; i++) r += x[i] * x[i] + (i + 1) * y[i];
  return r;
}
static double packed(void *p) { return run(p); }
int main(void) {
  double z[2 * N + 1]; fz_seed(3); fz_fill(z, 2 * N + 1, -0.8, 0.8);
  double x[N], y[N], dx[N] = {0}, dy[N] = {0}, da = 0; void *tp[S];
  memcpy(x, z, sizeof x); memcpy(y, z + N, sizeof y);
  for (int s = 0; s < S; s++) tp[s] = __enzyme_augmentfwd((void *)step, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_out, z[2 * N]);
  for (int i = 0; i < N; i++) dx[i] = 2 * x[i], dy[i] = i + 1;
  for (int s = S - 1; s >= 0; s--) da += __enzyme_reverse((void *)step, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_out, z[2 * N], tp[s]);
  for (int i = 0; i < N; i++) { fz_check("dx", dx[i], fz_fd_ptr(packed, z, &z[i]), 1e-6); fz_check("dy", dy[i], fz_fd_ptr(packed, z, &z[N + i]), 1e-6); }
  fz_check("da", da, fz_fd_ptr(packed, z, &z[2 * N]), 1e-6);
  return fz_finish();
}

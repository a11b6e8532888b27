// OPT: O0 O1 O2 O3
// Forward mode with pointer arguments: x (input, dup shadow = tangent),
// y (output, its shadow is OVERWRITTEN with the output tangent, not
// accumulated), and an in-place update u <- F(u) whose shadow holds the
// input tangent on entry and the output tangent on exit. Oracles: the
// hand-written tangent and a 5-point directional finite difference; the
// dot-product identity against __enzyme_autodiff with seeded output shadows.
#include "fz_test.h"
#include "fz_modes.h"

#define N 9

void map(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) y[i] = x[i] * x[(i + 1) % n] + sin(x[i]);
}

/* sequential in-place update: uses the already-updated u[i-1] */
void update(double *u, int n) {
  for (int i = 0; i < n; i++) u[i] = u[i] * u[i] + 0.5 * (i > 0 ? u[i - 1] : 1.0);
}

static double X[N];
static void e_map(void *c, double *out) { (void)c; map(X, out, N); }
static void e_update(void *c, double *out) {
  (void)c;
  memcpy(out, X, sizeof X);
  update(out, N);
}

int main(void) {
  fz_seed(203);
  double v[N], y[N], dy[N], want[N], fd[N], w[N], jtw[N];
  for (int t = 0; t < 3; t++) {
    fz_fill(X, N, -1.5, 1.5);
    fz_fill(v, N, -1, 1);
    fz_fill(w, N, -1, 1);
    /* out of place */
    for (int i = 0; i < N; i++) dy[i] = 123.0; /* must be overwritten */
    double vcopy[N];
    memcpy(vcopy, v, sizeof v);
    __enzyme_fwddiff_void((void *)map, enzyme_dup, X, v, enzyme_dup, y, dy, enzyme_const, N);
    for (int i = 0; i < N; i++) {
      int j = (i + 1) % N;
      want[i] = v[i] * X[j] + X[i] * v[j] + cos(X[i]) * v[i];
    }
    fz_fd_jvp(e_map, NULL, X, v, N, N, fd);
    fz_mcheck2_arr("map Jv", dy, want, 1e-12, fd, 1e-6, N);
    double yref[N];
    map(X, yref, N);
    fz_mcheck_arr("map primal output", y, yref, N, 0.0);
    fz_mcheck_arr("input tangent untouched", v, vcopy, N, 0.0);
    /* reverse: seed dy = w, dx accumulates J^T w */
    memcpy(dy, w, sizeof w);
    fz_zero(jtw, N);
    __enzyme_autodiff((void *)map, enzyme_dup, X, jtw, enzyme_dup, y, dy, enzyme_const, N);
    memcpy(dy, want, sizeof want); /* the analytic Jv */
    fz_check_dot("map (analytic Jv, reverse)", v, jtw, N, dy, w, N, 1e-10);
    __enzyme_fwddiff_void((void *)map, enzyme_dup, X, v, enzyme_dup, y, dy, enzyme_const, N);
    fz_mcheck_dot("map", v, jtw, N, dy, w, N, 1e-10);

    /* in place: u = X, du = v on entry */
    double u[N], du[N], uref[N];
    memcpy(u, X, sizeof u);
    memcpy(du, v, sizeof du);
    __enzyme_fwddiff_void((void *)update, enzyme_dup, u, du, enzyme_const, N);
    double prev = 0.0; /* tangent of the updated u[i-1] */
    for (int i = 0; i < N; i++) {
      want[i] = 2.0 * X[i] * v[i] + 0.5 * (i > 0 ? prev : 0.0);
      prev = want[i];
    }
    fz_fd_jvp(e_update, NULL, X, v, N, N, fd);
    fz_mcheck2_arr("update Jv (in place)", du, want, 1e-12, fd, 1e-6, N);
    e_update(NULL, uref);
    fz_mcheck_arr("update primal", u, uref, N, 0.0);
    /* reverse in place: du = w on entry, J^T w on exit */
    memcpy(u, X, sizeof u);
    memcpy(jtw, w, sizeof w);
    __enzyme_autodiff((void *)update, enzyme_dup, u, jtw, enzyme_const, N);
    memcpy(u, X, sizeof u);
    memcpy(du, v, sizeof du);
    __enzyme_fwddiff_void((void *)update, enzyme_dup, u, du, enzyme_const, N);
    fz_mcheck_dot("update", v, jtw, N, du, w, N, 1e-10);
    fz_check_dot("update (analytic Jv, reverse)", v, jtw, N, want, w, N, 1e-10);
  }
  return fz_finish();
}

// OPT: O0 O2
// A registered forward derivative used in vector forward mode (enzyme_width, 4): the rule
// takes one direction, so it is called once per lane. The rule works on arrays (pointer
// then its shadow, Enzyme's convention) and writes an output array.
// Oracle: analytic Jacobian of y_i = x_i^3 * s (s a constant scalar) composed with a sum.
#include "fz_test.h"
#include "fz_modes.h"

#define N 4

void cube(const double *x, double *y, int n, double s) {
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i] * x[i] * s;
}
static int fwd_calls;
void cube_fwd(const double *x, const double *dx, double *y, double *dy, int n, double s,
              double ds) {
  fwd_calls++;
  for (int i = 0; i < n; i++) {
    y[i] = x[i] * x[i] * x[i] * s;
    dy[i] = 3 * x[i] * x[i] * s * dx[i] + x[i] * x[i] * x[i] * ds;
  }
}
void *__enzyme_register_derivative_cube[] = {(void *)cube, (void *)cube_fwd};

/* z = sum(y) + y_0 * y_1 */
double g(const double *x, double *y, double s) {
  cube(x, y, N, s);
  double z = 0;
  for (int i = 0; i < N; i++) z += y[i];
  return z + y[0] * y[1];
}

int main(void) {
  fz_seed(283);
  double x[N], y[N], dy[4][N];
  fz_fill(x, N, 0.5, 1.5);
  double s = fz_uniform(0.5, 2);
  double seed[4][N] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  fwd_calls = 0;
  fz_v4 r = __enzyme_fwddiff_v4((void *)g, enzyme_width, 4, enzyme_dup, x, seed[0], seed[1],
                                seed[2], seed[3], enzyme_dup, y, dy[0], dy[1], dy[2], dy[3],
                                enzyme_const, s);
  fz_check("rule calls (one per lane)", fwd_calls, 4, 0);
  for (int k = 0; k < N; k++) {
    double dyk = 3 * x[k] * x[k] * s;
    double want = dyk;
    if (k == 0) want += dyk * (x[1] * x[1] * x[1] * s);
    if (k == 1) want += (x[0] * x[0] * x[0] * s) * dyk;
    fz_check("dz/dx_k", r.d[k], want, 1e-12);
    for (int i = 0; i < N; i++)
      fz_check("dy_i/dx_k", dy[k][i], i == k ? dyk : 0.0, 1e-12);
  }
  return fz_finish();
}

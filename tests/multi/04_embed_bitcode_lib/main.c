#include <ferrozyme.h>

#include "fz_test.h"

double curve_energy(const double *x, const double *y, int n, double alpha);
void report(const char *what, double v);

enum { N = 7 };
static double Y[N], ALPHA = 0.3;
static double eval_x(void *x) { return curve_energy((const double *)x, Y, N, ALPHA); }

int main(void) {
  fz_seed(504);
  double x[N], dx[N], dy[N], fdx[N], fdy[N];
  fz_fill(x, N, -1, 1);
  fz_fill(Y, N, -1, 1);
  fz_zero(dx, N);
  fz_zero(dy, N);
  __enzyme_autodiff((void *)curve_energy, enzyme_dup, x, dx, enzyme_dup, Y, dy,
                    enzyme_const, N, enzyme_const, ALPHA);
  fz_fd_grad(eval_x, x, x, N, fdx);
  for (int i = 0; i < N; i++) fdy[i] = fz_fd_ptr(eval_x, x, &Y[i]);
  fz_check_arr("dx", dx, fdx, N, 1e-6);
  fz_check_arr("dy", dy, fdy, N, 1e-6);
  double tx[N], ty[N];
  fz_fill(tx, N, -1, 1);
  fz_fill(ty, N, -1, 1);
  double t = __enzyme_fwddiff((void *)curve_energy, enzyme_dup, x, tx, enzyme_dup, Y, ty,
                              enzyme_const, N, enzyme_const, ALPHA);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += tx[i] * dx[i] + ty[i] * dy[i];
  fz_check("tangent = <grad, dir>", t, dot, 1e-10);
  report("energy", curve_energy(x, Y, N, ALPHA));
  return fz_finish();
}

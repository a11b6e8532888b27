// OPT: O0 O2
// enz37: a piecewise polynomial as a numerical library writes it: global constant
// coefficient tables (a 2-D array and a table of pointers to rows), Horner's scheme in a
// helper, the piece chosen by a switch on (int)floor(x) (with a default for out of
// range), a clamp, a strtod-parsed constant and an assert on the active value; the hook
// declared through a function typedef. Oracles: analytic derivative of each piece
// (Horner of the differentiated coefficients), central differences, forward = reverse.
#include <assert.h>
#include "fz_test.h"

typedef double hook_fn(void *, ...);
extern hook_fn __enzyme_autodiff_t __asm__("__enzyme_autodiff");
extern hook_fn __enzyme_fwddiff_t __asm__("__enzyme_fwddiff");

static const double C[4][5] = {
    {0.5, -1.0, 0.25, 0.125, -0.03125},
    {1.5, 0.75, -0.5, 0.2, 0.01},
    {-0.25, 2.0, 0.3, -0.1, 0.05},
    {3.0, -0.6, 0.15, 0.02, -0.004},
};
static const double EDGE[5] = {1.0, 0.5, 0.25, 0.125, 0.0625};
static const double *const ROWS[5] = {C[0], C[1], C[2], C[3], EDGE};

static double horner(const double *c, int deg, double t) {
  double r = c[deg];
  for (int k = deg - 1; k >= 0; k--) r = r * t + c[k];
  return r;
}

double piece(double x) {
  double scale = strtod("1.25", NULL);
  assert(isfinite(x));
  int k = (int)floor(x);
  double t = x - k, y;
  switch (k) {
  case 0:
  case 1:
  case 2:
  case 3:
    y = horner(ROWS[k], 4, t);
    break;
  default:
    y = horner(ROWS[4], 4, fmin(fmax(x, -4.0), 8.0) * 0.1);
  }
  assert(y == y);
  return scale * y;
}

double total(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += piece(x[i]) * (1 + 0.1 * i);
  return s;
}

static double dpiece(double x) {
  int k = (int)floor(x);
  const double *c;
  double t, chain;
  if (k >= 0 && k <= 3)
    c = C[k], t = x - k, chain = 1;
  else if (x < -4 || x > 8)
    return 0;
  else
    c = EDGE, t = 0.1 * x, chain = 0.1;
  double d[4];
  for (int j = 1; j <= 4; j++) d[j - 1] = j * c[j];
  return 1.25 * chain * horner(d, 3, t);
}

struct ctx { double *x; int n; };
static double eval(void *p) {
  struct ctx *c = p;
  return total(c->x, c->n);
}

int main(void) {
  enum { N = 9 };
  double x[N] = {0.3, 1.7, 2.45, 3.9, -0.6, 5.2, 9.5, -7.0, 1.05}, dx[N], want[N], fd[N];
  for (int i = 0; i < N; i++) want[i] = dpiece(x[i]) * (1 + 0.1 * i);
  struct ctx c = {x, N};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("analytic vs central differences", want, fd, N, 1e-6);
  fz_zero(dx, N);
  __enzyme_autodiff_t((void *)total, enzyme_dup, x, dx, enzyme_const, N);
  fz_check_arr("reverse grad", dx, want, N, 1e-12);
  for (int i = 0; i < N; i++)
    fz_check("scalar piece'", __enzyme_autodiff_t((void *)piece, x[i]), dpiece(x[i]), 1e-12);
  double v[N], jv = 0;
  fz_seed(1426);
  fz_fill(v, N, -1, 1);
  for (int i = 0; i < N; i++) jv += want[i] * v[i];
  fz_check("forward <grad, v>",
           __enzyme_fwddiff_t((void *)total, enzyme_dup, x, v, enzyme_const, N), jv, 1e-12);
  return fz_finish();
}

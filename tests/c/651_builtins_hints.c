// OPT: O0 O1 O2 O3
// Compiler builtins users sprinkle through numeric code: __builtin_expect on branches of
// an active computation, __builtin_assume / __builtin_unreachable after a switch that
// covers every case, __builtin_fma / __builtin_sqrt / __builtin_copysign /
// __builtin_fabs, __builtin_isnan / __builtin_isinf guards, __builtin_prefetch of active
// data, and __builtin_memcpy of active doubles. Oracle: analytic derivatives and central
// finite differences.
#include "fz_test.h"

static double g_scale = 1.25;

__attribute__((noinline)) static double kernel(const double *x, int n, int mode) {
  double acc = 0.0;
  double tmp[8];
  __builtin_memcpy(tmp, x, sizeof(double) * (size_t)n);
  for (int i = 0; i < n; i++) {
    __builtin_prefetch(&x[i + 1]);
    double v = tmp[i];
    if (__builtin_expect(v > 0.0, 1))
      acc = __builtin_fma(v, v, acc);
    else
      acc += __builtin_fabs(v) * 0.5;
  }
  __builtin_assume(n > 0);
  switch (mode & 3) {
  case 0: acc = __builtin_sqrt(acc); break;
  case 1: acc = acc * g_scale; break;
  case 2: acc = __builtin_copysign(acc, -1.0); break;
  case 3: acc = acc + x[0] * x[n - 1]; break;
  default: __builtin_unreachable();
  }
  if (__builtin_isnan(acc) || __builtin_isinf(acc)) return 0.0;
  return acc;
}

double f(double *x, int n, int mode) { return kernel(x, n, mode); }

typedef struct { double *x; int n, mode; } ctx_t;
static double eval(void *c) { ctx_t *p = c; return f(p->x, p->n, p->mode); }

int main(void) {
  double x[6] = {0.3, -0.7, 1.1, 0.45, -0.2, 0.9};
  for (int mode = 0; mode < 4; mode++) {
    double dx[6] = {0}, want[6];
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 6, enzyme_const, mode);
    ctx_t c = {x, 6, mode};
    fz_fd_grad(eval, &c, x, 6, want);
    char name[32];
    snprintf(name, sizeof name, "mode %d", mode);
    fz_check_arr(name, dx, want, 6, 1e-6);
  }
  // analytic, mode 1: d/dx_i = scale * (x_i > 0 ? 2 x_i : -0.5)
  double dx[6] = {0}, an[6];
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 6, enzyme_const, 1);
  for (int i = 0; i < 6; i++) an[i] = g_scale * (x[i] > 0 ? 2 * x[i] : -0.5);
  fz_check_arr("mode 1 analytic", dx, an, 6, 1e-12);
  return fz_finish();
}

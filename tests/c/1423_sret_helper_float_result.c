// OPT: O0 O2
// enz37: a noinline helper returning a struct too large for registers (sret: three
// moments, an extreme and an int count) that the differentiated function unpacks, and
// a function whose result is a float computed in double (the hook declared to return
// float; the seed is 1.0f; the gradient is in double). Forward mode of the float
// function returns a float tangent. Oracles: analytic, central differences, forward =
// reverse.
#include "fz_test.h"

typedef struct {
  double m[3];
  double hi;
  int count;
} stats;

__attribute__((noinline)) static stats moments(const double *x, int n, double cut) {
  stats s = {{0, 0, 0}, -1e300, 0};
  for (int i = 0; i < n; i++) {
    if (x[i] < cut) continue;
    s.m[0] += x[i];
    s.m[1] += x[i] * x[i];
    s.m[2] += x[i] * x[i] * x[i];
    if (x[i] > s.hi) s.hi = x[i];
    s.count++;
  }
  return s;
}

float score(const double *x, int n) {
  stats s = moments(x, n, -0.5);
  double mean = s.m[0] / s.count;
  double var = s.m[1] / s.count - mean * mean;
  double r = var + 0.25 * s.m[2] / s.count + 0.5 * s.hi;
  return (float)r;
}

extern float __enzyme_autodiff_f(void *, ...) __asm__("__enzyme_autodiff");
extern float __enzyme_fwddiff_f(void *, ...) __asm__("__enzyme_fwddiff");

struct ctx { double *x; int n; };
static double eval(void *p) {
  struct ctx *c = p;
  stats s = moments(c->x, c->n, -0.5);
  double mean = s.m[0] / s.count;
  return s.m[1] / s.count - mean * mean + 0.25 * s.m[2] / s.count + 0.5 * s.hi;
}

int main(void) {
  enum { N = 8 };
  double x[N] = {0.3, -0.9, 1.2, 0.45, -0.2, 2.1, -1.4, 0.8}, dx[N], want[N], fd[N];
  int cnt = 0, arg = 0;
  double m0 = 0, hi = -1e300;
  for (int i = 0; i < N; i++)
    if (x[i] >= -0.5) {
      cnt++;
      m0 += x[i];
      if (x[i] > hi) hi = x[i], arg = i;
    }
  double mean = m0 / cnt;
  for (int i = 0; i < N; i++) {
    want[i] = 0;
    if (x[i] < -0.5) continue;
    want[i] = 2 * x[i] / cnt - 2 * mean / cnt + 0.75 * x[i] * x[i] / cnt + (i == arg ? 0.5 : 0);
  }
  struct ctx c = {x, N};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("analytic vs central differences", want, fd, N, 1e-6);
  fz_zero(dx, N);
  float r = __enzyme_autodiff_f((void *)score, enzyme_dup, x, dx, enzyme_const, N);
  (void)r;
  fz_check_arr("reverse grad of a float result", dx, want, N, 1e-12);
  double v[N], jv = 0;
  fz_seed(1423);
  fz_fill(v, N, -1, 1);
  for (int i = 0; i < N; i++) jv += want[i] * v[i];
  float t = __enzyme_fwddiff_f((void *)score, enzyme_dup, x, v, enzyme_const, N);
  fz_check("forward float tangent", t, jv, 1e-6 * (1 + fabs(jv)));
  return fz_finish();
}

// OPT: O0 O2
// A std::function callback as users write it (tools/difftest feature `stdfunc`): a lambda
// capturing by reference an active array and a constant one, handed as
// `const std::function<double(double)> &` to a midpoint-rule integrator. Oracles: central
// finite differences, and forward mode against the reverse gradient (dot product).
// Refused at -O0 and --ad-before-opt until cxx38 (fuzz37's difftest C++ seed 8026): the
// capture of the enzyme_const `y` is its own shadow in the std::function's storage
// (run-time activity), and std::function calls its manager and invoker through pointers,
// which run-time activity did not follow; a call through a pointer whose possible targets
// all have IR now gets each target's derivative under the same checks as a direct call.
#include "fz_cxx.h"
#include <functional>

#define N 5

static double integ(const std::function<double(double)> &g, double lo, double hi, int k) {
  double s = 0, h = (hi - lo) / k;
  for (int i = 0; i < k; i++) s += g(lo + (i + 0.5) * h) * h;
  return s;
}

double f(double *x, const double *y, int n) {
  double t = 0;
  for (int i = 0; i < n; i++) {
    std::function<double(double)> g = [&](double u) -> double { return u * y[i] + sin(u * x[i]); };
    t += integ(g, 0.0, x[(i + 1) % n], 3);
  }
  return t;
}

int main() {
  double x[N], y[N], y0[N], g[N] = {0}, fd[N], dx[N];
  fz_seed(452);
  for (int i = 0; i < N; i++) {
    x[i] = fz_uniform(-1, 1);
    y0[i] = y[i] = fz_uniform(-1, 1);
    dx[i] = fz_uniform(-1, 1);
  }
  __enzyme_autodiff<void>((void *)f, enzyme_dup, x, g, enzyme_const, y, enzyme_const, N);
  fz_fd_grad_of([&] { return f(x, y, N); }, x, N, fd);
  for (int i = 0; i < N; i++) fz_check("reverse vs fd", g[i], fd[i], 1e-6);
  double tx[N];
  for (int i = 0; i < N; i++) tx[i] = dx[i];
  double tan = __enzyme_fwddiff<double>((void *)f, enzyme_dup, x, tx, enzyme_const, y, enzyme_const, N);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += g[i] * dx[i];
  fz_check("forward tangent vs reverse . dx", tan, dot, 1e-12);
  fz_check("forward tangent vs fd along dx", tan, fz_fd_dir_of([&] { return f(x, y, N); }, x, dx, N), 1e-6);
  int same = 1;
  for (int i = 0; i < N; i++) same &= y[i] == y0[i];
  fz_check("the constant array is unchanged", same, 1, 0);
  return fz_finish();
}

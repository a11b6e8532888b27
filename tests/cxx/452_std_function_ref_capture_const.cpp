// OPT: O0 O2
// IGNORE-O0: refused (no wrong number): at -O0 the lambda's by-reference capture of the enzyme_const `y` is stored in the std::function's storage, which has a shadow, and std::function calls its manager and invoker through pointers: "error[unsupported-instruction]: in function `std::_Function_base::~_Function_base()` (`_ZNSt14_Function_baseD2Ev`): mismatched activity: a constant (enzyme_const) pointer was stored into memory that has a shadow, and an indirect callee is given shadowed memory it may read that pointer back from; run-time activity checks cannot follow a call into a function without IR (external or indirect)" (and the same in `std::function<double (double)>::operator()(double) const`). fuzz37's difftest C++ seed 8026 (feature `stdfunc`); -O2 passes.
// IGNORE-REF: the same refusal through --ad-before-opt (the unoptimized std::function storage and its indirect manager/invoker calls): "error[unsupported-instruction]: in function `std::_Function_base::~_Function_base()` ... mismatched activity: a constant (enzyme_const) pointer was stored into memory that has a shadow, and an indirect callee is given shadowed memory it may read that pointer back from".
// A std::function callback as users write it (tools/difftest feature `stdfunc`): a lambda
// capturing by reference an active array and a constant one, handed as
// `const std::function<double(double)> &` to a midpoint-rule integrator. Oracles: central
// finite differences, and forward mode against the reverse gradient (dot product).
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

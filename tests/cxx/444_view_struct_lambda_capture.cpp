// OPT: O0 O2
// CFLAGS: -std=c++17
// A user's small view record `{const double *w; double scale; int n}` built inside the
// differentiated function from enzyme_const weights and an ACTIVE scale, then copied:
// captured by value in lambdas (`[v]`, `[=]`), passed by value to a non-inlined helper,
// and stored in a `std::pair` (at -O0 each copy is a `memcpy` of the 24-byte record:
// the weights' address is its own shadow, the scale's derivative moves field by field,
// cxx37). Oracle: the analytic gradient, central differences, forward/reverse dot
// products; the weights checked unchanged.
#include "fz_cxx.h"
#include <cmath>
#include <utility>

struct View {
  const double *w;
  double scale;
  int n;
};

__attribute__((noinline)) double apply(View v, const double *x) {
  double s = 0;
  for (int i = 0; i < v.n; i++) s += v.w[i] * x[i];
  return v.scale * s;
}

double model(const double *x, const double *w, double scale, int n) {
  View v{w, scale * scale, n};
  auto lin = [v](const double *y) { return apply(v, y); };
  auto quad = [=](int i) { return v.scale * v.w[i] * x[i] * x[i]; };
  std::pair<View, double> pr{v, scale};
  double q = 0;
  for (int i = 0; i < n; i++) q += quad(i);
  View u = pr.first;
  u.scale = pr.second * 3.0;
  return lin(x) + q + std::sin(apply(u, x));
}

extern int enzyme_dup, enzyme_const, enzyme_out;
#define N 4

int main() {
  double x[N] = {0.5, -0.3, 0.8, 0.1}, w[N] = {1.0, -2.0, 0.5, 1.5}, w0[N];
  double dx[N] = {0}, fd[N], want[N];
  for (int i = 0; i < N; i++) w0[i] = w[i];
  double scale = 0.9;
  double ds = __enzyme_autodiff<double>((void *)model, enzyme_dup, x, dx, enzyme_const, w,
                                        enzyme_out, scale, enzyme_const, N);
  fz_check_arr("constant w unchanged", w, w0, N, 0);
  double wx = 0, wxx = 0;
  for (int i = 0; i < N; i++) wx += w[i] * x[i], wxx += w[i] * x[i] * x[i];
  double s2 = scale * scale, c = std::cos(3 * scale * wx);
  for (int i = 0; i < N; i++) want[i] = s2 * w[i] + 2 * s2 * w[i] * x[i] + c * 3 * scale * w[i];
  fz_check_arr("dx analytic", dx, want, N, 1e-12);
  double wds = 2 * scale * wx + 2 * scale * wxx + c * 3 * wx;
  fz_check("d/dscale analytic", ds, wds, 1e-12);
  fz_fd_grad_of([&] { return model(x, w, scale, N); }, x, N, fd);
  fz_check_arr("dx vs finite differences", dx, fd, N, 1e-6);
  fz_check("d/dscale vs finite differences", ds, fz_fd([&] { return model(x, w, scale, N); }, scale),
           1e-6);
  double v[N] = {0.2, 0.7, -0.4, 0.3}, vs = -0.6, dv = ds * vs;
  for (int i = 0; i < N; i++) dv += want[i] * v[i];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, w,
                                       enzyme_dup, scale, vs, enzyme_const, N);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-10);
  fz_check_arr("constant w unchanged (forward)", w, w0, N, 0);
  return fz_finish();
}

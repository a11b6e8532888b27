// OPT: O0 O2
// CFLAGS: -std=c++20
// probe46: the modes other than plain reverse over C++ constructs the suite differentiates
// in reverse mode only: a virtual diamond (Left and Right share a virtual Base holding the
// parameters) called through a `Base *`, std::vector growth, std::sort with a lambda on
// active values, std::complex exp/sqrt/norm; __enzyme_fwddiff (width 1), vector forward
// mode (width 2, enzyme_dupv strides of whole objects whose shadow pointer points at the
// virtual base inside each lane) and split mode (__enzyme_augmentfwd/__enzyme_reverse).
// Oracle: central differences of the same function. Passed as written.
#include "fz_cxx.h"
#include <complex>
#include <vector>
#include <algorithm>
extern "C" {
extern int enzyme_width, enzyme_dupv;
struct V2 { double d[2]; };
double __enzyme_fwddiff(void *, ...);
V2 __enzyme_fwddiff_v2(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
}
struct Base { double k[2]; virtual double eval(double x) const = 0; virtual ~Base() = default; };
struct Left : virtual Base { double l = 0.5; virtual double left(double x) const { return k[0] * sin(x) * l; } };
struct Right : virtual Base { double r = 1.5; virtual double right(double x) const { return k[1] * x * x * r; } };
struct Both final : Left, Right {
  double eval(double x) const override { return left(x) + right(x) + k[0] * k[1] * x; }
};
__attribute__((noinline)) double f(Base *b, const double *x, int n) {
  using C = std::complex<double>;
  std::vector<double> v;
  for (int i = 0; i < n; i++) v.push_back(b->eval(x[i]));
  std::sort(v.begin(), v.end(), [](double a, double c) { return std::abs(a) < std::abs(c); });
  C z(v[0], v[n - 1]);
  C w = std::exp(z * 0.3) * std::sqrt(z + 2.0);
  double s = std::norm(w);
  for (int i = 0; i < n; i++) s += (i + 1) * v[i];
  return s;
}
int main() {
  const int n = 5;
  Both b; b.k[0] = 0.7; b.k[1] = -0.4;
  double x[n] = {0.3, -0.8, 1.1, 0.2, -0.5};
  auto F = [&] { return f(&b, x, n); };
  double g[n + 2];
  for (int i = 0; i < n; i++) g[i] = fz_fd(F, x[i]);
  g[n] = fz_fd(F, b.k[0]); g[n + 1] = fz_fd(F, b.k[1]);
  // forward, width 1: tangent on x and k
  double v[n + 2] = {1, -0.5, 0.25, 2, 0.1, 0.3, -0.7};
  Both db; db.k[0] = v[n]; db.k[1] = v[n + 1]; db.l = db.r = 0;
  double want = 0; for (int i = 0; i < n + 2; i++) want += g[i] * v[i];
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, (Base *)&b, (Base *)&db, enzyme_dup, x, v, enzyme_const, n);
  fz_check("fwd", t, want, 1e-6);
  // forward, width 2 (dupv): lanes e0 and e_k1
  Both db2[2]; for (auto &d : db2) { d.k[0] = d.k[1] = 0; d.l = d.r = 0; }
  db2[1].k[1] = 1;
  double dx2[2][n] = {{1, 0, 0, 0, 0}, {0}};
  V2 t2 = __enzyme_fwddiff_v2((void *)f, enzyme_width, 2, enzyme_dupv, sizeof(Both), (Base *)&b, (Base *)&db2[0], enzyme_dupv, sizeof dx2[0], x, dx2, enzyme_const, n);
  fz_check("fwd2 lane0", t2.d[0], g[0], 1e-6); fz_check("fwd2 lane1", t2.d[1], g[n + 1], 1e-6);
  // split mode
  Both ds; ds.k[0] = ds.k[1] = 0; ds.l = ds.r = 0; double dx[n] = {0};
  void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, (Base *)&b, (Base *)&ds, enzyme_dup, x, dx, enzyme_const, n);
  __enzyme_reverse((void *)f, enzyme_dup, (Base *)&b, (Base *)&ds, enzyme_dup, x, dx, enzyme_const, n, 1.0, tape);
  for (int i = 0; i < n; i++) fz_check("split dx", dx[i], g[i], 1e-6);
  fz_check("split dk0", ds.k[0], g[n], 1e-6); fz_check("split dk1", ds.k[1], g[n + 1], 1e-6);
  return fz_finish();
}

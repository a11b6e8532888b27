// OPT: O0 O2
// CFLAGS: -std=c++17
// Enzyme programs as its documentation's C++ examples write them: the marker globals
// *defined* in the program (`int enzyme_dup;`), the hooks declared as function
// templates with an explicit result type, free functions by value (forward with
// enzyme_dup scalars, reverse with enzyme_out returning a struct), by pointer and by
// reference (enzyme_dup with shadows), a member function through a free wrapper taking
// the object, and a lambda through a function template wrapper. Oracles: analytic.
#include <cstdio>
#include <cmath>

int enzyme_dup;
int enzyme_dupnoneed;
int enzyme_out;
int enzyme_const;
template <typename return_type, typename... T>
return_type __enzyme_fwddiff(void *, T...);
template <typename return_type, typename... T>
return_type __enzyme_autodiff(void *, T...);

static int failures = 0, checks = 0;
static void check(const char *what, double got, double want) {
  checks++;
  bool ok = std::fabs(got - want) <= 1e-12 * std::fmax(1.0, std::fabs(want));
  if (!ok) failures++;
  std::printf("%s %s: got=%.17g want=%.17g\n", ok ? "ok" : "MISMATCH", what, got, want);
}

double f(double x, double y) { return x * y + 1.0 / y; }
void f_ptr(const double *x, const double *y, double *out) { *out = x[0] * y[0] + 1.0 / y[0]; }
void f_ref(const double &x, const double &y, double &out) { out = x * y + 1.0 / y; }

struct Spring {
  double k;
  double energy(double x) const { return 0.5 * k * x * x; }
};
double spring_energy(const Spring *s, double x) { return s->energy(x); }

template <typename F>
double call_lambda(const F *fn, double x) { return (*fn)(x); }

struct pair {
  double dx, dy;
};

int main() {
  double x = 3.0, y = 2.0, dx = 1.0, dy = 1.0;
  double df = __enzyme_fwddiff<double>((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy);
  check("forward df", df, y * dx + (x - 1.0 / (y * y)) * dy);

  pair g = __enzyme_autodiff<pair>((void *)f, enzyme_out, x, enzyme_out, y);
  check("reverse dx", g.dx, y);
  check("reverse dy", g.dy, x - 1.0 / (y * y));

  double mu_x = 0, mu_y = 0, out = 0, mu_out = 1.0;
  __enzyme_autodiff<void>((void *)f_ptr, enzyme_dup, &x, &mu_x, enzyme_dup, &y, &mu_y, enzyme_dup,
                          &out, &mu_out);
  check("by pointer dx", mu_x, y);
  check("by pointer dy", mu_y, x - 1.0 / (y * y));

  double rx = 0, ry = 0, rout = 0, drout = 2.0;
  __enzyme_autodiff<void>((void *)f_ref, enzyme_dup, &x, &rx, enzyme_dup, &y, &ry, enzyme_dup, &rout,
                          &drout);
  check("by reference dx", rx, 2.0 * y);
  check("by reference dy", ry, 2.0 * (x - 1.0 / (y * y)));
  check("by reference primal", rout, f(x, y));

  Spring s{4.0}, ds{0.0};
  double dxs = __enzyme_autodiff<double>((void *)spring_energy, enzyme_dup, &s, &ds, enzyme_out, 0.5);
  check("member dx", dxs, 4.0 * 0.5);
  check("member dk", ds.k, 0.5 * 0.25);

  double a = 1.5;
  auto lam = [a](double v) { return a * std::sin(v); };
  double dl = __enzyme_autodiff<double>((void *)call_lambda<decltype(lam)>, enzyme_const,
                                        (void *)&lam, enzyme_out, 0.3);
  check("lambda", dl, a * std::cos(0.3));

  std::printf("%s (%d checks)\n", failures ? "FAIL" : "PASS", checks);
  return failures != 0;
}

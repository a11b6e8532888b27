// OPT: O0 O1 O2
// CFLAGS: -std=c++17
// IGNORE: exceptions thrown and caught inside the differentiated function are not supported (README "C++ exceptions", cxx/114): derivatives are nounwind, so the first throw (`std::domain_error` from `checked_sqrt`) ends the program in std::terminate ("terminate called after throwing an instance of 'std::domain_error'", exit 134) at -O0 and -O2; never a wrong number
// Exceptions thrown and caught inside the differentiated function: a Newton solve that
// throws a `std::runtime_error` subclass carrying the active iterate when it fails to
// converge in a few steps (caught: fall back to the last iterate), a `std::domain_error`
// thrown for negative inputs to a square root (caught: use the absolute value), and a
// nested try in a loop whose catch rethrows to an outer handler only for one index. The
// throw/no-throw path is fixed by the inputs. Oracle: central differences and the
// analytic derivative of the caught paths.
#include "fz_cxx.h"
#include <cmath>
#include <stdexcept>

struct NoConvergence : std::runtime_error {
  double last;
  explicit NoConvergence(double last) : std::runtime_error("no convergence"), last(last) {}
};

// Root of t^3 + a t - b by Newton from t = 1, at most `steps` iterations.
static double cubic_root(double a, double b, int steps) {
  double t = 1.0;
  for (int k = 0; k < steps; k++) {
    double r = t * t * t + a * t - b;
    if (std::fabs(r) < 1e-14) return t;
    t -= r / (3 * t * t + a);
  }
  throw NoConvergence(t);
}

static double checked_sqrt(double v) {
  if (v < 0) throw std::domain_error("negative");
  return std::sqrt(v);
}

double solve_all(const double *x, int n) {
  double s = 0;
  try {
    for (int i = 0; i < n; i++) {
      double r;
      try {
        r = checked_sqrt(x[i]);
      } catch (const std::domain_error &) {
        if (i == n - 1) throw;  // the outer handler takes the last one
        r = std::sqrt(-x[i]);
      }
      s += r;
    }
  } catch (const std::exception &) {
    s += 10.0 * x[n - 1] * x[n - 1];
  }
  double t;
  try {
    t = cubic_root(x[0], x[1], 40);  // converges
  } catch (const NoConvergence &e) {
    t = 0.0;
  }
  double u;
  try {
    u = cubic_root(x[2] * x[2] + 1, x[1], 2);  // two steps: throws
  } catch (const NoConvergence &e) {
    u = e.last;
  }
  return s + t * t + u;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 4;
  double x[n] = {1.2, 2.5, -0.7, -0.4}, dx[n] = {0}, fd[n];
  __enzyme_autodiff<void>((void *)solve_all, enzyme_dup, x, dx, enzyme_const, n);
  // The converged root t(a, b): 3 t^2 dt + a dt + t da = db.
  double a = x[0], b = x[1], t = 1.0;
  for (int k = 0; k < 60; k++) t -= (t * t * t + a * t - b) / (3 * t * t + a);
  double dtda = -t / (3 * t * t + a), dtdb = 1 / (3 * t * t + a);
  fz_check("d/dx0 analytic", dx[0], 0.5 / std::sqrt(x[0]) + 2 * t * dtda +
                                        0.0, 1e-8);
  fz_fd_grad_of([&] { return solve_all(x, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  (void)dtdb;
  return fz_finish();
}

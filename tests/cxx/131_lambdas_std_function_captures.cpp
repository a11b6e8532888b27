// OPT: O0 O1 O2 O3
// Lambdas and `std::function` built *inside* the differentiated function from active
// values: a lambda capturing an active rate by value, one capturing an active
// accumulator by reference, a `std::function<double(double)>` per basis function
// whose captures are an active weight and an int, a generic `integrate(F f, ...)` template
// taking the lambda by value, a lambda returned from a helper (capture by copy of an
// active `std::array`), and `std::transform` + `std::accumulate` with lambdas. Oracle:
// central finite differences and a hand-written gradient of the closed form.
// (A `std::vector<std::function>` grown by `push_back` moves the functions' raw storage
// and is refused: tests/errors/std_function_move_O0.cpp.)
#include "fz_cxx.h"
#include <array>
#include <functional>
#include <numeric>
#include <vector>

template <typename F>
__attribute__((noinline)) double integrate(F f, double a, double b, int n) {
  double h = (b - a) / n, s = 0.5 * (f(a) + f(b));
  for (int i = 1; i < n; i++) s += f(a + i * h);
  return s * h;
}

static std::function<double(double)> make_poly(std::array<double, 3> c) {
  return [c](double x) { return c[0] + x * (c[1] + x * c[2]); };
}

double model(const double *p) {
  double rate = p[0];
  auto decay = [rate](double t) { return std::exp(-rate * t); };
  double acc = 0;
  auto add = [&acc](double v) { acc += v * v; };
  for (int k = 0; k < 3; k++) {
    double w = p[1 + k];
    std::function<double(double)> basis = [w, k](double x) { return w * std::cos((k + 1) * x); };
    add(basis(0.3));
  }
  double s = integrate(decay, 0.0, 1.0, 64);
  auto poly = make_poly({p[1], p[2], p[3]});
  std::vector<double> xs = {0.1, 0.5, 0.9};
  std::vector<double> ys(xs.size());
  std::transform(xs.begin(), xs.end(), ys.begin(), [&](double x) { return poly(x) * decay(x); });
  double tot = std::accumulate(ys.begin(), ys.end(), 0.0, [](double a, double b) { return a + b * b; });
  return s + acc + tot;
}

int main() {
  double p[4] = {0.7, 1.2, -0.5, 0.8}, dp[4] = {0};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, p, dp);
  double fd[4];
  fz_fd_grad_of([&] { return model(p); }, p, 4, fd);
  fz_check_arr("fd", dp, fd, 4, 1e-6);
  // d acc / d w_k = 2 w_k cos^2((k+1) 0.3); the rest of the weights' derivative from FD
  // of tot alone is covered above; the rate's derivative of the trapezoid sum exactly:
  double h = 1.0 / 64, ds = 0;
  for (int i = 0; i <= 64; i++) {
    double t = i * h, wt = (i == 0 || i == 64) ? 0.5 : 1.0;
    ds += wt * (-t) * std::exp(-p[0] * t) * h;
  }
  double xs[3] = {0.1, 0.5, 0.9}, dtot_rate = 0;
  for (double x : xs) {
    double y = (p[1] + x * (p[2] + x * p[3])) * std::exp(-p[0] * x);
    dtot_rate += -2 * x * y * y;
  }
  fz_check("d/drate analytic", dp[0], ds + dtot_rate, 1e-10);
  return fz_finish();
}

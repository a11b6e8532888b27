// OMP_THREADS: 1 2 4
// OPT: O0 O2
// OpenMP in C++ as a C++ user writes it (the first C++ program of the OpenMP suite): a
// functor class holding its weights in a `std::vector`, a `[&]` lambda calling it inside
// `parallel for schedule(static, 3)`, a `parallel for reduction(+:s)` over
// `std::vector::const_iterator`s (a random-access-iterator loop), a user-defined
// `declare reduction(vplus : std::vector<double> : std::transform(..., std::plus))` with an
// `initializer` building a zeroed vector, reducing a per-bin histogram, and
// `std::for_each` with a lambda after the regions. Reverse mode against central finite
// differences of the serial program, forward mode by the dot-product identity.
#include <omp.h>
#include <cmath>
#include <vector>
#include <algorithm>
#include <functional>
#include "fz_test.h"
extern double __enzyme_fwddiff(void *, ...);
constexpr int N = 21, B = 4;

#pragma omp declare reduction(vplus : std::vector<double> : \
    std::transform(omp_out.begin(), omp_out.end(), omp_in.begin(), omp_out.begin(), std::plus<double>())) \
    initializer(omp_priv = std::vector<double>(omp_orig.size(), 0.0))

struct Model {
  std::vector<double> w;
  explicit Model(int n) : w(n) { for (int i = 0; i < n; i++) w[i] = 1.0 + 0.05 * i; }
  double operator()(double v, int i) const { return w[i] * std::sin(v) + 0.1 * v * v; }
};

extern "C" double loss(const double *x, int n) {
  Model m(n);
  std::vector<double> y(n);
  auto feature = [&](int i) { return m(x[i], i) * x[(i + 1) % n]; };
#pragma omp parallel for schedule(static, 3)
  for (int i = 0; i < n; i++) y[i] = feature(i);
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (auto it = y.cbegin(); it < y.cend(); ++it) s += *it * *it;
  std::vector<double> hist(B, 0.0);
#pragma omp parallel for reduction(vplus : hist)
  for (int i = 0; i < n; i++) hist[i % B] += y[i] * (1 + 0.1 * i);
  double h = 0;
  std::for_each(hist.begin(), hist.end(), [&h](double v) { h += v * v; });
  return 0.5 * s + 0.01 * h;
}

static double serial(const double *x, int n) {
  std::vector<double> y(n), hist(B, 0.0);
  for (int i = 0; i < n; i++) y[i] = ((1.0 + 0.05 * i) * std::sin(x[i]) + 0.1 * x[i] * x[i]) * x[(i + 1) % n];
  double s = 0, h = 0;
  for (int i = 0; i < n; i++) s += y[i] * y[i], hist[i % B] += y[i] * (1 + 0.1 * i);
  for (double v : hist) h += v * v;
  return 0.5 * s + 0.01 * h;
}

static double xs[N];
static double eval(void *) { return serial(xs, N); }

int main() {
  fz_seed(94);
  fz_fill(xs, N, -1, 1);
  double g[N], v[N];
  fz_zero(g, N);
  fz_check("value vs serial", loss(xs, N), serial(xs, N), 1e-12);
  __enzyme_autodiff((void *)loss, enzyme_dup, xs, g, enzyme_const, N);
  for (int k = 0; k < N; k++) {
    char name[32];
    snprintf(name, sizeof name, "grad[%d] vs fd", k);
    fz_check(name, g[k], fz_fd_ptr(eval, 0, &xs[k]), 1e-6);
  }
  fz_fill(v, N, -1, 1);
  double jv = __enzyme_fwddiff((void *)loss, enzyme_dup, xs, v, enzyme_const, N);
  double dot = 0;
  for (int k = 0; k < N; k++) dot += g[k] * v[k];
  fz_check("forward . v = reverse . v", jv, dot, 1e-10);
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17 -Wno-deprecated-declarations
// IGNORE-O0: cannot-deduce-type at the `memcpy` of a `std::pair<int, double>` in `__new_allocator::construct` and `__insertion_sort` (stable_sort's moves: the pair's int and double copied as 16 bytes whose uses conflict without optimisation), and mismatched activity in `std::swap<_Any_data>` (a std::function assigned a lambda that captures an active double: the capture is swapped through an `alloca {i64, i64}` without a shadow); no wrong number
// IGNORE-REF: the --ad-before-opt trial gives -O0's errors (see IGNORE-O0)
// A user's weighted-sample estimator in idiomatic C++: a std::vector reserved then grown
// with push_back/emplace_back inside the differentiated function (without the reserve,
// growth from an empty vector at -O2 is cxx/111), std::accumulate and std::inner_product, std::sort of an index permutation
// by inactive keys with the active payload gathered through it, std::stable_sort of
// pairs (int key, double value), std::unique_ptr to a polymorphic kernel called through
// its base pointer (virtual dispatch), a std::function chosen at run time, one template
// instantiated for float and double. Oracles: central finite differences of the primal,
// forward mode against reverse (dot product) for the double instantiation.
#include "fz_cxx.h"
#include <algorithm>
#include <functional>
#include <memory>
#include <numeric>
#include <utility>
#include <vector>

struct Kernel {
  virtual ~Kernel() = default;
  virtual double eval(double d) const = 0;
};
struct Gauss : Kernel {
  double bw;
  explicit Gauss(double b) : bw(b) {}
  double eval(double d) const override { return std::exp(-d * d / (2 * bw * bw)); }
};
struct Cauchy : Kernel {
  double s;
  explicit Cauchy(double v) : s(v) {}
  double eval(double d) const override { return 1.0 / (1.0 + (d / s) * (d / s)); }
};

static std::unique_ptr<Kernel> make_kernel(int kind) {
  if (kind == 0) return std::make_unique<Gauss>(0.7);
  return std::make_unique<Cauchy>(0.9);
}

// x: n samples, keys: inactive ints deciding the order
double estimate(const double *x, const int *keys, int n, int kind) {
  std::unique_ptr<Kernel> k = make_kernel(kind);
  std::vector<double> w;  // grows inside the derivative
  w.reserve(2 * n);
  for (int i = 0; i < n; i++) w.push_back(k->eval(x[i] - 0.2));
  for (int i = 0; i + 1 < n; i++) w.emplace_back(0.5 * (w[i] + w[i + 1]));
  double z = std::accumulate(w.begin(), w.end(), 0.0);
  std::vector<double> xs(x, x + n);
  xs.resize(w.size(), 1.0);
  for (int i = n; i < (int)w.size(); i++) xs[i] = x[i - n] * x[i - n + 1];
  double mean = std::inner_product(w.begin(), w.end(), xs.begin(), 0.0) / z;

  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::sort(perm.begin(), perm.end(), [&](int a, int b) { return keys[a] < keys[b]; });
  std::vector<std::pair<int, double>> kv;
  for (int i = 0; i < n; i++) kv.emplace_back(keys[i] % 3, x[i]);
  std::stable_sort(kv.begin(), kv.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  double ordered = 0;
  for (int r = 0; r < n; r++) ordered += (r + 1) * x[perm[r]] * kv[r].second;

  std::function<double(double)> link;
  if (kind == 0)
    link = [](double v) { return std::log1p(v * v); };
  else
    link = [mean](double v) { return std::sin(v * mean); };
  return mean * mean + 0.1 * ordered + link(mean + 0.3);
}

template <typename T>
T poly_loss(const T *c, int n, T t) {
  std::vector<T> pw{T(1)};
  for (int i = 1; i < n; i++) pw.push_back(pw.back() * t);
  T v = std::inner_product(c, c + n, pw.begin(), T(0));
  return v * v + std::accumulate(c, c + n, T(0), [](T a, T b) { return a + b * b * b; });
}

int main() {
  const int n = 6;
  double x[n] = {0.3, -0.8, 1.2, 0.45, -0.1, 0.9};
  int keys[n] = {5, 2, 9, 1, 7, 3};
  for (int kind = 0; kind < 2; kind++) {
    double dx[n] = {0};
    __enzyme_autodiff<void>((void *)estimate, enzyme_dup, x, dx, enzyme_const, keys,
                            enzyme_const, n, enzyme_const, kind);
    for (int i = 0; i < n; i++)
      fz_check(kind ? "estimate (Cauchy) d/dx" : "estimate (Gauss) d/dx", dx[i],
               fz_fd([&] { return estimate(x, keys, n, kind); }, x[i]), 1e-6);
    double v[n] = {0.5, -0.25, 1.0, 0.75, -1.0, 0.2}, want = 0;
    for (int i = 0; i < n; i++) want += dx[i] * v[i];
    double jv = __enzyme_fwddiff<double>((void *)estimate, enzyme_dup, x, v, enzyme_const, keys,
                                         enzyme_const, n, enzyme_const, kind);
    fz_check("estimate forward = <grad, v>", jv, want, 1e-10);
  }

  double c[4] = {0.4, -0.3, 0.2, 0.7}, dc[4] = {0};
  double t = 0.8;
  double dt = __enzyme_autodiff<double>((void *)poly_loss<double>, enzyme_dup, c, dc,
                                        enzyme_const, 4, t);
  for (int i = 0; i < 4; i++)
    fz_check("poly_loss<double> d/dc", dc[i], fz_fd([&] { return poly_loss(c, 4, t); }, c[i]),
             1e-6);
  fz_check("poly_loss<double> d/dt", dt, fz_fd([&] { return poly_loss(c, 4, t); }, t), 1e-6);

  float cf[4] = {0.4f, -0.3f, 0.2f, 0.7f}, dcf[4] = {0};
  float tf = 0.8f;
  float dtf = __enzyme_autodiff<float>((void *)poly_loss<float>, enzyme_dup, cf, dcf,
                                       enzyme_const, 4, tf);
  for (int i = 0; i < 4; i++) fz_check("poly_loss<float> d/dc = double's", dcf[i], dc[i], 1e-4);
  fz_check("poly_loss<float> d/dt = double's", dtf, dt, 1e-4);
  return fz_finish();
}

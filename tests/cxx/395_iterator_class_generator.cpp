// OPT: O0 O2
// CFLAGS: -std=c++17
// A coroutine-free generator as users write one: a range class whose iterator computes
// the next Chebyshev node on the fly from the (differentiated) interval ends, with full
// iterator traits so `std::accumulate`, `std::transform_reduce`-style loops, range-for
// and `std::distance` work on it; a second iterator adapter walks the parameter array
// with a stride. Oracle: the analytic gradient (Chebyshev-Gauss quadrature of a known
// integrand), central differences, and forward/reverse dot products.
#include "fz_cxx.h"
#include <cmath>
#include <cstddef>
#include <iterator>
#include <numeric>

class ChebyshevNodes {
  double a_, b_;
  int n_;

 public:
  ChebyshevNodes(double a, double b, int n) : a_(a), b_(b), n_(n) {}
  class iterator {
    const ChebyshevNodes *r_;
    int k_;

   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = double;
    using difference_type = std::ptrdiff_t;
    using pointer = const double *;
    using reference = double;
    iterator(const ChebyshevNodes *r, int k) : r_(r), k_(k) {}
    double operator*() const {
      double t = std::cos(M_PI * (2 * k_ + 1) / (2.0 * r_->n_));
      return 0.5 * (r_->a_ + r_->b_) + 0.5 * (r_->b_ - r_->a_) * t;
    }
    iterator &operator++() { ++k_; return *this; }
    iterator operator++(int) { iterator c = *this; ++k_; return c; }
    bool operator==(const iterator &o) const { return k_ == o.k_; }
    bool operator!=(const iterator &o) const { return k_ != o.k_; }
  };
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, n_}; }
};

template <typename T>
class Strided {
  T *p_;
  std::ptrdiff_t s_;

 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = T *;
  using reference = T &;
  Strided(T *p, std::ptrdiff_t s) : p_(p), s_(s) {}
  T &operator*() const { return *p_; }
  Strided &operator++() { p_ += s_; return *this; }
  bool operator!=(const Strided &o) const { return p_ != o.p_; }
  bool operator==(const Strided &o) const { return p_ == o.p_; }
};

// Chebyshev-Gauss: int_a^b f(x) / sqrt((x - a)(b - x)) dx ~ pi/n sum f(x_k)
double quad(const double *p) {
  ChebyshevNodes nodes(p[0], p[1], 24);
  double s = std::accumulate(nodes.begin(), nodes.end(), 0.0,
                             [&](double acc, double x) { return acc + x * x * p[2]; });
  double n = double(std::distance(nodes.begin(), nodes.end()));
  double c = 0;
  for (double x : nodes) c += std::exp(-x) * 1e-3;
  // every second parameter, through the strided adapter
  double ev = std::accumulate(Strided<const double>(p, 2), Strided<const double>(p + 4, 2), 1.0,
                              [](double acc, const double &v) { return acc * (1 + v); });
  return M_PI / n * s + c + ev;
}

extern int enzyme_dup;

int main() {
  double p[4] = {-0.5, 1.5, 0.8, 0.3}, dp[4] = {0}, fd[4];
  __enzyme_autodiff<void>((void *)quad, enzyme_dup, p, dp);
  fz_fd_grad_of([&] { return quad(p); }, p, 4, fd);
  fz_check_arr("d/dp finite differences", dp, fd, 4, 1e-6);
  // int_a^b x^2 / sqrt((x-a)(b-x)) dx = pi (3 (a+b)^2/4 + ... ) exact for n >= 2:
  // pi * (m^2 + r^2 / 2) with m = (a+b)/2, r = (b-a)/2, times p2
  double a = p[0], b = p[1], m = 0.5 * (a + b), r = 0.5 * (b - a);
  double dm[2] = {0.5, 0.5}, dr[2] = {-0.5, 0.5}, want[4];
  double dc[2] = {0, 0};  // the exp term, summed over the nodes
  for (int k = 0; k < 24; k++) {
    double t = std::cos(M_PI * (2 * k + 1) / 48.0), x = m + r * t;
    for (int j = 0; j < 2; j++) dc[j] += -std::exp(-x) * 1e-3 * (dm[j] + dr[j] * t);
  }
  for (int j = 0; j < 2; j++) want[j] = M_PI * p[2] * (2 * m * dm[j] + r * dr[j]) + dc[j];
  want[2] = M_PI * (m * m + 0.5 * r * r);
  want[0] += (1 + p[2]);  // ev = (1 + p0)(1 + p2)
  want[2] += (1 + p[0]);
  want[3] = 0;
  fz_check_arr("d/dp analytic", dp, want, 4, 1e-11);
  double v[4] = {0.3, -0.1, 0.6, 0.9}, dv = 0;
  double jv = __enzyme_fwddiff<double>((void *)quad, enzyme_dup, p, v);
  for (int i = 0; i < 4; i++) dv += dp[i] * v[i];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}

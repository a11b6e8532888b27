// OPT: O0 O2
// CFLAGS: -std=c++20
// IGNORE-O0: cannot-deduce-type: "an integer access to differentiable memory whose type is ambiguous" at `_Hash_code_base<...BitsHash...>::_M_hash_code`'s `load i64` of the key and at `std::pair<const uint64_t, double>`'s constructor storing it: the key (the active double's bits, `std::bit_cast`) and the cached double share the node's memory; a clear compile-time error
// IGNORE-O2: "integer arithmetic on the bits of a floating-point value cannot be differentiated" (`lshr i64 %5, 29` in `Kernel::operator()`, the hash of the `std::bit_cast` key) and mismatched activity at the `alloca i64` the double is stored into for the cast; the key's bits are only hashed, compared and stored as a key (never made a float again), so they could be inactive; a clear compile-time error, never a wrong number
// IGNORE-PLUGIN: as at -O2 (the plugin trial is at -O2)
// IGNORE-REF: cannot-deduce-type: "an integer access to differentiable memory whose type is ambiguous" in `std::bit_cast<unsigned long, double>` (unoptimized IR, as at -O0)
// A memoized kernel as users write one: a class with a `mutable
// std::unordered_map<std::uint64_t, double>` cache keyed by `std::bit_cast` of the
// (active) argument through a custom hash functor, evaluated on inputs that repeat, so
// later calls read values cached earlier in the same differentiated call; a `std::hash`
// of an integer id decides a sign. The cached value's derivative must flow through the
// map's node memory. Oracle: central differences, the analytic gradient, forward/reverse
// dot products.
#include "fz_cxx.h"
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <unordered_map>

struct BitsHash {
  std::size_t operator()(std::uint64_t b) const { return std::size_t(b ^ (b >> 29)); }
};

class Kernel {
  mutable std::unordered_map<std::uint64_t, double, BitsHash> cache_;
  mutable int misses_ = 0;

 public:
  double operator()(double x) const {
    auto key = std::bit_cast<std::uint64_t>(x);
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    misses_++;
    double v = std::exp(-x * x) + std::sin(3 * x);
    cache_.emplace(key, v);
    return v;
  }
  int misses() const { return misses_; }
};

double total(const double *p, int n, int *misses) {
  Kernel k;
  double s = 0;
  for (int r = 0; r < 3; r++)      // three passes: the second and third hit the cache
    for (int i = 0; i < n; i++) {
      double sign = (std::hash<int>{}(i) % 2) ? -1.0 : 1.0;
      s += sign * (r + 1) * k(p[i]);
    }
  *misses = k.misses();
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 5;
  double p[n] = {0.3, -0.7, 1.1, 0.3, 0.05}, dp[n] = {0}, fd[n];
  int misses = 0;
  __enzyme_autodiff<void>((void *)total, enzyme_dup, p, dp, enzyme_const, n, enzyme_const,
                          &misses);
  fz_check("cache misses (p[3] repeats p[0])", misses, 4, 0);
  fz_fd_grad_of([&] { return total(p, n, &misses); }, p, n, fd);
  // p[0] and p[3] are equal: a finite difference on one breaks the cache's key
  // sharing only in the perturbed evaluations, which compute afresh; the derivative is
  // the same function's
  fz_check_arr("d/dp finite differences", dp, fd, n, 1e-6);
  double want[n];
  for (int i = 0; i < n; i++) {
    double sign = (std::hash<int>{}(i) % 2) ? -1.0 : 1.0, x = p[i];
    want[i] = sign * 6 * (-2 * x * std::exp(-x * x) + 3 * std::cos(3 * x));
  }
  fz_check_arr("d/dp analytic", dp, want, n, 1e-12);
  double v[n] = {0.4, -0.1, 0.7, 0.2, -0.5}, dv = 0;
  double jv = __enzyme_fwddiff<double>((void *)total, enzyme_dup, p, v, enzyme_const, n,
                                       enzyme_const, &misses);
  for (int i = 0; i < n; i++) dv += dp[i] * v[i];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}

// OPT: O0 O2
// CFLAGS: -std=c++20
// IGNORE-O0: "cannot differentiate `cmpxchg` instructions: atomic compare-and-exchange and fences are not supported" (libstdc++ 12 implements `fetch_add`/`fetch_sub` of a double as a `cmpxchg` loop in `__atomic_impl::__fetch_add_flt`, not as `atomicrmw fadd`), and in forward mode "cannot differentiate `cmpxchg` in forward mode: atomic operations on differentiated memory are not supported" (atomic loads and stores themselves are supported now: cxx36 rechecked the text); clear compile-time errors, never a wrong number
// IGNORE-O2: as at -O0 (inlined into `model`), plus cannot-deduce-type at the `cmpxchg` loops' `load i64`/`bitcast` of the atomic double ("an integer access to differentiable memory whose type is ambiguous (the value looks like Double, the memory like Double)")
// IGNORE-PLUGIN: as at -O2
// IGNORE-REF: as at -O0
// `std::atomic<double>` as users write it for an accumulator that threads could share
// (here one thread): C++20's `fetch_add`/`fetch_sub` on a double (an `atomicrmw fadd`/`fsub`),
// `load`/`store` with explicit memory orders, `compare_exchange_weak` in a loop building a
// running maximum-like update (`cur * a + b`, retried on failure), and `std::atomic_ref<double>`
// adding into a plain double of the caller's array.
// Oracle: the analytic gradient, central differences, forward/reverse dot products.
#include "fz_cxx.h"
#include <atomic>
#include <cmath>

double model(const double *x, double *out, int n) {
  std::atomic<double> sum{0.0};
  for (int i = 0; i < n; i++) sum.fetch_add(x[i] * x[i], std::memory_order_relaxed);
  sum.fetch_sub(0.5 * x[0], std::memory_order_acq_rel);
  std::atomic<double> lin{1.0};
  for (int i = 0; i < n; i++) {
    double cur = lin.load(std::memory_order_acquire);
    while (!lin.compare_exchange_weak(cur, cur * 0.9 + std::sin(x[i]),
                                      std::memory_order_acq_rel)) {
    }
  }
  std::atomic_ref<double> r(out[0]);
  r.fetch_add(sum.load() * lin.load());
  r.store(r.load() + x[n - 1]);
  return out[0];
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 5;
  double x[n] = {0.3, -0.8, 1.1, 0.45, -0.2}, dx[n] = {0}, fd[n], want[n];
  double out = 0.25, dout = 0;
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_dup, &out, &dout,
                          enzyme_const, n);
  // S = sum x^2 - x0/2, L = 0.9^n + sum_i 0.9^(n-1-i) sin(x_i); f = out0 + S L + x_{n-1}
  double S = -0.5 * x[0], L = std::pow(0.9, n);
  for (int i = 0; i < n; i++) {
    S += x[i] * x[i];
    L += std::pow(0.9, n - 1 - i) * std::sin(x[i]);
  }
  for (int i = 0; i < n; i++)
    want[i] = (2 * x[i] - (i == 0 ? 0.5 : 0.0)) * L + S * std::pow(0.9, n - 1 - i) * std::cos(x[i]) +
              (i == n - 1 ? 1.0 : 0.0);
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_check("d/dout0 (the initial value passes through)", dout, 1.0, 1e-14);
  fz_fd_grad_of([&] { double o = 0.25; return model(x, &o, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.4, 0.1, -0.3, 0.6, 0.2}, dv = 0, o2 = 0.25, do2 = 0;
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_dup, &o2, &do2,
                                       enzyme_const, n);
  for (int i = 0; i < n; i++) dv += dx[i] * v[i];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}

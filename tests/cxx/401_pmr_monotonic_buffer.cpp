// OPT: O0 O2
// CFLAGS: -std=c++17
// IGNORE-O0: missing-derivative for the resources' constructors/destructors (`std::pmr::monotonic_buffer_resource::~monotonic_buffer_resource`, `unsynchronized_pool_resource`'s, defined in libstdc++.so, no IR) and "cannot differentiate this call through a function pointer" at `memory_resource::allocate`/`deallocate`'s virtual `do_allocate` call (no implementation in the module); clear compile-time errors, never a wrong number
// IGNORE-O2: as at -O0 (the same calls, inlined into `model` and `vector::_M_realloc_insert`)
// IGNORE-PLUGIN: as at -O2
// IGNORE-REF: as at -O0
// Polymorphic allocators as users write them to avoid heap traffic in an inner function:
// a `std::pmr::monotonic_buffer_resource` over a stack buffer (falling back to
// `new_delete_resource()` when it is exhausted: 24 doubles per vector outgrow the 256-byte
// buffer), `std::pmr::vector<double>` of intermediate values grown by `push_back`, and a
// `std::pmr::unsynchronized_pool_resource` behind a second vector. The resources' allocate
// functions are virtual calls into libstdc++ (no IR), so every intermediate double lives in
// memory the pass did not see allocated.
// Oracle: the same computation on a plain array, analytic (d/dx of sum w_i sin(x_i)^2 ...),
// central differences, forward/reverse dot products.
#include "fz_cxx.h"
#include <cmath>
#include <cstddef>
#include <memory_resource>
#include <numeric>
#include <vector>

double model(const double *x, int n) {
  std::byte buf[256];
  std::pmr::monotonic_buffer_resource arena(buf, sizeof buf);
  std::pmr::vector<double> sq(&arena);
  for (int i = 0; i < n; i++) sq.push_back(std::sin(x[i]) * std::sin(x[i]));
  std::pmr::unsynchronized_pool_resource pool;
  std::pmr::vector<double> pairs(&pool);
  for (int i = 0; i + 1 < n; i++) pairs.push_back(sq[i] * x[i + 1]);
  double s = std::accumulate(sq.begin(), sq.end(), 0.0);
  return s + std::accumulate(pairs.begin(), pairs.end(), 0.0);
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 24;
  double x[n], dx[n] = {0}, fd[n], want[n];
  for (int i = 0; i < n; i++) x[i] = 0.1 + 0.05 * i - 0.3 * (i % 3);
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  // f = sum_i s_i + sum_{i<n-1} s_i x_{i+1}, s_i = sin(x_i)^2, s_i' = sin(2 x_i)
  for (int i = 0; i < n; i++) {
    want[i] = std::sin(2 * x[i]) * (1 + (i + 1 < n ? x[i + 1] : 0.0));
    if (i > 0) want[i] += std::sin(x[i - 1]) * std::sin(x[i - 1]);
  }
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(x, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n], dv = 0;
  for (int i = 0; i < n; i++) v[i] = std::cos(1.0 + i);
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, n);
  for (int i = 0; i < n; i++) dv += dx[i] * v[i];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}

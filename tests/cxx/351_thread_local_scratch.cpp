// OPT: O0 O2
// CFLAGS: -std=c++17
// A `thread_local` scratch buffer reused across calls (the way a library avoids
// allocating on every call): a fixed `thread_local double[]` and a `thread_local
// std::vector<double>` resized on demand, both written with active intermediates and
// read back inside the differentiated function. Oracle: the analytic gradient and
// central differences.
#include "fz_cxx.h"
#include <cmath>
#include <vector>

constexpr int N = 6;

__attribute__((noinline)) double smooth_energy(const double *x, int n) {
  thread_local double tmp[64];
  thread_local std::vector<double> diff;
  diff.resize(n - 1);
  for (int i = 0; i < n; i++) tmp[i] = std::sin(x[i]);
  for (int i = 0; i + 1 < n; i++) diff[i] = tmp[i + 1] - tmp[i];
  double s = 0;
  for (int i = 0; i + 1 < n; i++) s += diff[i] * diff[i];
  return s;
}

double energy(const double *x, int n) { return smooth_energy(x, n) + 0.5 * smooth_energy(x, n - 1); }

extern int enzyme_dup, enzyme_const;

int main() {
  double x[N], dx[N] = {0}, fd[N], want[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.3 * i * i - 0.5;
  __enzyme_autodiff<void>((void *)energy, enzyme_dup, x, dx, enzyme_const, N);
  for (int m = N; m >= N - 1; m--) {
    double w = m == N ? 1.0 : 0.5;
    for (int i = 0; i + 1 < m; i++) {
      double d = std::sin(x[i + 1]) - std::sin(x[i]);
      want[i + 1] += w * 2 * d * std::cos(x[i + 1]);
      want[i] -= w * 2 * d * std::cos(x[i]);
    }
  }
  fz_check_arr("analytic", dx, want, N, 1e-12);
  fz_fd_grad_of([&] { return energy(x, N); }, x, N, fd);
  fz_check_arr("finite differences", dx, fd, N, 1e-6);
  return fz_finish();
}

// OPT: O0 O2
// CFLAGS: -std=c++17
// std::vector built inside the differentiated function with reserve and push_back
// (reallocation included: it starts small and grows), emplace_back of a struct, and
// indexing into it afterwards. Oracle: finite differences.
#include "fz_cxx.h"
#include <vector>
#include <cmath>

struct Sample {
  double t, v;
};

double trace_energy(const double *a, int n) {
  std::vector<double> xs;
  xs.reserve(2);  // grows several times below
  for (int i = 0; i < n; i++) xs.push_back(a[i] * a[i] - 0.5 * a[i]);
  std::vector<Sample> samples;
  for (int i = 0; i < n; i++) samples.emplace_back(Sample{0.1 * i, xs[i] * std::cos(a[i])});
  double e = 0;
  for (size_t i = 0; i < samples.size(); i++) e += samples[i].v * samples[i].v * (1 + samples[i].t);
  return e;
}

int main() {
  fz_seed(309);
  const int n = 11;
  double a[n], da[n], fd[n];
  fz_fill(a, n, -1, 1);
  fz_zero(da, n);
  __enzyme_autodiff((void *)trace_energy, enzyme_dup, a, da, enzyme_const, n);
  fz_fd_grad_of([&] { return trace_energy(a, n); }, a, n, fd);
  fz_check_arr("da", da, fd, n, 1e-6);
  return fz_finish();
}

// OPT: O0 O1 O2
// C++ library algorithms on integer arrays inside the differentiated loop: `std::sort` and
// `std::reverse` of an index array, `std::fill` of a counter, each after the loop body
// reads them. The reverse sweep must not re-read the indices after the last call
// (`reverse/memory.rs::writes_of`: a function with IR copied as inactive writes what its
// body writes). This passed before enz38 too (the index loads were cached); it guards the
// rule that tests/cxx/464 found broken for library functions without IR.
// Oracles: the analytic gradient (the index arithmetic written out) and central
// differences.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>

#define N 6

// Iteration k reads x through the indices as they are before the k-th sort (which
// reorders them) and the counter before the k-th fill.
double f(double *x, int rounds) {
  int idx[4] = {5, 1, 4, 2};
  int cnt[2] = {3, 0};
  double s = 0;
  for (int k = 0; k < rounds; k++) {
    s += x[idx[0]] * x[idx[1]] + std::sin(x[cnt[0]]) * (k + 1);
    std::sort(idx, idx + 4);
    std::fill(cnt, cnt + 2, k);

    std::reverse(idx, idx + 4);
  }
  return s;
}

// The same with the index arithmetic written out, for the analytic gradient.
static void grad_ref(const double *x, int rounds, double *g) {
  int idx[4] = {5, 1, 4, 2};
  int cnt[2] = {3, 0};
  for (int i = 0; i < N; i++) g[i] = 0;
  for (int k = 0; k < rounds; k++) {
    g[idx[0]] += x[idx[1]];
    g[idx[1]] += x[idx[0]];
    g[cnt[0]] += std::cos(x[cnt[0]]) * (k + 1);
    std::sort(idx, idx + 4);
    cnt[0] = cnt[1] = k;

    std::reverse(idx, idx + 4);
  }
}

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

int main() {
  double x[N] = {0.3, -1.2, 0.8, 1.5, -0.4, 2.1}, dx[N] = {0}, g[N], fd[N];
  const int rounds = 4;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, rounds);
  grad_ref(x, rounds, g);
  fz_fd_grad_of([&] { return f(x, rounds); }, x, N, fd);
  fz_check_arr("gradient vs analytic", dx, g, N, 1e-12);
  fz_check_arr("gradient vs central differences", dx, fd, N, 1e-6);
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// A `std::map<int, double>` keyed by a bin index computed from inactive data: samples'
// active weights accumulated per bin with `operator[]`, then iterated in key order to
// build a cumulative sum (`std::map` iteration, structured bindings), a smoothness
// penalty between neighbouring bins found with `find`/`lower_bound`, and the result
// through `std::prev(end())`. Oracle: the analytic gradient (each weight's bin and order
// are fixed) and central finite differences.
#include "fz_cxx.h"
#include <iterator>
#include <map>

#define N 10

double binned(const double *w, const int *bin) {
  std::map<int, double> h;
  for (int i = 0; i < N; i++) h[bin[i]] += w[i] * w[i];
  double cum = 0, s = 0;
  for (auto &[k, v] : h) {
    cum += v;
    s += k * cum;
  }
  for (int k = 0; k < 8; k++) {
    auto a = h.find(k), b = h.lower_bound(k + 1);
    if (a != h.end() && b != h.end()) s += 0.5 * (a->second - b->second) * (a->second - b->second);
  }
  return s + std::prev(h.end())->second;
}

int main() {
  double w[N], dw[N] = {0}, fd[N];
  int bin[N] = {3, 1, 4, 1, 5, 2, 6, 5, 3, 7};
  fz_seed(144);
  fz_fill(w, N, -1, 1);
  __enzyme_autodiff<void>((void *)binned, enzyme_dup, w, dw, enzyme_const, bin);
  fz_fd_grad_of([&] { return binned(w, bin); }, w, N, fd);
  fz_check_arr("reverse vs fd", dw, fd, N, 1e-6);
  // Analytic: bins sorted 1..7; h_k = sum of w_i^2 in bin k.
  double hk[8] = {0};
  for (int i = 0; i < N; i++) hk[bin[i]] += w[i] * w[i];
  double dh[8] = {0};
  for (int k = 1; k <= 7; k++)
    for (int j = k; j <= 7; j++) dh[k] += j;  // d(sum_j j cum_j)/dh_k
  for (int k = 1; k < 7; k++) {  // neighbours k, k+1 (all bins 1..7 present)
    dh[k] += hk[k] - hk[k + 1];
    dh[k + 1] -= hk[k] - hk[k + 1];
  }
  dh[7] += 1;
  double want[N];
  for (int i = 0; i < N; i++) want[i] = dh[bin[i]] * 2 * w[i];
  fz_check_arr("reverse vs analytic", dw, want, N, 1e-12);
  return fz_finish();
}

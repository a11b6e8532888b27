// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Segmented and singly linked containers holding active doubles: std::deque
// (push_front/back, pop_front, operator[] across block boundaries: 200 doubles span
// several 512-byte blocks) and std::forward_list (push_front, iteration). std::list is
// in 97 (ignored). Oracle: central finite differences.
#include "fz_cxx.h"
#include <cmath>
#include <deque>
#include <forward_list>

double model(const double *x, int n) {
  double s = 0.0;
  std::deque<double> q;
  for (int r = 0; r < 40; r++)
    for (int i = 0; i < n; i++) {
      if (r % 2) q.push_front(x[i] * 0.01 * r); else q.push_back(std::sin(x[i]) * 0.01);
    }
  q.pop_front();
  for (size_t i = 0; i < q.size(); i += 7) s += q[i] * q[q.size() - 1 - i];

  std::forward_list<double> fl;
  for (int i = 0; i < n; i++) fl.push_front(std::exp(0.1 * x[i]));
  for (double v : fl) s += v;
  return s;
}

int main() {
  const int n = 5;
  double x[n] = {0.3, -0.6, 0.9, 0.2, -0.4}, dx[n] = {0};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++) {
    auto f = [&] { return model(x, n); };
    fz_check("dx", dx[i], fz_fd(f, x[i]), 1e-6);
  }
  return fz_finish();
}

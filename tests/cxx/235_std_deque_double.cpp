// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// stl24: `std::deque<double>` grown at both ends past one 512-byte chunk (the map of
// chunk pointers is reallocated), indexed randomly, popped from both ends, and used as a
// sliding window (a moving average). Oracle: central finite differences and the analytic
// gradient of the plain sum.
#include "fz_cxx.h"
#include <deque>

double model(const double *x, int n) {
  std::deque<double> d;
  for (int r = 0; r < 20; r++)
    for (int i = 0; i < n; i++) {
      if ((r + i) % 2) d.push_back(x[i] * (r + 1)); else d.push_front(x[i] * x[i]);
    }
  double s = 0.0;
  for (size_t i = 0; i < d.size(); i += 7) s += d[i] * 0.01;
  d.pop_front();
  d.pop_back();
  std::deque<double> win;
  double avg = 0.0;
  for (double v : d) {
    win.push_back(v);
    if (win.size() > 4) win.pop_front();
    double m = 0.0;
    for (double w : win) m += w;
    avg += m / (double)win.size();
  }
  return s + avg * 1e-2;
}

int main() {
  const int n = 7;
  double x[n] = {0.3, -0.6, 0.9, 0.2, -0.4, 0.75, 1.1}, dx[n] = {0}, fd[n];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  fz_fd_grad_of([&] { return model(x, n); }, x, n, fd);
  fz_check_arr("dx fd", dx, fd, n, 1e-6);
  return fz_finish();
}

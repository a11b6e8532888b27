// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Forward mode (`__enzyme_fwddiff`) through the standard containers this round's reverse
// programs use: an `std::unordered_map<int, double>` filled and read back, a sort of
// records `{int id; double v; double w}` by value, a `std::deque` window and a
// `std::function<void()>` writing through a captured reference. Each directional
// derivative is checked against central finite differences and against reverse mode
// through the dot-product identity <J v, 1> = <v, J^T 1>.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;

struct Rec {
  int id;
  double v, w;
};

double mixed(const double *x, int n) {
  std::unordered_map<int, double> m;
  for (int i = 0; i < n; i++) m[(i * 7) % 11] += x[i] * x[i];
  double s = 0;
  for (int k = 0; k < 11; k++) {
    auto it = m.find(k);
    if (it != m.end()) s += std::sin(it->second) * (k + 1);
  }
  std::vector<Rec> r;
  for (int i = 0; i < n; i++) r.push_back({i, x[i], 0.5 + i});
  std::sort(r.begin(), r.end(), [](const Rec &a, const Rec &b) { return a.v < b.v; });
  for (int i = 0; i < n; i++) s += r[i].v * r[i].w * (i + 1) * 0.1;
  std::deque<double> win;
  double acc = 0;
  for (int i = 0; i < 3 * n; i++) {
    win.push_back(x[i % n] * (1 + 0.01 * i));
    acc += win.back();
    if (win.size() > 4) {
      acc -= win.front();
      win.pop_front();
    }
    s += 0.05 * acc * acc;
  }
  double t = x[0];
  std::function<void()> g = [&t, x] { t = t * x[1] + 0.3; };
  g();
  g();
  return s + t;
}

int main() {
  const int n = 6;
  double x[n] = {0.41, -0.93, 1.27, 0.18, -0.52, 0.77}, v[n] = {0.3, -0.2, 0.5, 1.0, -0.7, 0.4};
  double dx[n] = {0};
  double jv = __enzyme_fwddiff<double>((void *)mixed, enzyme_dup, x, v, enzyme_const, n);
  fz_check("J v vs FD", jv, fz_fd_dir_of([&] { return mixed(x, n); }, x, v, n), 1e-6);
  __enzyme_autodiff<void>((void *)mixed, enzyme_dup, x, dx, enzyme_const, n);
  double dot = 0;
  for (int i = 0; i < n; i++) dot += v[i] * dx[i];
  fz_check("<J v, 1> = <v, J^T 1>", jv, dot, 1e-12);
  return fz_finish();
}

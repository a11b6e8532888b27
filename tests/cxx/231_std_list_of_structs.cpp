// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// stl24: `std::list` of structs mixing an `int` tag, a `double` and a `float`, built by
// push_back/push_front/emplace inside the differentiated function, spliced, sorted by
// the active value, iterated and summed; the list header's `_M_size` (offset 16) and a
// node's `int tag` (offset 16 of `_List_node<Particle>`) share a location to type
// analysis. Oracle: the analytic gradient (every element contributes w_i * (x_i^2 + c)
// once, in an order that does not matter to the sum) and central finite differences.
#include "fz_cxx.h"
#include <cmath>
#include <list>

struct Particle {
  int tag;
  double v;
  float w;
};

double model(const double *x, int n) {
  std::list<Particle> a, b;
  for (int i = 0; i < n; i++) {
    Particle p{i, x[i] * x[i] + 0.5, 0.25f * (i + 1)};
    if (i % 2) a.push_back(p); else b.push_front(p);
  }
  a.emplace(a.begin(), Particle{n, x[0] * x[1], 1.0f});
  a.splice(a.end(), b);
  a.sort([](const Particle &p, const Particle &q) { return p.v < q.v; });
  double s = 0.0;
  for (const Particle &p : a) s += p.w * p.v + 0.001 * p.tag;
  return s + 0.01 * (double)a.size();
}

int main() {
  const int n = 6;
  double x[n] = {0.3, -0.6, 0.9, 0.2, -0.4, 0.75}, dx[n] = {0}, fd[n], an[n];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++) an[i] = 0.25 * (i + 1) * 2.0 * x[i];
  an[0] += x[1];
  an[1] += x[0];
  fz_check_arr("dx analytic", dx, an, n, 1e-9);
  fz_fd_grad_of([&] { return model(x, n); }, x, n, fd);
  fz_check_arr("dx fd", dx, fd, n, 1e-6);
  return fz_finish();
}

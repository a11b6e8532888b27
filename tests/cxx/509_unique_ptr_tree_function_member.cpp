// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// probe43: a binary tree of `std::unique_ptr<Node>` built inside the differentiated
// function by recursion from the active inputs, reduced recursively through a
// `std::function` member of a constant model object (passed enzyme_const) that combines
// each node's weight with its children's results (tanh, sin, a product), the tree freed
// at the end. Reverse against central differences, forward against <gradient, v>.
// Passed as written.
#include "fz_cxx.h"
#include <memory>
#include <functional>
#include <vector>
extern double __enzyme_fwddiff(void *, ...);
struct Node {
  double w; std::unique_ptr<Node> l, r;
};
static std::unique_ptr<Node> build(const double *x, int lo, int hi) {
  auto n = std::make_unique<Node>();
  int mid = (lo + hi) / 2; n->w = x[mid];
  if (lo < mid) n->l = build(x, lo, mid);
  if (mid + 1 < hi) n->r = build(x, mid + 1, hi);
  return n;
}
static double reduce(const Node *n, const std::function<double(double, double, double)> &f) {
  if (!n) return 0.0;
  return f(n->w, reduce(n->l.get(), f), reduce(n->r.get(), f));
}
struct Model {
  std::function<double(double, double, double)> comb;
  double run(const double *x, int n) const { auto t = build(x, 0, n); return reduce(t.get(), comb); }
};
double loss(const double *x, int n, const Model *m) { return m->run(x, n); }
int main() {
  Model m{[](double w, double a, double b) { return std::tanh(w) + 0.5 * a * b + a + std::sin(b); }};
  double x[7] = {0.3, -0.8, 1.2, 0.5, -1.4, 0.9, 0.1}, dx[7] = {0}, g[7];
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, 7, enzyme_const, &m);
  fz_fd_grad_of([&] { return loss(x, 7, &m); }, x, 7, g);
  for (int i = 0; i < 7; i++) fz_check("unique_ptr tree rev", dx[i], g[i], 1e-6);
  double v[7], dot = 0; for (int i = 0; i < 7; i++) { v[i] = 0.1 * (i + 1); dot += v[i] * dx[i]; }
  fz_check("unique_ptr tree fwd", __enzyme_fwddiff((void *)loss, enzyme_dup, x, v, enzyme_const, 7, enzyme_const, &m), dot, 1e-10);
  return fz_finish();
}

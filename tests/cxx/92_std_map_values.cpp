// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// std::map inside the differentiated function: a map<int, double> built from active
// values (its nodes come from operator new in libstdc++'s red-black tree templates; the
// links are set by libstdc++.so's _Rb_tree_insert_and_rebalance and walked by
// _Rb_tree_increment/decrement, which Ferrozyme differentiates through definitions of
// its own, libdefs/cxx_nodes.c), looked up with inactive keys via find/operator[]/at,
// iterated in key order and backwards (erase, through _Rb_tree_rebalance_for_erase, works
// at -O0/-O2/-O3 but is cannot-deduce-type at -O1: not here); and a global const std::map<std::string, double>
// of coefficients read by name, declared inactive with __enzyme_inactive_global (without
// that it is an error: tests/errors/ctor_global_map.cpp; before sweep9 the program
// crashed). Oracle: central finite differences, and forward mode against reverse mode.
#include "fz_cxx.h"
#include <cmath>
#include <map>
#include <string>

static const std::map<std::string, double> coef = {{"alpha", 0.7}, {"beta", -1.3}, {"gamma", 0.25}};
void *__enzyme_inactive_global[] = {(void *)&coef};

double model(const double *x, int n) {
  std::map<int, double> m;
  for (int i = 0; i < n; i++) m[(i * 7) % n] = x[i] * x[i] + coef.at("gamma");
  double s = 0.0;
  int k = 1;
  for (const auto &kv : m) s += k++ * std::sin(kv.second);
  auto it = m.find(2);
  if (it != m.end()) s += coef.at("alpha") * it->second * x[0];
  for (auto r = m.rbegin(); r != m.rend(); ++r) s += 0.1 * r->second * r->second;
  m[100] = s;
  s += coef.at("beta") * m.at(100) * m[1];
  return s;
}

int main() {
  const int n = 6;
  double x[n] = {0.3, -0.6, 0.9, 0.2, -0.4, 0.75}, dx[n] = {0};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++) {
    auto f = [&] { return model(x, n); };
    fz_check("dx", dx[i], fz_fd(f, x[i]), 1e-6);
    // forward mode builds and walks the shadow map alongside the primal one
    double e[n] = {0};
    e[i] = 1.0;
    fz_check("forward vs reverse",
             __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, e, enzyme_const, n), dx[i], 1e-12);
  }
  return fz_finish();
}

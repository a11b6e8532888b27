// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// `std::unordered_map<int, double>` built inside the differentiated function: values
// inserted with `operator[]`, `emplace`, `try_emplace` and `insert_or_assign` (enough
// entries to rehash several times), looked up with `find`, `at` and `count`, updated in
// place through the iterator, some erased, then summed by iteration (hash order) and by
// key. A second map accumulates a sparse histogram weighted by active values. Oracle:
// central finite differences.
#include "fz_cxx.h"
#include <cmath>
#include <unordered_map>

extern int enzyme_dup, enzyme_const, enzyme_out;

double sparse_model(const double *w, int n, int m) {
  std::unordered_map<int, double> coef;
  for (int i = 0; i < n; i++) coef[i * 13 % 97] = w[i];
  for (int i = 0; i < n; i++) coef.emplace(1000 + i, w[i] * w[i]);       // new keys
  for (int i = 0; i < n; i += 2) coef.try_emplace(i * 13 % 97, -1.0);    // existing: no-op
  for (int i = 1; i < n; i += 3) coef.insert_or_assign(2000 + i, std::sin(w[i]));
  for (int i = 0; i < n; i += 4) coef.erase(1000 + i);

  double acc = 0;
  for (int k = 0; k < m; k++) {
    int key = (k * 13) % 97;
    auto it = coef.find(key);
    if (it != coef.end()) {
      it->second *= 1.0 + 0.01 * k;
      acc += it->second * it->second;
    }
    if (coef.count(1000 + k)) acc += 0.5 * coef.at(1000 + k);
  }
  for (const auto &kv : coef) acc += 0.1 * std::tanh(kv.second) * (kv.first % 5 + 1);

  std::unordered_map<int, double> hist;
  for (int i = 0; i < n; i++) hist[(i * i) % 7] += std::exp(-w[i] * w[i]);
  for (int b = 0; b < 7; b++) {
    auto it = hist.find(b);
    acc += (it == hist.end() ? 0.0 : it->second) * (b + 1);
  }
  return acc;
}

int main() {
  const int n = 40, m = 60;
  double w[n], dw[n] = {0}, want[n];
  fz_seed(316);
  fz_fill(w, n, -1.0, 1.0);
  __enzyme_autodiff<void>((void *)sparse_model, enzyme_dup, w, dw, enzyme_const, n, enzyme_const, m);
  fz_fd_grad_of([&] { return sparse_model(w, n, m); }, w, n, want);
  fz_check_arr("sparse_model grad", dw, want, n, 1e-6);
  return fz_finish();
}

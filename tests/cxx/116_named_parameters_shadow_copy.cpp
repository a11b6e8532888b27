// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// A model whose parameters live in a vector of named records (`struct Param { std::string
// name; double value; bool frozen; }`), looked up by name with `std::find_if` and
// `std::string::compare` inside the differentiated function, the way configuration-driven
// codes hold them. The shadow is the Enzyme idiom: a copy of the whole structure with
// every value zeroed, passed by `enzyme_dup`. Oracle: central finite differences.
#include "fz_cxx.h"
#include <algorithm>
#include <string>
#include <vector>

struct Param {
  std::string name;
  double value;
  bool frozen;
};

static double get(const std::vector<Param> &ps, const char *name) {
  auto it = std::find_if(ps.begin(), ps.end(), [&](const Param &p) { return p.name == name; });
  return it == ps.end() ? 0.0 : it->value;
}

double predict(const std::vector<Param> *ps, const double *xs, int n) {
  double a = get(*ps, "amplitude_of_the_signal"), k = get(*ps, "k"), c = get(*ps, "offset");
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double y = a * std::exp(-k * xs[i]) + c;
    s += y * y;
  }
  for (const Param &p : *ps)
    if (!p.frozen && p.name.size() > 1) s += 0.01 * p.value * p.value;
  return s;
}

int main() {
  std::vector<Param> ps = {{"amplitude_of_the_signal", 1.7, false}, {"k", 0.4, false},
                           {"offset", -0.3, true}, {"unused_parameter_name", 2.0, false}};
  std::vector<Param> dps = ps;
  for (Param &p : dps) p.value = 0.0;
  double xs[5] = {0.0, 0.5, 1.0, 2.0, 3.5};
  __enzyme_autodiff<void>((void *)predict, enzyme_dup, &ps, &dps, enzyme_const, xs, 5);
  for (size_t i = 0; i < ps.size(); i++) {
    double want = fz_fd([&] { return predict(&ps, xs, 5); }, ps[i].value);
    fz_check(ps[i].name.c_str(), dps[i].value, want, 1e-6);
  }
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// IGNORE-O1: mismatched activity at `std::map<std::string, int>::operator[](std::string &&)` (the rvalue key, a constant, is stored into the node, which has a shadow; the node pointer returned is constant or differentiable depending on the run) and cannot-deduce-type at the key's character memcpy in `_M_construct_node` (sweep15 in tests/README.md)
// IGNORE-O2: the same as -O1
// IGNORE-O3: the same as -O1
// IGNORE-PLUGIN: the same as -O1 (the plugin trial is at -O2)
// Configuration-driven models look their parameters up by name: a
// `std::map<std::string, int>` built inside the differentiated function maps names to
// slots of the active parameter array, `std::string` keys built from literals and
// concatenation (`"w" + std::to_string(i)`), `find`/`at`/`count`, and a
// `std::vector<std::pair<std::string, double>>` of weighted terms. The strings are
// inactive; the doubles they index are not. Oracle: central finite differences and the
// analytic gradient.
#include "fz_cxx.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

double named_model(const double *theta, const double *data, int n) {
  std::map<std::string, int> slot;
  slot["bias"] = 0;
  for (int i = 0; i < 3; i++) slot["w" + std::to_string(i)] = i + 1;
  slot.emplace("decay", 4);
  std::vector<std::pair<std::string, double>> terms = {{"w0", 1.0}, {"w2", -0.5}, {"decay", 2.0}};
  double s = 0;
  for (int k = 0; k < n; k++) {
    double x = data[k];
    double pred = theta[slot.at("bias")] + theta[slot.at("w0")] * x +
                  theta[slot.at("w1")] * x * x + theta[slot["w2"]] * x * x * x;
    s += pred * pred * std::exp(-theta[slot.find("decay")->second] * k);
  }
  for (const auto &t : terms)
    if (slot.count(t.first)) s += t.second * theta[slot[t.first]] * theta[slot[t.first]];
  return s;
}

#define NT 5
#define ND 6

int main() {
  double th[NT] = {0.1, 0.5, -0.3, 0.2, 0.25}, d[ND], dth[NT] = {0}, fd[NT];
  fz_seed(124);
  fz_fill(d, ND, -1, 1);
  __enzyme_autodiff<void>((void *)named_model, enzyme_dup, th, dth, enzyme_const, d,
                          enzyme_const, ND);
  auto f = [&] { return named_model(th, d, ND); };
  fz_fd_grad_of(f, th, NT, fd);
  fz_check_arr("grad (fd)", dth, fd, NT, 1e-6);
  double want0 = 0;
  for (int k = 0; k < ND; k++) {
    double x = d[k], pred = th[0] + th[1] * x + th[2] * x * x + th[3] * x * x * x;
    want0 += 2 * pred * std::exp(-th[4] * k);
  }
  fz_check("d/dbias (analytic)", dth[0], want0, 1e-12);
  return fz_finish();
}

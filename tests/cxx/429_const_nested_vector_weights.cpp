// OPT: O0 O2
// CFLAGS: -std=c++20
// Constant weights as `std::vector<std::vector<double>>` (a two-layer network with ragged
// rows read through `const auto &row`, `.at()` and `std::transform_reduce`), passed as
// `enzyme_const`, with an active input vector. Oracle: the analytic gradient, central
// differences, forward/reverse dot product, and the constant weights unchanged.
#include "fz_cxx.h"
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

struct Net {
  std::vector<std::vector<double>> W1;
  std::vector<double> w2;
};

double model(const double *x, const Net *net, int n) {
  std::vector<double> h;
  for (const auto &row : net->W1) {
    double z = std::transform_reduce(row.begin(), row.end(), x, 0.0);
    h.push_back(std::tanh(z));
  }
  double s = 0;
  for (size_t i = 0; i < h.size(); i++) s += net->w2.at(i) * h[i];
  return s + net->W1.back().front() * x[0] * x[n - 1];
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 4;
  double x[n] = {0.3, -0.5, 0.8, 0.15}, dx[n] = {0}, fd[n], want[n] = {0};
  Net net{{{0.5, -0.25, 0.1, 0.2}, {0.3, 0.7}, {-0.6, 0.2, 0.9}}, {1.5, -0.5, 0.75}};
  const Net net0 = net;
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, &net, enzyme_const, n);
  fz_check("enzyme_const weights unchanged", net.W1 == net0.W1 && net.w2 == net0.w2 ? 1 : 0, 1, 0);
  for (size_t i = 0; i < net0.W1.size(); i++) {
    double z = 0;
    for (size_t j = 0; j < net0.W1[i].size(); j++) z += net0.W1[i][j] * x[j];
    double t = std::tanh(z);
    for (size_t j = 0; j < net0.W1[i].size(); j++) want[j] += net0.w2[i] * (1 - t * t) * net0.W1[i][j];
  }
  want[0] += -0.6 * x[n - 1], want[n - 1] += -0.6 * x[0];
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(x, &net0, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9}, dv = 0;
  for (int k = 0; k < n; k++) dv += want[k] * v[k];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, &net,
                                       enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  fz_check("enzyme_const weights unchanged after forward", net.W1 == net0.W1 ? 1 : 0, 1, 0);
  return fz_finish();
}

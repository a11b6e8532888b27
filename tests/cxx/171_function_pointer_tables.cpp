// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Function-pointer tables in the differentiated function (sweep19): a global constant
// table of activation functions (`double (*)(double)`), a `std::array` of lambdas
// converted to function pointers chosen by an integer code per layer, a struct of
// function pointers (a user's "vtable" in C style) passed by `const` pointer, and a
// `std::function` built from a table entry. Reverse mode against the analytic derivative
// of each activation and finite differences of the network; forward mode against the
// reverse (dot-product identity).
#include "fz_cxx.h"
#include <array>
#include <cmath>
#include <functional>

static double relu_soft(double x) { return std::log1p(std::exp(x)); }
static double sq(double x) { return x * x; }
static double sine(double x) { return std::sin(x); }
static double (*const kActs[3])(double) = {relu_soft, sq, sine};

struct Ops {
  double (*combine)(double, double);
  double (*out)(double);
};
static double comb(double a, double b) { return a * b + a; }
static double out_tanh(double x) { return std::tanh(x); }

double net(const double *w, const int *codes, int layers, const Ops *ops) {
  static const std::array<double (*)(double), 2> extra = {
      [](double v) { return v / (1 + v * v); }, [](double v) { return std::exp(-v * v); }};
  double h = w[0];
  for (int l = 0; l < layers; l++) {
    h = kActs[codes[l]](h * w[l + 1]);
    h = ops->combine(h, extra[l % 2](h));
  }
  std::function<double(double)> last = kActs[codes[0]];
  return ops->out(h) + last(w[0]);
}

double act_entry(double x, int k) { return kActs[k](x); }

int main() {
  double x = 0.6;
  double want[3] = {1 / (1 + std::exp(-x)), 2 * x, std::cos(x)};
  for (int k = 0; k < 3; k++)
    fz_check("d act_k / dx", __enzyme_autodiff<double>((void *)act_entry, x, enzyme_const, k), want[k],
             1e-14);
  const int L = 4;
  double w[L + 1] = {0.4, 0.9, -0.7, 1.2, 0.5}, dw[L + 1] = {0}, fd[L + 1];
  int codes[L] = {0, 2, 1, 2};
  Ops ops{comb, out_tanh};
  __enzyme_autodiff<void>((void *)net, enzyme_dup, w, dw, enzyme_const, codes, enzyme_const, L,
                          enzyme_const, &ops);
  auto f = [&]() { return net(w, codes, L, &ops); };
  fz_fd_grad_of(f, w, L + 1, fd);
  fz_check_arr("network gradient vs FD", dw, fd, L + 1, 1e-6);
  double v[L + 1] = {1, -0.5, 0.25, 0.75, -1};
  double t = __enzyme_fwddiff<double>((void *)net, enzyme_dup, w, v, enzyme_const, codes, enzyme_const, L,
                                      enzyme_const, &ops);
  double dot = 0;
  for (int i = 0; i <= L; i++) dot += v[i] * dw[i];
  fz_check("forward = <v, gradient>", t, dot, 1e-12);
  return fz_finish();
}

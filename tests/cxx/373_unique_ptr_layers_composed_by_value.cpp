// OPT: O0 O2
// CFLAGS: -std=c++17
// IGNORE-O0: cannot-deduce-type at the 8-byte memcpy in `std::_Tuple_impl<0, Layer *, default_delete<Layer>>`'s move constructor (the `std::unique_ptr<Layer>` moved into `Residual::inner` and into the vector: conflicting uses of the moved storage); a clear compile-time error. -O2 passes
// Polymorphic layers as a user's small framework writes them, beside cxx/361: virtual
// `std::vector<double> forward(const std::vector<double> &)` returning by value, layers
// that *copy* their weights out of the parameter vector into their own `std::vector`
// (the gradient flows back through the copy), a `Residual` decorator owning another
// layer through `std::unique_ptr<Layer>`, and one slot of the
// `std::vector<std::unique_ptr<Layer>>` reassigned (the old layer destroyed) before the
// forward pass. Oracle: central finite differences for every parameter and the inputs.
#include "fz_cxx.h"
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

struct Layer {
  virtual ~Layer() = default;
  virtual std::vector<double> forward(const std::vector<double> &in) const = 0;
};

struct Affine final : Layer {
  int nin, nout;
  std::vector<double> w;  // copied: nout x nin, then nout biases
  Affine(const double *p, int nin_, int nout_)
      : nin(nin_), nout(nout_), w(p, p + nin_ * nout_ + nout_) {}
  std::vector<double> forward(const std::vector<double> &in) const override {
    std::vector<double> out(nout);
    for (int o = 0; o < nout; o++) {
      double s = w[nin * nout + o];
      for (int i = 0; i < nin; i++) s += w[o * nin + i] * in[i];
      out[o] = s;
    }
    return out;
  }
};

struct Tanh final : Layer {
  std::vector<double> forward(const std::vector<double> &in) const override {
    std::vector<double> out(in);
    for (double &v : out) v = std::tanh(v);
    return out;
  }
};

struct Scale final : Layer {
  double k;
  explicit Scale(double k_) : k(k_) {}
  std::vector<double> forward(const std::vector<double> &in) const override {
    std::vector<double> out;
    out.reserve(in.size());
    for (double v : in) out.push_back(k * v);
    return out;
  }
};

struct Residual final : Layer {
  std::unique_ptr<Layer> inner;
  explicit Residual(std::unique_ptr<Layer> l) : inner(std::move(l)) {}
  std::vector<double> forward(const std::vector<double> &in) const override {
    std::vector<double> out = inner->forward(in);
    for (size_t i = 0; i < out.size(); i++) out[i] += in[i];
    return out;
  }
};

double loss(const double *p, const double *x) {
  std::vector<std::unique_ptr<Layer>> net;
  net.push_back(std::make_unique<Affine>(p, 3, 3));                        // 12 params
  net.push_back(std::make_unique<Scale>(2.0));
  net.push_back(std::make_unique<Residual>(std::make_unique<Affine>(p + 12, 3, 3)));  // 12
  net.push_back(std::make_unique<Affine>(p + 24, 3, 1));                   // 4
  net[1] = std::make_unique<Tanh>();  // the Scale layer is destroyed here
  std::vector<double> h(x, x + 3);
  for (const auto &l : net) h = l->forward(h);
  return 0.5 * (h[0] - 0.3) * (h[0] - 0.3);
}

extern int enzyme_dup;

int main() {
  const int np = 28;
  double p[np], dp[np] = {0}, fp[np], x[3] = {0.5, -0.7, 0.9}, dx[3] = {0}, fx[3];
  for (int i = 0; i < np; i++) p[i] = 0.4 * std::sin(1.7 * i + 0.3);
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, p, dp, enzyme_dup, x, dx);
  fz_fd_grad_of([&] { return loss(p, x); }, p, np, fp);
  fz_fd_grad_of([&] { return loss(p, x); }, x, 3, fx);
  fz_check_arr("d/dp finite differences", dp, fp, np, 1e-6);
  fz_check_arr("d/dx finite differences", dx, fx, 3, 1e-6);
  double sum = 0;
  for (int i = 0; i < np; i++) sum += std::fabs(dp[i]);
  fz_check("gradient is not all zero", sum > 1e-3 ? 1.0 : 0.0, 1.0, 0);
  return fz_finish();
}

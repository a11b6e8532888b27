// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// A small autodiff-unaware class hierarchy: `Layer` with a virtual `forward(const
// double *in, double *out)` and virtual destructor, `Dense` (weights pointing into the
// caller's parameter vector), `Tanh` and `Softplus` activations, owned by a
// `std::vector<std::unique_ptr<Layer>>` built inside the differentiated loss; a 3-5-4-1
// MLP's squared error over four samples. Oracle: central differences of every weight and
// of one input sample.
#include "fz_cxx.h"
#include <cmath>
#include <memory>
#include <vector>

struct Layer {
  virtual ~Layer() = default;
  virtual int outputs() const = 0;
  virtual void forward(const double *in, double *out) const = 0;
};

struct Dense : Layer {
  const double *w;  // rows of (nin weights, bias)
  int nin, nout;
  Dense(const double *w, int nin, int nout) : w(w), nin(nin), nout(nout) {}
  int outputs() const override { return nout; }
  void forward(const double *in, double *out) const override {
    for (int o = 0; o < nout; o++) {
      const double *row = w + o * (nin + 1);
      double s = row[nin];
      for (int i = 0; i < nin; i++) s += row[i] * in[i];
      out[o] = s;
    }
  }
};

struct Activation : Layer {
  int n;
  explicit Activation(int n) : n(n) {}
  int outputs() const override { return n; }
};
struct Tanh : Activation {
  using Activation::Activation;
  void forward(const double *in, double *out) const override {
    for (int i = 0; i < n; i++) out[i] = std::tanh(in[i]);
  }
};
struct Softplus : Activation {
  using Activation::Activation;
  void forward(const double *in, double *out) const override {
    for (int i = 0; i < n; i++) out[i] = std::log1p(std::exp(in[i]));
  }
};

enum { NW = 5 * 4 + 4 * 6 + 1 * 5 };

double loss(const double *w, const double *xs, const double *ys, int m) {
  std::vector<std::unique_ptr<Layer>> net;
  net.push_back(std::make_unique<Dense>(w, 3, 5));
  net.push_back(std::make_unique<Tanh>(5));
  net.push_back(std::make_unique<Dense>(w + 20, 5, 4));
  net.push_back(std::make_unique<Softplus>(4));
  net.push_back(std::make_unique<Dense>(w + 44, 4, 1));
  double total = 0;
  for (int s = 0; s < m; s++) {
    double a[8], b[8];
    for (int i = 0; i < 3; i++) a[i] = xs[3 * s + i];
    for (const auto &layer : net) {
      layer->forward(a, b);
      for (int i = 0; i < layer->outputs(); i++) a[i] = b[i];
    }
    double r = a[0] - ys[s];
    total += r * r;
  }
  return total / m;
}

extern int enzyme_dup, enzyme_const;

int main() {
  double w[NW], dw[NW] = {0}, fd[NW];
  for (int i = 0; i < NW; i++) w[i] = 0.6 * std::sin(1.3 * i + 0.2);
  double xs[12], dxs[12] = {0}, ys[4] = {0.3, -0.2, 0.8, 0.1};
  for (int i = 0; i < 12; i++) xs[i] = std::cos(0.7 * i);
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, w, dw, enzyme_dup, xs, dxs,
                          enzyme_const, ys, enzyme_const, 4);
  fz_fd_grad_of([&] { return loss(w, xs, ys, 4); }, w, NW, fd);
  fz_check_arr("d/dw finite differences", dw, fd, NW, 1e-6);
  fz_fd_grad_of([&] { return loss(w, xs, ys, 4); }, xs, 3, fd);
  fz_check_arr("d/dx0 finite differences", dxs, fd, 3, 1e-6);
  return fz_finish();
}

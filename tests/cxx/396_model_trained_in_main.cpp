// OPT: O0 O2
// CFLAGS: -std=c++17
// The training loop as a user writes it around an autodiff-unaware model: the model is a
// `std::vector<std::unique_ptr<Layer>>` built in `main` (virtual `forward`, weights in
// each layer's own `std::vector<double>`), its shadow a structural copy with zeroed
// weights (`Layer::zero_clone`, the Enzyme way of passing an object as `enzyme_dup`),
// and 25 gradient-descent steps each zero the shadow, call `__enzyme_autodiff` on the
// loss and update the weights. Oracle: the first gradient against central differences
// of every weight; every step's gradient against forward mode along a random direction
// (dot-product identity); the loss after training below its start and decreasing over
// the last steps (a small learning rate on a smooth loss).
#include "fz_cxx.h"
#include <cmath>
#include <algorithm>
#include <memory>
#include <vector>

struct Layer {
  virtual ~Layer() = default;
  virtual void forward(const double *in, double *out) const = 0;
  virtual std::unique_ptr<Layer> zero_clone() const = 0;
  virtual std::vector<double> *weights() { return nullptr; }
  virtual int width() const = 0;
};

struct Dense final : Layer {
  int nin, nout;
  std::vector<double> w;  // nout x nin weights, then nout biases
  Dense(int i, int o, double seed) : nin(i), nout(o), w(i * o + o) {
    for (size_t k = 0; k < w.size(); k++) w[k] = 0.3 * std::sin(seed + 1.7 * k);
  }
  void forward(const double *in, double *out) const override {
    for (int o = 0; o < nout; o++) {
      double s = w[nin * nout + o];
      for (int i = 0; i < nin; i++) s += w[o * nin + i] * in[i];
      out[o] = s;
    }
  }
  std::unique_ptr<Layer> zero_clone() const override {
    auto d = std::make_unique<Dense>(*this);
    std::fill(d->w.begin(), d->w.end(), 0.0);
    return d;
  }
  std::vector<double> *weights() override { return &w; }
  int width() const override { return nout; }
};

struct Tanh final : Layer {
  int n;
  explicit Tanh(int n_) : n(n_) {}
  void forward(const double *in, double *out) const override {
    for (int i = 0; i < n; i++) out[i] = std::tanh(in[i]);
  }
  std::unique_ptr<Layer> zero_clone() const override { return std::make_unique<Tanh>(n); }
  int width() const override { return n; }
};

using Model = std::vector<std::unique_ptr<Layer>>;

double loss(const Model *m, const double *xs, const double *ys, int n) {
  double total = 0;
  for (int s = 0; s < n; s++) {
    double a[8], b[8];
    for (int i = 0; i < 2; i++) a[i] = xs[2 * s + i];
    for (const auto &l : *m) {
      l->forward(a, b);
      for (int i = 0; i < l->width(); i++) a[i] = b[i];
    }
    double e = a[0] - ys[s];
    total += 0.5 * e * e;
  }
  return total / n;
}

extern int enzyme_dup, enzyme_const;

static Model zero_model(const Model &m) {
  Model d;
  for (const auto &l : m) d.push_back(l->zero_clone());
  return d;
}

int main() {
  Model m;
  m.push_back(std::make_unique<Dense>(2, 4, 0.1));
  m.push_back(std::make_unique<Tanh>(4));
  m.push_back(std::make_unique<Dense>(4, 1, 0.7));
  const int n = 6;
  double xs[2 * n], ys[n];
  for (int s = 0; s < n; s++) {
    xs[2 * s] = -1 + 0.4 * s;
    xs[2 * s + 1] = 0.5 * std::cos(s);
    ys[s] = std::sin(xs[2 * s]) + 0.3 * xs[2 * s + 1];
  }
  // the first gradient against central differences of every weight
  {
    Model d = zero_model(m);
    __enzyme_autodiff<void>((void *)loss, enzyme_dup, &m, &d, enzyme_const, xs, enzyme_const,
                            ys, enzyme_const, n);
    for (int k : {0, 2}) {
      std::vector<double> &w = *m[k]->weights(), &dw = *d[k]->weights();
      std::vector<double> fd(w.size());
      fz_fd_grad_of([&] { return loss(&m, xs, ys, n); }, w.data(), int(w.size()), fd.data());
      fz_check_arr(k ? "layer 2 weights vs finite differences"
                     : "layer 0 weights vs finite differences",
                   dw.data(), fd.data(), int(w.size()), 1e-6);
    }
  }
  double first = loss(&m, xs, ys, n), prev = first, lr = 0.2;
  bool decreasing = true;
  int dot_failures = 0;
  fz_seed(7);
  for (int step = 0; step < 25; step++) {
    Model d = zero_model(m), t = zero_model(m);
    __enzyme_autodiff<void>((void *)loss, enzyme_dup, &m, &d, enzyme_const, xs, enzyme_const,
                            ys, enzyme_const, n);
    // a random direction in the tangent model; <grad, v> must equal forward mode's J v
    double dv = 0;
    for (int k : {0, 2}) {
      std::vector<double> &tw = *t[k]->weights(), &dw = *d[k]->weights();
      for (size_t j = 0; j < tw.size(); j++) {
        tw[j] = fz_uniform(-1, 1);
        dv += tw[j] * dw[j];
      }
    }
    double jv = __enzyme_fwddiff<double>((void *)loss, enzyme_dup, &m, &t, enzyme_const, xs,
                                         enzyme_const, ys, enzyme_const, n);
    if (std::fabs(jv - dv) > 1e-10 * (1 + std::fabs(dv))) dot_failures++;
    for (int k : {0, 2}) {
      std::vector<double> &w = *m[k]->weights(), &dw = *d[k]->weights();
      for (size_t j = 0; j < w.size(); j++) w[j] -= lr * dw[j];
    }
    double now = loss(&m, xs, ys, n);
    if (step >= 15 && now > prev) decreasing = false;
    prev = now;
  }
  fz_check("forward J.v == <grad, v> at every step (failures)", dot_failures, 0, 0);
  fz_check("training lowered the loss (after < 0.8 before)", prev < 0.8 * first, 1, 0);
  fz_check("loss decreasing over the last 10 steps", decreasing, 1, 0);
  return fz_finish();
}

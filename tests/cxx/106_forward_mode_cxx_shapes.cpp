// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Forward mode (`__enzyme_fwddiff<double>`) through the C++ shapes reverse mode covers in
// 102 and 104: a `std::vector<double> &` duplicated by address, a functor, a virtual
// call through a base pointer, `std::complex<double>` arithmetic, a lambda passed to a
// template, `std::array` of structs, and `enzyme_dupnoneed` on an output vector with a
// returned value. Oracles: directional finite differences, and the dot-product identity
// against reverse mode.
#include "fz_cxx.h"
#include <array>
#include <complex>
#include <vector>

struct Layer {
  virtual ~Layer() {}
  virtual double act(double v) const = 0;
};
struct Tanh : Layer {
  double act(double v) const override { return std::tanh(v); }
};
struct Softplus : Layer {
  double act(double v) const override { return std::log1p(std::exp(v)); }
};

template <typename F>
double sum_map(const std::vector<double> &v, F f) {
  double s = 0;
  for (double e : v) s += f(e);
  return s;
}

struct Pt { double x, y; };

double model(std::vector<double> &v, const Layer *l, std::vector<double> &out) {
  std::complex<double> z(v[0], v[1]);
  std::complex<double> w = std::exp(z * z) / (z + 2.0);
  std::array<Pt, 2> pts{{{v[2], v[3]}, {v[1], v[0]}}};
  double s = std::abs(w) + std::arg(w);
  for (auto &p : pts) s += p.x * p.y;
  double c = 1.5;
  s += sum_map(v, [c](double e) { return c * e * e * e; });
  for (size_t i = 0; i < v.size(); i++) {
    out[i] = l->act(v[i]) * s;
    s += out[i] * 0.1;
  }
  return s;
}

static double run(std::vector<double> &v, const Layer *l) {
  std::vector<double> o(v.size());
  return model(v, l, o);
}

int main() {
  Tanh th;
  Softplus sp;
  const Layer *layers[2] = {&th, &sp};
  for (const Layer *l : layers) {
    std::vector<double> v = {0.3, -0.5, 0.8, 1.1}, dv = {0.7, -0.2, 0.4, 1.0};
    std::vector<double> out(4), dout(4, 0.0);
    double t = __enzyme_fwddiff<double>((void *)model, enzyme_dup, &v, &dv, enzyme_const, l,
                                        enzyme_dupnoneed, &out, &dout);
    auto f = [&] { return run(v, l); };
    double want = fz_fd_dir_of(f, v.data(), dv.data(), 4);
    fz_check("fwd vs fd", t, want, 1e-6);
    // dot product: <J dv, 1> = <dv, J^T 1>
    std::vector<double> g(4, 0.0), o2(4), do2(4, 0.0);
    __enzyme_autodiff<void>((void *)model, enzyme_dup, &v, &g, enzyme_const, l,
                            enzyme_dupnoneed, &o2, &do2);
    double dot = 0;
    for (int i = 0; i < 4; i++) dot += g[i] * dv[i];
    fz_check("fwd vs rev", t, dot, 1e-10);
  }
  return fz_finish();
}

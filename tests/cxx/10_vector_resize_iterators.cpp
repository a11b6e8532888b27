// OPT: O0 O2
// CFLAGS: -std=c++17
// Issue 10's std::vector failure as a regression program: a function taking
// `const std::vector<double> &` and writing an output vector (resize, iterators,
// const_iterator loops, std::vector::data), differentiated with the vectors passed as
// enzyme_dup (shadow vectors of the same size). It crashed the compiler at -O0 and
// stopped with "mismatched activity" at -O2. Oracle: finite differences of sum(w*out).
#include "fz_cxx.h"
#include <vector>
#include <cmath>

void smooth(const std::vector<double> &in, std::vector<double> &out) {
  out.resize(in.size());
  auto o = out.begin();
  for (auto it = in.cbegin(); it != in.cend(); ++it, ++o) {
    auto prev = it == in.cbegin() ? it : it - 1;
    auto next = it + 1 == in.cend() ? it : it + 1;
    *o = 0.25 * *prev + 0.5 * *it + 0.25 * *next;
  }
  double *d = out.data();
  for (size_t i = 0; i < out.size(); i++) d[i] = std::sin(d[i]) * in[i];
}

int main() {
  fz_seed(310);
  const int n = 8;
  std::vector<double> in(n), din(n, 0.0), out(n), dout(n), w(n);
  for (auto &v : in) v = fz_uniform(-1, 1);
  for (auto &v : w) v = fz_uniform(-1, 1);
  dout = w;  // seed: the gradient of sum(w * out)
  __enzyme_autodiff((void *)smooth, enzyme_dup, &in, &din, enzyme_dup, &out, &dout);
  double fd[n];
  std::vector<double> tmp(n);
  auto f = [&] {
    smooth(in, tmp);
    double s = 0;
    for (int i = 0; i < n; i++) s += w[i] * tmp[i];
    return s;
  };
  fz_fd_grad_of(f, in.data(), n, fd);
  fz_check_arr("din", din.data(), fd, n, 1e-6);
  return fz_finish();
}

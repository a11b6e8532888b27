// OPT: O0 O2
// CFLAGS: -std=c++17
// A function pointer stored in a struct field (a "model" record with its activation),
// the struct passed by pointer as constant data. Oracle: finite differences.
#include "fz_cxx.h"
#include <cmath>

struct Layer {
  double (*act)(double);
  double w, b;
};
double softplus(double z) { return std::log1p(std::exp(z)); }
double tanh_act(double z) { return std::tanh(z); }

double forward(const Layer *layers, int n, const double *x, int m) {
  double s = 0;
  for (int j = 0; j < m; j++) {
    double h = x[j];
    for (int l = 0; l < n; l++) h = layers[l].act(layers[l].w * h + layers[l].b);
    s += h;
  }
  return s;
}

int main() {
  fz_seed(341);
  Layer layers[3] = {{softplus, 0.7, 0.1}, {tanh_act, -1.2, 0.3}, {softplus, 0.9, -0.2}};
  const int m = 4;
  double x[m], dx[m], fd[m];
  fz_fill(x, m, -1, 1);
  fz_zero(dx, m);
  __enzyme_autodiff((void *)forward, enzyme_const, layers, enzyme_const, 3, enzyme_dup, x, dx,
                    enzyme_const, m);
  fz_fd_grad_of([&] { return forward(layers, 3, x, m); }, x, m, fd);
  fz_check_arr("dx", dx, fd, m, 1e-6);
  return fz_finish();
}

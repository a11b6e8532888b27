// OPT: O0 O2
// ARGS: -fopenmp -lopenblas
// Constant weights (`enzyme_const`) kept in a stack struct handed to a noinline helper,
// `cblas_dnrm2` of the active `y`, and an OpenMP `parallel for` reduction in one C++
// function (difftest's C++ seed 3036, reduced). At -O0 the region captures `y`'s home
// slot, so `y` is reloaded from it; with a constant pointer stored into shadowed memory,
// every pointer read from shadowed memory counted as maybe the primal, and `y` passed to
// `cblas_dnrm2` was refused (mismatched activity). A pointer reloaded from a home
// holding one value is now what was stored there. Oracles: the analytic gradient,
// central differences, forward mode against the gradient along a direction, at 1 and 3
// threads, weights unchanged.
#include "fz_cxx.h"
#include <cblas.h>
#include <cmath>
#include <omp.h>

struct WS {
  const double *w;
  double s;
  double *out;
  int n;
};

__attribute__((noinline)) void wsp(const WS *p, double *res) {
  double acc = *res;
  for (int i = 0; i < p->n; i++) acc += p->w[i] * std::tanh(p->out[i] + p->s);
  *res = acc;
}

// f = 0.2 |y| + sum_i w_i tanh(y_i + x_0) + sum_i c_i sin(x_i y_0), c_i = 0.5 + 0.1 i
double model(double *x, double *y, const double *cw, int n) {
  double t = 0.2 * cblas_dnrm2(n, y, 1);
  WS ws = {cw, x[0], y, n};
  wsp(&ws, &t);
  double so = 0;
#pragma omp parallel for reduction(+ : so)
  for (int i = 0; i < n; i++) so += std::sin(x[i] * y[0]) * (0.5 + 0.1 * i);
  return t + so;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 6;
  const double CW[n] = {0.3, 0.1, -0.4, 0.2, 0.7, -0.25};
  double x0[n], y0[n];
  fz_seed(480);
  fz_fill(x0, n, -0.8, 0.9);
  fz_fill(y0, n, -0.7, 0.8);
  double exact[2 * n] = {0}, norm = 0;
  for (int i = 0; i < n; i++) norm += y0[i] * y0[i];
  norm = std::sqrt(norm);
  for (int i = 0; i < n; i++) {
    double sh = 1 / std::cosh(y0[i] + x0[0]), c = 0.5 + 0.1 * i;
    exact[0] += CW[i] * sh * sh;
    exact[n + i] += CW[i] * sh * sh + 0.2 * y0[i] / norm;
    exact[n] += c * x0[i] * std::cos(x0[i] * y0[0]);
    exact[i] += c * y0[0] * std::cos(x0[i] * y0[0]);
  }
  double p[2 * n], fd[2 * n];
  for (int i = 0; i < n; i++) p[i] = x0[i], p[n + i] = y0[i];
  fz_fd_grad_of([&] { return model(p, p + n, CW, n); }, p, 2 * n, fd);
  fz_check_arr("analytic gradient vs central differences", exact, fd, 2 * n, 1e-6);
  const int teams[2] = {1, 3};
  for (int k = 0; k < 2; k++) {
    omp_set_num_threads(teams[k]);
    double x[n], y[n], dx[n] = {0}, dy[n] = {0}, cw[n], g[2 * n];
    for (int i = 0; i < n; i++) x[i] = x0[i], y[i] = y0[i], cw[i] = CW[i];
    __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, cw,
                            n);
    for (int i = 0; i < n; i++) g[i] = dx[i], g[n + i] = dy[i];
    fz_check_arr(k == 0 ? "gradient, 1 thread" : "gradient, 3 threads", g, exact, 2 * n, 1e-12);
    double tx[n], ty[n], dir = 0;
    for (int i = 0; i < n; i++) {
      tx[i] = 0.3 - 0.1 * i, ty[i] = 0.05 * i - 0.2;
      dir += tx[i] * exact[i] + ty[i] * exact[n + i];
    }
    double tan = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, tx, enzyme_dup, y, ty,
                                          enzyme_const, cw, n);
    fz_check(k == 0 ? "forward mode, 1 thread" : "forward mode, 3 threads", tan, dir, 1e-12);
    int same = 1;
    for (int i = 0; i < n; i++) same &= cw[i] == CW[i];
    fz_check("enzyme_const weights unchanged", same, 1, 0);
  }
  return fz_finish();
}

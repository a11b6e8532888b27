// OPT: O0 O2
// ARGS: -fopenmp
// A relaxation sweep with a constant coefficient table `coef` (`enzyme_const`): an OpenMP
// `parallel for` reduction reads it, and a `std::function` built from a lambda capturing it
// by reference (`[&]`) integrates a forcing term over the active state. Oracles: central
// differences of the state, forward mode against the gradient along a direction (dot
// product), the table unchanged, at 1 and 3 threads. At -O0 the table's home, which the
// `[&]` closure keeps beside the active `u`, has a shadow: the constant pointer stored
// there is its own shadow (runtime activity) and the region's derivative is guarded;
// refused as mismatched activity until hpc39 (difftest's C++ seeds 8013 and 9448).
#include "fz_cxx.h"
#include <cmath>
#include <functional>
#include <omp.h>

const int N = 5;

static double integrate(const std::function<double(double)> &g, double a, double b, int k) {
  double h = (b - a) / k, s = 0.5 * (g(a) + g(b));
  for (int i = 1; i < k; i++) s += g(a + i * h);
  return s * h;
}

double sweep(double *u, const double *coef, int n) {
  double stiff = 0;
#pragma omp parallel for reduction(+ : stiff)
  for (int i = 0; i < n; i++) stiff += std::atan(std::cos(coef[i]));
  std::function<double(double)> forcing = [&](double t) {
    return t * coef[1] + std::tanh(u[2] + coef[4]) * t;
  };
  double e = 0;
  for (int i = 0; i < n; i++) {
    u[i] = u[i] * (1.0 - 0.1 * stiff) + 0.05 * std::sin(u[(i + 1) % n]);
    e += u[i] * u[i];
  }
  return e + integrate(forcing, 0.0, std::tanh(u[0]), 4);
}

extern int enzyme_dup, enzyme_const;

static double primal(const double *u0, const double *coef) {
  double u[N];
  for (int i = 0; i < N; i++) u[i] = u0[i];
  return sweep(u, coef, N);
}

int main() {
  const double u0[N] = {0.4, -0.3, 0.9, 0.2, -0.7};
  double coef[N] = {0.3, 0.8, -0.5, 1.1, 0.45}, coef0[N];
  for (int i = 0; i < N; i++) coef0[i] = coef[i];
  for (int threads = 1; threads <= 3; threads += 2) {
    omp_set_num_threads(threads);
    double u[N], du[N] = {0};
    for (int i = 0; i < N; i++) u[i] = u0[i];
    __enzyme_autodiff<double>((void *)sweep, enzyme_dup, u, du, enzyme_const, coef, enzyme_const,
                              N);
    int same = 1;
    for (int i = 0; i < N; i++) same &= coef[i] == coef0[i];
    fz_check("enzyme_const table unchanged", same, 1, 0);
    double uf[N], fd[N];  // the point central differences perturb
    for (int i = 0; i < N; i++) uf[i] = u0[i];
    fz_fd_grad_of([&] { return primal(uf, coef); }, uf, N, fd);
    fz_check_arr("d/du finite differences", du, fd, N, 1e-6);
    const double v0[N] = {0.3, -0.1, 0.6, 0.2, -0.4};
    double v[N], ut[N];  // v: the direction, overwritten by the updated state's tangent
    for (int i = 0; i < N; i++) ut[i] = u0[i], v[i] = v0[i];
    double tan = __enzyme_fwddiff<double>((void *)sweep, enzyme_dup, ut, v, enzyme_const, coef,
                                          enzyme_const, N);
    double dot = 0;
    for (int i = 0; i < N; i++) dot += du[i] * v0[i];
    fz_check("forward tangent = <gradient, direction>", tan, dot, 1e-9);
  }
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Monte Carlo inside the differentiated function (sweep20), as a variational-inference
// user writes it: a `std::mt19937` seeded inside the function draws
// `std::normal_distribution<double>` and `std::uniform_real_distribution<double>`
// samples (their values are constants of the draw: the generator's state is integers),
// and the reparameterised estimate E[f(mu + sigma * eps)] of f(z) = z^2 + sin z is
// differentiated with respect to (mu, sigma). Oracles: the same estimator's gradient
// written by hand from the same samples (d/dmu = mean f'(z), d/dsigma = mean f'(z) eps),
// and finite differences (same seed, so the samples are the same).
#include "fz_cxx.h"
#include <cmath>
#include <random>
#include <vector>

double estimate(const double *theta, int n, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> unif(0.5, 1.5);
  double s = 0;
  for (int i = 0; i < n; i++) {
    double eps = normal(gen);
    double w = unif(gen);  // an importance weight, constant
    double z = theta[0] + theta[1] * eps;
    s += w * (z * z + std::sin(z));
  }
  return s / n;
}

int main() {
  const int n = 64;
  const unsigned seed = 181;
  double theta[2] = {0.3, 0.8}, g[2] = {0, 0};
  __enzyme_autodiff<void>((void *)estimate, enzyme_dup, theta, g, enzyme_const, n, enzyme_const,
                          seed);
  // The same draws, outside.
  std::mt19937 gen(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> unif(0.5, 1.5);
  double gm = 0, gs = 0;
  for (int i = 0; i < n; i++) {
    double eps = normal(gen), w = unif(gen);
    double z = theta[0] + theta[1] * eps, fp = 2 * z + std::cos(z);
    gm += w * fp / n;
    gs += w * fp * eps / n;
  }
  fz_check("d/dmu from the same samples", g[0], gm, 1e-13);
  fz_check("d/dsigma from the same samples", g[1], gs, 1e-13);
  auto f = [&]() { return estimate(theta, n, seed); };
  fz_check("d/dmu vs FD", g[0], fz_fd(f, theta[0]), 1e-6);
  fz_check("d/dsigma vs FD", g[1], fz_fd(f, theta[1]), 1e-6);
  double t[2] = {0.6, -1.1};
  double d = __enzyme_fwddiff<double>((void *)estimate, enzyme_dup, theta, t, enzyme_const, n,
                                      enzyme_const, seed);
  fz_check("forward = <t, gradient>", d, t[0] * g[0] + t[1] * g[1], 1e-12);
  return fz_finish();
}

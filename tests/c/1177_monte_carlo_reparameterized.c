// OPT: O0 O1 O2 O3
// A Monte Carlo estimate with the reparameterization trick, as statistics code writes
// it: the generator reseeded inside the function (srand48), normal draws by Box-Muller
// from drand48 (a library generator: its numbers carry no derivative), x = mu + sigma z,
// a running mean and variance (Welford) of f(x) = exp(-x^2/2) + x^3, and a rejection
// step (`continue` when a uniform draw says so) that changes which samples count.
// Oracle: central finite differences (the same seed makes the estimate a smooth function
// of mu and sigma), forward mode against reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

double mc_estimate(double mu, double sigma, long seed, int n, double *var_out) {
  srand48(seed);
  double mean = 0, m2 = 0;
  int k = 0;
  for (int i = 0; i < n; i++) {
    double u1 = drand48(), u2 = drand48(), keep = drand48();
    if (keep < 0.1) continue;
    double z = sqrt(-2.0 * log(1.0 - u1)) * cos(2.0 * M_PI * u2);
    double x = mu + sigma * z;
    double fx = exp(-0.5 * x * x) + x * x * x;
    k++;
    double d = fx - mean;
    mean += d / k;
    m2 += d * (fx - mean);
  }
  *var_out = m2 / (k - 1);
  return mean + 0.1 * *var_out;
}

static double g_mu = 0.3, g_sigma = 0.8;
static double eval(void *ctx) {
  (void)ctx;
  double v;
  return mc_estimate(g_mu, g_sigma, 1177, 2000, &v);
}

int main(void) {
  double v, dv = 0;
  fz_grad2 g = __enzyme_autodiff2((void *)mc_estimate, enzyme_out, g_mu, enzyme_out, g_sigma,
                                  enzyme_const, 1177L, enzyme_const, 2000, enzyme_dup, &v, &dv);
  fz_check("d/dmu vs FD", g.d0, fz_fd_ptr(eval, NULL, &g_mu), 1e-6);
  fz_check("d/dsigma vs FD", g.d1, fz_fd_ptr(eval, NULL, &g_sigma), 1e-6);
  double t = __enzyme_fwddiff((void *)mc_estimate, g_mu, 1.0, g_sigma, -0.5, enzyme_const,
                              1177L, enzyme_const, 2000, enzyme_dup, &v, &dv);
  fz_check("forward = <grad, v>", t, g.d0 - 0.5 * g.d1, 1e-10);
  return fz_finish();
}

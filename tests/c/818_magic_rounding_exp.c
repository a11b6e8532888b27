// OPT: O0 O1 O2 O3
// A hand-written `exp` the way libraries vectorize it (Eigen's `pexp`, SLEEF, musl's
// `rint`): the exponent n = rint(x log2 e) computed by adding and subtracting the magic
// constant 1.5 * 2^52 (in double) and 2^23 (in float), the reduced argument
// r = x - n ln 2 fed to a Taylor polynomial, and the result scaled by `ldexp(p, (int)n)`.
// Differentiated as written, `(t + M) - M` has derivative 1 and r's derivative cancels
// to 0: a silently wrong (zero) gradient before sweep17, which found it through Eigen's
// vectorized `exp` (cxx/143). Oracle: the analytic derivative exp(x) (of the primal's
// own value) and central finite differences; forward mode.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_autodiff_f(void *, ...);

__attribute__((noinline)) double my_exp(double x) {
  const double M = 6755399441055744.0; /* 1.5 * 2^52 */
  double t = x * 1.4426950408889634;
  double n = (t + M) - M;
  double r = x - n * 0.6931471805599453;
  double p = 1, term = 1;
  for (int k = 1; k < 18; k++) {
    term *= r / k;
    p += term;
  }
  return ldexp(p, (int)n);
}

double model(double a) { return my_exp(a * a - 1.0) + 3.0 * a; }

float my_expf(float x) {
  const float M = 8388608.0f; /* 2^23 */
  float t = x * 1.44269504f;
  float n = (t + M) - M;
  float r = x - n * 0.693147181f;
  float p = 1 + r * (1 + r * (0.5f + r * (1.0f / 6 + r * (1.0f / 24 + r / 120))));
  return ldexpf(p, (int)n);
}

static double eval_model(void *c) { return model(*(double *)c); }

int main(void) {
  double xs[4] = {0.3, -1.7, 2.2, 3.9};
  for (int k = 0; k < 4; k++) {
    double a = xs[k];
    double g = __enzyme_autodiff((void *)model, a);
    double want = my_exp(a * a - 1.0) * 2 * a + 3.0;
    fz_check("reverse vs analytic", g, want, 1e-12);
    fz_check("reverse vs fd", g, fz_fd_ptr(eval_model, &a, &a), 1e-6);
    double t = __enzyme_fwddiff((void *)model, a, 1.0);
    fz_check("forward vs analytic", t, want, 1e-12);
  }
  float gf = __enzyme_autodiff_f((void *)my_expf, 1.3f);
  fz_check("float reverse vs analytic", gf, my_expf(1.3f), 1e-6);
  return fz_finish();
}

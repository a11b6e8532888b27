// OPT: O0 O2 O3
// Forward mode through if/else, a ternary (select), a switch on an int
// argument and a branch inside a loop over a dup array. Inputs are kept
// away from the branch points, so FD is valid. Oracles: the derivative of
// the taken branch, finite differences; dot identity with __enzyme_autodiff.
#include "fz_test.h"
#include "fz_modes.h"

#define N 10

double piecewise(double x) {
  if (x < -1.0) return -x * x * x;
  else if (x < 1.0) return sin(x) + 1.0;
  return exp(x - 1.0) * x;
}
static double dpiecewise(double x) {
  if (x < -1.0) return -3.0 * x * x;
  if (x < 1.0) return cos(x);
  return exp(x - 1.0) * (x + 1.0);
}

double sw(double x, int k) {
  double r;
  switch (k) {
  case 0: r = x * x; break;
  case 1: r = log(x); break;
  case 2: r = 1.0 / x; /* fallthrough */
  case 3: r = (k == 3 ? 0.0 : r) + sqrt(x); break;
  default: r = x > 2.0 ? x : 2.0 * x; break;
  }
  return r;
}
static double dsw(double x, int k) {
  switch (k) {
  case 0: return 2.0 * x;
  case 1: return 1.0 / x;
  case 2: return -1.0 / (x * x) + 0.5 / sqrt(x);
  case 3: return 0.5 / sqrt(x);
  default: return x > 2.0 ? 1.0 : 2.0;
  }
}

/* branch per element: s = sum (x_i > 0 ? x_i^2 : -0.5 x_i) */
double relu_sq(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += x[i] > 0.0 ? x[i] * x[i] : -0.5 * x[i];
  return s;
}

static int K;
static double e_sw(double x) { return sw(x, K); }
static double X[N];
static double e_relu(void *c) { (void)c; return relu_sq(X, N); }

int main(void) {
  fz_seed(205);
  const double pts[6] = {-2.3, -1.4, -0.6, 0.4, 1.3, 2.2};
  for (int i = 0; i < 6; i++) {
    double x = pts[i] + fz_uniform(-0.05, 0.05);
    double d = __enzyme_fwddiff((void *)piecewise, x, 1.0);
    fz_mcheck2("piecewise'", d, dpiecewise(x), 1e-12, fz_fd1(piecewise, x), 1e-6);
    double g = __enzyme_autodiff((void *)piecewise, x);
    fz_check("rev piecewise'", g, dpiecewise(x), 1e-12);
  }
  for (K = 0; K <= 5; K++) {
    double x = (K == 4) ? 1.3 : fz_uniform(0.5, 3.0);
    if (K == 5) x = 2.9;
    double d = __enzyme_fwddiff((void *)sw, x, 1.0, K);
    fz_mcheck2("switch'", d, dsw(x, K), 1e-12, fz_fd1(e_sw, x), 1e-6);
  }
  double v[N], gr[N], want[N];
  for (int t = 0; t < 3; t++) {
    for (int i = 0; i < N; i++) { /* |x_i| >= 0.1: away from the kink */
      double a = fz_uniform(0.1, 1.0);
      X[i] = (fz_rand_u64() & 1) ? a : -a;
      want[i] = X[i] > 0.0 ? 2.0 * X[i] : -0.5;
    }
    fz_fill(v, N, -1, 1);
    double jv = __enzyme_fwddiff((void *)relu_sq, enzyme_dup, X, v, enzyme_const, N);
    fz_mcheck2("relu_sq directional", jv, fz_dot(want, v, N), 1e-12,
               fz_fd_dir(e_relu, NULL, X, v, N), 1e-6);
    fz_zero(gr, N);
    __enzyme_autodiff((void *)relu_sq, enzyme_dup, X, gr, enzyme_const, N);
    fz_check_arr("rev relu_sq", gr, want, N, 1e-12);
    double w = 1.0;
    fz_mcheck_dot("relu_sq", v, gr, N, &jv, &w, 1, 1e-10);
  }
  return fz_finish();
}

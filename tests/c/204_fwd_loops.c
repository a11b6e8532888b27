// OPT: O0 O1 O2 O3
// Forward mode through loops: a counted loop (Horner), a data-dependent
// while loop (Newton iteration for a cube root, the iteration count depends
// on the input), and a nested triangular loop over a dup array. Oracles:
// analytic derivatives, directional finite differences; dot-product
// identity against __enzyme_autodiff.
#include "fz_test.h"
#include "fz_modes.h"

#define N 12

/* counted: p(x) = sum c_i x^i by Horner, c const */
double horner(const double *c, double x, int n) {
  double s = 0.0;
  for (int i = n - 1; i >= 0; i--) s = s * x + c[i];
  return s;
}

/* data-dependent: Newton for y^3 = a, stops when the update is tiny */
double newton_cbrt(double a) {
  double y = a > 1.0 ? a : 1.0;
  int it = 0;
  while (it < 100) {
    double step = (y * y * y - a) / (3.0 * y * y);
    y -= step;
    it++;
    if (fabs(step) < 1e-15 * y) break;
  }
  return y;
}

/* nested triangular: sum_{i} sum_{j<=i} x_i x_j / (1 + i + j) */
double tri(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) s += x[i] * x[j] / (1.0 + i + j);
  return s;
}

static double X[N];
static double e_tri(void *c) { (void)c; return tri(X, N); }

int main(void) {
  fz_seed(204);
  double c[N], v[N], g[N], want[N];
  fz_fill(c, N, -1, 1);
  for (int t = 0; t < 4; t++) {
    double x = fz_uniform(-1.2, 1.2), dp = 0.0;
    for (int i = 1; i < N; i++) dp += i * c[i] * pow(x, i - 1);
    double d = __enzyme_fwddiff((void *)horner, enzyme_const, c, x, 1.0, N);
    fz_mcheck("horner'", d, dp, 1e-10);
    /* tangents in the coefficients too: d/dt p(c + t dc, x + t dx) */
    double dc[N];
    fz_fill(dc, N, -1, 1);
    d = __enzyme_fwddiff((void *)horner, enzyme_dup, c, dc, x, 0.5, N);
    fz_mcheck("horner' (dup coefficients)", d, 0.5 * dp + horner(dc, x, N), 1e-10);

    double a = fz_uniform(0.1, 30.0);
    d = __enzyme_fwddiff((void *)newton_cbrt, a, 1.0);
    double r = cbrt(a);
    fz_mcheck2("newton cbrt'", d, 1.0 / (3.0 * r * r), 1e-8, fz_fd1(newton_cbrt, a), 1e-6);

    fz_fill(X, N, -1, 1);
    fz_fill(v, N, -1, 1);
    for (int k = 0; k < N; k++) { /* d/dx_k: 2 x_k/(1+2k) + sum_{j != k} x_j/(1+j+k) */
      want[k] = 0.0;
      for (int j = 0; j < N; j++) want[k] += (j == k ? 2.0 : 1.0) * X[j] / (1.0 + j + k);
    }
    double jv = __enzyme_fwddiff((void *)tri, enzyme_dup, X, v, enzyme_const, N);
    fz_mcheck2("tri directional", jv, fz_dot(want, v, N), 1e-10, fz_fd_dir(e_tri, NULL, X, v, N),
               1e-6);
    fz_zero(g, N);
    __enzyme_autodiff((void *)tri, enzyme_dup, X, g, enzyme_const, N);
    fz_check_arr("rev tri gradient", g, want, N, 1e-10);
    double w = fz_uniform(-2, 2);
    for (int k = 0; k < N; k++) g[k] *= w;
    fz_mcheck_dot("tri", v, g, N, &jv, &w, 1, 1e-10);
  }
  return fz_finish();
}

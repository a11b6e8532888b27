// OPT: O0 O2 O3
// Forward mode through calls: a noinline helper called twice, a static
// helper (inlined at -O2) writing through a pointer, a recursive function
// (power by squaring with a float base, recursion depth from an int), and
// mutual recursion over an array. Oracles: analytic, finite differences;
// dot identity with __enzyme_autodiff.
#include "fz_test.h"
#include "fz_modes.h"

#define N 7

__attribute__((noinline)) double sq_plus_sin(double a) { return a * a + sin(a); }
static void scale_into(double *out, double a, double b) { *out = a * exp(b); }

double calls(double x, double y) {
  double t;
  scale_into(&t, sq_plus_sin(x), sq_plus_sin(0.5 * y));
  return t + sq_plus_sin(x * y);
}

/* x^k by recursive squaring */
__attribute__((noinline)) double rpow(double x, int k) {
  if (k == 0) return 1.0;
  double h = rpow(x, k / 2);
  return (k & 1) ? h * h * x : h * h;
}

/* mutual recursion: even/odd alternating weights over x[i..n) */
double odd_sum(const double *x, int i, int n);
__attribute__((noinline)) double even_sum(const double *x, int i, int n) {
  return i >= n ? 0.0 : x[i] * x[i] + odd_sum(x, i + 1, n);
}
__attribute__((noinline)) double odd_sum(const double *x, int i, int n) {
  return i >= n ? 0.0 : sin(x[i]) + even_sum(x, i + 1, n);
}
double alt(const double *x, int n) { return even_sum(x, 0, n); }

static double Y;
static double e_x(double x) { return calls(x, Y); }
static double X[N];
static double e_alt(void *c) { (void)c; return alt(X, N); }

int main(void) {
  fz_seed(207);
  for (int t = 0; t < 4; t++) {
    double x = fz_uniform(-1, 1);
    Y = fz_uniform(-1, 1);
    /* calls = s(x) e^{s(y/2)} + s(xy), s(a) = a^2 + sin a */
    double sx = x * x + sin(x), dsx = 2 * x + cos(x), yh = 0.5 * Y;
    double syh = yh * yh + sin(yh), dsyh = 2 * yh + cos(yh), xy = x * Y, dsxy = 2 * xy + cos(xy);
    double gx = dsx * exp(syh) + dsxy * Y, gy = sx * exp(syh) * dsyh * 0.5 + dsxy * x;
    double d = __enzyme_fwddiff((void *)calls, x, 1.0, enzyme_const, Y);
    fz_mcheck2("calls d/dx", d, gx, 1e-12, fz_fd1(e_x, x), 1e-6);
    double v[2] = {fz_uniform(-1, 1), fz_uniform(-1, 1)};
    double jv = __enzyme_fwddiff((void *)calls, x, v[0], Y, v[1]);
    fz_mcheck("calls directional", jv, gx * v[0] + gy * v[1], 1e-12);
    fz_grad2 g = __enzyme_autodiff2((void *)calls, x, Y);
    fz_check("rev calls d/dx", g.d0, gx, 1e-12);
    fz_check("rev calls d/dy", g.d1, gy, 1e-12);
    double jtw[2] = {g.d0, g.d1}, w = 1.0;
    fz_mcheck_dot("calls", v, jtw, 2, &jv, &w, 1, 1e-10);

    for (int k = 0; k <= 9; k += 3) {
      double b = fz_uniform(0.5, 1.5);
      d = __enzyme_fwddiff((void *)rpow, b, 1.0, k);
      fz_mcheck("rpow'", d, k == 0 ? 0.0 : k * pow(b, k - 1), 1e-12);
    }

    fz_fill(X, N, -1, 1);
    double vv[N], want[N], gr[N];
    fz_fill(vv, N, -1, 1);
    for (int i = 0; i < N; i++) want[i] = (i % 2 == 0) ? 2.0 * X[i] : cos(X[i]);
    jv = __enzyme_fwddiff((void *)alt, enzyme_dup, X, vv, enzyme_const, N);
    fz_mcheck2("alt directional", jv, fz_dot(want, vv, N), 1e-12, fz_fd_dir(e_alt, NULL, X, vv, N),
               1e-6);
    fz_zero(gr, N);
    __enzyme_autodiff((void *)alt, enzyme_dup, X, gr, enzyme_const, N);
    fz_check_arr("rev alt", gr, want, N, 1e-12);
    fz_mcheck_dot("alt", vv, gr, N, &jv, &w, 1, 1e-10);
  }
  return fz_finish();
}

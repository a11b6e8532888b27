// OPT: O0 O1 O2 O3
// perf39 (crates/ferrozyme-transform/src/adjoint_factor.rs): a primal value used by two
// outputs whose adjoints meet in it (the Brusselator's `u*u*v` in both fields, one with a
// minus sign), so that the reverse sweep forms `gu*v - gv*v` and `gu*w - gv*w`, which the
// transform factors as `(gu - gv)*v`, `(gu - gv)*w`; and the same-sign shape
// `gu*v + gv*v`. Shapes: straight-line, a loop of 37 cells (vector body and scalar
// remainder at O2/O3), a 1-D periodic stencil with the reaction (restrict, so its reverse
// loop's neighbour updates become streams), float, and seeds with gu == gv (the
// difference exactly zero) and gu == -gv.
// Oracles: every derivative against the hand-written adjoint (polynomials in u, v and the
// seed), and the loop and stencil shapes against central finite differences of
// lambda . F (F is a cubic polynomial: five-point differences are exact up to rounding).
#include "fz_test.h"

enum { N = 37 };

void react(double *restrict out, const double *restrict x) {
  double u = x[0], v = x[1];
  double w = u * u;
  out[0] = w * v - 2.0 * u;
  out[1] = 3.0 * u - w * v;
}

void react_same(double *restrict out, const double *restrict x) {
  double u = x[0], v = x[1];
  double w = u * u;
  out[0] = w * v + 0.5 * u;
  out[1] = w * v * 3.0 - u;
}

void react_loop(double *restrict out, const double *restrict x, long n) {
  for (long i = 0; i < n; i++) {
    double u = x[i], v = x[n + i];
    double w = u * u;
    out[i] = 1.5 + w * v - 2.5 * u;
    out[n + i] = 1.5 * u - w * v;
  }
}

void react_diffuse(double *restrict out, const double *restrict x, const double *restrict p) {
  double A = p[0], a = p[1];
  for (int i = 0; i < N; i++) {
    int ip = i == N - 1 ? 0 : i + 1, im = i == 0 ? N - 1 : i - 1;
    double u = x[i], v = x[N + i];
    double lu = x[ip] + x[im] - 2.0 * u, lv = x[N + ip] + x[N + im] - 2.0 * v;
    out[i] = a * lu + 1.0 + u * u * v - (A + 1.0) * u;
    out[N + i] = a * lv + A * u - u * u * v;
  }
}

void react_float(float *restrict out, const float *restrict x, long n) {
  for (long i = 0; i < n; i++) {
    float u = x[i], v = x[n + i];
    float w = u * u;
    out[i] = w * v - 2.0f * u;
    out[n + i] = 3.0f * u - w * v;
  }
}

static double lam[2 * N], xs[2 * N], ps[2];

static double loop_dot(void *ctx) {
  (void)ctx;
  double o[2 * N];
  react_loop(o, xs, N);
  double s = 0;
  for (int k = 0; k < 2 * N; k++) s += lam[k] * o[k];
  return s;
}

static double diffuse_dot(void *ctx) {
  (void)ctx;
  double o[2 * N];
  react_diffuse(o, xs, ps);
  double s = 0;
  for (int k = 0; k < 2 * N; k++) s += lam[k] * o[k];
  return s;
}

static void check_react(double u, double v, double g0, double g1) {
  double x[2] = {u, v}, dx[2] = {0, 0}, out[2], dout[2] = {g0, g1};
  __enzyme_autodiff((void *)react, enzyme_dupnoneed, out, dout, enzyme_dup, x, dx);
  fz_check("react du", dx[0], 2 * u * v * (g0 - g1) - 2 * g0 + 3 * g1, 1e-13);
  fz_check("react dv", dx[1], u * u * (g0 - g1), 1e-13);
  fz_check("react dout zeroed", fabs(dout[0]) + fabs(dout[1]), 0, 0);
  double y[2] = {u, v}, dy[2] = {0, 0}, out2[2], dout2[2] = {g0, g1};
  __enzyme_autodiff((void *)react_same, enzyme_dupnoneed, out2, dout2, enzyme_dup, y, dy);
  fz_check("react_same du", dy[0], 2 * u * v * (g0 + 3 * g1) + 0.5 * g0 - g1, 1e-13);
  fz_check("react_same dv", dy[1], u * u * (g0 + 3 * g1), 1e-13);
}

int main(void) {
  fz_seed(1383);
  check_react(0.7, -1.3, 0.4, -2.1);
  check_react(1.9, 0.6, 1.25, 1.25);   /* gu == gv: the factored difference is 0 */
  check_react(-0.8, 2.2, -0.75, 0.75); /* gu == -gv */

  fz_fill(xs, 2 * N, -1.5, 1.5);
  fz_fill(lam, 2 * N, -1.0, 1.0);
  for (int i = 0; i < 5; i++) lam[N + i] = lam[i]; /* a few cells with gu == gv */
  {
    double out[2 * N], dout[2 * N], dx[2 * N];
    memcpy(dout, lam, sizeof dout);
    fz_zero(dx, 2 * N);
    __enzyme_autodiff((void *)react_loop, enzyme_dupnoneed, out, dout, enzyme_dup, xs, dx,
                      (long)N);
    for (int i = 0; i < N; i++) {
      double u = xs[i], v = xs[N + i], g0 = lam[i], g1 = lam[N + i];
      char what[64];
      snprintf(what, sizeof what, "loop du[%d]", i);
      fz_check(what, dx[i], 2 * u * v * (g0 - g1) - 2.5 * g0 + 1.5 * g1, 1e-13);
      snprintf(what, sizeof what, "loop dv[%d]", i);
      fz_check(what, dx[N + i], u * u * (g0 - g1), 1e-13);
    }
    for (int k = 0; k < 2 * N; k += 7)
      fz_check("loop fd", dx[k], fz_fd5_ptr(loop_dot, NULL, &xs[k]), 1e-8);
  }
  {
    ps[0] = 1.3;
    ps[1] = 0.45;
    double out[2 * N], dout[2 * N], dx[2 * N], dp[2] = {0, 0};
    memcpy(dout, lam, sizeof dout);
    fz_zero(dx, 2 * N);
    __enzyme_autodiff((void *)react_diffuse, enzyme_dupnoneed, out, dout, enzyme_dup, xs, dx,
                      enzyme_dup, ps, dp);
    double A = ps[0], a = ps[1], dA = 0, da = 0;
    for (int i = 0; i < N; i++) {
      int ip = i == N - 1 ? 0 : i + 1, im = i == 0 ? N - 1 : i - 1;
      double u = xs[i], v = xs[N + i], g0 = lam[i], g1 = lam[N + i];
      double lu = xs[ip] + xs[im] - 2.0 * u, lv = xs[N + ip] + xs[N + im] - 2.0 * v;
      double wu = 2 * u * v * (g0 - g1) - (A + 1.0) * g0 + A * g1 +
                  a * (lam[ip] + lam[im] - 2.0 * g0);
      double wv = u * u * (g0 - g1) + a * (lam[N + ip] + lam[N + im] - 2.0 * g1);
      char what[64];
      snprintf(what, sizeof what, "diffuse du[%d]", i);
      fz_check(what, dx[i], wu, 1e-12);
      snprintf(what, sizeof what, "diffuse dv[%d]", i);
      fz_check(what, dx[N + i], wv, 1e-12);
      dA += (g1 - g0) * u;
      da += g0 * lu + g1 * lv;
    }
    fz_check("diffuse dA", dp[0], dA, 1e-12);
    fz_check("diffuse da", dp[1], da, 1e-12);
    for (int k = 3; k < 2 * N; k += 9)
      fz_check("diffuse fd", dx[k], fz_fd5_ptr(diffuse_dot, NULL, &xs[k]), 1e-8);
  }
  {
    float x[2 * N], dx[2 * N], out[2 * N], dout[2 * N];
    for (int k = 0; k < 2 * N; k++) {
      x[k] = (float)xs[k];
      dout[k] = (float)lam[k];
      dx[k] = 0;
    }
    __enzyme_autodiff((void *)react_float, enzyme_dupnoneed, out, dout, enzyme_dup, x, dx,
                      (long)N);
    for (int i = 0; i < N; i++) {
      double u = x[i], v = x[N + i], g0 = (float)lam[i], g1 = (float)lam[N + i];
      char what[64];
      snprintf(what, sizeof what, "float du[%d]", i);
      fz_check(what, dx[i], 2 * u * v * (g0 - g1) - 2 * g0 + 3 * g1, 1e-5);
      snprintf(what, sizeof what, "float dv[%d]", i);
      fz_check(what, dx[N + i], u * u * (g0 - g1), 1e-5);
    }
  }
  return fz_finish();
}

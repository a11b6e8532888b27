// OPT: O0 O2
// Special functions written by hand with data-dependent exits, as scientific codes do:
//  a) exp by range halving (`while (fabs(r) > 0.25) { r *= 0.5; k++; }`), a Taylor series
//     stopped when the term falls under a relative tolerance, then k squarings;
//  b) tan by Lentz's modified algorithm on the continued fraction x/(1 - x^2/(3 - ...)),
//     stopped when |delta - 1| < eps;
//  c) log-gamma by upward recursion (`while (x < 15) { acc -= log(x); x += 1; }`) and
//     Stirling's series;
//  d) the three summed with weights over an array, in one reverse pass, and a
//     forward pass.
// Oracles: analytic derivatives (exp, sec^2, digamma by its own recursion and asymptotic
// series written independently), central differences, forward = reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

double my_exp(double x) {
  double r = x;
  int k = 0;
  while (fabs(r) > 0.25) {
    r *= 0.5;
    k++;
  }
  double term = 1, sum = 1;
  for (int n = 1; n < 40; n++) {
    term *= r / n;
    sum += term;
    if (fabs(term) < 1e-17 * fabs(sum)) break;
  }
  for (int i = 0; i < k; i++) sum *= sum;
  return sum;
}

double my_tan(double x) {
  const double tiny = 1e-300, eps = 1e-16;
  double f = tiny, C = f, D = 0, x2 = x * x;
  for (int j = 1; j < 200; j++) {
    double a = j == 1 ? x : -x2;
    double b = 2 * j - 1;
    D = b + a * D;
    if (D == 0) D = tiny;
    C = b + a / C;
    if (C == 0) C = tiny;
    D = 1 / D;
    double delta = C * D;
    f *= delta;
    if (fabs(delta - 1) < eps) break;
  }
  return f;
}

double my_lgamma(double x) {
  double acc = 0;
  while (x < 15) {
    acc -= log(x);
    x += 1;
  }
  double z = 1 / (x * x);
  double ser = (1.0 / 12 - z * (1.0 / 360 - z * (1.0 / 1260 - z / 1680))) / x;
  return acc + (x - 0.5) * log(x) - x + 0.91893853320467274178 + ser;
}

double mix(const double *x, const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += w[0] * my_exp(x[i]) + w[1] * my_tan(0.5 * x[i]) + w[2] * my_lgamma(1.5 + x[i] * x[i]);
  return s;
}

// digamma, written independently of my_lgamma: upward recursion then the asymptotic series
static double digamma(double x) {
  double r = 0;
  while (x < 20) {
    r -= 1 / x;
    x += 1;
  }
  double z = 1 / (x * x);
  return r + log(x) - 0.5 / x - z * (1.0 / 12 - z * (1.0 / 120 - z / 252));
}

#define N 7
static double X[N], W[3] = {0.7, -0.4, 1.1};
static int nn = N;
static double fmix(void *p) { return mix(p, W, nn); }

int main(void) {
  fz_seed(1312);
  fz_fill(X, N, -2.5, 2.5);
  X[0] = 3.7, X[1] = -0.05; // several halvings, and none
  for (int i = 0; i < N; i++) {
    double x = X[i];
    fz_check("exp value", my_exp(x), exp(x), 1e-13);
    fz_check("tan value", my_tan(0.5 * x), tan(0.5 * x), 1e-13);
    fz_check("lgamma value", my_lgamma(1.5 + x * x), lgamma(1.5 + x * x), 1e-12);
    double de = __enzyme_autodiff((void *)my_exp, x);
    fz_check("exp'", de, exp(x), 1e-13);
    double dt = __enzyme_autodiff((void *)my_tan, 0.5 * x);
    double sc = 1 / cos(0.5 * x);
    fz_check("tan'", dt, sc * sc, 1e-12);
    double dl = __enzyme_autodiff((void *)my_lgamma, 1.5 + x * x);
    fz_check("lgamma' = digamma", dl, digamma(1.5 + x * x), 1e-11);
    double fe = __enzyme_fwddiff((void *)my_tan, 0.5 * x, 1.0);
    fz_check("tan' forward", fe, dt, 1e-13);
  }
  double dx[N] = {0}, dw[3] = {0}, g[N], want[N];
  __enzyme_autodiff((void *)mix, enzyme_dup, X, dx, enzyme_dup, W, dw, enzyme_const, nn);
  for (int i = 0; i < N; i++) {
    double x = X[i], sc = 1 / cos(0.5 * x);
    want[i] = W[0] * exp(x) + W[1] * 0.5 * sc * sc + W[2] * 2 * x * digamma(1.5 + x * x);
  }
  fz_check_arr("mix dx analytic", dx, want, N, 1e-10);
  fz_fd_grad(fmix, X, X, N, g);
  fz_check_arr("mix dx fd", dx, g, N, 1e-6);
  double ws[3] = {0};
  for (int i = 0; i < N; i++) {
    ws[0] += exp(X[i]);
    ws[1] += tan(0.5 * X[i]);
    ws[2] += lgamma(1.5 + X[i] * X[i]);
  }
  fz_check_arr("mix dw", dw, ws, 3, 1e-12);
  double v[N], tx[N], tw[3] = {0.3, -0.2, 0.5};
  fz_fill(v, N, -1, 1);
  memcpy(tx, v, sizeof tx);
  double t = __enzyme_fwddiff((void *)mix, enzyme_dup, X, tx, enzyme_dup, W, tw, enzyme_const, nn);
  double dot = dw[0] * tw[0] + dw[1] * tw[1] + dw[2] * tw[2];
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  fz_check("mix forward = reverse . v", t, dot, 1e-12);
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// Two kernels where integers computed from floats choose the arithmetic: a natural
// cubic spline (second derivatives by a tridiagonal solve over the knot values, the
// interval of each query found by a hand-written binary search over the knots, then the
// cubic evaluated there), and a 2x2 matrix exponential by scaling and squaring (the
// number of squarings s from frexp of the norm, a degree-8 Taylor polynomial of A/2^s by
// Horner, then s squarings in a loop). Oracle: the spline is linear in the knot values
// (d/dy by central differences is exact up to rounding) and its derivative in the query
// point is the spline's derivative, written out in main; expm against central finite
// differences and the identity d/dt exp(tA) = A exp(tA) (forward mode).
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { K = 8, Q = 5 };

double spline_objective(const double *xk, const double *yk, const double *xq, int nk, int nq) {
  double m[K], c[K], d[K];
  /* natural spline: m[0] = m[nk-1] = 0, interior system by the Thomas algorithm */
  m[0] = m[nk - 1] = 0;
  for (int i = 1; i < nk - 1; i++) {
    double h0 = xk[i] - xk[i - 1], h1 = xk[i + 1] - xk[i];
    double a = h0 / 6, b = (h0 + h1) / 3, cc = h1 / 6;
    double r = (yk[i + 1] - yk[i]) / h1 - (yk[i] - yk[i - 1]) / h0;
    if (i == 1) {
      c[i] = cc / b;
      d[i] = r / b;
    } else {
      double den = b - a * c[i - 1];
      c[i] = cc / den;
      d[i] = (r - a * d[i - 1]) / den;
    }
  }
  for (int i = nk - 2; i >= 1; i--) m[i] = d[i] - (i + 1 < nk - 1 ? c[i] * m[i + 1] : 0.0);
  double f = 0;
  for (int q = 0; q < nq; q++) {
    double x = xq[q];
    int lo = 0, hi = nk - 1;
    while (hi - lo > 1) {
      int mid = (lo + hi) / 2;
      if (xk[mid] > x) hi = mid;
      else lo = mid;
    }
    double h = xk[hi] - xk[lo], A = (xk[hi] - x) / h, B = (x - xk[lo]) / h;
    double s = A * yk[lo] + B * yk[hi] +
               ((A * A * A - A) * m[lo] + (B * B * B - B) * m[hi]) * h * h / 6;
    f += (q + 1) * s;
  }
  return f;
}

void expm2(const double *a, double *e) {
  double norm = fabs(a[0]) + fabs(a[1]) + fabs(a[2]) + fabs(a[3]);
  int s;
  frexp(norm, &s);
  if (s < 0) s = 0;
  double scale = ldexp(1.0, -s);
  double b[4] = {a[0] * scale, a[1] * scale, a[2] * scale, a[3] * scale};
  double r[4] = {1, 0, 0, 1};
  for (int k = 8; k >= 1; k--) {
    /* r = I + b r / k */
    double t0 = b[0] * r[0] + b[1] * r[2], t1 = b[0] * r[1] + b[1] * r[3];
    double t2 = b[2] * r[0] + b[3] * r[2], t3 = b[2] * r[1] + b[3] * r[3];
    r[0] = 1 + t0 / k, r[1] = t1 / k, r[2] = t2 / k, r[3] = 1 + t3 / k;
  }
  for (int i = 0; i < s; i++) {
    double t0 = r[0] * r[0] + r[1] * r[2], t1 = r[0] * r[1] + r[1] * r[3];
    double t2 = r[2] * r[0] + r[3] * r[2], t3 = r[2] * r[1] + r[3] * r[3];
    r[0] = t0, r[1] = t1, r[2] = t2, r[3] = t3;
  }
  memcpy(e, r, sizeof r);
}

double expm_objective(const double *a, const double *w) {
  double e[4];
  expm2(a, e);
  return w[0] * e[0] + w[1] * e[1] + w[2] * e[2] + w[3] * e[3];
}

static double g_xk[K], g_yk[K], g_xq[Q], g_a[4], g_w[4];
static double eval_s(void *ctx) {
  (void)ctx;
  return spline_objective(g_xk, g_yk, g_xq, K, Q);
}
static double eval_e(void *ctx) {
  (void)ctx;
  return expm_objective(g_a, g_w);
}

int main(void) {
  fz_seed(1173);
  for (int i = 0; i < K; i++) g_xk[i] = i + 0.3 * fz_uniform(-1, 1), g_yk[i] = fz_uniform(-1, 1);
  for (int q = 0; q < Q; q++) g_xq[q] = fz_uniform(0.5, K - 1.5);
  double dy[K] = {0}, dxq[Q] = {0};
  __enzyme_autodiff((void *)spline_objective, enzyme_const, g_xk, enzyme_dup, g_yk, dy,
                    enzyme_dup, g_xq, dxq, enzyme_const, K, enzyme_const, Q);
  char nm[40];
  for (int i = 0; i < K; i++) {
    snprintf(nm, sizeof nm, "spline d/dy[%d] vs FD", i);
    fz_check(nm, dy[i], fz_fd_ptr(eval_s, NULL, &g_yk[i]), 1e-7);
  }
  for (int q = 0; q < Q; q++) {
    snprintf(nm, sizeof nm, "spline d/dxq[%d] vs FD", q);
    fz_check(nm, dxq[q], fz_fd_ptr(eval_s, NULL, &g_xq[q]), 1e-6);
  }
  g_a[0] = 0.3, g_a[1] = 2.1, g_a[2] = -1.4, g_a[3] = 0.8;
  fz_fill(g_w, 4, -1, 1);
  double da[4] = {0};
  __enzyme_autodiff((void *)expm_objective, enzyme_dup, g_a, da, enzyme_const, g_w);
  for (int i = 0; i < 4; i++) {
    snprintf(nm, sizeof nm, "expm d/da[%d] vs FD", i);
    fz_check(nm, da[i], fz_fd_ptr(eval_e, NULL, &g_a[i]), 1e-6);
  }
  /* forward along A itself: d/dt exp((1+t)A) at t=0 = A exp(A) */
  double e[4], ta[4], te[4];
  memcpy(ta, g_a, sizeof ta);
  double ecopy[4];
  __enzyme_fwddiff((void *)expm2, enzyme_dup, g_a, ta, enzyme_dup, e, te);
  expm2(g_a, ecopy);
  double want[4] = {g_a[0] * ecopy[0] + g_a[1] * ecopy[2], g_a[0] * ecopy[1] + g_a[1] * ecopy[3],
                    g_a[2] * ecopy[0] + g_a[3] * ecopy[2], g_a[2] * ecopy[1] + g_a[3] * ecopy[3]};
  fz_check_arr("forward d/dt exp(tA) = A exp(A)", te, want, 4, 1e-9);
  return fz_finish();
}

// OPT: O0 O2
// Summation and recurrence kernels of numerical libraries:
//  a) Kahan compensated summation of f(x_i) (the compensation `c = (t - s) - y` is zero
//     in exact arithmetic: its derivative cancels, the gradient is that of the plain sum);
//  b) Neumaier's variant with a data-dependent branch on |s| >= |y|;
//  c) pairwise summation by recursion with an early exit to a plain loop for n <= 4;
//  d) Clenshaw's backward recurrence b_k = c_k + 2 t b_{k+1} - b_{k+2} for a Chebyshev
//     series with active coefficients and active argument (t = (2x - a - b)/(b - a));
//  e) Horner for the derivative of the same series in forward mode (tangent of t).
// Oracles: analytic gradients (sum of f'(x_i), Chebyshev polynomials T_k(t) for the
// coefficients, U_{k-1}(t) k for d/dt), central differences, forward = reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

static double f(double x) { return sin(x) * x + 0.1 * x * x * x; }
static double fp(double x) { return cos(x) * x + sin(x) + 0.3 * x * x; }

double kahan(const double *x, int n) {
  double s = 0, c = 0;
  for (int i = 0; i < n; i++) {
    double y = f(x[i]) - c;
    double t = s + y;
    c = (t - s) - y;
    s = t;
  }
  return s;
}

double neumaier(const double *x, int n) {
  double s = 0, c = 0;
  for (int i = 0; i < n; i++) {
    double y = f(x[i]) * (i % 3 == 0 ? 1e4 : 1.0);
    double t = s + y;
    if (fabs(s) >= fabs(y))
      c += (s - t) + y;
    else
      c += (y - t) + s;
    s = t;
  }
  return s + c;
}

static double pairwise(const double *x, int n) {
  if (n <= 4) {
    double s = 0;
    for (int i = 0; i < n; i++) s += f(x[i]);
    return s;
  }
  int h = n / 2;
  return pairwise(x, h) + pairwise(x + h, n - h);
}
double pairwise_sum(const double *x, int n) { return pairwise(x, n); }

typedef struct {
  double a, b;
  int n;
} interval;

double clenshaw(const double *c, double x, const interval *iv) {
  double t = (2 * x - iv->a - iv->b) / (iv->b - iv->a);
  double b1 = 0, b2 = 0;
  for (int k = iv->n - 1; k >= 1; k--) {
    double b0 = c[k] + 2 * t * b1 - b2;
    b2 = b1;
    b1 = b0;
  }
  return c[0] + t * b1 - b2;
}

#define N 13
#define M 8
static double X[N], C[M];
static int nn = N;
static interval IV = {-1.5, 2.5, M};

static double fk(void *p) { return kahan(p, nn); }
static double fn(void *p) { return neumaier(p, nn); }
static double fpw(void *p) { return pairwise_sum(p, nn); }
static double XC = 0.9;
static double fcl(void *p) { return clenshaw(p, XC, &IV); }
static double fcx(void *p) { return clenshaw(C, *(double *)p, &IV); }

int main(void) {
  fz_seed(1311);
  fz_fill(X, N, -1.2, 1.4);
  fz_fill(C, M, -1, 1);
  double dx[N], g[N], want[N];
  for (int i = 0; i < N; i++) want[i] = fp(X[i]);

  fz_zero(dx, N);
  __enzyme_autodiff((void *)kahan, enzyme_dup, X, dx, enzyme_const, nn);
  fz_check_arr("kahan analytic", dx, want, N, 1e-12);

  fz_zero(dx, N);
  __enzyme_autodiff((void *)neumaier, enzyme_dup, X, dx, enzyme_const, nn);
  for (int i = 0; i < N; i++) want[i] = fp(X[i]) * (i % 3 == 0 ? 1e4 : 1.0);
  fz_check_arr("neumaier analytic", dx, want, N, 1e-12);
  fz_fd_grad(fn, X, X, N, g);
  fz_check_arr("neumaier fd", dx, g, N, 1e-5);

  fz_zero(dx, N);
  __enzyme_autodiff((void *)pairwise_sum, enzyme_dup, X, dx, enzyme_const, nn);
  for (int i = 0; i < N; i++) want[i] = fp(X[i]);
  fz_check_arr("pairwise analytic", dx, want, N, 1e-12);
  fz_fd_grad(fpw, X, X, N, g);
  fz_check_arr("pairwise fd", dx, g, N, 1e-6);

  // Clenshaw: d/dc_k = T_k(t), d/dx = sum k c_k U_{k-1}(t) * 2/(b-a)
  double dc[M] = {0};
  interval div = {0, 0, 0};
  double dxc = 0;
  fz_grad2 unused;
  (void)unused;
  dxc = __enzyme_autodiff((void *)clenshaw, enzyme_dup, C, dc, enzyme_out, XC, enzyme_dup, &IV,
                          &div);
  double t = (2 * XC - IV.a - IV.b) / (IV.b - IV.a);
  double T[M], U[M];
  T[0] = 1, T[1] = t, U[0] = 1, U[1] = 2 * t;
  for (int k = 2; k < M; k++) T[k] = 2 * t * T[k - 1] - T[k - 2], U[k] = 2 * t * U[k - 1] - U[k - 2];
  fz_check_arr("clenshaw dc = T_k", dc, T, M, 1e-12);
  double ddt = 0;
  for (int k = 1; k < M; k++) ddt += k * C[k] * U[k - 1];
  fz_check("clenshaw dx", dxc, ddt * 2 / (IV.b - IV.a), 1e-12);
  double xc = XC;
  fz_check("clenshaw dx fd", dxc, fz_fd_ptr(fcx, &xc, &xc), 1e-6);
  // the interval's ends are active too: t depends on a and b
  {
    double dt_da = (-(IV.b - IV.a) + (2 * XC - IV.a - IV.b)) / ((IV.b - IV.a) * (IV.b - IV.a));
    double dt_db = (-(IV.b - IV.a) - (2 * XC - IV.a - IV.b)) / ((IV.b - IV.a) * (IV.b - IV.a));
    fz_check("clenshaw da", div.a, ddt * dt_da, 1e-12);
    fz_check("clenshaw db", div.b, ddt * dt_db, 1e-12);
  }
  // forward along (c direction, x direction) = reverse dot product
  {
    double vc[M], tc[M], vx = 0.7;
    fz_fill(vc, M, -1, 1);
    memcpy(tc, vc, sizeof tc);
    double tan = __enzyme_fwddiff((void *)clenshaw, enzyme_dup, C, tc, enzyme_dup, XC, vx,
                                  enzyme_const, &IV);
    double dot = dxc * vx;
    for (int k = 0; k < M; k++) dot += dc[k] * vc[k];
    fz_check("clenshaw forward = reverse . v", tan, dot, 1e-12);
  }
  double cc[M];
  memcpy(cc, C, sizeof cc);
  fz_fd_grad(fcl, cc, cc, M, g);
  fz_check_arr("clenshaw dc fd", dc, g, M, 1e-6);
  return fz_finish();
}

// OPT: O0 O2
// A registered gradient with a tape: the augmented function stores what the reverse
// function needs in malloc'd memory and returns it with the result; the reverse function
// reads and frees it. The rule is for a function that works on arrays (a pointer and its
// shadow, Enzyme's convention), called in a loop, so several tapes are alive at once.
// Oracle: analytic (d/dx_i sum_k (x_k^2 * w_k) = 2 x_i w_i) and finite differences.
#include "fz_test.h"

#define N 6

/* y = sum(x_i^2 * w_i); the body is correct too, but the rule must be the one used. */
double wsq(const double *x, const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * w[i];
  return s;
}

typedef struct { void *tape; double r; } AugW;
static int live;
AugW wsq_aug(const double *x, double *dx, const double *w, double *dw, int n) {
  (void)dx;
  (void)dw;
  double *t = malloc(sizeof(double) * 2 * n);
  for (int i = 0; i < n; i++) t[i] = x[i], t[n + i] = w[i];
  live++;
  AugW a = {t, wsq(x, w, n)};
  return a;
}
void wsq_rev(const double *x, double *dx, const double *w, double *dw, int n, double d_r,
             void *tape) {
  (void)x;
  (void)w;
  const double *t = tape;
  for (int i = 0; i < n; i++) {
    dx[i] += 2 * t[i] * t[n + i] * d_r;
    dw[i] += t[i] * t[i] * d_r;
  }
  free(tape);
  live--;
}
void *__enzyme_register_gradient_wsq[] = {(void *)wsq, (void *)wsq_aug, (void *)wsq_rev};

/* Three calls whose tapes are all alive before the reverse sweep. */
double chain(const double *x, const double *w) {
  double a = wsq(x, w, N);
  double b = wsq(w, x, N);
  double c = wsq(x, x, N);
  return sin(a) + b * c;
}

static double X[N], W[N];
static double eval(void *c) { (void)c; return chain(X, W); }

int main(void) {
  fz_seed(281);
  fz_fill(X, N, -1, 1);
  fz_fill(W, N, 0.5, 1.5);
  double dx[N] = {0}, dw[N] = {0};
  __enzyme_autodiff((void *)chain, enzyme_dup, X, dx, enzyme_dup, W, dw);
  fz_check("live tapes", live, 0, 0);
  double a = wsq(X, W, N), b = wsq(W, X, N), c = wsq(X, X, N);
  for (int i = 0; i < N; i++) {
    /* a = sum x^2 w, b = sum w^2 x, c = sum x^3:
     * d/dx_i = cos(a) 2 x_i w_i + c w_i^2 + b 3 x_i^2 */
    double want_x = cos(a) * 2 * X[i] * W[i] + c * W[i] * W[i] + b * 3 * X[i] * X[i];
    double want_w = cos(a) * X[i] * X[i] + c * 2 * W[i] * X[i];
    fz_check("dx analytic", dx[i], want_x, 1e-10);
    fz_check("dw analytic", dw[i], want_w, 1e-10);
    fz_check("dx fd", dx[i], fz_fd_ptr(eval, 0, &X[i]), 1e-6);
  }
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// Custom derivatives registered through Enzyme's globals for functions with pointer
// arguments, as users register a hand-written or library kernel: a dot product
// (registered gradient: aug_dot returns no tape, rev_dot adds to both shadows), a
// normalization writing an output array (registered gradient with a tape holding the
// norm, a void function: aug returns the tape as void *), and the same functions'
// forward rules (__enzyme_register_derivative_*). The registered rules compute the
// derivative in closed form while the primal bodies are iterative, so using the body
// instead of the rule gives a visibly different number (the body's approximate sqrt).
// Both arguments of every rule call carry shadows, so w is enzyme_dup at the top too
// (a registered rule that takes a shadow of an enzyme_const argument is refused with a
// clear error). Oracle: analytic derivatives; forward mode against the gradient.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
extern void __enzyme_fwddiff_void(void *, ...);

__attribute__((noinline)) double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}
void aug_dot(const double *a, const double *da, const double *b, const double *db, int n) {
  (void)a, (void)da, (void)b, (void)db, (void)n;
}
void rev_dot(const double *a, double *da, const double *b, double *db, int n, double dret) {
  for (int i = 0; i < n; i++) {
    da[i] += dret * b[i];
    db[i] += dret * a[i];
  }
}
double fwd_dot(const double *a, const double *da, const double *b, const double *db, int n) {
  double t = 0;
  for (int i = 0; i < n; i++) t += da[i] * b[i] + a[i] * db[i];
  return t;
}
void *__enzyme_register_gradient_dot[3] = {(void *)dot, (void *)aug_dot, (void *)rev_dot};
void *__enzyme_register_derivative_dot[2] = {(void *)dot, (void *)fwd_dot};

/* a crude sqrt (3 Newton steps): only the registered rules know the exact derivative */
static double rough_sqrt(double s) {
  double r = s > 1 ? s : 1;
  for (int k = 0; k < 3; k++) r = 0.5 * (r + s / r);
  return r;
}
__attribute__((noinline)) void normalize(const double *x, double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  double r = rough_sqrt(s);
  for (int i = 0; i < n; i++) y[i] = x[i] / r;
}
void *aug_normalize(const double *x, const double *dx, double *y, double *dy, int n) {
  (void)dx, (void)dy;
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  double *tape = malloc(sizeof(double));
  *tape = sqrt(s);
  for (int i = 0; i < n; i++) y[i] = x[i] / *tape;
  return tape;
}
void rev_normalize(const double *x, double *dx, double *y, double *dy, int n, void *tape) {
  (void)y;
  double r = *(double *)tape, xdy = 0;
  for (int i = 0; i < n; i++) xdy += x[i] * dy[i];
  for (int i = 0; i < n; i++) {
    dx[i] += dy[i] / r - x[i] * xdy / (r * r * r);
    dy[i] = 0;
  }
  free(tape);
}
void fwd_normalize(const double *x, const double *dx, double *y, double *dy, int n) {
  double s = 0, xdx = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i], xdx += x[i] * dx[i];
  double r = sqrt(s);
  for (int i = 0; i < n; i++) {
    y[i] = x[i] / r;
    dy[i] = dx[i] / r - x[i] * xdx / (r * r * r);
  }
}
void *__enzyme_register_gradient_normalize[3] = {(void *)normalize, (void *)aug_normalize,
                                                 (void *)rev_normalize};
void *__enzyme_register_derivative_normalize[2] = {(void *)normalize, (void *)fwd_normalize};

enum { N = 5 };

/* loss = dot(normalize(x), w) * dot(x, x) */
double loss(const double *x, const double *w, int n) {
  double y[N];
  normalize(x, y, n);
  return dot(y, w, n) * dot(x, x, n);
}

int main(void) {
  fz_seed(1162);
  double x[N], w[N], dx[N] = {0}, dw[N] = {0}, tw[N] = {0};
  fz_fill(x, N, 0.5, 3.0);
  fz_fill(w, N, -1, 1);
  double s = 0, xw = 0;
  for (int i = 0; i < N; i++) s += x[i] * x[i], xw += x[i] * w[i];
  double r = sqrt(s);
  /* L = (x.w / r) s = x.w r ; dL/dx = w r + x.w x / r */
  double want[N];
  for (int i = 0; i < N; i++) want[i] = w[i] * r + xw * x[i] / r;
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_const, N);
  fz_check_arr("registered gradients dL/dx", dx, want, N, 1e-12);
  double want_w[N];
  for (int i = 0; i < N; i++) want_w[i] = x[i] * r; /* y s = (x / r) r^2 */
  fz_check_arr("registered gradients dL/dw", dw, want_w, N, 1e-12);
  double v[N], jv = 0;
  fz_fill(v, N, -1, 1);
  for (int i = 0; i < N; i++) jv += v[i] * want[i];
  fz_check("registered forward rules <grad, v>",
           __enzyme_fwddiff((void *)loss, enzyme_dup, x, v, enzyme_dup, w, tw, enzyme_const, N),
           jv, 1e-12);
  /* the forward rule of a void function writing y */
  double y[N], dy[N];
  __enzyme_fwddiff_void((void *)normalize, enzyme_dup, x, v, enzyme_dup, y, dy, enzyme_const,
                        N);
  double xv = 0;
  for (int i = 0; i < N; i++) xv += x[i] * v[i];
  for (int i = 0; i < N; i++) want[i] = v[i] / r - x[i] * xv / (r * r * r);
  fz_check_arr("normalize forward rule dy", dy, want, N, 1e-12);
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// Huge straight-line derivative functions kept out of the SLP vectorizer during the
// post-AD pipeline (ferrozyme-transform/src/slp_limit.rs, issue 18): a kernel of 64
// unrolled statements over four scalars (its nested reverse is one block of thousands of
// instructions), the same with a branch in the middle (two straight-line arms, no
// cycle), the kernel called in a loop (its own aug/reverse pair per iteration), called
// directly by __enzyme_autodiff (a combined function, which the rule leaves alone), and
// a small kernel of the same kind (still vectorized). Every gradient in (x, y) against
// central finite differences, and forward mode (__enzyme_fwddiff) against reverse mode
// for the big kernel (directional derivative = dot product with the gradient).
#include "fz_test.h"

extern int enzyme_dup, enzyme_const;
extern double __enzyme_fwddiff(void *, ...);

#define N 4
#define NOINLINE __attribute__((noinline))

#define STEP(k)                                                                        \
  a += (0.001 + 0.0001 * ((k) % 7)) * sin(b * c + (k) % 5);                             \
  b -= (0.0013 + 0.0001 * ((k) % 3)) * exp(-a * a) * d;                                 \
  c = c * 0.9995 + 0.0017 * (a * d - b);                                                \
  d += 0.0011 * y[(k) % 4] * a;                                                         \
  if ((k) % 16 == 15) y[(k) % 4] += 0.001 * (a - c);
#define STEP8(k) STEP(k) STEP(k + 1) STEP(k + 2) STEP(k + 3) STEP(k + 4) STEP(k + 5) \
  STEP(k + 6) STEP(k + 7)
#define STEP64 STEP8(0) STEP8(8) STEP8(16) STEP8(24) STEP8(32) STEP8(40) STEP8(48) STEP8(56)

NOINLINE double kernel(const double *x, double *y) {
  double a = x[0], b = x[1], c = x[2], d = x[3];
  STEP64
  return a + 2.0 * b + 3.0 * c + 4.0 * d + y[0] * y[1];
}

NOINLINE double split(const double *x, double *y) {
  double a = x[0], b = x[1], c = x[2], d = x[3];
  STEP8(0) STEP8(8) STEP8(16) STEP8(24)
  if (a > b) {
    STEP8(32) STEP8(40)
  } else {
    STEP8(48) STEP8(56)
  }
  return a * b + c - d + y[2];
}

NOINLINE double small(const double *x, double *y) {
  double a = x[0], b = x[1], c = x[2], d = x[3];
  STEP(0) STEP(1)
  return a + b * c + d;
}

NOINLINE double nested(const double *x, double *y) { return kernel(x, y) + small(x, y); }
NOINLINE double branchy(const double *x, double *y) { return split(x, y) * 0.5; }
NOINLINE double looped(const double *x, double *y) {
  double s = 0.0;
  for (int k = 0; k < 3; k++) s += kernel(x, y);
  return s;
}

static double X[N], Y0[N];
static double (*cur)(const double *, double *);
static double eval(void *c) {
  (void)c;
  double y[N];
  memcpy(y, Y0, sizeof y);
  return cur(X, y);
}

/* The gradient in (dx, dy) of `f` against central finite differences in X and Y0. */
static void check_fd(const char *what, double (*f)(const double *, double *),
                     const double *dx, const double *dy) {
  double gx[N], gy[N];
  char buf[120];
  cur = f;
  fz_fd_grad(eval, NULL, X, N, gx);
  fz_fd_grad(eval, NULL, Y0, N, gy);
  snprintf(buf, sizeof buf, "%s d/dx", what);
  fz_check_arr(buf, dx, gx, N, 1e-6);
  snprintf(buf, sizeof buf, "%s d/dy", what);
  fz_check_arr(buf, dy, gy, N, 1e-6);
}

#define CHECK(what, f)                                                                 \
  do {                                                                                 \
    double y[N], dx[N] = {0}, dy[N] = {0};                                             \
    memcpy(y, Y0, sizeof y);                                                           \
    __enzyme_autodiff((void *)f, enzyme_dup, X, dx, enzyme_dup, y, dy);                \
    check_fd(what, f, dx, dy);                                                         \
  } while (0)

int main(void) {
  fz_seed(631);
  fz_fill(X, N, 0.2, 0.9);
  fz_fill(Y0, N, -0.5, 0.5);
  CHECK("nested", nested);
  CHECK("branchy (a > b arm)", branchy);
  X[0] = 0.1;
  X[1] = 0.8;
  CHECK("branchy (else arm)", branchy);
  CHECK("looped", looped);
  CHECK("kernel direct", kernel);
  CHECK("small direct", small);

  /* Forward against reverse: d/dt kernel(x + t v, y + t w) = <grad, (v, w)>. */
  double v[N], w[N], dx[N] = {0}, dy[N] = {0}, y[N], yf[N];
  fz_fill(v, N, -1.0, 1.0);
  fz_fill(w, N, -1.0, 1.0);
  memcpy(y, Y0, sizeof y);
  __enzyme_autodiff((void *)nested, enzyme_dup, X, dx, enzyme_dup, y, dy);
  double dot = 0.0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i] + dy[i] * w[i];
  memcpy(yf, Y0, sizeof yf);
  double wf[N];
  memcpy(wf, w, sizeof wf);
  double fwd = __enzyme_fwddiff((void *)nested, enzyme_dup, X, v, enzyme_dup, yf, wf);
  fz_check("forward vs reverse (nested)", fwd, dot, 1e-10);
  return fz_finish();
}

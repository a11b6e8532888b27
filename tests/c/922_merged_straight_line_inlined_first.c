// OPT: O0 O1 O2 O3
// A huge straight-line kernel whose augmented forward and reverse merge into the caller's
// derivative (its tape a fixed buffer of the caller, frame_buffers.rs) is inlined before
// the post-AD pipeline's early passes (ferrozyme-transform/src/early_inline.rs, issue 18):
// a kernel of 256 unrolled statements over four scalars with sin, exp, products and
// writes of y, called once by a host that sums y in a loop after it (the host has a
// cycle, the kernel none), and a second such kernel called once by a straight-line host.
// Every gradient in (x, y) against central finite differences, and forward mode against
// reverse mode (directional derivative = dot product with the gradient).
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
#define STEP64(k) STEP8(k) STEP8(k + 8) STEP8(k + 16) STEP8(k + 24) STEP8(k + 32)   \
  STEP8(k + 40) STEP8(k + 48) STEP8(k + 56)

NOINLINE double kernel(const double *x, double *y) {
  double a = x[0], b = x[1], c = x[2], d = x[3];
  STEP64(0)
  return a + 2.0 * b + 3.0 * c + 4.0 * d + y[0] * y[1];
}

NOINLINE double kernel2(const double *x, double *y) {
  double a = x[1], b = x[2], c = x[3], d = x[0];
  STEP64(3)
  return a * b + c - d + y[2];
}

/* The kernel's only caller; the loop after the call gives the host a cycle. */
NOINLINE double looped_host(const double *x, double *y) {
  double r = kernel(x, y);
  for (int k = 0; k < N; k++) r += y[k] * y[k];
  return r;
}

NOINLINE double plain_host(const double *x, double *y) { return 0.5 * kernel2(x, y); }

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
  fz_seed(922);
  fz_fill(X, N, 0.2, 0.9);
  fz_fill(Y0, N, -0.5, 0.5);
  CHECK("looped host", looped_host);
  CHECK("plain host", plain_host);

  /* Forward against reverse: d/dt f(x + t v, y + t w) = <grad, (v, w)>. */
  double v[N], w[N], dx[N] = {0}, dy[N] = {0}, y[N], yf[N], wf[N];
  fz_fill(v, N, -1.0, 1.0);
  fz_fill(w, N, -1.0, 1.0);
  memcpy(y, Y0, sizeof y);
  __enzyme_autodiff((void *)looped_host, enzyme_dup, X, dx, enzyme_dup, y, dy);
  double dot = 0.0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i] + dy[i] * w[i];
  memcpy(yf, Y0, sizeof yf);
  memcpy(wf, w, sizeof wf);
  double fwd = __enzyme_fwddiff((void *)looped_host, enzyme_dup, X, v, enzyme_dup, yf, wf);
  fz_check("forward vs reverse (looped host)", fwd, dot, 1e-10);
  return fz_finish();
}

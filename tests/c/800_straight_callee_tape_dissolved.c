// OPT: O0 O1 O2 O3
// Tape buffers dissolved by merging (ferrozyme-transform/src/frame_buffers.rs, issue 18):
// straight-line kernels of 128 and 256 unrolled statements, one per caller, whose
// augmented forwards and reverses are above merge.rs's 1,500-instruction cap. Called once,
// outside any loop, below the differentiated function, their tapes are regions of its
// fixed-size tape buffer; at -O1 and above both halves of `direct`'s, `deeper`'s (through
// the merged `middle`) and `branch`'s (whose value feeds a branch of the caller) kernels
// are merged into it and the tape slots become SSA values. `two` (two kernels in one
// buffer) and `beside_loop` (a 256-statement kernel beside a loop of the caller) exceed
// the 12,000-instruction bound and keep their tapes, as does `looped` (a tape per
// iteration). Every gradient in (x, y)
// against central finite differences, and forward mode against reverse mode.
#include "fz_test.h"

extern int enzyme_dup, enzyme_const;
extern double __enzyme_fwddiff(void *, ...);

#define N 4
#define NOINLINE __attribute__((noinline))

#define STEP(k)                                                                        \
  a += (0.0011 + 0.0001 * ((k) % 5)) * sin(b * c + (k) % 3);                            \
  b -= (0.0012 + 0.0001 * ((k) % 7)) * exp(-a * a) * d;                                 \
  c = c * 0.9996 + 0.0015 * (a * d - b);                                                \
  d += 0.0013 * y[(k) % 4] * a;                                                         \
  if ((k) % 32 == 31) y[(k) % 4] += 0.002 * (a - c);
#define STEP8(k) STEP(k) STEP(k + 1) STEP(k + 2) STEP(k + 3) STEP(k + 4) STEP(k + 5) \
  STEP(k + 6) STEP(k + 7)
#define STEP64(k) STEP8(k) STEP8(k + 8) STEP8(k + 16) STEP8(k + 24) STEP8(k + 32) \
  STEP8(k + 40) STEP8(k + 48) STEP8(k + 56)

/* One kernel per caller: a derivative shared by several callers is not merged. */
#define KERNEL128(name)                                                                \
  NOINLINE double name(const double *x, double *y) {                                   \
    double a = x[0], b = x[1], c = x[2], d = x[3];                                     \
    STEP64(0) STEP64(64)                                                               \
    return a + 2.0 * b + 3.0 * c + 4.0 * d + y[0] * y[1];                              \
  }
KERNEL128(k_direct)
KERNEL128(k_deeper)
KERNEL128(k_two)
KERNEL128(k_branch)
KERNEL128(k_looped)
NOINLINE double kernel256(const double *x, double *y) {
  double a = x[3], b = x[2], c = x[1], d = x[0];
  STEP64(0) STEP64(64) STEP64(128) STEP64(192)
  return a * b - c + d * y[2];
}
NOINLINE double kernel256b(const double *x, double *y) {
  double a = x[2], b = x[3], c = x[0], d = x[1];
  STEP64(0) STEP64(64) STEP64(128) STEP64(192)
  return a * b - c + d * y[1];
}
NOINLINE double middle(const double *x, double *y) { return 0.5 * k_deeper(x, y) + y[3]; }

double direct(const double *x, double *y) { return k_direct(x, y); }
double deeper(const double *x, double *y) { return middle(x, y) * x[1]; }
double two(const double *x, double *y) { return k_two(x, y) * kernel256(x, y); }
double beside_loop(const double *x, double *y) {
  double r = kernel256b(x, y);
  for (int k = 0; k < N; k++) r += y[k] * x[k];
  return r;
}
double branch(const double *x, double *y) {
  double r = k_branch(x, y);
  return r > 1.0 ? r * r : sin(r);
}
double looped(const double *x, double *y) {
  double s = 0.0;
  for (int k = 0; k < 2; k++) s += k_looped(x, y);
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
/* The gradient (dx, dy) of `f` against central finite differences in X and Y0. */
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
/* __enzyme_autodiff needs the function itself, not a pointer variable: a macro. */
#define check(what, f)                                                                 \
  do {                                                                                 \
    double y[N], dx[N] = {0}, dy[N] = {0};                                             \
    memcpy(y, Y0, sizeof y);                                                           \
    __enzyme_autodiff((void *)f, enzyme_dup, X, dx, enzyme_dup, y, dy);                \
    check_fd(what, f, dx, dy);                                                         \
  } while (0)

int main(void) {
  fz_seed(800);
  fz_fill(X, N, 0.2, 0.9);
  fz_fill(Y0, N, -0.5, 0.5);
  check("direct", direct);
  check("deeper", deeper);
  check("two", two);
  check("beside_loop", beside_loop);
  check("branch", branch);
  check("looped", looped);
  /* Forward against reverse: d/dt two(x + t v, y + t w) = <grad, (v, w)>. */
  double v[N], w[N], dx[N] = {0}, dy[N] = {0}, y[N], yf[N], wf[N];
  fz_fill(v, N, -1.0, 1.0);
  fz_fill(w, N, -1.0, 1.0);
  memcpy(y, Y0, sizeof y);
  __enzyme_autodiff((void *)two, enzyme_dup, X, dx, enzyme_dup, y, dy);
  double dot = 0.0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i] + dy[i] * w[i];
  memcpy(yf, Y0, sizeof yf);
  memcpy(wf, w, sizeof wf);
  double fwd = __enzyme_fwddiff((void *)two, enzyme_dup, X, v, enzyme_dup, yf, wf);
  fz_check("forward vs reverse (two)", fwd, dot, 1e-10);
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// Adjoints of block-local scalars kept as SSA values in the reverse sweep instead of
// stack slots (ferrozyme-transform/src/reverse/adj_regs.rs, issue 18): values used
// several times in their block (their contributions summed in a register), chains of
// such values inside a loop body (the register restarts at every reversed iteration),
// in both arms of a branch inside the loop, float values widened to double, values
// passed to a differentiated callee (its reverse contributes after the call), stored
// to memory and loaded back in the same block, chosen by a select, and the returned
// value itself (its adjoint is the seed). Beside them, values that cross blocks (loop
// carried, phis, used after a branch) keep their slots. Every gradient against central
// finite differences, and forward mode (__enzyme_fwddiff) against reverse mode.
#include "fz_test.h"

extern int enzyme_dup, enzyme_const;
extern double __enzyme_fwddiff(void *, ...);
extern fz_grad2 __enzyme_autodiff2(void *, ...);

#define N 5
#define NOINLINE __attribute__((noinline))

/* A callee with block-local values of its own. */
NOINLINE double unit(double a, double b) {
  double t = a * b + 0.3;
  return sin(t) * t + cos(t * a);
}

/* Straight line: t used four times, u twice, a call with a local argument. */
NOINLINE double straight(const double *x, double *y) {
  double t = x[0] * x[1] + x[2];
  double u = sin(t) + t * t;
  double v = exp(-u * 0.1) * t + u / (1.0 + t * t);
  double w = unit(v, t) * u;
  y[0] = w * 0.5;       /* a store of a local */
  double z = y[0] * x[3]; /* loaded back in the same block */
  double s = z > w ? z : w * 0.25; /* a select between locals */
  return s + v * x[4];
}

/* Loop body with locals, a branch per iteration with locals in both arms and a
   loop-carried accumulator (slot). */
NOINLINE double looped(const double *x, double *y, int n) {
  double acc = x[4];
  for (int k = 0; k < n; k++) {
    double a = x[k % N] * 0.7 + acc * 0.05;
    double b = a * a - 0.2 * a;
    if (b > 0.1) {
      double c = sin(b) * a;
      acc += c * 0.3 + b * 0.01;
      y[k % 2] += c * c;
    } else {
      double c = exp(-b) * (a + 1.0);
      acc -= c * 0.02 - a * b;
      y[k % 2] -= 0.1 * c;
    }
    double g = acc * 0.5;
    acc += 0.01 * (g * g + 0.25 * g);
  }
  return acc + y[0] * y[1];
}

/* Float locals widened to double (checked analytically: float rounding defeats finite
   differences). */
NOINLINE double floatmix(const double *x) {
  float f = (float)x[0] * (float)x[1] + 0.5f;
  float g = f * f + 0.25f * f;
  return (double)g * x[2];
}

/* Calls the others: the callee results are block-local in the caller. */
NOINLINE double outer(const double *x, double *y, int n) {
  double p = straight(x, y);
  double q = looped(x, y, n);
  double r = p * q + p;
  return r * 0.5 + unit(p, q);
}

static double X[N], Y0[2];
static int NN;
static double (*cur)(const double *, double *, int);
static double eval(void *c) {
  (void)c;
  double y[2] = {Y0[0], Y0[1]};
  return cur(X, y, NN);
}

/* The gradient (dx, dy) of `f` at n against central finite differences, and the
   forward derivative `fwd` in direction (v, w) against <gradient, (v, w)>. */
static void compare(const char *what, double (*f)(const double *, double *, int), int n,
                    const double *dx, const double *dy, const double *v, const double *w,
                    double fwd) {
  double gx[N], gy[2], dot = 0.0;
  char buf[120];
  cur = f;
  NN = n;
  fz_fd_grad(eval, NULL, X, N, gx);
  fz_fd_grad(eval, NULL, Y0, 2, gy);
  snprintf(buf, sizeof buf, "%s n=%d d/dx", what, n);
  fz_check_arr(buf, dx, gx, N, 1e-6);
  snprintf(buf, sizeof buf, "%s n=%d d/dy", what, n);
  fz_check_arr(buf, dy, gy, 2, 1e-6);
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  for (int i = 0; i < 2; i++) dot += dy[i] * w[i];
  snprintf(buf, sizeof buf, "%s n=%d forward vs reverse", what, n);
  fz_check(buf, fwd, dot, 1e-9);
}

#define CHECK(what, f, n)                                                              \
  do {                                                                                 \
    double y[2] = {Y0[0], Y0[1]}, dx[N] = {0}, dy[2] = {0};                            \
    __enzyme_autodiff((void *)f, enzyme_dup, X, dx, enzyme_dup, y, dy, enzyme_const, n); \
    double v[N], w[2], ws[2], ys[2] = {Y0[0], Y0[1]};                                  \
    fz_fill(v, N, -1.0, 1.0);                                                          \
    fz_fill(w, 2, -1.0, 1.0);                                                          \
    memcpy(ws, w, sizeof ws); /* the call updates the shadow of y in place */          \
    double fwd =                                                                       \
        __enzyme_fwddiff((void *)f, enzyme_dup, X, v, enzyme_dup, ys, ws, enzyme_const, n); \
    compare(what, f, n, dx, dy, v, w, fwd);                                            \
  } while (0)

NOINLINE double straight3(const double *x, double *y, int n) {
  (void)n;
  return straight(x, y);
}

int main(void) {
  fz_seed(680);
  for (int t = 0; t < 3; t++) {
    fz_fill(X, N, -0.9, 0.9);
    fz_fill(Y0, 2, -0.5, 0.5);
    CHECK("straight", straight3, 0);
    CHECK("looped", looped, 0);
    CHECK("looped", looped, 1);
    CHECK("looped", looped, 9);
    CHECK("outer", outer, 6);
  }
  /* floatmix: d/dx0 = (2f + 1/4) x1 x2, d/dx1 = (2f + 1/4) x0 x2, d/dx2 = g. */
  {
    double fx[3] = {0.6, -0.8, 1.3}, dfx[3] = {0}, want[3];
    float f = (float)fx[0] * (float)fx[1] + 0.5f;
    double dg = 2.0 * f + 0.25;
    want[0] = dg * fx[1] * fx[2];
    want[1] = dg * fx[0] * fx[2];
    want[2] = (double)f * f + 0.25 * f;
    __enzyme_autodiff((void *)floatmix, enzyme_dup, fx, dfx);
    fz_check_arr("floatmix d/dx (analytic)", dfx, want, 3, 1e-5);
  }
  /* unit directly: the returned value's adjoint is the seed. */
  double a = 0.4, b = -0.7;
  double h = 1e-6;
  double fa = (unit(a + h, b) - unit(a - h, b)) / (2 * h);
  double fb = (unit(a, b + h) - unit(a, b - h)) / (2 * h);
  double t = a * b + 0.3;
  double ga = b * (cos(t) * t + sin(t)) - sin(t * a) * (b * a + t);
  double gb = a * (cos(t) * t + sin(t)) - sin(t * a) * a * a;
  double da = __enzyme_fwddiff((void *)unit, a, 1.0, b, 0.0);
  double db = __enzyme_fwddiff((void *)unit, a, 0.0, b, 1.0);
  fz_check("unit d/da forward (analytic)", da, ga, 1e-12);
  fz_check("unit d/db forward (analytic)", db, gb, 1e-12);
  fz_check("unit d/da (fd)", da, fa, 1e-6);
  fz_check("unit d/db (fd)", db, fb, 1e-6);
  fz_grad2 r = __enzyme_autodiff2((void *)unit, a, b);
  fz_check("unit d/da reverse (analytic)", r.d0, ga, 1e-12);
  fz_check("unit d/db reverse (analytic)", r.d1, gb, 1e-12);
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// The shapes of bench/compile_scaling (issue 18, branch cc11) as a correctness guard for
// compile-time work on them: a chain of noinline functions, each with a loop over a
// run-time trip count, a branch on the loop's value (sin on one arm, exp on the other)
// and a call of the previous one (in the reverse: a loop whose counter and tape record
// step together, one per callee, merged into its caller by merge.rs); a binary call tree
// of such units; a unit called both nested (inside the chain) and directly by
// __enzyme_autodiff; and a unit called in a loop. Trip counts 0, 1, 4 and 7 (the
// compile_scaling programs only use 4, a constant IPSCCP propagates into the generated
// code). Every gradient in (x, y) against central finite differences, and forward mode
// (__enzyme_fwddiff) against reverse mode for the chain.
#include "fz_test.h"

extern int enzyme_dup, enzyme_const;
extern double __enzyme_fwddiff(void *, ...);

#define N 8
#define NOINLINE __attribute__((noinline))

/* One unit: loop, branch, sin/exp, reads x, updates y (as bench/compile_scaling/gen.py). */
#define UNIT(name, c1, c2, k0, callee)                                                 \
  NOINLINE double name(const double *x, double *y, int n) {                            \
    double s = callee;                                                                 \
    for (int k = 0; k < n; k++) {                                                      \
      double t = x[k] * (c1) + s * 0.01;                                               \
      if (t > 0.5)                                                                     \
        y[k] += (c2) * sin(t);                                                         \
      else                                                                             \
        y[k] -= (c2) * exp(-t * t);                                                    \
    }                                                                                  \
    return 0.5 * s + 0.1 * y[k0];                                                      \
  }

/* The chain: c5 -> c4 -> ... -> c0; `shared` sits inside it and is also differentiated
   on its own. */
UNIT(c0, 0.61, 0.013, 0, x[1] * x[2])
UNIT(shared, 0.73, 0.017, 1, c0(x, y, n))
UNIT(c2, 0.52, 0.011, 2, shared(x, y, n))
UNIT(c3, 0.88, 0.019, 3, c2(x, y, n))
UNIT(c4, 0.57, 0.014, 0, c3(x, y, n) * x[0])
UNIT(c5, 0.69, 0.012, 1, c4(x, y, n))

/* The tree: t0 calls t1 and t2, t1 calls t3 and t4, t2 calls t5 and t6. */
UNIT(t6, 0.91, 0.016, 2, x[3] * x[3])
UNIT(t5, 0.64, 0.012, 3, x[2] + x[4])
UNIT(t4, 0.55, 0.018, 0, x[5])
UNIT(t3, 0.77, 0.015, 1, x[6] * x[0])
UNIT(t2, 0.83, 0.011, 2, t5(x, y, n) + t6(x, y, n))
UNIT(t1, 0.59, 0.013, 3, t3(x, y, n) - 0.5 * t4(x, y, n))
UNIT(t0, 0.71, 0.017, 0, t1(x, y, n) * t2(x, y, n))

/* A unit called in a loop of its caller (a pair per iteration). */
NOINLINE double looped(const double *x, double *y, int n) {
  double r = 0.0;
  for (int j = 0; j < 3; j++) r += shared(x, y, n) * (1.0 + 0.1 * j);
  return r;
}

/* c5 and shared in one objective: the same function nested and called from the top. */
NOINLINE double both(const double *x, double *y, int n) {
  return c5(x, y, n) + 0.3 * shared(x, y, n);
}

static double X[N], Y0[N];
static int cur_n;
static double (*cur)(const double *, double *, int);
static double eval(void *c) {
  (void)c;
  double y[N];
  memcpy(y, Y0, sizeof y);
  double r = cur(X, y, cur_n);
  for (int k = 0; k < N; k++) r += 0.7 * y[k];
  return r;
}

/* The objective the gradient is taken of: f's result plus 0.7 * sum(y) afterwards. */
static void seed_dy(double *dy) {
  for (int k = 0; k < N; k++) dy[k] = 0.7;
}

/* The gradient (dx, dy) of f (plus 0.7 * sum(y) afterwards) against central finite
   differences in X and Y0. */
static void check_fd(const char *what, double (*f)(const double *, double *, int), int n,
                     const double *dx, const double *dy) {
  double gx[N], gy[N];
  char buf[120];
  cur = f;
  cur_n = n;
  fz_fd_grad(eval, NULL, X, N, gx);
  fz_fd_grad(eval, NULL, Y0, N, gy);
  snprintf(buf, sizeof buf, "%s n=%d d/dx", what, n);
  fz_check_arr(buf, dx, gx, N, 1e-6);
  snprintf(buf, sizeof buf, "%s n=%d d/dy", what, n);
  fz_check_arr(buf, dy, gy, N, 1e-6);
}

#define CHECK(what, f, n)                                                              \
  do {                                                                                 \
    double y[N], dx[N] = {0}, dy[N];                                                   \
    memcpy(y, Y0, sizeof y);                                                           \
    seed_dy(dy);                                                                       \
    __enzyme_autodiff((void *)f, enzyme_dup, X, dx, enzyme_dup, y, dy, enzyme_const,  \
                      n);                                                              \
    check_fd(what, f, n, dx, dy);                                                      \
  } while (0)

int main(void) {
  static const int trips[] = {0, 1, 4, 7};
  fz_seed(665);
  fz_fill(X, N, 0.1, 0.95);
  fz_fill(Y0, N, -0.5, 0.5);
  for (int i = 0; i < 4; i++) {
    int n = trips[i];
    CHECK("chain", c5, n);
    CHECK("tree", t0, n);
    CHECK("shared direct", shared, n);
    CHECK("nested and direct", both, n);
    CHECK("looped", looped, n);
  }

  /* Forward against reverse for the chain: d/dt c5(x + t v, y + t w) = <grad, (v, w)>. */
  double v[N], w[N], dx[N] = {0}, dy[N] = {0}, y[N], yf[N];
  fz_fill(v, N, -1.0, 1.0);
  fz_fill(w, N, -1.0, 1.0);
  memcpy(y, Y0, sizeof y);
  __enzyme_autodiff((void *)c5, enzyme_dup, X, dx, enzyme_dup, y, dy, enzyme_const, 4);
  double dot = 0.0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i] + dy[i] * w[i];
  memcpy(yf, Y0, sizeof yf);
  double fwd = __enzyme_fwddiff((void *)c5, enzyme_dup, X, v, enzyme_dup, yf, w,
                                enzyme_const, 4);
  fz_check("forward vs reverse (chain)", fwd, dot, 1e-10);
  return fz_finish();
}

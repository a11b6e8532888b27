/* fz_test.h -- shared helpers for the Ferrozyme end-to-end C programs.
 *
 * Every program includes this header, differentiates something through the
 * Enzyme-compatible ABI below, and compares every derivative against an
 * independent oracle (a hand-written formula or finite differences of the
 * primal).  Only libc and libm are used.  All helpers are `static inline`
 * so the header can be included by every program without link conflicts.
 */
#ifndef FZ_TEST_H
#define FZ_TEST_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- Enzyme ABI ------------------------------------------------------- */
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);

/* Several active scalar arguments: derivatives come back as a struct.
 * Any declared function whose name contains "__enzyme_autodiff" is a hook. */
typedef struct { double d0, d1; } fz_grad2;
typedef struct { double d0, d1, d2; } fz_grad3; /* returned via sret on x86-64 */
extern fz_grad2 __enzyme_autodiff2(void *, ...);
extern fz_grad3 __enzyme_autodiff3(void *, ...);

/* ---- checking ---------------------------------------------------------- */
static int fz_failures = 0;
static int fz_checks = 0;

static inline double fz_max3(double a, double b, double c) {
  double m = a > b ? a : b;
  return m > c ? m : c;
}

/* |got-want| <= tol * max(1, |got|, |want|); NaN never matches. */
static inline int fz_close(double got, double want, double tol) {
  double scale = fz_max3(1.0, fabs(got), fabs(want));
  double d = fabs(got - want);
  return d <= tol * scale; /* false for NaN */
}

static inline int fz_check(const char *what, double got, double want, double tol) {
  int ok = fz_close(got, want, tol);
  fz_checks++;
  if (!ok) fz_failures++;
  printf("%-8s %s: got=%.17g want=%.17g (tol %.1e)\n", ok ? "ok" : "MISMATCH", what,
         got, want, tol);
  return ok;
}

/* Checks got[i] against want[i], one line per element. */
static inline int fz_check_arr(const char *what, const double *got, const double *want,
                               int n, double tol) {
  int all = 1;
  char buf[160];
  for (int i = 0; i < n; i++) {
    snprintf(buf, sizeof buf, "%s[%d]", what, i);
    all &= fz_check(buf, got[i], want[i], tol);
  }
  return all;
}

static inline int fz_check_arrf(const char *what, const float *got, const float *want,
                                int n, double tol) {
  int all = 1;
  char buf[160];
  for (int i = 0; i < n; i++) {
    snprintf(buf, sizeof buf, "%s[%d]", what, i);
    all &= fz_check(buf, (double)got[i], (double)want[i], tol);
  }
  return all;
}

/* Prints PASS or FAIL and returns the process exit code. */
static inline int fz_finish(void) {
  if (fz_checks == 0) {
    printf("FAIL (no checks ran)\n");
    return 1;
  }
  if (fz_failures == 0) {
    printf("PASS (%d checks)\n", fz_checks);
    return 0;
  }
  printf("FAIL (%d mismatches of %d checks)\n", fz_failures, fz_checks);
  return 1;
}

/* ---- deterministic PRNG (xorshift64*) --------------------------------- */
static uint64_t fz_rng_state = 0x9E3779B97F4A7C15ull;

static inline void fz_seed(uint64_t s) { fz_rng_state = s ? s : 0x9E3779B97F4A7C15ull; }

static inline uint64_t fz_rand_u64(void) {
  uint64_t x = fz_rng_state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  fz_rng_state = x;
  return x * 0x2545F4914F6CDD1Dull;
}

/* Uniform in [lo, hi). */
static inline double fz_uniform(double lo, double hi) {
  double u = (double)(fz_rand_u64() >> 11) * (1.0 / 9007199254740992.0);
  return lo + (hi - lo) * u;
}

static inline void fz_fill(double *x, int n, double lo, double hi) {
  for (int i = 0; i < n; i++) x[i] = fz_uniform(lo, hi);
}

static inline void fz_fillf(float *x, int n, double lo, double hi) {
  for (int i = 0; i < n; i++) x[i] = (float)fz_uniform(lo, hi);
}

static inline void fz_zero(double *x, int n) {
  for (int i = 0; i < n; i++) x[i] = 0.0;
}

/* ---- finite differences ------------------------------------------------ */
/* Step used by central differences: h = rel * max(1, |x|). */
static inline double fz_step(double x, double rel) {
  double a = fabs(x);
  return rel * (a > 1.0 ? a : 1.0);
}

/* d f / d x for a scalar function, central difference, h = 1e-6 relative. */
static inline double fz_fd1(double (*f)(double), double x) {
  double h = fz_step(x, 1e-6);
  volatile double xp = x + h, xm = x - h; /* exact representable step */
  return (f(xp) - f(xm)) / (xp - xm);
}

/* Generic: `eval(ctx)` reads *xi (somewhere in ctx); the derivative of eval
 * with respect to *xi, by central difference.  *xi is restored. */
static inline double fz_fd_ptr(double (*eval)(void *), void *ctx, double *xi) {
  double x0 = *xi;
  double h = fz_step(x0, 1e-6);
  volatile double xp = x0 + h, xm = x0 - h;
  *xi = xp;
  double fp = eval(ctx);
  *xi = xm;
  double fm = eval(ctx);
  *xi = x0;
  return (fp - fm) / (xp - xm);
}

/* Same, but a fourth-order five-point stencil with a larger step (1e-3
 * relative): accurate to ~1e-10 for smooth functions; use only where the
 * function is smooth within +-2h. */
static inline double fz_fd5_ptr(double (*eval)(void *), void *ctx, double *xi) {
  double x0 = *xi;
  double h = fz_step(x0, 1e-3);
  double f[4];
  const double off[4] = {-2.0, -1.0, 1.0, 2.0};
  for (int k = 0; k < 4; k++) {
    *xi = x0 + off[k] * h;
    f[k] = eval(ctx);
  }
  *xi = x0;
  return (f[0] - 8.0 * f[1] + 8.0 * f[2] - f[3]) / (12.0 * h);
}

/* Float data: the primal is evaluated in float, so use a larger step
 * (1e-2 relative, five-point) and a loose tolerance (~1e-3). */
static inline double fz_fd_ptrf(float (*eval)(void *), void *ctx, float *xi) {
  float x0 = *xi;
  double h = fz_step(x0, 1e-2);
  double f[4];
  const double off[4] = {-2.0, -1.0, 1.0, 2.0};
  for (int k = 0; k < 4; k++) {
    *xi = (float)(x0 + off[k] * h);
    f[k] = (double)eval(ctx);
  }
  *xi = x0;
  return (f[0] - 8.0 * f[1] + 8.0 * f[2] - f[3]) / (12.0 * h);
}

/* Long-double central difference of a long-double model of a function
 * (useful when the oracle is re-implemented in long double). */
static inline long double fz_fd1l(long double (*f)(long double), long double x) {
  long double a = x < 0 ? -x : x;
  long double h = 1e-7L * (a > 1.0L ? a : 1.0L);
  return (f(x + h) - f(x - h)) / (2.0L * h);
}

/* Gradient of eval(ctx) w.r.t. x[0..n-1] by central differences. */
static inline void fz_fd_grad(double (*eval)(void *), void *ctx, double *x, int n,
                              double *g) {
  for (int i = 0; i < n; i++) g[i] = fz_fd_ptr(eval, ctx, &x[i]);
}

/* ---- timing ------------------------------------------------------------ */
static inline double fz_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* A sink that keeps results alive without the optimizer folding them. */
static volatile double fz_sink;

/* Average ns per call of fn(ctx), repeating for at least ~0.05 s. */
static inline double fz_time_ns(void (*fn)(void *), void *ctx) {
  fn(ctx); /* warm-up */
  long reps = 0;
  double t0 = fz_now_ns(), t1 = t0;
  long batch = 1;
  while (t1 - t0 < 5e7) {
    for (long r = 0; r < batch; r++) fn(ctx);
    reps += batch;
    if (batch < (1L << 20)) batch *= 2;
    t1 = fz_now_ns();
  }
  return (t1 - t0) / (double)reps;
}

/* Prints the TIMING line (informational, never asserted). */
static inline void fz_timing(double primal_ns, double grad_ns) {
  printf("TIMING primal_ns=%.1f grad_ns=%.1f ratio=%.3f\n", primal_ns, grad_ns,
         primal_ns > 0 ? grad_ns / primal_ns : 0.0);
}

#endif /* FZ_TEST_H */

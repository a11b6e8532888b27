/* fz_modes.h -- hooks and helpers for the forward, vector (batched), split
 * and higher-order programs (tests/c/2NN_*.c).  Include after fz_test.h.
 * The ABI is Enzyme's (see /work/briefs/abi.md): hooks are recognised by a
 * substring of the declared name, so the typed variants below are hooks too.
 *
 * Oracle-only build: compiling with -DFZ_ORACLES_ONLY replaces every
 * forward/vector/split hook by a macro that evaluates to zero (the reverse
 * hook __enzyme_autodiff stays real).  fz_mcheck* then skip the comparisons
 * of mode results and fz_mcheck2* compare their two independent oracles
 * with each other instead, so the oracles themselves can be validated with
 * a binary that only implements reverse mode:
 *   ferrozyme cc -O2 -DFZ_ORACLES_ONLY -Itests/c tests/c/200_fwd_poly.c -lm
 */
#ifndef FZ_MODES_H
#define FZ_MODES_H

#include "fz_test.h"

/* Aggregates of N tangents (vector forward) or N adjoints (vector reverse),
 * lane 0 first. */
typedef struct { double d[2]; } fz_v2;
typedef struct { double d[3]; } fz_v3;
typedef struct { double d[4]; } fz_v4;
typedef struct { double d[8]; } fz_v8;
/* __enzyme_augmentfwd declared to also return f's primal double result. */
typedef struct { void *tape; double ret; } fz_aug;

#ifndef FZ_ORACLES_ONLY
extern int enzyme_width, enzyme_dupv;

/* forward: tangent of f's double result (or nothing for void f) */
extern double __enzyme_fwddiff(void *, ...);
extern void __enzyme_fwddiff_void(void *, ...);
/* forward with f32 scalars: typed prototypes, since varargs promote float */
extern float __enzyme_fwddiff_f32(void *, float, float);               /* f(float x) */
extern float __enzyme_fwddiff_f32x2(void *, float, float, float, float); /* f(float x, float y) */
extern float __enzyme_fwddiff_f32p(void *, ...); /* float result, pointer/int arguments */
/* vector forward: N tangents of f's result */
extern fz_v2 __enzyme_fwddiff_v2(void *, ...);
extern fz_v3 __enzyme_fwddiff_v3(void *, ...);
extern fz_v4 __enzyme_fwddiff_v4(void *, ...);
extern fz_v8 __enzyme_fwddiff_v8(void *, ...);
/* vector reverse: per active scalar argument, its N adjoints; _w for
 * calls with no active scalar argument (adjoints only in dup shadows) */
extern void __enzyme_autodiff_w(void *, ...);
extern fz_v2 __enzyme_autodiff_v2(void *, ...);
extern fz_v3 __enzyme_autodiff_v3(void *, ...);
extern fz_v4 __enzyme_autodiff_v4(void *, ...);
extern fz_v8 __enzyme_autodiff_v8(void *, ...);
/* split mode */
extern void *__enzyme_augmentfwd(void *, ...);
extern fz_aug __enzyme_augmentfwd_ret(void *, ...);
extern double __enzyme_reverse(void *, ...);
extern fz_grad2 __enzyme_reverse2(void *, ...);
extern size_t __enzyme_augmentsize(void *, ...);
#define FZ_MODE_RESULTS 1
#else
/* Oracle-only build: the arguments are never evaluated (no marker loads). */
#define __enzyme_fwddiff(...) 0.0
#define __enzyme_fwddiff_void(...) ((void)0)
#define __enzyme_fwddiff_f32(...) 0.0f
#define __enzyme_fwddiff_f32x2(...) 0.0f
#define __enzyme_fwddiff_f32p(...) 0.0f
#define __enzyme_fwddiff_v2(...) ((fz_v2){{0}})
#define __enzyme_fwddiff_v3(...) ((fz_v3){{0}})
#define __enzyme_fwddiff_v4(...) ((fz_v4){{0}})
#define __enzyme_fwddiff_v8(...) ((fz_v8){{0}})
#define __enzyme_autodiff_w(...) ((void)0)
#define __enzyme_autodiff_v2(...) ((fz_v2){{0}})
#define __enzyme_autodiff_v3(...) ((fz_v3){{0}})
#define __enzyme_autodiff_v4(...) ((fz_v4){{0}})
#define __enzyme_autodiff_v8(...) ((fz_v8){{0}})
#define __enzyme_augmentfwd(...) ((void *)0)
#define __enzyme_augmentfwd_ret(...) ((fz_aug){0, 0.0})
#define __enzyme_reverse(...) 0.0
#define __enzyme_reverse2(...) ((fz_grad2){0.0, 0.0})
#define __enzyme_augmentsize(...) ((size_t)0)
#define FZ_MODE_RESULTS 0
#endif

/* ---- checks of mode results --------------------------------------------- */
/* got (from a new mode) vs one oracle; skipped in the oracle-only build. */
static inline int fz_mcheck(const char *what, double got, double want, double tol) {
  if (!FZ_MODE_RESULTS) return 1;
  return fz_check(what, got, want, tol);
}

/* got vs two independent oracles (typically `exact`: analytic or reverse
 * mode, `approx`: finite differences).  Oracle-only build: exact vs approx. */
static inline int fz_mcheck2(const char *what, double got, double exact, double tol_exact,
                             double approx, double tol_approx) {
  char buf[200];
  if (!FZ_MODE_RESULTS) {
    snprintf(buf, sizeof buf, "%s (oracle vs oracle)", what);
    return fz_check(buf, exact, approx, tol_approx);
  }
  snprintf(buf, sizeof buf, "%s exact", what);
  int a = fz_check(buf, got, exact, tol_exact);
  snprintf(buf, sizeof buf, "%s fd", what);
  int b = fz_check(buf, got, approx, tol_approx);
  return a && b;
}

static inline int fz_mcheck_arr(const char *what, const double *got, const double *want, int n,
                                double tol) {
  if (!FZ_MODE_RESULTS) return 1;
  return fz_check_arr(what, got, want, n, tol);
}

static inline int fz_mcheck2_arr(const char *what, const double *got, const double *exact,
                                 double tol_exact, const double *approx, double tol_approx,
                                 int n) {
  int all = 1;
  char buf[160];
  for (int i = 0; i < n; i++) {
    snprintf(buf, sizeof buf, "%s[%d]", what, i);
    all &= fz_mcheck2(buf, got[i], exact[i], tol_exact, approx[i], tol_approx);
  }
  return all;
}

static inline double fz_dot(const double *a, const double *b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

/* |got-want| <= tol * max(1, scale): for sums where cancellation makes the
 * result much smaller than its terms (scale = sum of |terms|). */
static inline int fz_check_scaled(const char *what, double got, double want, double scale,
                                  double tol) {
  double s = scale > 1.0 ? scale : 1.0;
  int ok = fabs(got - want) <= tol * s; /* false for NaN */
  fz_checks++;
  if (!ok) fz_failures++;
  printf("%-8s %s: got=%.17g want=%.17g (tol %.1e, scale %.3g)\n", ok ? "ok" : "MISMATCH",
         what, got, want, tol, s);
  return ok;
}

/* Dot-product identity between forward and reverse mode: for the Jacobian
 * J (m x n), Jv = forward(tangent v) and JTw = reverse(output seed w) must
 * satisfy <Jv, w> = <v, JTw> (relative to the size of the terms).
 * fz_check_dot always runs (e.g. an analytic Jv against reverse mode);
 * fz_mcheck_dot is for a Jv computed by forward mode. */
static inline int fz_check_dot(const char *what, const double *v, const double *JTw, int n,
                               const double *Jv, const double *w, int m, double tol) {
  double lhs = 0.0, rhs = 0.0, scale = 0.0;
  for (int i = 0; i < m; i++) {
    lhs += Jv[i] * w[i];
    scale += fabs(Jv[i] * w[i]);
  }
  for (int j = 0; j < n; j++) {
    rhs += v[j] * JTw[j];
    scale += fabs(v[j] * JTw[j]);
  }
  char buf[200];
  snprintf(buf, sizeof buf, "%s <Jv,w> = <v,J^T w>", what);
  return fz_check_scaled(buf, lhs, rhs, 0.5 * scale, tol);
}

static inline int fz_mcheck_dot(const char *what, const double *v, const double *JTw, int n,
                                const double *Jv, const double *w, int m, double tol) {
  if (!FZ_MODE_RESULTS) return 1;
  return fz_check_dot(what, v, JTw, n, Jv, w, m, tol);
}

/* ---- finite differences along a direction -------------------------------- */
/* Five-point stencil for x(t) = x + t v, step h = 1e-3 * max(1, |x|_inf) /
 * max(1, |v|_inf): truncation ~h^4, accurate to ~1e-10 for smooth f.
 * x is restored. */
static inline double fz_fd_step_dir(const double *x, const double *v, int n) {
  double xm = 1.0, vm = 1.0;
  for (int i = 0; i < n; i++) {
    if (fabs(x[i]) > xm) xm = fabs(x[i]);
    if (fabs(v[i]) > vm) vm = fabs(v[i]);
  }
  return 1e-3 * xm / vm;
}

/* d/dt eval(ctx) at t = 0, where eval reads x[0..n-1]. */
static inline double fz_fd_dir(double (*eval)(void *), void *ctx, double *x, const double *v,
                               int n) {
  double *x0 = (double *)malloc(sizeof(double) * (size_t)n);
  memcpy(x0, x, sizeof(double) * (size_t)n);
  double h = fz_fd_step_dir(x, v, n), f[4];
  const double off[4] = {-2.0, -1.0, 1.0, 2.0};
  for (int k = 0; k < 4; k++) {
    for (int i = 0; i < n; i++) x[i] = x0[i] + off[k] * h * v[i];
    f[k] = eval(ctx);
  }
  memcpy(x, x0, sizeof(double) * (size_t)n);
  free(x0);
  return (f[0] - 8.0 * f[1] + 8.0 * f[2] - f[3]) / (12.0 * h);
}

/* Jacobian-vector product of a vector function: evalv(ctx, out) reads
 * x[0..n-1] and writes out[0..m-1]; jv = d out / dt along v. */
static inline void fz_fd_jvp(void (*evalv)(void *, double *), void *ctx, double *x,
                             const double *v, int n, int m, double *jv) {
  double *x0 = (double *)malloc(sizeof(double) * (size_t)n);
  double *f = (double *)malloc(sizeof(double) * (size_t)m * 4);
  memcpy(x0, x, sizeof(double) * (size_t)n);
  double h = fz_fd_step_dir(x, v, n);
  const double off[4] = {-2.0, -1.0, 1.0, 2.0};
  for (int k = 0; k < 4; k++) {
    for (int i = 0; i < n; i++) x[i] = x0[i] + off[k] * h * v[i];
    evalv(ctx, f + (size_t)k * (size_t)m);
  }
  memcpy(x, x0, sizeof(double) * (size_t)n);
  for (int j = 0; j < m; j++)
    jv[j] = (f[j] - 8.0 * f[m + j] + 8.0 * f[2 * m + j] - f[3 * m + j]) / (12.0 * h);
  free(f);
  free(x0);
}

/* A second derivative by reverse over reverse (rr) and by forward over reverse (fr),
 * each against an exact value and finite differences of an exact first derivative,
 * and against each other; tolerances relative to max(1, |exact|). */
static inline void fz_mcheck_d2(const char *what, double rr, double fr, double exact,
                                double fd) {
  char buf[200];
  double sc = fabs(exact) > 1 ? fabs(exact) : 1;
  snprintf(buf, sizeof buf, "%s: reverse over reverse", what);
  fz_mcheck2(buf, rr, exact, 1e-9 * sc, fd, 1e-6 * sc);
  snprintf(buf, sizeof buf, "%s: forward over reverse", what);
  fz_mcheck2(buf, fr, exact, 1e-9 * sc, fd, 1e-6 * sc);
  snprintf(buf, sizeof buf, "%s: reverse over reverse = forward over reverse", what);
  fz_mcheck(buf, rr, fr, 1e-11 * sc);
}

/* Prints `TIMING <label>=<num/den>` (informational, never asserted). */
static inline void fz_timing_ratio(const char *label, double num_ns, double den_ns) {
  printf("TIMING %s=%.3f (%.1f ns / %.1f ns)\n", label, den_ns > 0 ? num_ns / den_ns : 0.0,
         num_ns, den_ns);
}

#endif /* FZ_MODES_H */

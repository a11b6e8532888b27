// OPT: O0 O1 O2 O3
// Issue 14: reverse over reverse of loops whose first derivative keeps its loop values
// on tape stacks (trip counts known only at run time): d(x) = __enzyme_autodiff(f, x),
// then __enzyme_autodiff(d, x) = f''(x) differentiates the inner derivative's tape
// runtime (pushes, tops, pops, growth of the stack buffer from its inline start to the
// heap). It was a cannot-deduce-type error in the stack runtime (__fz_grow_plain's
// memcpy, the header's lengths). Loops: (a) a mycos-like Taylor series with a run-time
// trip count, (b) the same series until a data-dependent exit, (c) Enzyme's mycos with
// pow and a factorial call per term, (d) a nested loop, (e) three floats pushed per
// iteration over 3..600 iterations (several growths), (f) a call in the loop whose
// callee has its own tape stack. Oracles: a hand-written second-order forward sweep
// (value, first and second derivative of every quantity: exact), finite differences of
// its first derivative, and forward over reverse of the same first derivative (the
// issue's oracle).
#include "fz_test.h"
#include "fz_modes.h"

#ifndef FZ_ORACLES_ONLY
extern double __enzyme_autodiff_outer(void *, ...);
#else
#define __enzyme_autodiff_outer(...) 0.0
#endif

/* ---- second-order jets: value, d/dx, d2/dx2 (the exact oracle) ---------- */
typedef struct { double v, d, dd; } j2;
static j2 jc(double c) { return (j2){c, 0, 0}; }
static j2 jadd(j2 a, j2 b) { return (j2){a.v + b.v, a.d + b.d, a.dd + b.dd}; }
static j2 jscale(j2 a, double c) { return (j2){a.v * c, a.d * c, a.dd * c}; }
static j2 jmul(j2 a, j2 b) {
  return (j2){a.v * b.v, a.d * b.v + a.v * b.d, a.dd * b.v + 2 * a.d * b.d + a.v * b.dd};
}
static j2 jsin(j2 a) {
  double s = sin(a.v), c = cos(a.v);
  return (j2){s, c * a.d, c * a.dd - s * a.d * a.d};
}
static j2 jcos(j2 a) {
  double s = sin(a.v), c = cos(a.v);
  return (j2){c, -s * a.d, -s * a.dd - c * a.d * a.d};
}

__attribute__((noinline)) static double fact(int n) {
  double r = 1;
  for (int i = 2; i <= n; i++) r *= i;
  return r;
}

/* (a) mycos-like series, n terms */
double series(double x, int n) {
  double s = 0, term = 1;
  for (int i = 0; i < n; i++) {
    s += term;
    term *= -x * x / ((2 * i + 1) * (2 * i + 2));
  }
  return s;
}
static j2 series_j(j2 x, int n) {
  j2 s = jc(0), term = jc(1);
  for (int i = 0; i < n; i++) {
    s = jadd(s, term);
    term = jmul(term, jscale(jmul(x, x), -1.0 / ((2 * i + 1) * (2 * i + 2))));
  }
  return s;
}

/* (b) the series until its terms are negligible: the trip count depends on x */
double series_until(double x, int unused) {
  (void)unused;
  double s = 0, term = 1;
  int i = 0;
  while (fabs(term) > 1e-17) {
    s += term;
    term *= -x * x / ((2 * i + 1) * (2 * i + 2));
    i++;
  }
  return s;
}
static j2 series_until_j(j2 x, int unused) {
  (void)unused;
  j2 s = jc(0), term = jc(1);
  int i = 0;
  while (fabs(term.v) > 1e-17) {
    s = jadd(s, term);
    term = jmul(term, jscale(jmul(x, x), -1.0 / ((2 * i + 1) * (2 * i + 2))));
    i++;
  }
  return s;
}

/* (c) Enzyme's mycos: pow and a call of fact per term */
double mycos(double x, int n) {
  double sum = 0;
  for (int k = 0; k <= n; k++) sum += pow(x, 2 * k) * (k % 2 ? -1 : 1) / fact(2 * k);
  return sum;
}
static j2 mycos_j(j2 x, int n) {
  j2 sum = jc(0);
  for (int k = 0; k <= n; k++) {
    j2 p = jc(1);
    for (int e = 0; e < 2 * k; e++) p = jmul(p, x);
    sum = jadd(sum, jscale(p, (k % 2 ? -1 : 1) / fact(2 * k)));
  }
  return sum;
}

/* (d) nested loops: n outer iterations of n inner ones */
double nested(double x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double t = x * (i + 1);
    for (int j = 0; j < n; j++) t = t * cos(t) * 0.5 + x;
    s += t;
  }
  return s;
}
static j2 nested_j(j2 x, int n) {
  j2 s = jc(0);
  for (int i = 0; i < n; i++) {
    j2 t = jscale(x, i + 1);
    for (int j = 0; j < n; j++) t = jadd(jscale(jmul(t, jcos(t)), 0.5), x);
    s = jadd(s, t);
  }
  return s;
}

/* (e) three floats carried (and pushed) per iteration */
double three(double x, int n) {
  double a = x, b = 1.0, c = 0.5;
  for (int i = 0; i < n; i++) {
    double na = sin(a * b) + c;
    double nb = cos(b + c * a);
    double nc = a * b * c * 0.3 + 0.1 * x;
    a = na;
    b = nb;
    c = nc;
  }
  return a + b * c;
}
static j2 three_j(j2 x, int n) {
  j2 a = x, b = jc(1.0), c = jc(0.5);
  for (int i = 0; i < n; i++) {
    j2 na = jadd(jsin(jmul(a, b)), c);
    j2 nb = jcos(jadd(b, jmul(c, a)));
    j2 nc = jadd(jscale(jmul(jmul(a, b), c), 0.3), jscale(x, 0.1));
    a = na;
    b = nb;
    c = nc;
  }
  return jadd(a, jmul(b, c));
}

/* (f) a call in the loop; the callee loops too (its own tape stack) */
__attribute__((noinline)) static double step(double t, double x, int k) {
  for (int j = 0; j < k; j++) t = sin(t) * 0.9 + 0.05 * x * t;
  return t;
}
double calls(double x, int n) {
  double t = x, s = 0;
  for (int i = 0; i < n; i++) {
    t = step(t, x, 1 + i % 3);
    s += t * t;
  }
  return s;
}
static j2 step_j(j2 t, j2 x, int k) {
  for (int j = 0; j < k; j++) t = jadd(jscale(jsin(t), 0.9), jscale(jmul(x, t), 0.05));
  return t;
}
static j2 calls_j(j2 x, int n) {
  j2 t = x, s = jc(0);
  for (int i = 0; i < n; i++) {
    t = step_j(t, x, 1 + i % 3);
    s = jadd(s, jmul(t, t));
  }
  return s;
}

/* the first derivative, and its derivative by reverse and by forward mode (the hooks
 * take the function itself, so each gets its own wrappers) */
#define DERIVS(name)                                                                    \
  double d_##name(double x, int n) {                                                    \
    return __enzyme_autodiff((void *)name, x, enzyme_const, n);                         \
  }                                                                                     \
  static double rr_##name(double x, int n) {                                            \
    return __enzyme_autodiff_outer((void *)d_##name, x, enzyme_const, n);               \
  }                                                                                     \
  static double fr_##name(double x, int n) {                                            \
    return __enzyme_fwddiff((void *)d_##name, x, 1.0, enzyme_const, n);                 \
  }
DERIVS(series)
DERIVS(series_until)
DERIVS(mycos)
DERIVS(nested)
DERIVS(three)
DERIVS(calls)

typedef double (*first_fn)(double, int);
typedef j2 (*jet_fn)(j2, int);
static jet_fn JET;
static int NCUR;
static double jet_first(double x) { return JET((j2){x, 1, 0}, NCUR).d; }

static void check(const char *name, first_fn d, first_fn rrf, first_fn frf, jet_fn jet, double x,
                  int n) {
  char what[160];
  JET = jet;
  NCUR = n;
  j2 e = jet((j2){x, 1, 0}, n);
  double fd = fz_fd1(jet_first, x);
  snprintf(what, sizeof what, "%s n=%d x=%.3f: f' (reverse)", name, n, x);
  fz_check(what, d(x, n), e.d, 1e-10 * (fabs(e.d) > 1 ? fabs(e.d) : 1));
  snprintf(what, sizeof what, "%s n=%d x=%.3f: f''", name, n, x);
  fz_mcheck_d2(what, rrf(x, n), frf(x, n), e.dd, fd);
}

int main(void) {
  fz_seed(267);
  const int ns[] = {0, 1, 3, 12, 40};
  for (int k = 0; k < 5; k++) {
    double x = fz_uniform(-1.2, 1.2);
    int n = ns[k];
    check("series", d_series, rr_series, fr_series, series_j, x, n);
    check("series_until", d_series_until, rr_series_until, fr_series_until, series_until_j, x, n);
    check("mycos", d_mycos, rr_mycos, fr_mycos, mycos_j, x, n < 12 ? n : 12);
    check("nested", d_nested, rr_nested, fr_nested, nested_j, x, n < 12 ? n : 25);
    check("three", d_three, rr_three, fr_three, three_j, x, n);
    check("calls", d_calls, rr_calls, fr_calls, calls_j, x, n);
  }
  /* several growths of the stack buffer (inline, heap, realloc) */
  check("three", d_three, rr_three, fr_three, three_j, 0.37, 600);
  check("calls", d_calls, rr_calls, fr_calls, calls_j, -0.81, 300);
  return fz_finish();
}

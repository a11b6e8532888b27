// OPT: O0 O2
// Memoization in static arrays, as C code caches what it computes once: a table of
// binomial coefficients and of Chebyshev nodes filled on the first call (a static `int`
// flag guards it), read by the differentiated function on every call; and a cache of the
// last input's expensive transcendental value keyed by the argument's bits (hit on the
// second call with the same x, recomputed when x changes). The caches hold constants
// (integers, nodes) or primal values only, so the derivative must come out the same
// whether the cache is cold or warm; the last-value cache is the trap: a hit returns a
// stored double with no derivative path to x (here guarded so the gradient stays
// correct: the cache stores the value *and* its derivative, written by hand, and the
// function combines them as a first-order expansion in x - x_cached, which is exact
// at a hit).
// Oracle: analytic derivatives of the Bernstein polynomial and of the expansion, and
// central differences; reverse and forward agree, cold and warm.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { DEG = 6 };

static int binom_ready = 0;
static int binom[DEG + 1];
static double nodes[DEG + 1];

static void fill_tables(void) {
  for (int k = 0; k <= DEG; k++) {
    int c = 1;
    for (int j = 0; j < k; j++) c = c * (DEG - j) / (j + 1);
    binom[k] = c;
    nodes[k] = cos(M_PI * (2 * k + 1) / (2.0 * (DEG + 1)));
  }
  binom_ready = 1;
}

// Bernstein polynomial with coefficients c at t in (0, 1), times a node-weighted sum.
double bernstein(const double *c, double t) {
  if (!binom_ready) fill_tables();
  double s = 0, w = 0;
  for (int k = 0; k <= DEG; k++) {
    s += c[k] * binom[k] * pow(t, k) * pow(1 - t, DEG - k);
    w += nodes[k] * c[k];
  }
  return s + 0.1 * w * w;
}

// The last value of an expensive g(x) = exp(sin x) and g'(x), cached.
static double last_x = NAN, last_g, last_dg;
static int hits = 0;
double cached_g(double x) {
  if (x == last_x) hits++;
  else {
    last_x = x;
    last_g = exp(sin(x));
    last_dg = cos(x) * last_g;
  }
  // exact at a hit (x == last_x), and carries the derivative through x
  return last_g + last_dg * (x - last_x);
}
double model(double x, double a) { return a * cached_g(x) + x * x; }

static double g_c[DEG + 1], g_t = 0.37;
static double eval_b(void *p) { (void)p; return bernstein(g_c, g_t); }
static double g_x = 0.8, g_a = 1.5;
static double eval_m(void *p) { (void)p; last_x = NAN; return model(g_x, g_a); }

int main(void) {
  fz_seed(1283);
  fz_fill(g_c, DEG + 1, -1, 1);
  char nm[64];
  for (int pass = 0; pass < 2; pass++) { // pass 0: cold tables (filled inside), 1: warm
    const char *st = pass ? "warm" : "cold";
    if (pass == 0) binom_ready = 0;
    double dc[DEG + 1] = {0};
    double dt = __enzyme_autodiff((void *)bernstein, enzyme_dup, g_c, dc, g_t);
    fz_check(pass ? "warm: table still ready" : "cold: table filled by the gradient",
             binom_ready, 1, 0);
    for (int k = 0; k <= DEG; k++) {
      double want = binom[k] * pow(g_t, k) * pow(1 - g_t, DEG - k);
      double w = 0;
      for (int j = 0; j <= DEG; j++) w += nodes[j] * g_c[j];
      want += 0.2 * w * nodes[k];
      snprintf(nm, sizeof nm, "%s: d c[%d]", st, k);
      fz_check(nm, dc[k], want, 1e-12);
    }
    double dtw = 0;
    for (int k = 0; k <= DEG; k++) {
      double d = 0;
      if (k > 0) d += k * pow(g_t, k - 1) * pow(1 - g_t, DEG - k);
      if (k < DEG) d -= (DEG - k) * pow(g_t, k) * pow(1 - g_t, DEG - k - 1);
      dtw += g_c[k] * binom[k] * d;
    }
    snprintf(nm, sizeof nm, "%s: d t (analytic)", st);
    fz_check(nm, dt, dtw, 1e-12);
    snprintf(nm, sizeof nm, "%s: d t (fd)", st);
    fz_check(nm, dt, fz_fd_ptr(eval_b, 0, &g_t), 1e-6);
    double ct[DEG + 1];
    fz_fill(ct, DEG + 1, -1, 1);
    double jv = __enzyme_fwddiff((void *)bernstein, enzyme_dup, g_c, ct, g_t, 0.5);
    double vj = 0.5 * dt;
    for (int k = 0; k <= DEG; k++) vj += ct[k] * dc[k];
    snprintf(nm, sizeof nm, "%s: forward = reverse", st);
    fz_check(nm, jv, vj, 1e-12);
  }
  // The last-value cache: a miss, then a hit with the same x, then a new x.
  double xs[3] = {g_x, g_x, 1.9};
  last_x = NAN;
  hits = 0;
  for (int k = 0; k < 3; k++) {
    fz_grad2 g = __enzyme_autodiff2((void *)model, xs[k], g_a);
    double gx = exp(sin(xs[k]));
    snprintf(nm, sizeof nm, "cache call %d: d x", k);
    fz_check(nm, g.d0, g_a * cos(xs[k]) * gx + 2 * xs[k], 1e-12);
    snprintf(nm, sizeof nm, "cache call %d: d a", k);
    fz_check(nm, g.d1, gx, 1e-12);
    double t = __enzyme_fwddiff((void *)model, xs[k], 1.0, g_a, 0.0);
    snprintf(nm, sizeof nm, "cache call %d: forward d x", k);
    fz_check(nm, t, g.d0, 1e-12);
  }
  fz_check("cache hits seen", hits >= 1, 1, 0);
  g_x = 0.8;
  fz_check("d x (fd, cold cache each time)", __enzyme_autodiff2((void *)model, g_x, g_a).d0,
           fz_fd_ptr(eval_m, 0, &g_x), 1e-6);
  return fz_finish();
}

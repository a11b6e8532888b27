// OPT: O0 O1 O2 O3
// Record stacks of counted loops reserved once and pushed without a capacity check
// (reverse/fixed_tape.rs): every loop shape whose bound decides the reservation, at the
// edges where a wrong bound would write past the buffer — loops skipped by their guard
// (n = 0, and `n - 1` read as 2^w - 1), `!=` tests with the bound equal to the start,
// unsigned counters, starts other than 0, `<=`, nests whose inner loop is skipped
// (m = 0) or whose inner bound is the outer counter, an early data-dependent break,
// a counter tested together with data, a conditional push, a long loop (the stack
// regrows in the pool between calls), and callees in a loop (split-mode stacks, which
// start empty). Each gradient against central finite differences.
#include "fz_test.h"

#define N 40

__attribute__((noinline)) double lt(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(x[i]) * x[i];
  return s;
}

__attribute__((noinline)) double ne_unsigned(const double *x, unsigned n) {
  double s = 0;
  for (unsigned i = 0; i != n; i++) s += exp(0.1 * x[i]) * x[i];
  return s;
}

__attribute__((noinline)) double le_from3(const double *x, int n) {
  double s = 1;
  for (int i = 3; i <= n; i++) s = s * 0.9 + cos(x[i]) * s;
  return s;
}

__attribute__((noinline)) double nest(const double *x, int n, int m) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) s += exp(0.05 * x[(i * m + j) % N]) * x[i];
  return s;
}

__attribute__((noinline)) double tri(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) s += sin(x[i] * x[j]);
  return s;
}

__attribute__((noinline)) double early(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i] * 0.5 + sin(s);
    if (s > 3.0) break;
  }
  return s;
}

__attribute__((noinline)) double anded(const double *x, int n) {
  double s = 0;
  int i = 0;
  while (i < n && x[i] > -0.45) {
    s += tanh(x[i] + s);
    i++;
  }
  return s;
}

__attribute__((noinline)) double cond(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double t = x[i] * 0.7 + s * 0.01;
    if (t > 0) s += sin(t) * t;
    else s -= exp(-t * t);
  }
  return s;
}

__attribute__((noinline)) double inner(const double *x, int k, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(x[(i + k) % N] * (k + 1));
  return s;
}

__attribute__((noinline)) double calls(const double *x, int n, int m) {
  double s = 0;
  for (int k = 0; k < n; k++) s += inner(x, k, m) * x[k % N];
  return s;
}

static double LONG[20000], DLONG[20000];
__attribute__((noinline)) double longloop(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s = s * 0.999 + sin(x[i]) * 1e-3;
  return s;
}

static double X[N], DX[N], FD[N];
static int I1, I2;
static double e_lt(void *c) { (void)c; return lt(X, I1); }
static double e_ne(void *c) { (void)c; return ne_unsigned(X, (unsigned)I1); }
static double e_le(void *c) { (void)c; return le_from3(X, I1); }
static double e_nest(void *c) { (void)c; return nest(X, I1, I2); }
static double e_tri(void *c) { (void)c; return tri(X, I1); }
static double e_early(void *c) { (void)c; return early(X, I1); }
static double e_anded(void *c) { (void)c; return anded(X, I1); }
static double e_cond(void *c) { (void)c; return cond(X, I1); }
static double e_calls(void *c) { (void)c; return calls(X, I1, I2); }

static void check(const char *what, double (*e)(void *)) {
  char w[96];
  fz_fd_grad(e, NULL, X, N, FD);
  snprintf(w, sizeof w, "%s n=%d m=%d", what, I1, I2);
  fz_check_arr(w, DX, FD, N, 1e-6);
}

int main(void) {
  fz_seed(600);
  fz_fill(X, N, -0.5, 0.5);
  static const int ns[] = {0, 1, 2, 3, 7, N};
  for (unsigned a = 0; a < sizeof ns / sizeof ns[0]; a++) {
    I1 = ns[a];
    I2 = 0;
    fz_zero(DX, N); __enzyme_autodiff((void *)lt, X, DX, I1); check("lt", e_lt);
    fz_zero(DX, N); __enzyme_autodiff((void *)ne_unsigned, X, DX, (unsigned)I1); check("ne", e_ne);
    if (I1 < N) {
      fz_zero(DX, N); __enzyme_autodiff((void *)le_from3, X, DX, I1); check("le", e_le);
    }
    fz_zero(DX, N); __enzyme_autodiff((void *)tri, X, DX, I1); check("tri", e_tri);
    fz_zero(DX, N); __enzyme_autodiff((void *)early, X, DX, I1); check("early", e_early);
    fz_zero(DX, N); __enzyme_autodiff((void *)anded, X, DX, I1); check("anded", e_anded);
    fz_zero(DX, N); __enzyme_autodiff((void *)cond, X, DX, I1); check("cond", e_cond);
    static const int ms[] = {0, 1, 4};
    for (unsigned b = 0; b < 3; b++) {
      I2 = ms[b];
      fz_zero(DX, N); __enzyme_autodiff((void *)nest, X, DX, I1, I2); check("nest", e_nest);
      fz_zero(DX, N); __enzyme_autodiff((void *)calls, X, DX, I1, I2); check("calls", e_calls);
    }
  }
  /* A long loop twice (the second call takes its buffer from the pool), checked on a
     few coordinates. */
  fz_fill(LONG, 20000, -1, 1);
  for (int rep = 0; rep < 2; rep++) {
    int n = rep ? 20000 : 12000;
    fz_zero(DLONG, 20000);
    __enzyme_autodiff((void *)longloop, LONG, DLONG, n);
    for (int k = 0; k < 4; k++) {
      int i = (k * 4099 + rep * 17) % n;
      double keep = LONG[i], h = 1e-5;
      LONG[i] = keep + h; double fp = longloop(LONG, n);
      LONG[i] = keep - h; double fm = longloop(LONG, n);
      LONG[i] = keep;
      fz_check("longloop", DLONG[i], (fp - fm) / (2 * h), 1e-6);
    }
  }
  return fz_finish();
}

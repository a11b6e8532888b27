// OPT: O0 O1 O2 O3
// libc inside the differentiated function as a new user writes it (sweep20): `bsearch`
// over a constant sorted table of knots picks the interval of a piecewise-linear
// interpolant whose values are active; `qsort` sorts a copy of constant integer keys
// (comparison by function pointer) that then index active weights; `memmove` shifts an
// active window by one (a ring buffer of the last samples), `memset` clears the active
// accumulator buffer before use and `memcpy` snapshots it. Reverse and forward mode.
// Oracles: finite differences per input, analytic partials of the interpolant, and the
// dot-product identity between forward and reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define K 8
#define M 6
static const double KNOTS[K] = {0.0, 0.5, 1.1, 1.6, 2.4, 3.0, 3.7, 4.5};

static int cmp_interval(const void *key, const void *elt) {
  double x = *(const double *)key;
  const double *k = (const double *)elt;
  if (x < k[0]) return -1;
  if (x >= k[1]) return 1;
  return 0;
}
static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Piecewise-linear interpolation of the active values v at the query q. */
static double interp(const double *v, double q) {
  const double *k = bsearch(&q, KNOTS, K - 1, sizeof(double), cmp_interval);
  if (!k) return q < KNOTS[0] ? v[0] : v[K - 1];
  long i = k - KNOTS;
  double t = (q - KNOTS[i]) / (KNOTS[i + 1] - KNOTS[i]);
  return (1 - t) * v[i] + t * v[i + 1];
}

static const int KEYS[M] = {5, 1, 4, 0, 3, 2};

double objective(const double *v, const double *w, const double *qs, int nq) {
  /* The window holds the last M interpolated samples (newest last). */
  double window[M], acc[M], snap[M];
  memset(window, 0, sizeof window);
  for (int j = 0; j < nq; j++) {
    memmove(window, window + 1, (M - 1) * sizeof(double));
    window[M - 1] = interp(v, qs[j]);
  }
  int order[M];
  memcpy(order, KEYS, sizeof order);
  qsort(order, M, sizeof(int), cmp_int);
  memset(acc, 0, sizeof acc);
  for (int i = 0; i < M; i++) acc[order[i]] += w[i] * window[order[i]];
  memcpy(snap, acc, sizeof acc);
  double s = 0;
  for (int i = 0; i < M; i++) s += snap[i] * snap[i] + sin(acc[i]);
  return s;
}

static double V[K], Wt[M], Q[9];
static double eval(void *c) { (void)c; return objective(V, Wt, Q, 9); }

int main(void) {
  fz_seed(896);
  fz_fill(V, K, -1, 1);
  fz_fill(Wt, M, 0.5, 1.5);
  for (int j = 0; j < 9; j++) Q[j] = 0.2 + 0.49 * j; /* stays inside the knots, off them */
  double gv[K] = {0}, gw[M] = {0};
  __enzyme_autodiff((void *)objective, enzyme_dup, V, gv, enzyme_dup, Wt, gw, enzyme_const, Q,
                    enzyme_const, 9);
  for (int i = 0; i < K; i++) fz_check("d/dv vs FD", gv[i], fz_fd_ptr(eval, NULL, &V[i]), 1e-6);
  for (int i = 0; i < M; i++) fz_check("d/dw vs FD", gw[i], fz_fd_ptr(eval, NULL, &Wt[i]), 1e-6);

  /* The interpolant alone: d interp / d v is the hat function at q. */
  double q = 1.3, gi[K] = {0};
  double (*ip)(const double *, double) = interp;
  __enzyme_autodiff((void *)ip, enzyme_dup, V, gi, enzyme_const, q);
  double t = (q - KNOTS[2]) / (KNOTS[3] - KNOTS[2]);
  for (int i = 0; i < K; i++)
    fz_check("hat weights", gi[i], i == 2 ? 1 - t : i == 3 ? t : 0.0, 1e-14);

  /* Forward mode along (tv, tw) vs the reverse gradient. */
  double tv[K], tw[M];
  fz_fill(tv, K, -1, 1);
  fz_fill(tw, M, -1, 1);
  double dir = __enzyme_fwddiff((void *)objective, enzyme_dup, V, tv, enzyme_dup, Wt, tw,
                                enzyme_const, Q, enzyme_const, 9);
  double dot = 0;
  for (int i = 0; i < K; i++) dot += tv[i] * gv[i];
  for (int i = 0; i < M; i++) dot += tw[i] * gw[i];
  fz_check("forward = <t, gradient>", dir, dot, 1e-11);
  return fz_finish();
}

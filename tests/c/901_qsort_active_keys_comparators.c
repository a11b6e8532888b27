// OPT: O0 O1 O2 O3
// Sorting by the values being differentiated, as C users write it (sweep22): `qsort` of
// an index array whose comparator reads the active keys through a file-scope pointer
// (`static const double *g_keys`, set before the call), `qsort` of records
// `{double key; double w; int id;}` whose comparator reads the active key field, and a
// trimmed mean (sort a copy, drop the extremes). The derivatives follow the permutation:
// the order is locally constant for distinct keys. Oracles: closed forms through the
// permutation computed independently (insertion sort in main), finite differences, and
// forward vs reverse (dot-product identity).
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 9

static const double *g_keys;

static int by_key_index(const void *a, const void *b) {
  double ka = g_keys[*(const int *)a], kb = g_keys[*(const int *)b];
  return (ka > kb) - (ka < kb);
}

typedef struct {
  double key;
  double w;
  int id;
} rec;

static int by_record_key(const void *a, const void *b) {
  const rec *ra = a, *rb = b;
  if (ra->key < rb->key) return -1;
  if (ra->key > rb->key) return 1;
  return ra->id - rb->id;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : (x > y ? 1 : 0);
}

// Rank-weighted loss: sum_r (r + 1) * x[perm[r]]^2 + a trimmed mean of records.
double ranked(const double *x, const double *w) {
  int idx[N];
  for (int i = 0; i < N; i++) idx[i] = i;
  g_keys = x;
  qsort(idx, N, sizeof idx[0], by_key_index);
  double s = 0;
  for (int r = 0; r < N; r++) s += (r + 1) * x[idx[r]] * x[idx[r]];

  rec rs[N];
  for (int i = 0; i < N; i++) {
    rs[i].key = sin(x[i]) + 0.1 * i;
    rs[i].w = w[i] * x[i];
    rs[i].id = i;
  }
  qsort(rs, N, sizeof rs[0], by_record_key);
  for (int r = 1; r + 1 < N; r++) s += rs[r].w * rs[r].key / (r + 2.0);

  double *tmp = malloc(N * sizeof *tmp);
  for (int i = 0; i < N; i++) tmp[i] = x[i] * w[i];
  qsort(tmp, N, sizeof *tmp, by_value);
  double trimmed = 0;
  for (int r = 2; r < N - 2; r++) trimmed += tmp[r];
  free(tmp);
  return s + trimmed / (N - 4);
}

// The permutation sorting keys ascending (insertion sort, stable).
static void order(const double *k, int *p) {
  for (int i = 0; i < N; i++) p[i] = i;
  for (int i = 1; i < N; i++)
    for (int j = i; j > 0 && k[p[j - 1]] > k[p[j]]; j--) {
      int t = p[j];
      p[j] = p[j - 1];
      p[j - 1] = t;
    }
}

static double X[N], W[N];
static double ev(void *c) { (void)c; return ranked(X, W); }

int main(void) {
  const double x0[N] = {0.31, -1.2, 0.77, 2.05, -0.43, 1.38, 0.05, -2.2, 1.71};
  const double w0[N] = {1.0, 0.5, -0.7, 1.3, 0.9, -1.1, 0.4, 2.0, -0.3};
  for (int i = 0; i < N; i++) X[i] = x0[i], W[i] = w0[i];
  double dx[N] = {0}, dw[N] = {0};
  __enzyme_autodiff((void *)ranked, enzyme_dup, X, dx, enzyme_dup, W, dw);

  // Closed form through the permutations.
  double gx[N] = {0}, gw[N] = {0};
  int p[N];
  order(X, p);
  for (int r = 0; r < N; r++) gx[p[r]] += 2.0 * (r + 1) * X[p[r]];
  double key[N];
  for (int i = 0; i < N; i++) key[i] = sin(X[i]) + 0.1 * i;
  order(key, p);
  for (int r = 1; r + 1 < N; r++) {
    int i = p[r];
    double c = 1.0 / (r + 2.0);
    gx[i] += c * (W[i] * key[i] + W[i] * X[i] * cos(X[i]));
    gw[i] += c * X[i] * key[i];
  }
  double prod[N];
  for (int i = 0; i < N; i++) prod[i] = X[i] * W[i];
  order(prod, p);
  for (int r = 2; r < N - 2; r++) {
    gx[p[r]] += W[p[r]] / (N - 4);
    gw[p[r]] += X[p[r]] / (N - 4);
  }
  fz_check_arr("d/dx closed form", dx, gx, N, 1e-10);
  fz_check_arr("d/dw closed form", dw, gw, N, 1e-10);

  double fx[N], fw[N];
  fz_fd_grad(ev, NULL, X, N, fx);
  fz_fd_grad(ev, NULL, W, N, fw);
  fz_check_arr("d/dx finite differences", dx, fx, N, 1e-6);
  fz_check_arr("d/dw finite differences", dw, fw, N, 1e-6);

  double tx[N], tw[N], dot = 0;
  for (int i = 0; i < N; i++) {
    tx[i] = 0.1 * (i % 4) - 0.15;
    tw[i] = 0.05 * i - 0.2;
    dot += tx[i] * dx[i] + tw[i] * dw[i];
  }
  double jt = __enzyme_fwddiff((void *)ranked, enzyme_dup, X, tx, enzyme_dup, W, tw);
  fz_check("forward . t vs reverse", jt, dot, 1e-10);
  return fz_finish();
}

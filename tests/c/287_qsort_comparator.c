// OPT: O0 O2
// qsort with a comparator on the differentiated path (issue 10): the gradient of a
// function of the sorted values moves back to the original positions (sorting is a
// permutation), in reverse and forward mode; doubles and structs sorted by a key field
// (the payload's derivative moves with its key).
// Oracle: analytic (rank-weighted sums) and finite differences away from ties.
#include "fz_test.h"
#include "fz_modes.h"

#define N 9

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* sum_k (k + 1) * sorted_k^2 */
double ranked(double *x, int n) {
  qsort(x, (size_t)n, sizeof(double), cmp_double);
  double s = 0;
  for (int k = 0; k < n; k++) s += (k + 1) * x[k] * x[k];
  return s;
}

typedef struct { int key; double w; } Item;
static int by_key(const void *a, const void *b) {
  return ((const Item *)a)->key - ((const Item *)b)->key;
}
/* sum_k w_k * (k + 1): after sorting by key, position k holds key k. */
double by_position(Item *it, int n) {
  qsort(it, (size_t)n, sizeof(Item), by_key);
  double s = 0;
  for (int k = 0; k < n; k++) s += it[k].w * (k + 1) * it[k].w;
  return s;
}

static double X[N];
static double eval(void *c) {
  (void)c;
  double y[N];
  memcpy(y, X, sizeof y);
  return ranked(y, N);
}

int main(void) {
  fz_seed(287);
  fz_fill(X, N, -2, 2);
  double x[N], dx[N] = {0}, want[N], fd[N];
  memcpy(x, X, sizeof x);
  __enzyme_autodiff((void *)ranked, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    int r = 0;
    for (int j = 0; j < N; j++) r += X[j] < X[i];
    want[i] = (r + 1) * 2 * X[i];
  }
  fz_check_arr("reverse vs ranks", dx, want, N, 1e-12);
  fz_fd_grad(eval, NULL, X, N, fd);
  fz_check_arr("reverse vs fd", dx, fd, N, 1e-6);
  for (int i = 0; i < N; i++) {
    double y[N], v[N] = {0};
    memcpy(y, X, sizeof y);
    v[i] = 1;
    fz_check("forward", __enzyme_fwddiff((void *)ranked, enzyme_dup, y, v, enzyme_const, N),
             want[i], 1e-12);
  }
  Item it[N], dit[N];
  for (int i = 0; i < N; i++) {
    it[i].key = (i * 4) % N; /* a permutation of 0..N-1 */
    it[i].w = fz_uniform(0.5, 1.5);
    dit[i].key = 0;
    dit[i].w = 0;
  }
  Item orig[N];
  memcpy(orig, it, sizeof it);
  __enzyme_autodiff((void *)by_position, enzyme_dup, it, dit, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    /* The shadow moved back to the original positions: orig index i got key orig[i].key. */
    fz_check("struct payload at original position", dit[i].w,
             2 * (orig[i].key + 1) * orig[i].w, 1e-12);
  }
  return fz_finish();
}

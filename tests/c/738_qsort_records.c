// OPT: O0 O1 O2 O3
// `qsort` of records that mix an inactive key and active payloads (`struct { int id;
// double w; double v[2]; }`, 32 bytes), sorted by the integer id and then by an active
// double in a second `qsort` call, `bsearch` for one record by id, a `memcpy` of a whole
// record; the loss weights records by their sorted position. Oracle: finite differences
// (no ties in the active sort key).
#include "fz_test.h"

typedef struct { int id; double w; double v[2]; } rec;

static int by_id(const void *a, const void *b) {
  const rec *x = a, *y = b;
  return (x->id > y->id) - (x->id < y->id);
}
static int by_w(const void *a, const void *b) {
  double x = ((const rec *)a)->w, y = ((const rec *)b)->w;
  return (x > y) - (x < y);
}

double loss(const rec *in, int n, int find) {
  rec *r = malloc(n * sizeof(rec));
  memcpy(r, in, n * sizeof(rec));
  qsort(r, n, sizeof(rec), by_id);
  double s = 0.0;
  for (int i = 0; i < n; i++) s += (i + 1) * r[i].w * r[i].v[0];
  rec key = {find, 0, {0, 0}};
  const rec *hit = bsearch(&key, r, n, sizeof(rec), by_id);
  rec copy;
  memcpy(&copy, hit, sizeof copy);
  s += copy.v[1] * copy.v[1];
  qsort(r, n, sizeof(rec), by_w);
  for (int i = 0; i < n; i++) s += 0.1 * (i + 1) * r[i].v[1] * r[i].w;
  free(r);
  return s;
}

#define N 7
static rec R[N];
static double eval(void *ctx) { (void)ctx; return loss(R, N, 4); }

int main(void) {
  int ids[N] = {6, 2, 9, 4, 1, 7, 3};
  fz_seed(738);
  for (int i = 0; i < N; i++) {
    R[i].id = ids[i];
    R[i].w = fz_uniform(-2, 2);
    R[i].v[0] = fz_uniform(-1, 1);
    R[i].v[1] = fz_uniform(-1, 1);
  }
  rec dR[N];
  memset(dR, 0, sizeof dR);
  __enzyme_autodiff((void *)loss, enzyme_dup, R, dR, enzyme_const, N, enzyme_const, 4);
  char what[48];
  for (int i = 0; i < N; i++) {
    snprintf(what, sizeof what, "d/dw[%d]", i);
    fz_check(what, dR[i].w, fz_fd_ptr(eval, NULL, &R[i].w), 1e-6);
    for (int j = 0; j < 2; j++) {
      snprintf(what, sizeof what, "d/dv[%d][%d]", i, j);
      fz_check(what, dR[i].v[j], fz_fd_ptr(eval, NULL, &R[i].v[j]), 1e-6);
    }
  }
  return fz_finish();
}

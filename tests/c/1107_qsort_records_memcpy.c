// OPT: O0 O1 O2 O3
// IGNORE-REF: --ad-before-opt refuses the memcpy into the malloc'd records (cannot-deduce-type: "conflicting uses" of the copied memory before SROA); the optimized builds (O0-O3, plugin) differentiate it
// Records sorted with qsort inside the differentiated function (a comparator on an
// integer key, another on an active double), copied with memcpy into a scratch array
// of structs, with a static helper computing a weighted rank statistic: the gradient
// follows the permutation. Oracle: central differences (the order is fixed within h).
#include "fz_test.h"

extern int enzyme_dup, enzyme_const, enzyme_out;

typedef struct {
  int id;
  double value;
  double weight;
} rec;

static int by_value(const void *a, const void *b) {
  double x = ((const rec *)a)->value, y = ((const rec *)b)->value;
  return (x > y) - (x < y);
}
static int by_id_desc(const void *a, const void *b) {
  return ((const rec *)b)->id - ((const rec *)a)->id;
}

static double trimmed(const rec *r, int n, int trim) {
  double s = 0, ws = 0;
  for (int i = trim; i < n - trim; i++) {
    s += r[i].weight * r[i].value;
    ws += r[i].weight;
  }
  return s / ws;
}

double robust_score(const rec *in, int n, double scale) {
  rec *tmp = malloc(n * sizeof *tmp);
  memcpy(tmp, in, n * sizeof *tmp);
  for (int i = 0; i < n; i++) tmp[i].value *= scale;
  qsort(tmp, n, sizeof *tmp, by_value);
  double t = trimmed(tmp, n, 2);
  qsort(tmp, n, sizeof *tmp, by_id_desc);
  /* a position-dependent term after re-sorting by id */
  double tail = 0;
  for (int i = 0; i < n; i++) tail += (i + 1) * tmp[i].value * tmp[i].value;
  free(tmp);
  return t * t + 0.01 * tail;
}

typedef struct {
  rec r[9];
  double scale;
} ctx_t;
static double eval(void *c) {
  ctx_t *x = c;
  return robust_score(x->r, 9, x->scale);
}

int main(void) {
  ctx_t c;
  fz_seed(21);
  for (int i = 0; i < 9; i++) {
    c.r[i].id = (i * 5) % 9;
    c.r[i].value = fz_uniform(-3, 3);
    c.r[i].weight = fz_uniform(0.5, 2);
  }
  c.scale = 1.3;
  rec dr[9];
  memset(dr, 0, sizeof dr);
  double ds = __enzyme_autodiff((void *)robust_score, enzyme_dup, c.r, dr, enzyme_const, 9,
                                enzyme_out, c.scale);
  fz_check("d/dscale", ds, fz_fd_ptr(eval, &c, &c.scale), 1e-6);
  for (int i = 0; i < 9; i++) {
    char b[48];
    snprintf(b, sizeof b, "d/dvalue[%d]", i);
    fz_check(b, dr[i].value, fz_fd_ptr(eval, &c, &c.r[i].value), 1e-6);
    snprintf(b, sizeof b, "d/dweight[%d]", i);
    fz_check(b, dr[i].weight, fz_fd_ptr(eval, &c, &c.r[i].weight), 1e-6);
    fz_check("id shadow untouched", dr[i].id, 0, 0);
  }
  return fz_finish();
}

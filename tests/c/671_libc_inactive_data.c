// OPT: O0 O1 O2 O3
// C library calls on inactive data around an active computation, as users write them:
// coefficients parsed with `strtod` from a string, a key table sorted with `qsort` and
// searched with `bsearch` (indices only), `memcmp` choosing a branch, a union holding
// either an integer tag or a double scale, a bit-field struct of flags next to active
// doubles, and a struct with a flexible array member of active doubles.
// Oracles: finite differences and analytic formulas.
#include "fz_test.h"

typedef struct { int key; int idx; } entry;
static int cmp_entry(const void *a, const void *b) {
  const entry *x = (const entry *)a, *y = (const entry *)b;
  return (x->key > y->key) - (x->key < y->key);
}
static int cmp_key(const void *k, const void *e) {
  int a = *(const int *)k, b = ((const entry *)e)->key;
  return (a > b) - (a < b);
}

typedef union { long tag; double scale; } tagged;
typedef struct { unsigned sq : 1, neg : 1, shift : 3; double w; } flags;
typedef struct { int n; double a[]; } fam;

double model(const double *x, const char *coef, const int *keys, int n, const tagged *u,
             const flags *fl, const fam *fm) {
  char *end;
  double c0 = strtod(coef, &end);
  double c1 = strtod(end, &end);
  entry tab[8];
  for (int i = 0; i < n; i++) { tab[i].key = keys[i]; tab[i].idx = i; }
  qsort(tab, (size_t)n, sizeof(entry), cmp_entry);
  double s = 0;
  for (int i = 0; i < n; i++) {
    int want = keys[(i * 3) % n];
    entry *e = (entry *)bsearch(&want, tab, (size_t)n, sizeof(entry), cmp_key);
    double v = x[e->idx] * (i + 1);
    if (memcmp(coef, "1.5", 3) == 0) v *= c0;
    s += v * x[tab[i].idx];
  }
  double sc = (u->tag & 1) ? 2.0 : u->scale;
  double t = fl->sq ? x[0] * x[0] : x[0];
  if (fl->neg) t = -t;
  t *= fl->w * (1 << fl->shift);
  double f = 0;
  for (int i = 0; i < fm->n; i++) f += fm->a[i] * x[i % n];
  return sc * s + c1 * t + f * f;
}

static double X[6];
static const char *COEF = "1.5 -0.25";
static int KEYS[6] = {40, 7, 19, 3, 88, 21};
static tagged U;
static flags FL;
static fam *FM;
static double eval(void *ctx) { (void)ctx; return model(X, COEF, KEYS, 6, &U, &FL, FM); }

int main(void) {
  const int n = 6;
  double x[6] = {0.4, -1.1, 0.7, 2.0, -0.3, 0.9}, dx[6] = {0};
  U.scale = 0.75;
  FL.sq = 1; FL.neg = 1; FL.shift = 2; FL.w = 0.3;
  FM = (fam *)malloc(sizeof(fam) + 4 * sizeof(double));
  FM->n = 4;
  fam *dFM = (fam *)calloc(1, sizeof(fam) + 4 * sizeof(double));
  dFM->n = 4;
  for (int i = 0; i < 4; i++) FM->a[i] = 0.5 + 0.25 * i;
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_const, COEF, enzyme_const, KEYS,
                    enzyme_const, n, enzyme_const, &U, enzyme_const, &FL, enzyme_dup, FM, dFM);
  for (int i = 0; i < n; i++) X[i] = x[i];
  double fd[6];
  fz_fd_grad(eval, NULL, X, n, fd);
  fz_check_arr("model dx", dx, fd, n, 1e-6);
  /* d/da_i of (sum a_i x_i)^2 = 2 f x_i */
  double f = 0;
  for (int i = 0; i < 4; i++) f += FM->a[i] * x[i];
  for (int i = 0; i < 4; i++) fz_check("fam da", dFM->a[i], 2 * f * x[i], 1e-12);
  fz_check("fam n untouched", dFM->n, 4, 0);
  free(FM);
  free(dFM);
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// A buffer grown with realloc (doubling) while values derived from the inputs are
// appended, read back after each move; a union of a double and a struct of two floats
// used as a tagged value (the tag a bit field); records with bit fields packed beside
// double fields, written and read in a loop; reverse and forward. Oracle: central
// differences of the primal.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { N = 5 };

double grown(const double *x, int n) {
  size_t cap = 1, len = 0;
  double *buf = malloc(cap * sizeof *buf);
  for (int r = 0; r < 3; r++)
    for (int i = 0; i < n; i++) {
      if (len == cap) {
        cap *= 2;
        buf = realloc(buf, cap * sizeof *buf);
      }
      buf[len] = x[i] * (r + 1) + (len ? buf[len - 1] * 0.5 : 0.0);
      len++;
    }
  double s = 0;
  for (size_t k = 0; k < len; k++) s += buf[k] * buf[k] / (double)(k + 1);
  free(buf);
  return s;
}

typedef struct {
  unsigned kind : 2;
  unsigned flip : 1;
  unsigned count : 5;
  double weight;
  union {
    double d;
    struct {
      float lo, hi;
    } f;
  } u;
} item;

double tagged(const double *x, int n) {
  item it[N];
  for (int i = 0; i < n; i++) {
    it[i].kind = i % 3;
    it[i].flip = i & 1;
    it[i].count = i + 1;
    it[i].weight = x[i] * 0.5;
    if (it[i].kind == 2) {
      it[i].u.f.lo = 1.5f;
      it[i].u.f.hi = 2.5f;
    } else {
      it[i].u.d = exp(x[i]);
    }
  }
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v = it[i].kind == 2 ? (double)it[i].u.f.lo * it[i].u.f.hi : it[i].u.d;
    double w = it[i].flip ? -it[i].weight : it[i].weight;
    s += it[i].count * v * w;
  }
  return s;
}

static double grown_ctx(void *c) { return grown((const double *)c, N); }
static double tagged_ctx(void *c) { return tagged((const double *)c, N); }

int main(void) {
  double x[N] = {0.4, -0.9, 1.3, 0.2, -0.6}, dx[N] = {0}, fd[N];
  char nm[48];
  __enzyme_autodiff((void *)grown, enzyme_dup, x, dx, enzyme_const, N);
  fz_fd_grad(grown_ctx, x, x, N, fd);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "realloc dx[%d]", i);
    fz_check(nm, dx[i], fd[i], 1e-6);
  }
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)tagged, enzyme_dup, x, dx, enzyme_const, N);
  fz_fd_grad(tagged_ctx, x, x, N, fd);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "tagged dx[%d]", i);
    fz_check(nm, dx[i], fd[i], 1e-6);
    double t[N] = {0};
    t[i] = 1;
    snprintf(nm, sizeof nm, "tagged forward d/dx[%d]", i);
    fz_check(nm, __enzyme_fwddiff((void *)tagged, x, t, N), fd[i], 1e-6);
  }
  return fz_finish();
}

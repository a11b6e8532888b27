// OPT: O0 O1 O2 O3
// Helpers that return pointers into the differentiated data, as Enzyme users write
// them: a static `row(m, i)` returning &m[i*n], a `max_elem` returning a pointer to the
// largest entry (the derivative follows the chosen element), a helper that mallocs and
// returns a scaled copy (freed by the caller inside the differentiated function), and
// a pointer-returning function differentiated with enzyme_dup on its result's target.
// Oracle: analytic and central differences.
#include "fz_test.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_void(void *, ...);

#define N 4

static double *row(double *m, int i) { return m + i * N; }

static const double *max_elem(const double *v, int n) {
  const double *best = v;
  for (int i = 1; i < n; i++)
    if (v[i] > *best) best = v + i;
  return best;
}

__attribute__((noinline)) double *scaled_copy(const double *v, int n, double s) {
  double *out = malloc(n * sizeof *out);
  for (int i = 0; i < n; i++) out[i] = s * v[i];
  return out;
}

/* sum over rows of (largest entry of the row) * exp(scaled row mean) */
double objective(double *m, double s) {
  double acc = 0;
  for (int i = 0; i < N; i++) {
    double *r = row(m, i);
    double *c = scaled_copy(r, N, s);
    double mean = 0;
    for (int j = 0; j < N; j++) mean += c[j];
    mean /= N;
    acc += *max_elem(r, N) * exp(0.3 * mean);
    free(c);
  }
  return acc;
}

/* writes through the returned pointer: the cell it picks gets a square */
double *pick(double *v, int n) {
  double *p = (double *)max_elem(v, n);
  *p = *p * *p;
  return p;
}
void use_pick(double *v, double *out) {
  double *p = pick(v, N);
  out[0] = *p + v[0] * v[1];
}

typedef struct {
  double m[N * N];
  double s;
} ctx_t;
static double eval(void *c) {
  ctx_t *x = c;
  double tmp[N * N];
  memcpy(tmp, x->m, sizeof tmp);
  return objective(tmp, x->s);
}
typedef struct {
  double v[N];
} ctx2_t;
static double eval2(void *c) {
  ctx2_t *x = c;
  double v[N], o[1];
  memcpy(v, x->v, sizeof v);
  use_pick(v, o);
  return o[0];
}

int main(void) {
  ctx_t c;
  fz_seed(11);
  fz_fill(c.m, N * N, -1.0, 1.0);
  c.s = 0.8;
  double m[N * N], dm[N * N] = {0};
  memcpy(m, c.m, sizeof m);
  double ds = __enzyme_autodiff((void *)objective, enzyme_dup, m, dm, enzyme_out, c.s);
  fz_check("d/ds", ds, fz_fd_ptr(eval, &c, &c.s), 1e-6);
  for (int i = 0; i < N * N; i++) {
    char b[32];
    snprintf(b, sizeof b, "d/dm[%d]", i);
    fz_check(b, dm[i], fz_fd_ptr(eval, &c, &c.m[i]), 1e-6);
  }
  ctx2_t c2 = {{0.4, -0.3, 1.7, 0.9}};
  double v[N], dv[N] = {0}, o[1], dout[1] = {1.0};
  memcpy(v, c2.v, sizeof v);
  __enzyme_autodiff_void((void *)use_pick, enzyme_dup, v, dv, enzyme_dup, o, dout);
  fz_check("use_pick primal", o[0], 1.7 * 1.7 + 0.4 * -0.3, 1e-12);
  for (int i = 0; i < N; i++) {
    char b[32];
    snprintf(b, sizeof b, "d use_pick/dv[%d]", i);
    fz_check(b, dv[i], fz_fd_ptr(eval2, &c2, &c2.v[i]), 1e-6);
  }
  return fz_finish();
}

// OPT: O0 O2
// The built-in rules of qsort and of the complex functions beyond plain reverse mode:
// split mode (`__enzyme_augmentfwd` per time step, tapes kept by the caller, then
// `__enzyme_reverse` from the last step back) of a step that sorts its state in place;
// and forward over reverse (`__enzyme_fwddiff` of a function that calls
// `__enzyme_autodiff`) of an energy that sorts a copy and goes through cexp, csqrt and
// complex division. Oracles: the combined gradient of the whole run and central
// differences (split mode); central differences of the gradient and the symmetry
// u.(H v) = v.(H u) (Hessian-vector products).
#include "fz_test.h"
#include <complex.h>

extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_reverse(void *, ...);
extern void __enzyme_fwddiff(void *, ...);

#define N 5
#define STEPS 4

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

void step(double *s, int n, double h) {
  qsort(s, n, sizeof *s, cmp);
  for (int i = 0; i < n; i++) s[i] += h * (i + 1) * sin(s[i]) - h * 0.2 * s[(i + 1) % n];
}

double run(double *s, int n) {
  for (int k = 0; k < STEPS; k++) step(s, n, 0.1);
  double e = 0;
  for (int i = 0; i < n; i++) e += (i + 1) * s[i] * s[i];
  return e;
}

typedef struct { double x[N]; } ctx;
static double ev_run(void *p) {
  double s[N];
  memcpy(s, ((ctx *)p)->x, sizeof s);
  return run(s, N);
}

/* an energy through a sort and complex functions */
double energy(const double *x) {
  double s[N];
  memcpy(s, x, sizeof s);
  qsort(s, N, sizeof *s, cmp);
  double e = 0;
  for (int i = 0; i + 1 < N; i++) {
    double complex z = s[i] + I * (0.5 * s[i + 1]);
    double complex w = cexp(0.3 * z) / (z * z + 2.0) + csqrt(z + 3.0);
    e += (i + 1) * creal(w) + cimag(w) * s[i];
  }
  return e;
}

void grad(const double *x, double *g) {
  for (int i = 0; i < N; i++) g[i] = 0;
  __enzyme_autodiff((void *)energy, enzyme_dup, x, g);
}

typedef struct { double x[N]; int k; } gctx;
static double ev_g(void *p) {
  gctx *c = p;
  double g[N];
  grad(c->x, g);
  return g[c->k];
}

int main(void) {
  /* split mode, one tape per step */
  ctx c = {{0.7, -0.4, 1.3, 0.1, -1.0}};
  double s[N], ds[N] = {0}, snap[STEPS][N];
  memcpy(s, c.x, sizeof s);
  void *tapes[STEPS];
  for (int k = 0; k < STEPS; k++) {
    memcpy(snap[k], s, sizeof s);
    tapes[k] = __enzyme_augmentfwd((void *)step, enzyme_dup, s, ds, enzyme_const, N,
                                   enzyme_const, 0.1);
  }
  for (int i = 0; i < N; i++) ds[i] = 2 * (i + 1) * s[i]; /* d e / d final state */
  for (int k = STEPS - 1; k >= 0; k--)
    __enzyme_reverse((void *)step, enzyme_dup, snap[k], ds, enzyme_const, N, enzyme_const, 0.1,
                     tapes[k]);
  double s2[N], g2[N] = {0}, fd[N];
  memcpy(s2, c.x, sizeof s2);
  __enzyme_autodiff((void *)run, enzyme_dup, s2, g2, enzyme_const, N);
  fz_fd_grad(ev_run, &c, c.x, N, fd);
  fz_check_arr("split mode = combined gradient", ds, g2, N, 1e-12);
  fz_check_arr("split mode vs FD", ds, fd, N, 1e-6);

  /* Hessian-vector products through the sort and the complex functions */
  gctx gc = {{0.9, -0.3, 0.45, 1.6, -0.8}, 0};
  double u[N] = {0.3, -0.2, 0.9, 0.1, -0.5}, v[N] = {-0.7, 0.4, 0.25, 0.6, 0.15};
  double g[N], hv[N], hu[N];
  __enzyme_fwddiff((void *)grad, gc.x, v, g, hv);
  __enzyme_fwddiff((void *)grad, gc.x, u, g, hu);
  double want[N];
  for (int k = 0; k < N; k++) {
    gc.k = k;
    want[k] = 0;
    for (int i = 0; i < N; i++) want[k] += v[i] * fz_fd_ptr(ev_g, &gc, &gc.x[i]);
  }
  fz_check_arr("H v vs FD of the gradient", hv, want, N, 1e-6);
  double uhv = 0, vhu = 0;
  for (int i = 0; i < N; i++) uhv += u[i] * hv[i], vhu += v[i] * hu[i];
  fz_check("u.(H v) = v.(H u)", uhv, vhu, 1e-12);
  return fz_finish();
}

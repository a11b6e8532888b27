// OMP_THREADS: 1 2 4
// OPT: O0 O2
// A struct of pointers built in the differentiated function holds an `enzyme_const`
// weights pointer beside the active x and y; the parallel region captures the struct (by
// reference: its address), hands it to an orphaned `omp for` kernel that reads the
// weights through it and writes y, then sums under `critical`. The struct has a shadow
// (its x and y fields), so the constant pointer stored into it is its own shadow
// (runtime activity) and the region's derivative, with the kernel's, is generated
// under checks. Reverse and forward mode; oracles: the serial program differentiated
// too (1e-12), central differences, the dot-product identity, the weights unchanged.
#include <math.h>
#include <omp.h>
#include "fz_test.h"

extern int enzyme_dup, enzyme_const;
extern double __enzyme_fwddiff(void *, ...);

struct Params {
  const double *w;
  double *x;
  double *y;
  int n;
  double scale;
};

static double term(const struct Params *p, int i) {
  return p->w[i] * sin(p->x[i]) * p->scale + p->w[(i + 2) % p->n] * p->x[(i + 1) % p->n];
}

static void kernel(const struct Params *p) {
#pragma omp for
  for (int i = 0; i < p->n; i++) p->y[i] = term(p, i);
}

double loss(double *x, double *y, const double *w, int n) {
  struct Params p = {w, x, y, n, x[0]};
  double s = 0;
#pragma omp parallel
  {
    kernel(&p);
    double part = 0;
#pragma omp for
    for (int i = 0; i < n; i++) part += p.y[i] * p.y[i] * w[i];
#pragma omp critical
    s += part;
  }
  return s;
}

double loss_serial(double *x, double *y, const double *w, int n) {
  struct Params p = {w, x, y, n, x[0]};
  for (int i = 0; i < n; i++) y[i] = term(&p, i);
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i] * y[i] * w[i];
  return s;
}

enum { N = 8 };
static double X[N], W[N];
static double eval(void *ctx) {
  (void)ctx;
  double y[N];
  return loss_serial(X, y, W, N);
}

int main(void) {
  fz_seed(74);
  double x0[N], w0[N];
  fz_fill(x0, N, -1, 1);
  fz_fill(W, N, -0.5, 0.9);
  for (int i = 0; i < N; i++) w0[i] = W[i], X[i] = x0[i];
  double fd[N];
  fz_fd_grad(eval, 0, X, N, fd);
  double x[N], dx[N] = {0}, ds[N] = {0}, y[N], dy[N] = {0}, dys[N] = {0};
  for (int i = 0; i < N; i++) x[i] = x0[i];
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, W, N);
  __enzyme_autodiff((void *)loss_serial, enzyme_dup, x, ds, enzyme_dup, y, dys, enzyme_const, W,
                    N);
  fz_check_arr("gradient vs serial program", dx, ds, N, 1e-12);
  fz_check_arr("gradient vs central differences", dx, fd, N, 1e-6);
  double v[N], ty[N], dot = 0;
  for (int i = 0; i < N; i++) v[i] = 0.1 * i - 0.3, dot += v[i] * dx[i];
  double tan = __enzyme_fwddiff((void *)loss, enzyme_dup, x, v, enzyme_dup, y, ty, enzyme_const,
                                W, N);
  fz_check("forward = <gradient, v>", tan, dot, 1e-10);
  // y's tangent: the kernel's output along v, against the serial program's.
  double tys[N];
  double tans = __enzyme_fwddiff((void *)loss_serial, enzyme_dup, x, v, enzyme_dup, y, tys,
                                 enzyme_const, W, N);
  fz_check("forward vs serial forward", tan, tans, 1e-12);
  fz_check_arr("tangent of y vs serial", ty, tys, N, 1e-12);
  int same = 1;
  for (int i = 0; i < N; i++) same &= W[i] == w0[i] && x[i] == x0[i];
  fz_check("enzyme_const weights and x unchanged", same, 1, 0);
  return fz_finish();
}

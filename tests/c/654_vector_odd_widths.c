// OPT: O0 O1 O2 O3
// Vector (batched) modes at widths no other program uses: forward mode with
// enzyme_width 5 (enzyme_dup, five shadow pointers), 6 and 7 (enzyme_dupv, one strided
// buffer) returning the tangents in structs of 5/6/7 doubles (an sret return), and
// reverse mode with enzyme_width 5 and an active (scalar) return seeded per lane: the
// function has a loop with a malloc'd scratch array, a call, and a data-dependent branch.
// Oracle: the scalar forward and reverse modes (one direction at a time) and finite
// differences.
#include "fz_test.h"

extern int enzyme_width, enzyme_dupv;
typedef struct { double d[5]; } v5;
typedef struct { double d[6]; } v6;
typedef struct { double d[7]; } v7;
extern v5 __enzyme_fwddiff_v5(void *, ...);
extern v6 __enzyme_fwddiff_v6(void *, ...);
extern v7 __enzyme_fwddiff_v7(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern void __enzyme_autodiff_w5(void *, ...);

#define N 7

__attribute__((noinline)) static double bump(double v, int i) { return v > 0.1 * i ? v * v : sin(v); }

double work(const double *x, int n) {
  double *t = malloc(sizeof(double) * (size_t)n);
  double s = 0.0;
  for (int i = 0; i < n; i++) t[i] = bump(x[i], i) + (i ? t[i - 1] * 0.5 : 0.0);
  for (int i = 0; i < n; i++) s += t[i] * x[(i + 3) % n];
  free(t);
  return s;
}

typedef struct { const double *x; int n; } ctx_t;
static double eval(void *c) { ctx_t *p = c; return work(p->x, p->n); }

int main(void) {
  double x[N] = {0.3, -0.6, 0.9, 0.2, -0.4, 0.75, 0.5};
  double grad[N], fd[N];
  ctx_t c = {x, N};
  fz_fd_grad(eval, &c, x, N, fd);
  for (int i = 0; i < N; i++) {
    double e[N] = {0};
    e[i] = 1.0;
    grad[i] = __enzyme_fwddiff((void *)work, enzyme_dup, x, e, enzyme_const, N);
  }
  fz_check_arr("scalar forward vs fd", grad, fd, N, 1e-6);

  // width 5, five separate shadows: directions e_0..e_4
  double d5[5][N] = {{0}};
  for (int k = 0; k < 5; k++) d5[k][k] = 1.0;
  v5 r5 = __enzyme_fwddiff_v5((void *)work, enzyme_width, 5, enzyme_dup, x, d5[0], d5[1], d5[2],
                              d5[3], d5[4], enzyme_const, N);
  fz_check_arr("width 5", r5.d, grad, 5, 1e-12);

  // width 6 and 7, one strided buffer (enzyme_dupv): directions e_1.. and a dense one
  double d6[6][N] = {{0}};
  for (int k = 0; k < 6; k++) d6[k][(k + 1) % N] = 1.0;
  v6 r6 = __enzyme_fwddiff_v6((void *)work, enzyme_width, 6, enzyme_dupv, (int)sizeof d6[0], x,
                              &d6[0][0], enzyme_const, N);
  double w6[6];
  for (int k = 0; k < 6; k++) w6[k] = grad[(k + 1) % N];
  fz_check_arr("width 6 dupv", r6.d, w6, 6, 1e-12);
  double d7[7][N];
  double w7[7];
  for (int k = 0; k < 7; k++) {
    w7[k] = 0;
    for (int j = 0; j < N; j++) {
      d7[k][j] = 0.1 * (k + 1) - 0.05 * j;
      w7[k] += d7[k][j] * grad[j];
    }
  }
  v7 r7 = __enzyme_fwddiff_v7((void *)work, enzyme_width, 7, enzyme_dupv, (int)sizeof d7[0], x,
                              &d7[0][0], enzyme_const, N);
  fz_check_arr("width 7 dupv dense", r7.d, w7, 7, 1e-12);

  // reverse, width 5: every lane's gradient of the scalar return (seeded 1 per lane)
  double g5[5][N];
  memset(g5, 0, sizeof g5);
  __enzyme_autodiff_w5((void *)work, enzyme_width, 5, enzyme_dupv, (int)sizeof g5[0], x, &g5[0][0],
                       enzyme_const, N);
  for (int k = 0; k < 5; k++) fz_check_arr("reverse width 5 lane", g5[k], grad, N, 1e-12);
  return fz_finish();
}

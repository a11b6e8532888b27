// OPT: O0 O2 O3
// Split mode through the hook variant declared to return
// { void *tape; double ret; }: the primal result comes back with the tape.
// Several tapes of two different functions are alive at once (augmented
// at different inputs, reversed in LIFO order). Oracles: the primal
// itself, __enzyme_autodiff, analytic gradient, FD.
#include "fz_test.h"
#include "fz_modes.h"

#define N 5
#define K 4

double rosen(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n - 1; i++) {
    double a = x[i + 1] - x[i] * x[i], b = 1.0 - x[i];
    s += 100.0 * a * a + b * b;
  }
  return s;
}
double quart(double a, double b) { return a * a * a * a - a * b + b * b * 0.5; }

static void rosen_grad(const double *x, int n, double *g) {
  for (int i = 0; i < n; i++) g[i] = 0.0;
  for (int i = 0; i < n - 1; i++) {
    double a = x[i + 1] - x[i] * x[i];
    g[i] += -400.0 * a * x[i] - 2.0 * (1.0 - x[i]);
    g[i + 1] += 200.0 * a;
  }
}

static double *XP;
static double e_r(void *c) { (void)c; return rosen(XP, N); }

int main(void) {
  fz_seed(244);
  printf("augmentsize rosen = %zu, quart = %zu\n",
         __enzyme_augmentsize((void *)rosen, enzyme_dup, enzyme_const),
         __enzyme_augmentsize((void *)quart, enzyme_out, enzyme_out));
  double X[K][N], DX[K][N], A[K], B[K], dret[K];
  fz_aug ta[K], tb[K];
  for (int k = 0; k < K; k++) {
    fz_fill(X[k], N, -1.5, 1.5);
    fz_zero(DX[k], N);
    A[k] = fz_uniform(-1, 1), B[k] = fz_uniform(-1, 1), dret[k] = fz_uniform(0.5, 2);
    ta[k] = __enzyme_augmentfwd_ret((void *)rosen, enzyme_dup, X[k], DX[k], enzyme_const, N);
    tb[k] = __enzyme_augmentfwd_ret((void *)quart, A[k], B[k]);
    fz_mcheck("primal rosen from augmentfwd", ta[k].ret, rosen(X[k], N), 1e-15);
    fz_mcheck("primal quart from augmentfwd", tb[k].ret, quart(A[k], B[k]), 1e-15);
  }
  for (int k = K - 1; k >= 0; k--) {
    fz_grad2 q = __enzyme_reverse2((void *)quart, A[k], B[k], dret[k], tb[k].tape);
    __enzyme_reverse((void *)rosen, enzyme_dup, X[k], DX[k], enzyme_const, N, dret[k], ta[k].tape);
    fz_grad2 qa = __enzyme_autodiff2((void *)quart, A[k], B[k]);
    fz_check("autodiff dquart/da (analytic)", qa.d0, 4 * A[k] * A[k] * A[k] - B[k], 1e-12);
    fz_check("autodiff dquart/db (analytic)", qa.d1, -A[k] + B[k], 1e-12);
    fz_mcheck("split dquart/da", q.d0, dret[k] * qa.d0, 1e-13);
    fz_mcheck("split dquart/db", q.d1, dret[k] * qa.d1, 1e-13);
    double g[N], fd[N];
    rosen_grad(X[k], N, g);
    XP = X[k];
    fz_fd_grad(e_r, NULL, X[k], N, fd);
    for (int i = 0; i < N; i++) g[i] *= dret[k], fd[i] *= dret[k];
    fz_mcheck2_arr("split rosen gradient (x dret)", DX[k], g, 1e-12, fd, 1e-6, N);
  }
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// Split mode on a void function with dup arrays: the augmented forward
// pass writes the primal outputs (checked right after it); the output
// shadow is seeded with w between the two calls, then __enzyme_reverse
// (no dret: f returns void) accumulates J^T w into the input shadow.
// Compared with __enzyme_autodiff (same seed), analytic J^T w, FD.
#include "fz_test.h"
#include "fz_modes.h"

#define N 7

void pairs(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) y[i] = x[i] * x[(i + 1) % n] + exp(-x[i] * x[i]);
}

static double X[N], W[N];
static double e_wy(void *c) { (void)c; double y[N]; pairs(X, y, N); return fz_dot(W, y, N); }

int main(void) {
  fz_seed(241);
  printf("augmentsize pairs = %zu\n", __enzyme_augmentsize((void *)pairs, enzyme_dup, enzyme_dup, enzyme_const));
  for (int t = 0; t < 3; t++) {
    fz_fill(X, N, -1, 1);
    fz_fill(W, N, -1, 1);
    double y[N], dy[N], dx[N], want[N], fd[N], yref[N], ax[N], ay[N];
    for (int i = 0; i < N; i++) y[i] = -1.0;
    fz_zero(dx, N);
    fz_zero(dy, N);
    void *tape = __enzyme_augmentfwd((void *)pairs, enzyme_dup, X, dx, enzyme_dup, y, dy, enzyme_const, N);
    pairs(X, yref, N);
    fz_mcheck_arr("primal written by augmentfwd", y, yref, N, 0.0);
    memcpy(dy, W, sizeof W); /* seed the output adjoint now */
    __enzyme_reverse((void *)pairs, enzyme_dup, X, dx, enzyme_dup, y, dy, enzyme_const, N, tape);
    for (int i = 0; i < N; i++) {
      int p = (i + N - 1) % N;
      want[i] = W[i] * (X[(i + 1) % N] - 2 * X[i] * exp(-X[i] * X[i])) + W[p] * X[p];
    }
    fz_fd_grad(e_wy, NULL, X, N, fd);
    fz_mcheck2_arr("split J^T w", dx, want, 1e-12, fd, 1e-6, N);
    fz_zero(ax, N);
    memcpy(ay, W, sizeof W);
    __enzyme_autodiff((void *)pairs, enzyme_dup, X, ax, enzyme_dup, y, ay, enzyme_const, N);
    fz_check_arr("autodiff J^T w (analytic)", ax, want, N, 1e-12);
    fz_mcheck_arr("split vs autodiff", dx, ax, N, 1e-14);
  }
  return fz_finish();
}

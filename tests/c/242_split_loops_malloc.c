// OPT: O0 O1 O2 O3
// Split mode where the tape is non-trivial: a malloc'd state buffer that
// is overwritten in place for many iterations of a nonlinear recurrence
// (the reverse pass needs every overwritten value), a data-dependent trip
// count and a branch per element. Compared with __enzyme_autodiff and FD.
// Prints __enzyme_augmentsize.
#include "fz_test.h"
#include "fz_modes.h"

#define N 8

double iterate(const double *x, double k, int n) {
  double *u = (double *)malloc(sizeof(double) * (size_t)n);
  memcpy(u, x, sizeof(double) * (size_t)n);
  double norm = 0.0;
  int it = 0;
  do { /* trip count depends on the data */
    for (int i = 0; i < n; i++) {
      double nb = u[(i + 1) % n];
      u[i] = u[i] > 0.0 ? sin(k * u[i]) + 0.3 * nb : 0.5 * u[i] * nb - 0.1;
    }
    norm = 0.0;
    for (int i = 0; i < n; i++) norm += u[i] * u[i];
    it++;
  } while (norm > 0.05 * (it + 1) && it < 25);
  double s = 0.0;
  for (int i = 0; i < n; i++) s += u[i] * (i + 1);
  free(u);
  return s + 0.01 * it;
}

static double X[N], K;
static double e_it(void *c) { (void)c; return iterate(X, K, N); }

int main(void) {
  fz_seed(242);
  printf("augmentsize iterate = %zu\n", __enzyme_augmentsize((void *)iterate, enzyme_dup, enzyme_out, enzyme_const));
  for (int t = 0; t < 3; t++) {
    fz_fill(X, N, -1, 1);
    K = fz_uniform(0.8, 1.2);
    double dret = fz_uniform(0.5, 2), dx[N], ax[N], fd[N];
    fz_zero(dx, N);
    fz_zero(ax, N);
    void *tape = __enzyme_augmentfwd((void *)iterate, enzyme_dup, X, dx, enzyme_out, K, enzyme_const, N);
    double dk = __enzyme_reverse((void *)iterate, enzyme_dup, X, dx, enzyme_out, K, enzyme_const, N, dret, tape);
    double adk = __enzyme_autodiff((void *)iterate, enzyme_dup, X, ax, enzyme_out, K, enzyme_const, N);
    fz_fd_grad(e_it, NULL, X, N, fd);
    for (int i = 0; i < N; i++) ax[i] *= dret, fd[i] *= dret;
    fz_mcheck2_arr("split dx (x dret)", dx, ax, 1e-13, fd, 1e-5, N);
    fz_mcheck2("split dk (x dret)", dk, dret * adk, 1e-13, dret * fz_fd_ptr(e_it, NULL, &K), 1e-5);
    fz_check_arr("autodiff dx vs fd", ax, fd, N, 1e-5);
  }
  return fz_finish();
}

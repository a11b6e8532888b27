// OPT: O0 O1 O2 O3
// Time-stepping adjoint with split mode: 10 steps u_{s+1} = step(u_s, k),
// each augmented forward in order (10 tapes alive at once, each state in
// its own buffer), then reversed LIFO with the adjoint of the final state
// seeded by w; k is an active scalar whose per-step adjoints are summed.
// Compared with __enzyme_autodiff of the whole 10-step function and FD of
// J(u0, k) = <w, u_10>.
#include "fz_test.h"
#include "fz_modes.h"

#define N 6
#define STEPS 10

void step(const double *u, double *un, double k, int n) {
  for (int i = 0; i < n; i++) {
    double l = u[(i + n - 1) % n], r = u[(i + 1) % n];
    un[i] = u[i] + 0.1 * (k * (l - 2 * u[i] + r) - u[i] * u[i] * u[i] + sin(r));
  }
}
void run(const double *u0, double *out, double k, int n) {
  double a[N], b[N];
  memcpy(a, u0, sizeof(double) * (size_t)n);
  for (int s = 0; s < STEPS; s++) {
    step(a, b, k, n);
    memcpy(a, b, sizeof(double) * (size_t)n);
  }
  memcpy(out, a, sizeof(double) * (size_t)n);
}

static double U0[N], K, W[N];
static double e_J(void *c) { (void)c; double o[N]; run(U0, o, K, N); return fz_dot(W, o, N); }

int main(void) {
  fz_seed(243);
  printf("augmentsize step = %zu\n",
         __enzyme_augmentsize((void *)step, enzyme_dup, enzyme_dup, enzyme_out, enzyme_const));
  static double U[STEPS + 1][N], dU[STEPS + 1][N];
  void *tapes[STEPS];
  for (int t = 0; t < 2; t++) {
    fz_fill(U0, N, -1, 1);
    fz_fill(W, N, -1, 1);
    K = fz_uniform(0.5, 1.5);
    memcpy(U[0], U0, sizeof U0);
    memset(dU, 0, sizeof dU);
    for (int s = 0; s < STEPS; s++)
      tapes[s] = __enzyme_augmentfwd((void *)step, enzyme_dup, U[s], dU[s], enzyme_dup, U[s + 1],
                                     dU[s + 1], enzyme_out, K, enzyme_const, N);
    double uref[N];
    run(U0, uref, K, N);
    fz_mcheck_arr("final state from the augmented steps", U[STEPS], uref, N, 1e-15);
    memcpy(dU[STEPS], W, sizeof W);
    double dk = 0.0;
    for (int s = STEPS - 1; s >= 0; s--)
      dk += __enzyme_reverse((void *)step, enzyme_dup, U[s], dU[s], enzyme_dup, U[s + 1], dU[s + 1],
                             enzyme_out, K, enzyme_const, N, tapes[s]);
    double au[N], wseed[N], fd[N], o[N];
    fz_zero(au, N);
    memcpy(wseed, W, sizeof W);
    double adk = __enzyme_autodiff((void *)run, enzyme_dup, U0, au, enzyme_dup, o, wseed, enzyme_out, K,
                                   enzyme_const, N);
    fz_fd_grad(e_J, NULL, U0, N, fd);
    fz_check_arr("autodiff dJ/du0 vs fd", au, fd, N, 1e-6);
    fz_mcheck2_arr("split adjoint dJ/du0", dU[0], au, 1e-12, fd, 1e-6, N);
    fz_mcheck2("split adjoint dJ/dk", dk, adk, 1e-12, fz_fd_ptr(e_J, NULL, &K), 1e-6);
  }
  return fz_finish();
}

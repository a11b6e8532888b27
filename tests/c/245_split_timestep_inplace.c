// OPT: O0 O2
// Time-stepping adjoint with an IN-PLACE step: one state buffer u (and
// one shadow du) is updated by 8 augmented steps, so when step s is
// reversed, u already holds later states: everything step s's reverse
// needs must be on its own tape (the ABI: augmentfwd "runs f, all its side
// effects happen here"). du is seeded with w after the last step and
// holds dJ/du0 after the LIFO reversals. Compared with __enzyme_autodiff
// of the 8-step loop and FD.
#include "fz_test.h"
#include "fz_modes.h"

#define N 5
#define STEPS 8

void step_inplace(double *u, double k, int n) {
  double first = u[0];
  for (int i = 0; i < n; i++) {
    double r = i + 1 < n ? u[i + 1] : first;
    u[i] = u[i] + 0.1 * (sin(k * u[i]) * r - u[i] * u[i] * u[i]);
  }
}
void run(double *u, double k, int n) {
  for (int s = 0; s < STEPS; s++) step_inplace(u, k, n);
}

static double U0[N], K, W[N];
static double e_J(void *c) {
  (void)c;
  double u[N];
  memcpy(u, U0, sizeof u);
  run(u, K, N);
  return fz_dot(W, u, N);
}

int main(void) {
  fz_seed(245);
  void *tapes[STEPS];
  for (int t = 0; t < 2; t++) {
    fz_fill(U0, N, -1, 1);
    fz_fill(W, N, -1, 1);
    K = fz_uniform(0.5, 1.5);
    double u[N], du[N], ref[N];
    memcpy(u, U0, sizeof u);
    fz_zero(du, N);
    for (int s = 0; s < STEPS; s++)
      tapes[s] = __enzyme_augmentfwd((void *)step_inplace, enzyme_dup, u, du, enzyme_out, K, enzyme_const, N);
    memcpy(ref, U0, sizeof ref);
    run(ref, K, N);
    fz_mcheck_arr("final state from the augmented steps", u, ref, N, 1e-15);
    memcpy(du, W, sizeof W);
    double dk = 0.0;
    for (int s = STEPS - 1; s >= 0; s--)
      dk += __enzyme_reverse((void *)step_inplace, enzyme_dup, u, du, enzyme_out, K, enzyme_const, N, tapes[s]);
    double ua[N], dua[N], fd[N];
    memcpy(ua, U0, sizeof ua);
    memcpy(dua, W, sizeof W);
    double adk = __enzyme_autodiff((void *)run, enzyme_dup, ua, dua, enzyme_out, K, enzyme_const, N);
    fz_fd_grad(e_J, NULL, U0, N, fd);
    fz_check_arr("autodiff dJ/du0 vs fd", dua, fd, N, 1e-6);
    fz_mcheck2_arr("split adjoint dJ/du0", du, dua, 1e-12, fd, 1e-6, N);
    fz_mcheck2("split adjoint dJ/dk", dk, adk, 1e-12, fz_fd_ptr(e_J, NULL, &K), 1e-6);
  }
  return fz_finish();
}

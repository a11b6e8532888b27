// SOURCES: src/value_args_kernel.f90
// A `bind(c)` Fortran function (src/value_args_kernel.f90) differentiated from C with
// `__enzyme_autodiff` as Enzyme's documentation shows for C: the size and a one-character
// mode are `value` arguments passed with enzyme_const, a real(c_double) `value` rate is
// active (its derivative is the hook's return value), the `intent(inout)` state is
// duplicated (after the call its shadow holds the derivative of the initial state) and
// the coefficients are an assumed-size array. A `do while` time loop with a real-valued
// stopping test. Checked against central finite differences; forward mode against
// reverse (the dot-product identity).
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

double decay_energy(int n, double *u, const double *k, double rate, char mode, double tend);

#define N 6

static double u0[N], k[N], rate = 0.7;
static char mode = 'q';

static double eval(void *ctx) {
  (void)ctx;
  double u[N];
  for (int i = 0; i < N; i++) u[i] = u0[i];
  return decay_energy(N, u, k, rate, mode, 1.0);
}

int main(void) {
  fz_seed(53);
  fz_fill(u0, N, 0.2, 1.0);
  fz_fill(k, N, 0.5, 1.5);
  for (int m = 0; m < 2; m++) {
    mode = m == 0 ? 'q' : 'a';
    double u[N], du[N], dk[N];
    for (int i = 0; i < N; i++) u[i] = u0[i];
    fz_zero(du, N);
    fz_zero(dk, N);
    double drate = __enzyme_autodiff((void *)decay_energy, enzyme_const, N, enzyme_dup, u, du,
                                     enzyme_dup, k, dk, rate, enzyme_const, mode,
                                     enzyme_const, 1.0);
    for (int i = 0; i < N; i++) {
      char name[48];
      snprintf(name, sizeof name, "mode %c d/du0[%d]", mode, i);
      fz_check(name, du[i], fz_fd_ptr(eval, 0, &u0[i]), 1e-6);
      snprintf(name, sizeof name, "mode %c d/dk[%d]", mode, i);
      fz_check(name, dk[i], fz_fd_ptr(eval, 0, &k[i]), 1e-6);
    }
    fz_check("d/drate", drate, fz_fd_ptr(eval, 0, &rate), 1e-6);
    double tu[N], tk[N], want = 0.3 * drate;
    for (int i = 0; i < N; i++) {
      u[i] = u0[i];
      tu[i] = 0.1 * i - 0.2;
      tk[i] = 0.05 * (i % 3) - 0.04;
      want += tu[i] * du[i] + tk[i] * dk[i];
    }
    double tf = __enzyme_fwddiff((void *)decay_energy, enzyme_const, N, enzyme_dup, u, tu,
                                 enzyme_dup, k, tk, enzyme_dup, rate, 0.3, enzyme_const, mode,
                                 enzyme_const, 1.0);
    fz_check("forward . v = reverse . v", tf, want, 1e-10);
  }
  return fz_finish();
}

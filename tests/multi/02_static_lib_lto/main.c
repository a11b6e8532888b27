#include "fz_test.h"

double chain_energy(const double *p, int n, double k, double l0);
extern fz_grad2 __enzyme_autodiff2(void *, ...);

enum { N = 5 };

int main(void) {
  fz_seed(502);
  double p[3 * N], dp[3 * N];
  for (int i = 0; i < 3 * N; i++) p[i] = i / 3 + fz_uniform(-0.3, 0.3);
  fz_zero(dp, 3 * N);
  double k = fz_uniform(1, 3), l0 = fz_uniform(0.5, 1.0);
  fz_grad2 g = __enzyme_autodiff2((void *)chain_energy, enzyme_dup, p, dp, enzyme_const, N,
                                  enzyme_out, k, enzyme_out, l0);
  /* Analytic: dE/dp_i = sum over springs touching i of k * s * (p_i - p_j)/d. */
  double want[3 * N], dk = 0, dl0 = 0;
  for (int i = 0; i < 3 * N; i++) want[i] = 0;
  for (int i = 0; i + 1 < N; i++) {
    double d2 = 0, u[3];
    for (int c = 0; c < 3; c++) {
      u[c] = p[3 * i + c] - p[3 * i + 3 + c];
      d2 += u[c] * u[c];
    }
    double d = sqrt(d2), s = d - l0;
    dk += 0.5 * s * s;
    dl0 += -k * s;
    for (int c = 0; c < 3; c++) {
      want[3 * i + c] += k * s * u[c] / d;
      want[3 * i + 3 + c] -= k * s * u[c] / d;
    }
  }
  fz_check_arr("dp", dp, want, 3 * N, 1e-12);
  fz_check("dk", g.d0, dk, 1e-12);
  fz_check("dl0", g.d1, dl0, 1e-12);
  return fz_finish();
}

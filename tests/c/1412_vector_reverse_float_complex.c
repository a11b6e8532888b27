// OPT: O0 O2
// Vector reverse mode (`enzyme_width, 2`) through `float complex` arithmetic: the
// helpers `__mulsc3`/`__divsc3` (their pair comes back as `<2 x float>`) and `cexpf`/
// `csqrtf`, whose built-in reverse rules run once per lane since enz35. Oracles: each lane
// against a scalar `__enzyme_autodiff` with that lane's seed, and central differences in
// float (tolerance 2e-3).
#include "fz_test.h"
#include "fz_modes.h"
#include <complex.h>
void f(const float *x, float *out) {
  float complex a = x[0] + I * x[1], b = x[2] - I * x[0];
  float complex z = a * b / (1.5f + I * x[1]);
  float complex w = cexpf(0.3f * z) + csqrtf(2.0f + z);
  out[0] = crealf(w);
  out[1] = cimagf(w) * x[2];
}
static float X[3], SEED[2];
static float eval(void *c) {
  (void)c;
  float o[2];
  f(X, o);
  return o[0] * SEED[0] + o[1] * SEED[1];
}
int main(void) {
  X[0] = 0.4f, X[1] = -0.7f, X[2] = 0.9f;
  float o[2], s0[2] = {1, 0}, s1[2] = {0, 1}, g0[3] = {0}, g1[3] = {0};
  __enzyme_autodiff_w((void *)f, enzyme_width, 2, enzyme_dup, X, g0, g1, enzyme_dup, o, s0, s1);
  float *g[2] = {g0, g1};
  for (int l = 0; l < 2; l++) {
    SEED[0] = l == 0, SEED[1] = l == 1;
    float sc[3] = {0}, os[2], ss[2] = {SEED[0], SEED[1]};
    __enzyme_autodiff((void *)f, enzyme_dup, X, sc, enzyme_dup, os, ss);
    for (int i = 0; i < 3; i++) {
      fz_mcheck("lane vs scalar reverse", g[l][i], sc[i], 1e-6);
      fz_check("lane vs central differences", g[l][i], fz_fd_ptrf(eval, 0, &X[i]), 2e-3);
    }
  }
  return fz_finish();
}

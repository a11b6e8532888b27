// OPT: O0 O1 O2 O3
// LLI: O0 O2
// A checkpointed loop whose step takes no pointer and works on mutable globals only
// (state kept in COMMON-block style globals, a parameter copied into a global before the
// loop). Before the lead's fix the call of the checkpointed loop had no active argument
// and was taken for constant: reverse and forward mode returned a zero gradient,
// silently. Oracles: central finite differences; forward vs reverse (dot product).
#include "fz_test.h"
#include <enzyme/checkpoint.h>
#include <stdint.h>

extern double __enzyme_fwddiff(void *, ...);

#define N 3
double u[N], p[N];

__attribute__((noinline)) static void step(int64_t i) {
  (void)i;
  double t[N];
  for (int k = 0; k < N; k++)
    t[k] = 0.5 * sin(u[k]) + p[k] * u[(k + 1) % N];
  for (int k = 0; k < N; k++)
    u[k] = t[k];
}

double run(const double *x) {
  for (int k = 0; k < N; k++) {
    u[k] = 1;
    p[k] = x[k];
  }
  __enzyme_checkpoint_for((void *)step, 0, 12);
  double s = 0;
  for (int k = 0; k < N; k++)
    s += u[k] * u[k];
  return s;
}

int main(void) {
  double x[N] = {0.3, 0.5, 0.7}, dx[N] = {0}, v[N] = {1.0, -0.5, 2.0};
  __enzyme_autodiff((void *)run, enzyme_dup, x, dx);
  double dot = 0;
  for (int k = 0; k < N; k++) {
    double xp[N] = {0.3, 0.5, 0.7}, xm[N] = {0.3, 0.5, 0.7}, h = 1e-6;
    xp[k] += h;
    xm[k] -= h;
    fz_check("reverse vs FD", dx[k], (run(xp) - run(xm)) / (2 * h), 1e-7);
    dot += dx[k] * v[k];
  }
  double fw = __enzyme_fwddiff((void *)run, enzyme_dup, x, v);
  fz_check("forward = reverse . v", fw, dot, 1e-12);
  return fz_finish();
}

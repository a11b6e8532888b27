// OPT: O0 O1 O2 O3
// Threshold-crossing events collected into a `realloc`-grown array (sweep23), the
// dynamic-array idiom of C codes: a damped oscillator is integrated with active
// frequency and damping, every upward zero crossing's interpolated time is appended to a
// buffer that starts with capacity 1 and doubles with `realloc` (several moves of active
// data), and the loss is a weighted sum of the crossing times. Oracles: central finite
// differences (the crossings' count is stable under the perturbation), and forward mode
// against reverse mode.
#include <stdlib.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

double crossing_loss(const double *p, int steps) {
  double w = p[0], c = p[1];
  double x = 1.0, v = 0.0, dt = 0.01;
  int cap = 1, n = 0;
  double *times = malloc(cap * sizeof *times);
  for (int s = 0; s < steps; s++) {
    double a = -w * w * x - c * v;
    double vn = v + dt * a;
    double xn = x + dt * vn; // semi-implicit Euler
    if (x < 0 && xn >= 0) {
      if (n == cap) {
        cap *= 2;
        times = realloc(times, cap * sizeof *times);
      }
      times[n++] = dt * (s + x / (x - xn)); // linear interpolation of the crossing
    }
    x = xn;
    v = vn;
  }
  double loss = 0;
  for (int i = 0; i < n; i++) loss += (1.0 + 0.1 * i) * times[i];
  free(times);
  return loss;
}

static double P[2];
static double ev(void *c) { (void)c; return crossing_loss(P, 3000); }

int main(void) {
  P[0] = 3.1;
  P[1] = 0.05;
  double g[2] = {0};
  __enzyme_autodiff((void *)crossing_loss, enzyme_dup, P, g, enzyme_const, 3000);
  double fd[2];
  fz_fd_grad(ev, NULL, P, 2, fd);
  fz_check_arr("finite differences", g, fd, 2, 1e-6);
  for (int k = 0; k < 2; k++) {
    double t[2] = {k == 0, k == 1};
    double j = __enzyme_fwddiff((void *)crossing_loss, enzyme_dup, P, t, enzyme_const, 3000);
    fz_check(k ? "forward d/dc vs reverse" : "forward d/dw vs reverse", j, g[k], 1e-10);
  }
  return fz_finish();
}

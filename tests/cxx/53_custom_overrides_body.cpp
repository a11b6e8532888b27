// OPT: O0 O2
// CFLAGS: -std=c++17
// A registered rule must win over the function's body, in reverse and forward mode: the
// body is a sine read from a table by rounding (its own derivative is zero almost
// everywhere), the rules give the smooth derivative cos(x) (a straight-through
// estimator). Each rule counts its calls. Oracles: the rules' formulas and the counts.
#include "fz_cxx.h"
#include <cmath>

static double table[1025];
__attribute__((noinline)) double table_sin(double x) {
  int i = (int)std::lround(x / (2 * M_PI) * 1024.0) & 1023;
  return table[i];
}

static int aug_calls = 0, rev_calls = 0, fwd_calls = 0;
double aug_sin(double x) {
  aug_calls++;
  return table_sin(x);
}
double rev_sin(double x, double dret) {
  rev_calls++;
  return dret * std::cos(x);
}
struct dpair {
  double primal, tangent;
};
dpair fwd_sin(double x, double dx) {
  fwd_calls++;
  return {table_sin(x), std::cos(x) * dx};
}
void *__enzyme_register_gradient_table_sin[] = {(void *)table_sin, (void *)aug_sin, (void *)rev_sin};
void *__enzyme_register_derivative_table_sin[] = {(void *)table_sin, (void *)fwd_sin};

double wave(double x, double a) { return a * table_sin(x) + x; }

int main() {
  for (int i = 0; i < 1025; i++) table[i] = std::sin(2 * M_PI * i / 1024.0);
  double x = 0.8, a = 1.3;
  fz_grad2 g = __enzyme_autodiff2((void *)wave, x, a);
  fz_check("dx (rule)", g.d0, a * std::cos(x) + 1, 1e-12);
  fz_check("da", g.d1, table_sin(x), 1e-12);
  fz_check("aug calls", aug_calls, 1, 0);
  fz_check("rev calls", rev_calls, 1, 0);
  double t = __enzyme_fwddiff<double>((void *)wave, x, 1.0, a, 0.0);
  fz_check("tangent (rule)", t, a * std::cos(x) + 1, 1e-12);
  fz_check("fwd calls", fwd_calls, 1, 0);
  return fz_finish();
}

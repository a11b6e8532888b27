// OPT: O0 O2
// `__attribute__((enzyme_inactive))` on a variable (here a static data member), as
// Enzyme's users write it: the variable carries no derivative. Model::f scales the
// output by the member `gain`, which a noinline setter fills from x: declared inactive,
// gain counts as a constant, so d/dx [x * gain] = gain (= 2x at the point), not 4x.
// The branch that would write the member is not taken in the other call; its value must
// survive the gradient. Oracle: analytic.
#include "fz_cxx.h"

extern double __enzyme_autodiff(void *, ...);

struct Model {
  __attribute__((enzyme_inactive)) static double gain;
  __attribute__((noinline)) static void set_gain(double x) { gain = 2.0 * x; }
  __attribute__((noinline)) static void step(bool touch, double a, double *c) {
    if (touch)
      gain *= a;
    else
      *c *= a;
  }
};
double Model::gain = 0.0;

double f(double x) {
  Model::set_gain(x);
  return x * Model::gain;
}

double g(bool touch, double a) {
  double c = a;
  Model::step(touch, a, &c);
  return c;
}

int main() {
  const double xs[] = {0.75, -1.5};
  for (double x : xs) {
    fz_check("d/dx x*gain with gain constant", __enzyme_autodiff((void *)f, x), 2.0 * x, 1e-12);
    Model::gain = 5.5;
    fz_check("d/da a^2", __enzyme_autodiff((void *)g, false, x), 2.0 * x, 1e-12);
    fz_check("gain untouched", Model::gain, 5.5, 0);
  }
  return fz_finish();
}

// OPT: O0 O2
// Regression for issue 10, item 2: a custom derivative registered the Enzyme way,
// `void *__enzyme_register_gradient_quant[] = {quant, aug_quant, rev_quant}`, was
// silently ignored: the gradient came from differentiating quant's body (zero: it
// rounds). The registered rule (a straight-through estimator: derivative 1 inside the
// clipping range) must win. Oracles: the rule's formula and the call counts.
#include "fz_test.h"

__attribute__((noinline)) double quant(double x) {
  double c = x < -1 ? -1 : (x > 1 ? 1 : x);
  return round(c * 127.0) / 127.0;
}

static int aug_calls = 0, rev_calls = 0;
double aug_quant(double x) {
  aug_calls++;
  return quant(x);
}
double rev_quant(double x, double dret) {
  rev_calls++;
  return (x > -1 && x < 1) ? dret : 0.0;
}
void *__enzyme_register_gradient_quant[] = {(void *)quant, (void *)aug_quant, (void *)rev_quant};

double loss(const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double q = quant(w[i]);
    s += q * q * (i + 1);
  }
  return s;
}

int main(void) {
  double w[5] = {0.31, -0.72, 1.4, 0.05, -1.9}, dw[5] = {0, 0, 0, 0, 0};
  __enzyme_autodiff((void *)loss, enzyme_dup, w, dw, enzyme_const, 5);
  for (int i = 0; i < 5; i++) {
    double q = quant(w[i]);
    double want = (w[i] > -1 && w[i] < 1) ? 2 * q * (i + 1) : 0.0;
    fz_check("dw (rule)", dw[i], want, 1e-12);
  }
  fz_check("aug calls", aug_calls, 5, 0);
  fz_check("rev calls", rev_calls, 5, 0);
  return fz_finish();
}

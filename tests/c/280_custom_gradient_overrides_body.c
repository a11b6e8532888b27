// OPT: O0 O1 O2 O3
// A registered gradient wins over the function's body, at every level (issue 10: it was
// silently ignored). `quantize` rounds to a grid: its body's derivative is 0 almost
// everywhere; the registered rule is the straight-through estimator (derivative 1), as
// quantization-aware training uses. The function is not marked noinline: at -O2 clang
// would inline it into `loss` before the pass unless ferrozyme cc keeps the call.
// Oracle: analytic (the rule's math): d loss/dx = 2 * x * 1 + 3.
#include "fz_test.h"

double quantize(double x) { return round(x * 64.0) / 64.0; }

typedef struct { void *tape; double r; } AugQ;
static int aug_calls, rev_calls;
AugQ quantize_aug(double x) {
  aug_calls++;
  AugQ a = {0, quantize(x)};
  return a;
}
double quantize_rev(double x, double d_r, void *tape) {
  (void)x;
  (void)tape;
  rev_calls++;
  return d_r; /* straight through */
}
void *__enzyme_register_gradient_quantize[] = {(void *)quantize, (void *)quantize_aug,
                                               (void *)quantize_rev};

double loss(double x) {
  double q = quantize(x);
  return q * x + 3.0 * x; /* d/dx = q' x + q + 3 = x + q + 3 */
}

int main(void) {
  fz_seed(280);
  for (int t = 0; t < 5; t++) {
    double x = fz_uniform(-2, 2);
    aug_calls = rev_calls = 0;
    double d = __enzyme_autodiff((void *)loss, x);
    fz_check("dloss/dx", d, x + quantize(x) + 3.0, 1e-12);
    fz_check("aug calls", aug_calls, 1, 0);
    fz_check("rev calls", rev_calls, 1, 0);
  }
  /* The function itself, differentiated at the top level: the rule, not the body. */
  double x = fz_uniform(-2, 2);
  fz_check("dquantize/dx", __enzyme_autodiff((void *)quantize, x), 1.0, 0);
  return fz_finish();
}

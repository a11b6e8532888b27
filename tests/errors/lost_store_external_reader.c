// OPT: O0 O2
// EXPECT-ERROR: mismatched activity: `fill` writes a value that depends on differentiable inputs
// EXPECT-ERROR: to `ext_sum`, a function without IR here that may read it back
// EXPECT-ERROR: the pass judged the call of `get_scratch` inactive
// EXPECT-ERROR-LINE: READ-MARKER
// audit32: the reader is a function without IR (`ext_sum`, from a library built without
// Ferrozyme; the program is only compiled, not linked). Its only arguments are the scratch
// buffer without a shadow (from an enzyme_const registry through an inactive `get_scratch`)
// and an integer, so the pass took the call as constant: with ext_sum linked from an object,
// the gradient was (1, 0) for (1.36, 1.37) at -O0 and -O2, no error. An active value passed
// to a function without IR is refused as missing-derivative; memory it may read back now too.
#include "../c/fz_test.h"

extern int enzyme_dup, enzyme_const;

typedef struct {
  int n;
  double *scratch;
} registry;

extern double ext_sum(const double *s, int n);

__attribute__((noinline)) static double *get_scratch(const registry *r) { return r->scratch; }

__attribute__((noinline)) static void fill(double *s, const double *x) {
  s[0] = sin(x[0]);
  s[1] = x[0] * x[1];
  s[2] = exp(x[1]);
}

double loss(const registry *reg, const double *x) {
  double *s = get_scratch(reg);
  fill(s, x);
  return x[0] + ext_sum(s, 3); // READ-MARKER
}

int main(void) {
  double buf[4] = {0};
  registry reg = {4, buf};
  double x[2] = {0.7, -0.4}, dx[2] = {0};
  __enzyme_autodiff((void *)loss, enzyme_const, &reg, enzyme_dup, x, dx);
  printf("%g %g\n", dx[0], dx[1]);
  return 0;
}

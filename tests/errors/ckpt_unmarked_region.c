// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: no enzyme_checkpoint_region covers
// A checkpointed step that writes its state through an argument no
// enzyme_checkpoint_region marks: the snapshots would not hold the state, and the
// recomputed steps would start from the wrong one. Refused at compile time.
#include <enzyme/checkpoint.h>
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

static void step(int64_t i, double *u) { u[0] = u[0] * 0.9 + 0.01 * (double)i; }

double f(double *u, int64_t n) {
  __enzyme_checkpoint_for((void *)step, 0, n, u);
  return u[0];
}

int main(void) {
  double u = 1, du = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &u, &du, enzyme_const, (int64_t)10);
  return 0;
}

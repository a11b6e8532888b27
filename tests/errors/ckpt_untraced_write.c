// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: a pointer loaded from memory
// A checkpointed step that writes through a pointer it loads from a global (the state
// lives behind `state`, not in the global itself): a snapshot of the globals would not
// hold it. Refused at compile time rather than a wrong gradient.
#include <enzyme/checkpoint.h>
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

double *state;

static void step(int64_t i, double *u) {
  state[0] = state[0] * 0.5 + u[0];
  u[0] = u[0] * 0.9 + 0.01 * (double)i;
}

double f(double *u, int64_t n) {
  __enzyme_checkpoint_for((void *)step, 0, n, enzyme_checkpoint_region, u,
                          (int64_t)sizeof(double), u);
  return u[0] + state[0];
}

int main(void) {
  double u = 1, du = 0, s = 0;
  state = &s;
  __enzyme_autodiff((void *)f, enzyme_dup, &u, &du, enzyme_const, (int64_t)10);
  return 0;
}

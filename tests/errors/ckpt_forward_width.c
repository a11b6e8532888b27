// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: a checkpointed or fixed-point loop
// EXPECT-ERROR: runs once per lane with enzyme_width
// EXPECT-ERROR: call __enzyme_fwddiff once per direction
// A checkpointed time loop (`__enzyme_checkpoint_for`) in vector forward mode: its
// forward rule, like a registered one, ran once per lane, each time stepping the state
// in place, so two lanes ran the loop twice (c34). Refused; scalar forward mode through
// the loop works (tests/c/562).
#include <stdint.h>
#include <enzyme/checkpoint.h>

extern int enzyme_width, enzyme_dup, enzyme_const;
typedef struct { double d[2]; } v2;
extern v2 __enzyme_fwddiff_v2(void *, ...);

__attribute__((noinline)) static void fstep(int64_t i, double *u, double c) {
  for (int k = 0; k < 4; k++) u[k] = u[k] + 0.05 * c * u[(k + 2) % 4] * u[(k + 2) % 4] - 0.001 * i;
}

static double run(double *u, double c, int64_t n) {
  __enzyme_checkpoint_for((void *)fstep, 0, n, enzyme_checkpoint_region, u,
                          (int64_t)(4 * sizeof(double)), u, c);
  return u[0] + u[3];
}

int main(void) {
  double u[4] = {0.3, 0.4, 0.5, 0.6}, a[4] = {1, 0, 0, 0}, b[4] = {0, 1, 0, 0};
  v2 r = __enzyme_fwddiff_v2((void *)run, enzyme_width, 2, enzyme_dup, u, a, b, enzyme_dup, 0.4,
                             0.0, 0.0, enzyme_const, (int64_t)5);
  return (int)r.d[0];
}

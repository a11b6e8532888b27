// OPT: O0
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: a pointer rebuilt from an integer (`inttoptr`) that came from a pointer into differentiable memory
// EXPECT-ERROR-LINE: CAST-MARKER
// A pointer kept in an integer variable that may be 0 (an optional pointer as uintptr_t),
// made a pointer again. At -O0 the pass's own optimization of the copy turns the slot
// into `inttoptr (select c, (ptrtoint &x[1]), 0)`: the pointer's shadow was dropped as
// unneeded (only a `ptrtoint` used it), so the audit saw no shadowed pointer and the
// derivative was a silent 0 (front18; d/dx[1] = 2 x[1] = 5). Now the `ptrtoint`'s bits
// reaching an `inttoptr` keep the shadow and the rebuild is refused. At -O1..-O3 clang
// makes it a phi of pointers, which differentiates (tests/c/851).
#include <stdint.h>
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

__attribute__((noinline)) double f(double *x, int some) {
  uintptr_t slot = 0;
  if (some) slot = (uintptr_t)&x[1];
  double *p = (double *)slot; // CAST-MARKER
  return p ? p[0] * p[0] : 0;
}

int main(void) {
  double x[2] = {1.5, 2.5}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, 1);
  return dx[1] != 5.0;
}

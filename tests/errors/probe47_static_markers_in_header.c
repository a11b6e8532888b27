// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: argument 1 of `sum_sq` has type ptr but the call passes i32
// EXPECT-ERROR: markers defined `static` in a header are, so declare them `extern int enzyme_dup;`
// probe47: markers defined `static` in an included header. Nothing stores to them, so at
// -O2 clang folds each load to 0 and deletes them before the AD pass: the hook call
// passes bare zeros. `ferrozyme cc` keeps the static markers of the source file itself
// (tests/c/1541: it reads the file's text), not those of a header; the refusal names the
// call and says where such a zero comes from.
#include <stdio.h>
#include "probe47_markers.h"
extern double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double sum_sq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}

int main(void) {
  double x[3] = {1, 2, 3}, dx[3] = {0};
  __enzyme_autodiff((void *)sum_sq, enzyme_dup, x, dx, enzyme_const, 3);
  printf("%g %g %g\n", dx[0], dx[1], dx[2]);
  return 0;
}

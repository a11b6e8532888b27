// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: `__enzyme_shadow` (Enzyme's global-shadow contexts): its second argument must be the address of a mutable global variable (or of a member or element of one, at a constant offset)
// probe40: the shadow query names a local variable, which has no global shadow.
#include <stdio.h>
extern void *__enzyme_context(int);
extern void *__enzyme_shadow(void *, void *, int);
int main(void) {
  double local = 1.0;
  void *ctx = __enzyme_context(1);
  double *d = (double *)__enzyme_shadow(ctx, &local, 0);
  printf("%g\n", *d);
  return 0;
}

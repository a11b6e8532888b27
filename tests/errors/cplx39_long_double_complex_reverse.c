// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: argument 1 of `g` is a struct passed by value in memory (byval)
// EXPECT-ERROR-LINE: HOOK-MARKER
// A `long double _Complex` by value under __enzyme_autodiff: the x86-64 ABI passes it in
// memory (`byval`), the callee gets a copy and there is no active scalar to return the
// adjoint in. Refused; forward mode reads it (tests/c/1468), and reverse mode works
// through a pointer (enzyme_dup, &z, &dz).
#include <complex.h>
#include <stdio.h>
long double __enzyme_autodiff(void *, ...);
__attribute__((noinline)) long double g(long double _Complex z) { return creall(z) * cimagl(z); }
int main(void) {
  long double _Complex z = 1.0L + 2.0L * I;
  printf("%Lf\n", __enzyme_autodiff((void *)g, z)); // HOOK-MARKER
  return 0;
}

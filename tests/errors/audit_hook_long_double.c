// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: argument 1 of `f` has type x86_fp80 (C `long double`), which Ferrozyme does not differentiate
// EXPECT-ERROR: `g` returns x86_fp80 (C `long double`)
// EXPECT-ERROR-LINE: TYPED-HOOK
// EXPECT-ERROR-LINE: VARIADIC-HOOK
// EXPECT-ERROR-LINE: RETURN-HOOK
// The programs of issue 17: long double at the hook boundary printed 0.000000 and
// exited 0, with a typed long double hook, with a double hook and a (long double)
// passed through `...`, and with a function returning long double.
#include <stdio.h>
extern long double __enzyme_autodiff_ld(void *, long double);
extern double __enzyme_autodiff(void *, ...);
long double f(long double x) { return x * x; }
long double g(double x) { return (long double)x * x; }
int main(void) {
  printf("%Lf\n", __enzyme_autodiff_ld((void *)f, 3.0L)); // TYPED-HOOK
  printf("%f\n", __enzyme_autodiff((void *)f, (long double)3.0L)); // VARIADIC-HOOK
  printf("%f\n", __enzyme_autodiff((void *)g, 3.0)); // RETURN-HOOK
  return 0;
}

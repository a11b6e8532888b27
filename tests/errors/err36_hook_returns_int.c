// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: the call's declared return type i32 holds 0 floating value(s)
// EXPECT-ERROR: extern double __enzyme_autodiff(void*, ...)
// EXPECT-ERROR-LINE: HOOK-MARKER
// err36: `__enzyme_autodiff` declared with a prototype copied from elsewhere (`int`): the
// one derivative has nowhere to go. The help line named a struct of two doubles, the
// fix for several active arguments; with one it now names `double`. (`float` is
// accepted, the derivative rounded to float; `void` drops it, as in Enzyme.)
#include <stdio.h>
extern int __enzyme_autodiff(void *, ...);
double f(double x) { return x * x; }
int main(void) {
  int d = __enzyme_autodiff((void *)f, 3.0); // HOOK-MARKER
  printf("%d\n", d);
  return 0;
}

// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: cannot differentiate a variadic function
// EXPECT-ERROR: in function `sum_weighted`
// EXPECT-ERROR-LINE: va_start(ap, n);
// Active doubles passed through `...` and read back with va_arg: the values come from
// the ABI's register-save and overflow areas, which have no shadows. The message used to
// be "no derivative rule for the intrinsic `llvm.va_start.p0`; please report this
// intrinsic"; it now says what is not supported and what to write instead.
#include <stdarg.h>
extern double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) static double sum_weighted(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double v = va_arg(ap, double);
    s += (i + 1) * v * v;
  }
  va_end(ap);
  return s;
}

double f(double a, double b) { return sum_weighted(3, a, b, a * b); }

int main(void) { return __enzyme_autodiff((void *)f, 0.5, 0.25) == 0.0; }

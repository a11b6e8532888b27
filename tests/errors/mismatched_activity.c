// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: mismatched activity
// EXPECT-ERROR: enzyme_dup
// EXPECT-ERROR-LINE: CHOICE-MARKER
// A pointer chosen at run time between enzyme_const memory (y) and enzyme_dup memory (x),
// then passed to a function: the callee would need to know at run time whether its
// argument has a shadow. Loads and stores right through such a pointer are handled
// (tests/c/140_runtime_activity.c); this is refused rather than guessed.
#include <math.h>
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double sum(const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i] * p[i];
  return s;
}

double f(double *x, const double *y, int n, double a) {
  const double *p = a > 0.5 ? y : x; // CHOICE-MARKER
  return sum(p, n);
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, y[4] = {0.1, 0.9, 0.2, 0.8};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, y, enzyme_const, 4, enzyme_const, 0.3);
  return 0;
}

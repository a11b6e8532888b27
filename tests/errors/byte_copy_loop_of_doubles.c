// OPT: O0 O2
// EXPECT-ERROR: cannot-deduce-type
// EXPECT-ERROR: a float copied in integer pieces narrower than itself
// EXPECT-ERROR: memcpy
// A byte copy written by hand over an array of doubles (portable code avoiding memcpy):
// each `char` load and store moves an eighth of a double's bits, and no derivative
// describes a piece of a float. The gradient through the copy was silently lost, in
// reverse and in forward mode (c33, tests/c/1319 before the audit: 1/3 of the true value
// of sum x_i^3). Now refused at the copy's load; memcpy or a `double *` loop works
// (tests/c/1319).
#include <stddef.h>
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) static void copy_bytes(void *dst, const void *src, size_t bytes) {
  char *d = dst;
  const char *s = src;
  for (size_t i = 0; i < bytes; i++) d[i] = s[i];
}

double cubes(const double *x, int n) {
  double a[8];
  copy_bytes(a, x, n * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * a[i] * x[i];
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)cubes, enzyme_dup, x, dx, enzyme_const, 4);
  return dx[0] > 0 ? 0 : 1;
}

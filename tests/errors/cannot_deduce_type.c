// EXPECT-ERROR: cannot-deduce-type
// EXPECT-ERROR: __enzyme_double
// EXPECT-ERROR-LINE: COPY-MARKER
// Untyped memory: `shuffle` only moves bytes, and nothing in the module says whether
// they are floats, doubles or integers. Guessing could silently give a wrong
// derivative, so the tool must stop and name the hint that resolves it
// (tests/c/50_type_hint.c is the same program with the hint).
#include <stddef.h>
#include <string.h>
extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

void shuffle(void *a, void *b, size_t n) {
  memcpy(b, a, n); // COPY-MARKER
  memcpy(a, b, n);
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {1, 1, 1, 1}, t[4], dt[4] = {0};
  __enzyme_autodiff((void *)shuffle, enzyme_dup, x, dx, enzyme_dup, t, dt, enzyme_const, sizeof x);
  return 0;
}

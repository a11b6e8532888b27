// EXPECT-ERROR: cannot-deduce-type
// EXPECT-ERROR: -fno-strict-aliasing
// Swapping doubles through `long *` breaks C's strict-aliasing rule: clang's TBAA then
// types the accesses as `long` while the same memory is read as `double`. A pure swap
// is differentiated whatever the bytes are (rustmap: tests/c/1435), but here the moved
// `long` is also compared: its bits are used as a number, so they could be either, and
// the tool must refuse rather than guess (memcpy into a `long`, as
// tests/c/*_union_punning.c does, is the well-defined way and works).
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

double f(double *a, int n) {
  long *la = (long *)a;
  long big = 0;
  for (int i = 0; i < n / 2; i++) {
    long t = la[i];
    la[i] = la[n - 1 - i];
    la[n - 1 - i] = t;
    big += t > 0x4000000000000000L;
  }
  double s = 0.0;
  for (int i = 0; i < n; i++) s += a[i] * (double)(i + 1);
  return s * a[0] + (double)big;
}

int main(void) {
  double a[6] = {1, 2, 3, 4, 5, 6}, da[6] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_const, 6);
  return 0;
}

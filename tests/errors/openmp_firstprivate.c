// CFLAGS: -fopenmp
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: by value (firstprivate
// A floating value captured by value (firstprivate) is passed to the region by
// reference in the derivative since hpc28 (tests/openmp/43); one whose bits the program
// itself keeps in an integer variable, masked (memcpy into a long, xor with a key) is
// not recognised as floating, reaches the region as an integer copy, and would lose its
// derivative, so it is still rejected.
extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);
void *memcpy(void *, const void *, unsigned long);

void scale(double *x, double a, int n, long key) {
  long bits;
  memcpy(&bits, &a, sizeof bits);
  bits ^= key;
#pragma omp parallel for firstprivate(bits)
  for (int i = 0; i < n; i++) {
    double s;
    long b = bits ^ key;
    memcpy(&s, &b, sizeof s);
    x[i] = x[i] * s;
  }
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {1, 1, 1, 1};
  __enzyme_autodiff((void *)scale, enzyme_dup, x, dx, enzyme_out, 2.0, enzyme_const, 4, enzyme_const, 12345L);
  return (int)dx[0];
}

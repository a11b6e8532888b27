// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: is a pointer without a marker, so it is enzyme_dup
// EXPECT-ERROR: enzyme_const, x
// EXPECT-ERROR-LINE: CALL-MARKER
// A pointer passed without a marker is duplicated (Enzyme's default), so the integer
// after it was read as its shadow. The message used to say the pointer "is marked
// enzyme_dup" (it is not) and blamed a struct split by the ABI.
extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);

double sumsq(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

int main(void) {
  double x[3] = {1, 2, 3};
  double d = __enzyme_autodiff((void *)sumsq, x, 3); // CALL-MARKER
  return d > 0;
}

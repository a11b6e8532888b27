// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: the shadow of argument 1 of `sumsq` (ptr) must be a pointer, but the call passes a double
// EXPECT-ERROR: not one of its elements
// EXPECT-ERROR-LINE: CALL-MARKER
// The shadow passed is an element of the shadow buffer, not the buffer. The message
// said the shadow pointer was missing, though something was passed in its place.
extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);

double sumsq(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

int main(void) {
  double x[3] = {1, 2, 3}, dx[3] = {0};
  double d = __enzyme_autodiff((void *)sumsq, enzyme_dup, x, dx[0], enzyme_const, 3); // CALL-MARKER
  return d > 0;
}

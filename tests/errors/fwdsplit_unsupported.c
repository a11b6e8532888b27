// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: __enzyme_fwdsplit
// EXPECT-ERROR: use __enzyme_fwddiff
// EXPECT-ERROR-LINE: HERE
// Enzyme's split forward mode (`__enzyme_fwdsplit(f, x, dx, tape)`, the tape from an
// augmented forward pass) is not implemented: a compile-time error naming it and the
// line. Ignoring the tape and recomputing would be wrong for functions that overwrite
// their inputs, so it is not accepted silently.
extern double __enzyme_fwdsplit(void *, ...);
double sq(double x) { return x * x; }
int main(void) {
  double d = __enzyme_fwdsplit((void *)sq, 3.0, 1.0, (void *)0); // HERE
  return d > 0;
}

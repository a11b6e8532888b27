// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: the tangent of argument 1 of `cube` (double) must be a value of the argument's type, but the call passes a ptr
// EXPECT-ERROR: not &dx
// EXPECT-ERROR-LINE: CALL-MARKER
// Forward mode takes a float argument's tangent by value; the address of the tangent
// was reported as a missing tangent.
extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_fwddiff(void *, ...);

double cube(double x) { return x * x * x; }

int main(void) {
  double x = 2, dx = 1;
  double d = __enzyme_fwddiff((void *)cube, x, &dx); // CALL-MARKER
  return d > 0;
}

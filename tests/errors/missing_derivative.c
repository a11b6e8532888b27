// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: mystery
// EXPECT-ERROR-LINE: CALL-SITE-MARKER
// An external function with no IR body and no registered derivative is
// called on the active path: the tool must refuse, naming the function and
// the source location of the call.
extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);
extern double mystery(double);

double f(double x) {
  double y = x * x;
  return mystery(y) + 1.0; // CALL-SITE-MARKER
}

int main(void) {
  volatile double x = 1.5;
  double d = __enzyme_autodiff((void *)f, x);
  return d > 0.0;
}

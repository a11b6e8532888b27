// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: x86_fp80
// EXPECT-ERROR-LINE: WIDEN-MARKER
// A computation in long double (x86_fp80) inside a double function: it is not
// differentiated, so the tool must say so instead of returning a zero derivative.
extern double __enzyme_autodiff(void *, ...);

double f(double x) {
  long double a = x; // WIDEN-MARKER
  return (double)(a * a);
}

int main(void) {
  volatile double xv = 1.25;
  return __enzyme_autodiff((void *)f, (double)xv) > 0;
}

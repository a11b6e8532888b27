// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: enzyme_bogus
// An unknown marker global (enzyme_bogus) is passed like a marker.
extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_bogus;
extern double __enzyme_autodiff(void *, ...);

double sq(double x) { return x * x; }

int main(void) {
  volatile double x = 0.5;
  double d = __enzyme_autodiff((void *)sq, enzyme_bogus, x);
  return d > 0.0;
}

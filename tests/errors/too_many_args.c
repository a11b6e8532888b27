// EXPECT-ERROR: bad-autodiff-call
// The differentiated function takes one argument; the call passes two.
extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);

double sq(double x) { return x * x; }

int main(void) {
  volatile double a = 1.0, b = 2.0;
  double d = __enzyme_autodiff((void *)sq, a, b);
  return d > 0.0;
}

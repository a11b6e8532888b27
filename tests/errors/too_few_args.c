// EXPECT-ERROR: bad-autodiff-call
// The differentiated function takes three arguments; the call passes two.
extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);

double f3(double x, double y, double z) { return x * y * z; }

int main(void) {
  volatile double a = 1.0, b = 2.0;
  double d = __enzyme_autodiff((void *)f3, enzyme_out, a, enzyme_const, b);
  return d > 0.0;
}

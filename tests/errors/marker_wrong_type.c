// EXPECT-ERROR: bad-autodiff-call
// enzyme_out marks an active scalar, but the argument is a pointer.
extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);

double first(const double *x) { return x[0] * x[0]; }

int main(void) {
  double x[2] = {1.0, 2.0};
  double d = __enzyme_autodiff((void *)first, enzyme_out, x);
  return d > 0.0;
}

// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: `enzyme_byref, 4` before argument 1 of `sq`, whose type double has 8 bytes
// enzyme_byref's byte count must be the parameter's size (a float's 4 for a double
// would read half of it).
extern int enzyme_byref;
extern double __enzyme_autodiff(void *, ...);

double sq(double x) { return x * x; }

int main(void) {
  double x = 0.5;
  double d = __enzyme_autodiff((void *)sq, enzyme_byref, 4, &x);
  return d > 0.0;
}

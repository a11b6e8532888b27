// EXPECT-ERROR: bad-autodiff-call
// The first argument of __enzyme_autodiff is a data pointer, not a function.
extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);

double table[4] = {1.0, 2.0, 3.0, 4.0};

int main(void) {
  volatile double x = 0.5;
  double d = __enzyme_autodiff((void *)table, x);
  return d > 0.0;
}

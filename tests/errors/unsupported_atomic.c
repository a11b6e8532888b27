// EXPECT-ERROR: unsupported-instruction
// An atomic read-modify-write on a double (`_Atomic double +=` lowers to a
// cmpxchg loop or atomicrmw fadd) on the active path.
extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);

_Atomic double g_total;

double f(double x) {
  g_total = 0.0;
  for (int i = 0; i < 3; i++) g_total += x * (double)(i + 1);
  return g_total;
}

int main(void) {
  volatile double x = 0.5;
  double d = __enzyme_autodiff((void *)f, x);
  return d > 0.0;
}

// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: must be called as `n = __enzyme_iter(n, k)` with integer arguments and result
// EXPECT-ERROR: declare it as `uint64_t __enzyme_iter(uint64_t, uint64_t);`
// `__enzyme_iter` declared with floating-point arguments: the pass only understands the
// integer form (a count that grows with each differentiation), so it refuses the call
// instead of leaving it for the linker.
extern double __enzyme_autodiff(void *, ...);
double __enzyme_iter(double, double);

double f(double x) {
  double s = 0;
  int n = (int)__enzyme_iter(4.0, 1.0);
  for (int i = 0; i < n; i++)
    s += x * i;
  return s;
}

int main(void) { return __enzyme_autodiff((void *)f, 1.0) > 0 ? 0 : 1; }

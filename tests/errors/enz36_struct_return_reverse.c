// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: returns { double, double } (several floating-point values
// EXPECT-ERROR: reverse mode seeds a single float result
// Reverse mode of a function returning a struct of two doubles, through
// `__enzyme_autodiff` (declared to return the two adjoints): the seed is one 1.0, so the
// derivative of one of the results would be dropped. Refused with the fix (a wrapper
// returning one double, or an output argument with enzyme_dup); forward mode works
// (tests/c/1449).
extern int enzyme_out;
typedef struct { double a, b; } pair;
extern pair __enzyme_autodiff_pair(void *, ...);
pair f(double x, double y) {
  pair p = {x * y, x + y * y};
  return p;
}
int main(void) {
  pair g = __enzyme_autodiff_pair((void *)f, enzyme_out, 0.7, enzyme_out, 1.3);
  return (int)(g.a + g.b);
}

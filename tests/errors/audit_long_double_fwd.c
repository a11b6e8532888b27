// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: `x86_fp80` values (C `long double`) are not differentiated
// EXPECT-ERROR-LINE: WIDEN-MARKER
// A long double computation inside a double function in *forward* mode: reverse mode
// rejected it, forward mode silently returned a zero tangent (issue 17's audit).
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup;
double f(double *x) {
  long double t = x[0]; // WIDEN-MARKER
  return (double)(t * t);
}
int main(void) {
  double x[1] = {3}, tx[1] = {1};
  return (int)__enzyme_fwddiff((void *)f, enzyme_dup, x, tx);
}

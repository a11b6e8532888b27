// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: `bfloat` values (C `__bf16`) are not differentiated
// EXPECT-ERROR-LINE: ROUND-MARKER
// A __bf16 rounding inside the differentiated function, in reverse and in forward mode
// (forward mode used to return a silent zero for the same code).
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup;
double f(double *x) {
  __bf16 t = (__bf16)x[0]; // ROUND-MARKER
  return (double)t * x[1];
}
int main(void) {
  double x[2] = {3, 4}, dx[2] = {0, 0}, tx[2] = {1, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  return (int)__enzyme_fwddiff((void *)f, enzyme_dup, x, tx);
}

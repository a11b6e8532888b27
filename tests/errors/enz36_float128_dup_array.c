// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: `fp128` values (C `__float128`) are not differentiated
// EXPECT-ERROR: is read from memory with a shadow
// A `__float128` array passed with enzyme_dup, read and rounded to double inside: the
// derivative with respect to it was a silent zero (enz36), like `__bf16`'s
// (enz36_bf16_dup_array.c). A __float128 only compared (a tolerance in a struct with a
// shadow) stays allowed: tests/c/1442.
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;
double f(const __float128 *q, double w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (double)q[i] * w * w;
  return s;
}
int main(void) {
  __float128 q[2] = {1, 2}, dq[2] = {0, 0};
  return (int)__enzyme_autodiff((void *)f, enzyme_dup, q, dq, 1.5, enzyme_const, 2);
}

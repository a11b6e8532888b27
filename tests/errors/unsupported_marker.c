// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: `enzyme_dup_return` on `pick`, which returns ptr: a pointer result with a shadow
// EXPECT-ERROR-LINE: HERE
// enzyme_dup_return on a pointer result (its shadow) is not implemented: an error naming it.
extern int enzyme_dup_return;
extern double *__enzyme_fwddiff(void *, ...);
double *pick(double *x) { return x + 1; }
int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  double *r = __enzyme_fwddiff((void *)pick, enzyme_dup_return, x, dx); // HERE
  return r == 0;
}

// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: the marker `enzyme_dup_return` is not supported
// EXPECT-ERROR-LINE: HERE
// An Enzyme marker Ferrozyme knows but does not implement is an error naming it.
extern int enzyme_dup_return;
extern double *__enzyme_fwddiff(void *, ...);
double *pick(double *x) { return x + 1; }
int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  double *r = __enzyme_fwddiff((void *)pick, enzyme_dup_return, x, dx); // HERE
  return r == 0;
}

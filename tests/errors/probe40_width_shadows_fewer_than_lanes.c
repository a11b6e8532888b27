// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: missing shadow pointer for argument 1 of `f`: expected 3 shadow pointer(s) after the value
// EXPECT-ERROR-LINE: HERE
// probe40: `enzyme_width, 3` with two shadows after the pointer.
extern int enzyme_width, enzyme_dup;
typedef struct { double d[3]; } s3;
extern s3 __enzyme_fwddiff(void *, ...);
double f(const double *x) { return x[0] * x[1]; }
int main(void) {
  double x[2] = {1, 2}, a[2] = {1, 0}, b[2] = {0, 1};
  s3 r = __enzyme_fwddiff((void *)f, enzyme_width, 3, enzyme_dup, x, a, b); // HERE
  return r.d[0] > 0;
}

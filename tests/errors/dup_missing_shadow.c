// EXPECT-ERROR: bad-autodiff-call
// enzyme_dup is followed by the primal pointer but the shadow pointer is
// missing (the call ends right after it).
extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);

double sumsq(const double *x) {
  double s = 0.0;
  for (int i = 0; i < 4; i++) s += x[i] * x[i];
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4};
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x);
  return 0;
}

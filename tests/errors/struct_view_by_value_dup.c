// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: a struct passed by value that the ABI split into registers
// EXPECT-ERROR: pass a pointer to the struct instead
// An array view passed by value and marked enzyme_dup with a shadow view, as modern C
// passes slices: x86-64 splits `struct view { double *p; long n; }` into a pointer and
// an integer argument, so the call carries p, n, dp, n and the shadow of p cannot be
// told from the struct's other fields. Refused, saying what it is (the message was
// "missing shadow pointer", though the shadow was passed); passing a pointer to the view
// works (tests/c/85).
extern int enzyme_dup;
extern double __enzyme_autodiff(void *, ...);

struct view {
  double *p;
  long n;
};

double sumsq(struct view v) {
  double s = 0;
  for (long i = 0; i < v.n; i++) s += v.p[i] * v.p[i];
  return s;
}

int main(void) {
  double x[3] = {1, 2, 3}, dx[3] = {0};
  struct view v = {x, 3}, dv = {dx, 3};
  __enzyme_autodiff((void *)sumsq, enzyme_dup, v, dv);
  return dx[0] > 0;
}

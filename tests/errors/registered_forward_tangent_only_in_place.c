// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: returns only the tangent, so `sqsum` is called again for its result
// EXPECT-ERROR: return struct { T primal; T tangent; }
// A registered forward derivative returning only the tangent, of a function that squares
// its argument in place and returns the sum: the derivative called the rule (which
// updates x) and then `sqsum` itself for the primal result, so x was squared twice
// (81, 625 instead of 9, 25) and the tangent came out 4722 instead of 258: silently wrong
// until c34, even without enzyme_width. Refused; a rule returning { primal, tangent }
// is called once.
extern int enzyme_dup;
extern double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) double sqsum(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    x[i] = x[i] * x[i];
    s += x[i];
  }
  return s;
}
double sqsum_fwd(double *x, double *dx, int n) {
  double t = 0;
  for (int i = 0; i < n; i++) {
    dx[i] = 2 * x[i] * dx[i];
    x[i] = x[i] * x[i];
    t += dx[i];
  }
  return t;
}
void *__enzyme_register_derivative_sqsum[] = {(void *)sqsum, (void *)sqsum_fwd};

double g(double *x) { return sqsum(x, 2) * x[0]; }

int main(void) {
  double x[2] = {3, 5}, dx[2] = {1, 0};
  return (int)__enzyme_fwddiff((void *)g, enzyme_dup, x, dx);
}

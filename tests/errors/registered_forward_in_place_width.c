// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: `sq` updates memory it also reads (in place)
// EXPECT-ERROR: call __enzyme_fwddiff once per direction
// A registered forward derivative of a function that squares its argument in place, used
// with `enzyme_width, 2`: the rule runs once per lane on the same primal memory, so the
// update ran twice (x = 81, 625 instead of 9, 25) and lane 1's tangent was taken at the
// squared x (109 instead of 23): silently wrong until c34. Refused now; a rule writing to
// memory it does not read (tests/c/283) still runs per lane.
extern int enzyme_width, enzyme_dup;
typedef struct { double d[2]; } v2;
extern v2 __enzyme_fwddiff_v2(void *, ...);

__attribute__((noinline)) void sq(double *x, int n) {
  for (int i = 0; i < n; i++) x[i] = x[i] * x[i];
}
void sq_fwd(double *x, double *dx, int n) {
  for (int i = 0; i < n; i++) {
    dx[i] = 2 * x[i] * dx[i];
    x[i] = x[i] * x[i];
  }
}
void *__enzyme_register_derivative_sq[] = {(void *)sq, (void *)sq_fwd};

double g(double *x) {
  sq(x, 2);
  return x[0] + 2 * x[1];
}

int main(void) {
  double y[2] = {3, 5}, a[2] = {1, 0}, b[2] = {0.5, 1};
  v2 r = __enzyme_fwddiff_v2((void *)g, enzyme_width, 2, enzyme_dup, y, a, b);
  return (int)r.d[0];
}

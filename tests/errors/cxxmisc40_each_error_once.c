// OPT: O0 O2
// EXPECT-ERROR: error[missing-derivative]
// EXPECT-ERROR-LINE: call of mystery in f
// EXPECT-ERROR-LINE: call of mystery in g
// EXPECT-ERROR-COUNT: 2 error[missing-derivative]
// EXPECT-ERROR-COUNT: 1 help: compile its source together with this file
// Each distinct diagnostic is printed once. `f` is differentiated three ways (reverse,
// forward, vector forward): each request met the calls of `mystery` (no IR, no rule)
// again in its own clone of `f` and `g`, and every copy was printed: three copies of each
// error (difftest C++ seed 9446 printed four). Now each call is reported once, and the
// help, the same for both, once.
extern double mystery(double);

__attribute__((noinline)) double g(double v) {
  return mystery(v * v) + v; /* call of mystery in g */
}

double f(double *x, int n) {
  double t = 0;
  for (int i = 0; i < n; i++) t += mystery(x[i]) * x[i]; /* call of mystery in f */
  return t + g(x[0]);
}

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
typedef struct {
  double d[2];
} W2;
extern W2 __enzyme_fwddiff_w2(void *, ...);
extern int enzyme_dup, enzyme_const, enzyme_width;

int main(void) {
  double x[3] = {0.3, 0.5, -0.2}, dx[3] = {0}, tx[3] = {1, 0, 0}, ty[3] = {0, 1, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_const, 3);
  W2 w = __enzyme_fwddiff_w2((void *)f, enzyme_width, 2, enzyme_dup, x, tx, ty, enzyme_const, 3);
  return (int)(dx[0] + t + w.d[0]);
}

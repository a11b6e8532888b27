// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: needs
// EXPECT-ERROR: but enzyme_allocated gives 8
// EXPECT-ERROR-LINE: HERE
// Caller-provided tape memory smaller than the tape: refused at compile time.
extern int enzyme_dup, enzyme_const, enzyme_tape, enzyme_allocated;
extern void __enzyme_augmentfwd(void *, ...);
double rosen(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n - 1; i++) {
    double a = x[i + 1] - x[i] * x[i], b = 1.0 - x[i];
    s += 100.0 * a * a + b * b;
  }
  return s;
}
int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  static char buf[8];
  __enzyme_augmentfwd((void *)rosen, enzyme_allocated, 8, enzyme_tape, buf, enzyme_dup, x, dx, enzyme_const, 4); // HERE
  return 0;
}

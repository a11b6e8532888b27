// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: must be declared to return the tape
// EXPECT-ERROR: with enzyme_tape the tape goes to your memory
// EXPECT-ERROR-LINE: HERE
// usr38: `__enzyme_augmentfwd` with `enzyme_allocated, N, enzyme_tape, p` of a function
// returning a double, declared to return `void *` (the tape is in p; the hook can only
// return the function's result): refused, and the help says what to declare.
extern int enzyme_dup, enzyme_const, enzyme_tape, enzyme_allocated;
extern void *__enzyme_augmentfwd(void *, ...);
extern int __enzyme_augmentsize(void *, ...);
double sumsq(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}
int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  static char tape[256];
  void *r = __enzyme_augmentfwd((void *)sumsq, enzyme_allocated, 256, enzyme_tape, tape, enzyme_dup, x, dx, enzyme_const, 4); // HERE
  return r != 0;
}

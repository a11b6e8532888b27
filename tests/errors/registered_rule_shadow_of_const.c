// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: has no shadow here (it is constant memory), but the registered derivative takes one after it
// A registered gradient whose parameter list takes a shadow after every pointer, called
// with an argument the caller passed enzyme_const: there is no shadow memory to hand it
// (its size is unknown, and the primal must not receive adjoints), so it is refused with
// the fix (pass the argument enzyme_dup with a zero shadow; tests/c/1162 does). The
// plugin trial of this program crashed clang's simplifycfg after the error was reported
// (the half-rewritten module went on through the pipeline); it now stops cleanly.
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}
void aug_dot(const double *a, const double *da, const double *b, const double *db, int n) {
  (void)a, (void)da, (void)b, (void)db, (void)n;
}
void rev_dot(const double *a, double *da, const double *b, double *db, int n, double dret) {
  for (int i = 0; i < n; i++) da[i] += dret * b[i], db[i] += dret * a[i];
}
double fwd_dot(const double *a, const double *da, const double *b, const double *db, int n) {
  double t = 0;
  for (int i = 0; i < n; i++) t += da[i] * b[i] + a[i] * db[i];
  return t;
}
void *__enzyme_register_gradient_dot[3] = {(void *)dot, (void *)aug_dot, (void *)rev_dot};
void *__enzyme_register_derivative_dot[2] = {(void *)dot, (void *)fwd_dot};

double loss(const double *x, const double *w, int n) { return dot(x, w, n) * dot(x, x, n); }

int main(void) {
  double x[3] = {1, 2, 3}, w[3] = {1, 0, -1}, dx[3] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, w, enzyme_const, 3);
  return dx[0] > 0;
}

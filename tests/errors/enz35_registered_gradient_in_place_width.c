// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: `sq` updates memory it also reads (in place), and its gradient rule
// EXPECT-ERROR: runs once per lane with enzyme_width: the update would run 2 times
// EXPECT-ERROR: call __enzyme_autodiff once per direction
// Vector reverse mode (`enzyme_width, 2`) through a registered gradient of a function
// that squares its argument in place. Since enz35 reverse rules run once per lane (the
// augmented function with each lane's shadows); here that would square the array twice,
// so such a function is refused (an out-of-place one works: tests/c/1400).
extern int enzyme_width, enzyme_dup;
extern void __enzyme_autodiff_w2(void *, ...);
void free(void *);
void *malloc(unsigned long);

__attribute__((noinline)) void sq(double *x, int n) {
  for (int i = 0; i < n; i++) x[i] = x[i] * x[i];
}
void *sq_aug(double *x, double *dx, int n) {
  (void)dx;
  double *old = malloc(n * sizeof *old);
  for (int i = 0; i < n; i++) old[i] = x[i], x[i] = x[i] * x[i];
  return old;
}
void sq_rev(double *x, double *dx, int n, void *tape) {
  (void)x;
  double *old = tape;
  for (int i = 0; i < n; i++) dx[i] *= 2 * old[i];
  free(old);
}
void *__enzyme_register_gradient_sq[] = {(void *)sq, (void *)sq_aug, (void *)sq_rev};

void g(double *x, double *out) {
  sq(x, 2);
  out[0] = x[0] + 2 * x[1];
}

int main(void) {
  double y[2] = {3, 5}, a[2] = {0}, b[2] = {0}, o[1], s0[1] = {1}, s1[1] = {2};
  __enzyme_autodiff_w2((void *)g, enzyme_width, 2, enzyme_dup, y, a, b, enzyme_dup, o, s0, s1);
  return (int)a[0];
}

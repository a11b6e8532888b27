// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: `qsort` updates memory it also reads (in place), and its gradient rule
// EXPECT-ERROR: call __enzyme_autodiff once per direction
// Vector reverse mode (`enzyme_width, 2`) through qsort: reverse rules run once per lane
// (enz35), and a second sort would find the elements sorted already, so a function
// that updates memory in place is refused (forward mode with enzyme_width works:
// tests/c/1346); the help says to differentiate once per direction.
#include <stdlib.h>

extern int enzyme_width, enzyme_dup;
extern void __enzyme_autodiff_w2(void *, ...);

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

void sorted_weights(double *x, double *out, int n) {
  qsort(x, n, sizeof *x, cmp);
  for (int i = 0; i < n; i++) out[i] = (i + 1) * x[i];
}

int main(void) {
  double x[3] = {3, 1, 2}, g0[3] = {0}, g1[3] = {0}, o[3], s0[3] = {1, 1, 1}, s1[3] = {1, 0, 0};
  __enzyme_autodiff_w2((void *)sorted_weights, enzyme_width, 2, enzyme_dup, x, g0, g1, enzyme_dup,
                       o, s0, s1, 3);
  return (int)g0[0];
}

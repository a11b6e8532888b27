// OPT: O0 O2
// EXPECT-RUNTIME-ERROR: but enzyme_allocated gives fewer
// `enzyme_allocated, n` with `n` a run-time value (Enzyme's integration tests pass the
// result of `__enzyme_augmentsize` this way; tests/c/683 uses it): the size is checked
// when the hook runs. Here the caller's block is 8 bytes short of the tape: the program
// stops with the message instead of writing past the block (a constant too-small size
// is the compile-time error tests/errors/tape_too_small.c).
#include "fz_test.h"

extern int enzyme_tape, enzyme_allocated;
extern void __enzyme_augmentfwd(void *, ...);
extern size_t __enzyme_augmentsize(void *, ...);

double rosen(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n - 1; i++) {
    double a = x[i + 1] - x[i] * x[i], b = 1.0 - x[i];
    s += 100.0 * a * a + b * b;
  }
  return s;
}

int main(int argc, char **argv) {
  (void)argv;
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  size_t need = __enzyme_augmentsize((void *)rosen, enzyme_dup, enzyme_const);
  size_t have = need - 8 + (size_t)(argc - 1); /* not a constant for the compiler */
  unsigned char *buf = malloc(need);
  __enzyme_augmentfwd((void *)rosen, enzyme_allocated, have, enzyme_tape, buf, enzyme_dup, x,
                      dx, enzyme_const, 4);
  printf("not reached: the hook should have stopped (need %zu, have %zu)\n", need, have);
  free(buf);
  return 0;
}

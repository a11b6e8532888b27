// OPT: O0 O2
// ARGS: -lpthread
// EXPECT-RUNTIME-ERROR: stack overflow in the derivative of `f`
// EXPECT-RUNTIME-ERROR: ulimit -s
// err36: the gradient of a recursion too deep for its stack stops with a message naming
// the function and the stack's size (exit 134), not a bare SIGSEGV (exit 139, as before).
// f(x, n) = sin(f(x, n - 1)) * 0.5 + x, f(x, 0) = x. First a shallow gradient is checked
// against the derivative computed by hand (d_k = cos(f_{k-1}) * 0.5 * d_{k-1} + 1, d_0 = 1);
// then a thread with a 1 MiB stack differentiates 5 000 000 levels (the gradient needs at
// least 32 bytes per level, so it cannot fit, whatever the shell's `ulimit -s`).
#include "fz_test.h"
#include <pthread.h>

__attribute__((noinline)) double f(double x, int n) {
  if (n == 0)
    return x;
  return sin(f(x, n - 1)) * 0.5 + x;
}

static double df_by_hand(double x, int n) {
  double v = x, d = 1.0;
  for (int k = 1; k <= n; k++) {
    d = cos(v) * 0.5 * d + 1.0;
    v = sin(v) * 0.5 + x;
  }
  return d;
}

static void *deep(void *arg) {
  int n = *(int *)arg;
  double d = __enzyme_autodiff((void *)f, 0.3, n);
  printf("unexpected: the gradient of %d levels returned %g\n", n, d);
  return NULL;
}

int main(void) {
  double d = __enzyme_autodiff((void *)f, 0.3, 1000);
  fz_check("df/dx at depth 1000", d, df_by_hand(0.3, 1000), 1e-12);
  if (fz_finish() != 0)
    return 1;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 1 << 20);
  pthread_t t;
  static int n = 5000000;
  if (pthread_create(&t, &attr, deep, &n) != 0)
    return 2;
  pthread_join(t, NULL);
  return 0;
}

/* Loop annotated for checkpointing vs the same loop taped (bench/README.md, "Loops
 * annotated for checkpointing"): ferrozyme cc -O2 -std=gnu23 [-DMARK] this.c -lm; ./a.out 100000 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <stddef.h>
extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);
void __enzyme_ptr_size_hint(void *, size_t, size_t);
#define N 16
static void advance(double *u, long i) {
  double nxt[N];
  for (int k = 0; k < N; k++)
    nxt[k] = u[k] + 0.01 * (u[(k + 1) % N] - u[k]) * u[(k + N - 1) % N] + 0.001 * sin(0.3 * i + u[k]);
  for (int k = 0; k < N; k++) u[k] = nxt[k];
}
__attribute__((noinline)) void loop(double *u, long n) {
  __enzyme_ptr_size_hint(u, N * sizeof(double), 0);
#ifdef MARK
  [[enzyme::checkpoint("revolve", 20)]]
#endif
  for (long i = 0; i < n; i++) advance(u, i);
}
int main(int argc, char **argv) {
  long n = atol(argv[1]);
  double u[N], du[N];
  for (int k = 0; k < N; k++) { u[k] = 0.1 * k; du[k] = 1; }
  __enzyme_autodiff((void *)loop, enzyme_dup, u, du, enzyme_const, n);
  printf("%.17g\n", du[0]);
}

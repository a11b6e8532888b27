// OPT: O0 O2 O3
// Loads the reverse sweep re-reads instead of caching are those no later write
// can change (reverse/memory.rs, stable_after; frees and lifetime ends of a
// run-once block move after the reverse sweep, deferrable_frees). Each
// function here reads a buffer that is written before the read (re-read is
// right), after the read (re-read would be wrong: the reverse sweep must see
// the old values), or freed at the end. Oracles: finite differences.
#include "fz_test.h"

#define N 9

/* heap buffer filled before the loop, only read in it, freed at the end */
double filled_then_read(const double *x, int n) {
  double *q = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; i++) q[i] = exp(0.3 * x[i]);
  double s = 0;
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < n; i++) s += q[i] * q[(i + k) % n] * x[i];
  free(q);
  return s;
}

/* stack buffer read in a loop, then overwritten after it and read again */
double overwritten_after(const double *x, int n) {
  double b[N];
  for (int i = 0; i < n; i++) b[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(b[i]) * b[(i + 1) % n];
  for (int i = 0; i < n; i++) b[i] = s * x[i];
  for (int i = 0; i < n; i++) s += b[i] * b[i];
  return s;
}

/* each iteration reads q[i] and then overwrites it (a later iteration's write
 * does not reach back, but the write right after the read does) */
double read_then_write(const double *x, int n) {
  double *q = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; i++) q[i] = x[i];
  double s = 0;
  for (int r = 0; r < 2; r++)
    for (int i = 0; i < n; i++) {
      s += q[i] * q[i] * x[(i + r) % n];
      q[i] = cos(q[i]) + s * 0.01;
    }
  free(q);
  return s;
}

static double X[N];
static double e1(void *c) { (void)c; return filled_then_read(X, N); }
static double e2(void *c) { (void)c; return overwritten_after(X, N); }
static double e3(void *c) { (void)c; return read_then_write(X, N); }

int main(void) {
  fz_seed(291);
  fz_fill(X, N, -1, 1);
  double dx[N], want[N];
  fz_zero(dx, N);
  __enzyme_autodiff((void *)filled_then_read, enzyme_dup, X, dx, enzyme_const, N);
  fz_fd_grad(e1, NULL, X, N, want);
  fz_check_arr("filled_then_read", dx, want, N, 1e-6);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)overwritten_after, enzyme_dup, X, dx, enzyme_const, N);
  fz_fd_grad(e2, NULL, X, N, want);
  fz_check_arr("overwritten_after", dx, want, N, 1e-6);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)read_then_write, enzyme_dup, X, dx, enzyme_const, N);
  fz_fd_grad(e3, NULL, X, N, want);
  fz_check_arr("read_then_write", dx, want, N, 1e-6);
  return fz_finish();
}

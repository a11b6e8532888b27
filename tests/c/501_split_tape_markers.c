// OPT: O0 O2
// LLI: O0 O2
// Split mode with the tape in the caller's memory: enzyme_tape, p (the tape pointer
// stored at p and read back by __enzyme_reverse), enzyme_allocated, N + enzyme_tape, p
// (the tape block copied into N caller bytes, several alive at once and reversed LIFO),
// enzyme_noret (the hook returns the tape only), and enzyme_const_return in split mode
// (no return seed). Oracles: analytic gradients, the primal computed by plain calls.
#include "fz_test.h"

extern int enzyme_tape, enzyme_allocated, enzyme_noret, enzyme_const_return;
extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_augmentfwd_void(void *, ...);
extern double __enzyme_augmentfwd_d(void *, ...);
extern void __enzyme_reverse(void *, ...);
extern size_t __enzyme_augmentsize(void *, ...);

#define N 6

/* The loop puts records on a stack owned by the tape (its buffer is on the heap). */
double rosen(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n - 1; i++) {
    double a = x[i + 1] - x[i] * x[i], b = 1.0 - x[i];
    s += 100.0 * a * a + b * b;
  }
  return s;
}

static void rosen_grad(const double *x, int n, double *g) {
  for (int i = 0; i < n; i++) g[i] = 0.0;
  for (int i = 0; i < n - 1; i++) {
    double a = x[i + 1] - x[i] * x[i];
    g[i] += -400.0 * a * x[i] - 2.0 * (1.0 - x[i]);
    g[i + 1] += 200.0 * a;
  }
}

static void check_grad(const char *what, const double *x, const double *dx, double seed) {
  double g[N];
  rosen_grad(x, N, g);
  for (int i = 0; i < N; i++) g[i] *= seed;
  for (int i = 0; i < N; i++) fz_check(what, dx[i], g[i], 1e-11 * (1 + fabs(g[i])));
}

int main(void) {
  fz_seed(501);
  double x[N], dx[N];
  fz_fill(x, N, -1.2, 1.2);

  /* enzyme_tape, &slot: the tape pointer lives in the caller's slot. */
  void *slot = NULL;
  fz_zero(dx, N);
  double r = __enzyme_augmentfwd_d((void *)rosen, enzyme_tape, &slot, enzyme_dup, x, dx,
                                   enzyme_const, N);
  fz_check("tape slot: primal from augmentfwd", r, rosen(x, N), 1e-15);
  fz_check("tape slot: slot was written", slot != NULL, 1, 0);
  __enzyme_reverse((void *)rosen, enzyme_tape, &slot, enzyme_dup, x, dx, enzyme_const, N, 2.0);
  check_grad("tape slot: gradient x 2", x, dx, 2.0);

  /* enzyme_noret: the hook returns the tape only. */
  fz_zero(dx, N);
  void *t = __enzyme_augmentfwd((void *)rosen, enzyme_noret, enzyme_dup, x, dx, enzyme_const, N);
  __enzyme_reverse((void *)rosen, enzyme_dup, x, dx, enzyme_const, N, 1.0, t);
  check_grad("noret: gradient", x, dx, 1.0);

  /* enzyme_allocated: tapes in caller buffers, three alive at once, reversed LIFO. */
  size_t need = __enzyme_augmentsize((void *)rosen, enzyme_dup, enzyme_const);
  fz_check("augmentsize fits the buffers", need <= 512, 1, 0);
  static unsigned char buf[3][512];
  double xs[3][N], dxs[3][N];
  for (int k = 0; k < 3; k++) {
    fz_fill(xs[k], N, -1.2, 1.2);
    fz_zero(dxs[k], N);
    __enzyme_augmentfwd_void((void *)rosen, enzyme_allocated, 512, enzyme_tape, buf[k],
                             enzyme_dup, xs[k], dxs[k], enzyme_const, N);
  }
  for (int k = 2; k >= 0; k--) {
    __enzyme_reverse((void *)rosen, enzyme_allocated, 512, enzyme_tape, buf[k], enzyme_dup,
                     xs[k], dxs[k], enzyme_const, N, 1.0 + k);
    check_grad("allocated tape: gradient", xs[k], dxs[k], 1.0 + k);
  }

  /* enzyme_const_return in split mode: no seed of the result (a zero gradient here). */
  fz_zero(dx, N);
  void *tc = __enzyme_augmentfwd((void *)rosen, enzyme_const_return, enzyme_dup, x, dx,
                                 enzyme_const, N);
  __enzyme_reverse((void *)rosen, enzyme_const_return, enzyme_dup, x, dx, enzyme_const, N, tc);
  for (int i = 0; i < N; i++) fz_check("const_return split: zero gradient", dx[i], 0.0, 0);
  return fz_finish();
}

// OPT: O0 O2
// Split mode with a caller-allocated tape (`__enzyme_augmentsize`, then
// `__enzyme_augmentfwd`/`__enzyme_reverse` with `enzyme_allocated, size, enzyme_tape,
// buffer`) through a loop that calls a registered gradient whose own tape is malloc'd
// (it travels inside the allocated tape) and the complex helpers `__muldc3`/`__divdc3`
// and `cexp`, with the input array overwritten inside the loop. Oracles: the primal
// result of the augmented call, central differences.
#include "fz_test.h"
#include "fz_modes.h"
#include <complex.h>
extern int enzyme_allocated, enzyme_tape;
extern double __enzyme_augmentfwd_d(void *, ...);
#define N 4
__attribute__((noinline)) double softclip(double x) { return x / sqrt(1 + x * x); }
typedef struct { void *tape; double r; } aug_sc;
aug_sc softclip_aug(double x) {
  double *t = malloc(sizeof *t);
  *t = 1 + x * x;
  aug_sc a = {t, x / sqrt(*t)};
  return a;
}
double softclip_rev(double x, double dr, void *tape) {
  (void)x;
  double s = *(double *)tape;
  free(tape);
  return dr / (s * sqrt(s));
}
void *__enzyme_register_gradient_softclip[] = {(void *)softclip, (void *)softclip_aug,
                                               (void *)softclip_rev};
double f(double *x, double a) {
  double s = 0;
  for (int i = 0; i < N; i++) {
    double complex z = (x[i] + I * a) * (a - I * x[(i + 1) % N]) / (1.5 + I * x[i]);
    s += softclip(creal(z)) * cimag(cexp(z));
    x[i] = s;   /* overwritten */
  }
  return s * a;
}
static double Z[N + 1];
static double eval(void *c) {
  (void)c;
  double x[N];
  memcpy(x, Z, sizeof x);
  return f(x, Z[N]);
}
int main(void) {
  fz_seed(1409);
  fz_fill(Z, N + 1, -0.9, 0.9);
  size_t sz = __enzyme_augmentsize((void *)f, enzyme_dup, enzyme_out);
  fz_check("augmentsize is a sane number", sz > 0 && sz < 4096, 1, 0);
  char *buf = aligned_alloc(64, (sz + 63) / 64 * 64 + 64);
  double x[N], dx[N] = {0};
  memcpy(x, Z, sizeof x);
  double r = __enzyme_augmentfwd_d((void *)f, enzyme_dup, x, dx, enzyme_out, Z[N], enzyme_allocated,
                                   sz, enzyme_tape, (void *)buf);
  fz_check("primal", r, eval(0), 1e-14);
  double da = __enzyme_reverse((void *)f, enzyme_dup, x, dx, enzyme_out, Z[N], 1.0,
                               enzyme_allocated, sz, enzyme_tape, (void *)buf);
  for (int i = 0; i < N; i++) fz_check("dx", dx[i], fz_fd_ptr(eval, 0, &Z[i]), 1e-6);
  fz_check("da", da, fz_fd_ptr(eval, 0, &Z[N]), 1e-6);
  free(buf);
  return fz_finish();
}

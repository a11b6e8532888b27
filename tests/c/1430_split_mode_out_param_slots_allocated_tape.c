// OPT: O0 O2
// enz37: split mode (__enzyme_augmentfwd then __enzyme_reverse) of loops whose libm and
// libc calls store an int or a pointer through a stack slot each iteration (frexp's
// exponent, remquo's quotient bits, strtol's end pointer) and multiply it into the
// result, with the tape in caller memory sized by __enzyme_augmentsize (enzyme_allocated
// + enzyme_tape), two tapes alive at once and reversed in the opposite order, and with
// the tape returned by the hook. Oracles: analytic (the same calls made outside),
// combined mode.
#include "fz_test.h"

extern int enzyme_tape, enzyme_allocated;
extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_augmentfwd_v(void *, ...) __asm__("__enzyme_augmentfwd");
extern void __enzyme_reverse(void *, ...);
extern size_t __enzyme_augmentsize(void *, ...);

static const char *const TXT[3] = {"12abc", "3x", "4567"};

double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    int e, q;
    double m = frexp(x[i], &e);
    double r = remquo(x[i], 0.7, &q);
    char *end;
    strtol(TXT[i % 3], &end, 10);
    s += m * e + r * q + x[i] * (double)(end - TXT[i % 3]);
  }
  return s;
}

static void want_grad(const double *x, int n, double seed, double *g) {
  for (int i = 0; i < n; i++) {
    int e, q;
    frexp(x[i], &e);
    remquo(x[i], 0.7, &q);
    char *end;
    strtol(TXT[i % 3], &end, 10);
    g[i] = seed * (ldexp(1.0, -e) * e + q + (double)(end - TXT[i % 3]));
  }
}

int main(void) {
  enum { N = 7 };
  double x[2][N], dx[2][N], want[N];
  fz_seed(1430);
  fz_fill(x[0], N, -4, 4);
  fz_fill(x[1], N, -4, 4);
  size_t need = __enzyme_augmentsize((void *)f, enzyme_dup, enzyme_const);
  unsigned char *tape[2] = {malloc(need + 16), malloc(need + 16)};
  for (int k = 0; k < 2; k++) {
    fz_zero(dx[k], N);
    __enzyme_augmentfwd_v((void *)f, enzyme_allocated, need, enzyme_tape, tape[k], enzyme_dup,
                          x[k], dx[k], enzyme_const, N);
  }
  for (int k = 1; k >= 0; k--) {
    __enzyme_reverse((void *)f, enzyme_allocated, need, enzyme_tape, tape[k], enzyme_dup, x[k],
                     dx[k], enzyme_const, N, 1.5 + k);
    want_grad(x[k], N, 1.5 + k, want);
    fz_check_arr("allocated tape: gradient", dx[k], want, N, 1e-12);
  }
  free(tape[0]);
  free(tape[1]);
  fz_zero(dx[0], N);
  void *t = __enzyme_augmentfwd((void *)f, enzyme_dup, x[0], dx[0], enzyme_const, N);
  __enzyme_reverse((void *)f, enzyme_dup, x[0], dx[0], enzyme_const, N, 1.0, t);
  want_grad(x[0], N, 1.0, want);
  fz_check_arr("returned tape: gradient", dx[0], want, N, 1e-12);
  fz_zero(dx[1], N);
  __enzyme_autodiff((void *)f, enzyme_dup, x[0], dx[1], enzyme_const, N);
  fz_check_arr("combined mode: gradient", dx[1], want, N, 1e-12);
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// In-place updates whose reverse zeroes a shadow slot and then adds to it again with an
// access between that may be the same slot (reverse/write_once.rs, fft34; AVX targets:
// 1361 builds this program with -march=x86-64-v3): the slot's value is carried in a
// register and the accesses between compare their address with it; here, without AVX,
// the zero stores stay. Each form runs with offsets that make the two slots of a butterfly the same
// (offset 0), neighbours that overlap the next butterfly's (1, 2, 3) and disjoint ones:
// a real butterfly (`x[i]`, `x[i + m]`), the complex butterflies of an iterative FFT
// stage with a twiddle recurrence (`x[a]`, `x[a + 1]`, `x[b]`, `x[b + 1]`, b = a + off),
// and a bit-reversal-like swap pass whose table has fixed points (j == i). Oracle:
// five-point finite differences of every coordinate (1e-7); the offsets 0 and 1 take the
// compared path with equal addresses.
#include "fz_test.h"

enum { NMAX = 80 };

static double wsum(const double *x, long len) {
  double s = 0;
  for (long k = 0; k < len; k++) s += (0.3 + 0.05 * (double)k) * x[k] * x[k];
  return s;
}

double bfly(double *x, long n, long m) {
  for (long i = 0; i < n; i++) {
    double a = x[i], b = x[i + m];
    x[i] = a + 0.5 * b;
    x[i + m] = a * b - b;
  }
  return wsum(x, n + m);
}

double stage(double *x, long n, long off) {
  double wr = 1.0, wi = 0.0, cr = 0.8, ci = 0.6;
  for (long k = 0; k < n; k++) {
    long a = 2 * k, b = a + off;
    double tr = x[b] * wr - x[b + 1] * wi;
    double ti = x[b] * wi + x[b + 1] * wr;
    x[b] = x[a] - tr;
    x[b + 1] = x[a + 1] - ti;
    x[a] += tr;
    x[a + 1] += ti;
    double t = wr;
    wr = wr * cr - wi * ci;
    wi = wi * cr + t * ci;
  }
  return wsum(x, 2 * n + off + 1);
}

double swaps(double *x, const long *perm, long n) {
  for (long i = 0; i < n; i++) {
    long j = perm[i];
    if (j >= i) {
      double t = x[j];
      x[j] = x[i] * 1.5;
      x[i] = t;
    }
  }
  return wsum(x, n);
}

static double X0[NMAX], X[NMAX], DX[NMAX];
static long PERM[NMAX];
static int form;
static long N, M;

static double run(double *x) {
  switch (form) {
  case 0: return bfly(x, N, M);
  case 1: return stage(x, N, M);
  default: return swaps(x, PERM, N);
  }
}

static double eval(void *unused) {
  (void)unused;
  static double w[NMAX];
  for (int k = 0; k < NMAX; k++) w[k] = X[k];
  return run(w);
}

static void check(const char *what, long len) {
  for (int k = 0; k < NMAX; k++) X[k] = X0[k];
  fz_zero(DX, NMAX);
  double *x = X; /* the gradient call overwrites it: reset below */
  if (form == 0)
    __enzyme_autodiff((void *)bfly, enzyme_dup, x, DX, enzyme_const, N, enzyme_const, M);
  else if (form == 1)
    __enzyme_autodiff((void *)stage, enzyme_dup, x, DX, enzyme_const, N, enzyme_const, M);
  else
    __enzyme_autodiff((void *)swaps, enzyme_dup, x, DX, enzyme_const, PERM, enzyme_const, N);
  for (int k = 0; k < NMAX; k++) X[k] = X0[k];
  char name[96];
  for (long k = 0; k < len; k++) {
    snprintf(name, sizeof name, "%s n=%ld off=%ld d/dx[%ld]", what, N, M, k);
    fz_check(name, DX[k], fz_fd5_ptr(eval, 0, &X[k]), 1e-7);
  }
  for (long k = len; k < NMAX; k++) {
    snprintf(name, sizeof name, "%s n=%ld off=%ld untouched dx[%ld]", what, N, M, k);
    fz_check(name, DX[k], 0.0, 0.0);
  }
}

int main(void) {
  fz_fill(X0, NMAX, -1.0, 1.0);
  const long offs[] = {0, 1, 2, 3, 16};
  form = 0;
  N = 16;
  for (int k = 0; k < 5; k++) {
    M = offs[k];
    check("bfly", N + M);
  }
  form = 1;
  N = 12;
  for (int k = 0; k < 5; k++) {
    M = offs[k] == 16 ? 2 * N : offs[k];
    check("stage", 2 * N + M + 1);
  }
  form = 2;
  N = 40;
  for (long i = 0; i < N; i++) PERM[i] = (i % 3 == 0) ? i : (i * 7) % N;
  M = 0;
  check("swaps", N);
  return fz_finish();
}

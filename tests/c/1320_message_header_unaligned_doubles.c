// OPT: O0 O2
// IGNORE-O0: cannot-deduce-type ("conflicting uses are seen" at pack's memcpy of x[i] to msg + off + 8 i, and "an integer access to differentiable memory whose type is ambiguous" at unpack's `load i32` of the header): at -O0 the offset `off + 8 i` is one variable index from msg, so the stride-8 fold over msg lands the doubles' bytes on the int header and msg becomes Anything; -O1 and up split it into a constant GEP to msg + 9 and an index from there
// IGNORE-REF: the same error as at -O0 (--ad-before-opt differentiates the unoptimized IR, where the offset is one variable index from msg)
// An MPI-style message packed by hand: an int header (count, tag) and a type byte, then
// the doubles at unaligned offsets (memcpy into `unsigned char msg[]`), unpacked by a
// second function that reads the count back from the header. Interleaving a check word
// between the doubles (`int16_t` after each) is refused at every level (the same fold:
// the doubles and the words share residues). Oracles: analytic gradient (the moves are
// identities), central differences, forward = reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 5

__attribute__((noinline)) static size_t pack(unsigned char *msg, const double *x, int n, int tag) {
  size_t off = 0;
  memcpy(msg + off, &n, sizeof n), off += sizeof n;
  memcpy(msg + off, &tag, sizeof tag), off += sizeof tag;
  msg[off++] = 'd'; // a type byte: every double below is unaligned
  for (int i = 0; i < n; i++) memcpy(msg + off + i * sizeof(double), &x[i], sizeof x[i]);
  return off + n * sizeof(double);
}

__attribute__((noinline)) static int unpack(const unsigned char *msg, double *y) {
  int n;
  memcpy(&n, msg, sizeof n);
  size_t off = 2 * sizeof(int) + 1;
  for (int i = 0; i < n; i++) memcpy(&y[i], msg + off + i * sizeof(double), sizeof y[i]);
  return n;
}

double via_message(const double *x, int n) {
  unsigned char msg[256];
  double y[N];
  pack(msg, x, n, 77);
  int m = unpack(msg, y);
  double s = 0;
  for (int i = 0; i < m; i++) s += sin(y[i]) * (i + 1);
  return s;
}

static double X[N];
static int nn = N;
static double fa(void *p) { return via_message(p, nn); }

int main(void) {
  fz_seed(1320);
  fz_fill(X, N, -1, 1);
  double dx[N], g[N], want[N];
  fz_zero(dx, N);
  __enzyme_autodiff((void *)via_message, enzyme_dup, X, dx, enzyme_const, nn);
  for (int i = 0; i < N; i++) want[i] = cos(X[i]) * (i + 1);
  fz_check_arr("a message analytic", dx, want, N, 1e-12);
  fz_fd_grad(fa, X, X, N, g);
  fz_check_arr("a message fd", dx, g, N, 1e-6);
  {
    double v[N], t[N], x[N], dot = 0;
    fz_fill(v, N, -1, 1);
    memcpy(t, v, sizeof t);
    memcpy(x, X, sizeof x);
    double tan = __enzyme_fwddiff((void *)via_message, enzyme_dup, x, t, enzyme_const, nn);
    for (int i = 0; i < N; i++) dot += dx[i] * v[i];
    fz_check("forward = reverse . v", tan, dot, 1e-12);
  }

  return fz_finish();
}

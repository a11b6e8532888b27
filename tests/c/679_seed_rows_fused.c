// OPT: O0 O1 O2 O3
// Jacobian rows by one reverse call per seed row, the way ADBench's and Enzyme's BA
// harnesses assemble them (ba13, seed_fusion.rs): the transform fuses 2-4 calls of one
// function with the same primal arguments into one vector call (enzyme_width) when the
// rows cannot reach the primal inputs, statically or by a run-time test with the
// original calls as fallback. Cases:
//  A. a 2-trip seed loop (unrolled, then fused behind a run-time test), rows in a heap
//     buffer apart from x and p;
//  B. a 3-trip seed loop (width 3);
//  C. two explicit consecutive calls (the shape clang leaves after unrolling);
//  D. local arrays only (fused without a test);
//  E. the A loop with p inside row 1 (the memset of row 1 zeroes p before call 1):
//     the run-time test fails, the original order must be kept;
//  F. different primal x per call (not fused).
// Oracles: five-point finite differences of the primal for every entry (A-D, F), and
// for every case an unfused twin (a call to a noinline function writing a volatile
// between the calls, which stops fusion) on identical buffers.
#include "fz_test.h"
#include <stdlib.h>
#include <string.h>

extern void __enzyme_autodiff_v(void *, ...);

/* Differentiated: three outputs of x (3) and p (2), both sides of the sqrt. */
void f3(const double *x, const double *p, double *y) {
  double r2 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
  double t = sqrt(r2);
  double c = cos(t), s = sin(t);
  y[0] = p[0] * (x[0] * c + x[1] * s) / t;
  y[1] = p[1] * (x[1] * c - x[2] * s);
  y[2] = p[0] * p[1] * exp(-x[2]) * t;
}

static volatile int barrier_sink;
__attribute__((noinline)) static void barrier(void) { barrier_sink++; }

#define ROW 5 /* [dx(3), dp(2)] */

/* A (K = 2) and B (K = 3): the harness loop. */
#define SEED_LOOP(NAME, K, BARRIER)                                                      \
  __attribute__((noinline)) static void NAME(const double *x, const double *p,          \
                                             double *J) {                               \
    for (int r = 0; r < K; r++) {                                                       \
      double *row = J + ROW * r;                                                        \
      double y[3], dy[3] = {r == 0, r == 1, r == 2};                                    \
      memset(row, 0, sizeof(double) * ROW);                                             \
      BARRIER;                                                                          \
      __enzyme_autodiff_v((void *)f3, enzyme_dup, x, row, enzyme_dup, p, row + 3,       \
                          enzyme_dupnoneed, y, dy);                                     \
    }                                                                                   \
  }
SEED_LOOP(jac2, 2, (void)0)
SEED_LOOP(jac2_twin, 2, barrier())
SEED_LOOP(jac3, 3, (void)0)
SEED_LOOP(jac3_twin, 3, barrier())

/* C: two explicit calls; TWIN puts the barrier between them. */
#define TWO_CALLS(NAME, BARRIER)                                                         \
  __attribute__((noinline)) static void NAME(const double *x, const double *p,          \
                                             double *J) {                               \
    double y[3], d0[3] = {1, 0, 0}, d1[3] = {0, 1, 0};                                  \
    memset(J, 0, sizeof(double) * 2 * ROW);                                             \
    __enzyme_autodiff_v((void *)f3, enzyme_dup, x, J, enzyme_dup, p, J + 3,             \
                        enzyme_dupnoneed, y, d0);                                       \
    BARRIER;                                                                            \
    __enzyme_autodiff_v((void *)f3, enzyme_dup, x, J + ROW, enzyme_dup, p, J + ROW + 3, \
                        enzyme_dupnoneed, y, d1);                                       \
  }
TWO_CALLS(two, (void)0)
TWO_CALLS(two_twin, barrier())

/* D: everything in locals. */
__attribute__((noinline)) static void local_rows(const double *xin, const double *pin,
                                                 double *J) {
  double x[3], p[2], r0[ROW] = {0}, r1[ROW] = {0}, y[3];
  double d0[3] = {1, 0, 0}, d1[3] = {0, 0, 1};
  memcpy(x, xin, sizeof x);
  memcpy(p, pin, sizeof p);
  __enzyme_autodiff_v((void *)f3, enzyme_dup, x, r0, enzyme_dup, p, r0 + 3, enzyme_dupnoneed,
                      y, d0);
  __enzyme_autodiff_v((void *)f3, enzyme_dup, x, r1, enzyme_dup, p, r1 + 3, enzyme_dupnoneed,
                      y, d1);
  memcpy(J, r0, sizeof r0);
  memcpy(J + ROW, r1, sizeof r1);
}

/* F: a different x per call. */
__attribute__((noinline)) static void two_points(const double *x0, const double *x1,
                                                 const double *p, double *J) {
  double y[3], d0[3] = {1, 0, 0}, d1[3] = {1, 0, 0};
  memset(J, 0, sizeof(double) * 2 * ROW);
  __enzyme_autodiff_v((void *)f3, enzyme_dup, x0, J, enzyme_dup, p, J + 3, enzyme_dupnoneed,
                      y, d0);
  __enzyme_autodiff_v((void *)f3, enzyme_dup, x1, J + ROW, enzyme_dup, p, J + ROW + 3,
                      enzyme_dupnoneed, y, d1);
}

/* Finite differences of output `fd_r` w.r.t. one entry of fd_x / fd_p. */
static double fd_x[3], fd_p[2];
static int fd_r;
static double eval(void *unused) {
  (void)unused;
  double y[3];
  f3(fd_x, fd_p, y);
  return y[fd_r];
}

/* Row `out` of J (ROW entries) against finite differences at (x, p). */
static void check_row(const char *what, const double *J, int out, const double *x,
                      const double *p) {
  char name[96];
  memcpy(fd_x, x, sizeof fd_x);
  memcpy(fd_p, p, sizeof fd_p);
  fd_r = out;
  for (int i = 0; i < ROW; i++) {
    double *v = i < 3 ? &fd_x[i] : &fd_p[i - 3];
    snprintf(name, sizeof name, "%s d y%d / d %s%d", what, out, i < 3 ? "x" : "p",
             i < 3 ? i : i - 3);
    fz_check(name, J[i], fz_fd5_ptr(eval, 0, v), 1e-8);
  }
}

static void check_same(const char *what, const double *got, const double *want, int n) {
  char name[96];
  for (int i = 0; i < n; i++) {
    snprintf(name, sizeof name, "%s vs unfused [%d]", what, i);
    fz_check(name, got[i], want[i], 1e-13);
  }
}

int main(void) {
  const double x[3] = {0.7, -0.4, 0.3}, p[2] = {1.3, -0.8}, x1[3] = {-0.2, 0.9, 0.5};
  double *J = malloc(sizeof(double) * 3 * ROW), *T = malloc(sizeof(double) * 3 * ROW);

  jac2(x, p, J);
  jac2_twin(x, p, T);
  for (int r = 0; r < 2; r++) check_row("A", J + ROW * r, r, x, p);
  check_same("A", J, T, 2 * ROW);

  jac3(x, p, J);
  jac3_twin(x, p, T);
  for (int r = 0; r < 3; r++) check_row("B", J + ROW * r, r, x, p);
  check_same("B", J, T, 3 * ROW);

  two(x, p, J);
  two_twin(x, p, T);
  for (int r = 0; r < 2; r++) check_row("C", J + ROW * r, r, x, p);
  check_same("C", J, T, 2 * ROW);

  local_rows(x, p, J);
  check_row("D", J, 0, x, p);
  check_row("D", J + ROW, 2, x, p);

  two_points(x, x1, p, J);
  check_row("F", J, 0, x, p);
  check_row("F", J + ROW, 0, x1, p);

  /* E: p lives inside row 1, which the loop zeroes before call 1 (call 0 sees p, call 1
   * sees zeros). The fused path would run both lanes on zeros: the run-time test must
   * send this to the original calls. Same buffers for the twin. */
  double *B = calloc(4 * ROW, sizeof(double)), *C = calloc(4 * ROW, sizeof(double));
  memcpy(B + ROW + 3, p, sizeof(double) * 2);
  memcpy(C + ROW + 3, p, sizeof(double) * 2);
  jac2(x, B + ROW + 3, B);
  jac2_twin(x, C + ROW + 3, C);
  check_same("E", B, C, 2 * ROW);
  check_row("E row 0", B, 0, x, p); /* call 0 saw p (its row is not p's) */
  free(B);
  free(C);
  free(J);
  free(T);
  return fz_finish();
}

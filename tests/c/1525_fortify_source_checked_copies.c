// OPT: O2
// CFLAGS: -D_FORTIFY_SOURCE=2
// IGNORE-REF: run-time stop "ferrozyme: bytes of unknown type were copied (memcpy/memmove) and both the copy and the original carry a derivative or a pointer's shadow; they cannot be added without knowing the float type" at the copy out of the record: on unoptimized IR type analysis marks every offset of `Buf` (doubles read at run-time indices beside the trailing int) a conflict (tests/c/1526 is the shape at -O2)
// probe46: a program built with `-D_FORTIFY_SOURCE=2` (many distributions' default flags):
// glibc's headers make memcpy/memmove/memset of a run-time length into a destination of
// known size calls of `__memcpy_chk`/`__memmove_chk`/`__memset_chk`, which have no IR.
// They were "no derivative for `__memcpy_chk`" errors; the derivative's copy of the code now
// checks the length as the library does (`__chk_fail` on overflow) and copies, moves or
// clears with the intrinsics, whose shadows follow (fortify.rs). The copy out of the
// record (`memcpy(tmp + 3, b->v + 1, ...)`, a run-time length) stopped at run time with
// "bytes of unknown type were copied" even without fortification: type analysis carried
// the record's trailing `int` (merged with the doubles the loop reads at run-time indices
// into a conflict) past the end of `tmp`; a copy's facts are now bounded by the objects
// copied from and into (`calls::object_bytes_left`). Reverse and forward
// (dot-product identity) against central differences; a child process whose length
// exceeds the destination must still be stopped by glibc's check inside the derivative.
// (-O0 keeps no object sizes, so no checked calls: O2 only; O1 passed too.)
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

typedef struct { double v[8]; int n; } Buf;

__attribute__((noinline)) static double f(const double *x, int n) {
  /* a plain array: copied in, shifted in place, partly cleared */
  double *w = malloc(8 * sizeof(double));
  memcpy(w, x, n * sizeof(double));
  memmove(w + 1, w, (n - 1) * sizeof(double));
  memset(w + n - 2, 0, sizeof(double));
  /* a record with a trailing int, copied in and then out into a local array */
  Buf *b = malloc(sizeof *b);
  b->n = n;
  memcpy(b->v, x, n * sizeof(double));
  double tmp[8];
  for (int i = 0; i < 8; i++) tmp[i] = 1.0;
  memset(tmp + 1, 0, (n - 4) * sizeof(double));
  memcpy(tmp + 3, b->v + 1, (n - 3) * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++) s += tmp[i] * b->v[i] + sin(w[i]) * w[(i + 1) % n];
  free(b);
  free(w);
  return s;
}

static double x[8];
static int nn;
static double ev(void *c) { (void)c; return f(x, nn); }

int main(int argc, char **argv) {
  (void)argv;
  nn = 5 + argc; /* 6, unknown to the compiler */
  fz_seed(6);
  fz_fill(x, 8, -1, 1);
  double dx[8] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, nn);
  for (int i = 0; i < nn; i++) fz_check("dx", dx[i], fz_fd_ptr(ev, 0, &x[i]), 1e-6);
  double v[8] = {1, -0.5, 0.25, 2, 0.1, -1, 0, 0}, jv = 0;
  for (int i = 0; i < nn; i++) jv += v[i] * dx[i];
  fz_check("fwd", __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, nn), jv, 1e-12);

  /* n = 9 > 8 doubles: glibc's check stops the derivative (SIGABRT), as the primal */
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    double big[16] = {0}, dbig[16] = {0};
    __enzyme_autodiff((void *)f, enzyme_dup, big, dbig, enzyme_const, 8 + argc);
    _exit(0);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  fz_check("overflow stopped", WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT, 1, 0);
  return fz_finish();
}

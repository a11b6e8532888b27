// OPT: O0 O1 O2 O3
// Regression (lead, found by sweep14's review): the reverse of a memcpy/memmove/realloc of
// records that hold a pointer next to a double (`{double *p; double w}`) added the
// shadow's pointer slots as doubles (`__fz_memcpy_adj_f64` over the whole copy): the
// caller's shadow records came back with `p` doubled as a denormal bit pattern (or zero
// under -ffast-math's denormal flushing), so a second gradient call through the same
// shadow wrote adjoints to a wild address. Now only the float slots of each record move
// (`__fz_copy_adj_strided_f64`; reallocs byte for byte). Checked: analytic gradients, the
// shadow pointers unchanged after each call, and two calls in a row accumulating.
#include "fz_test.h"
#include <string.h>

typedef struct {
  double *p;
  double w;
} rec;

typedef struct {
  double a;
  int k;
  double b;
} mixed;


// A variable-length copy into a local array, then reads through the copied pointers.
__attribute__((noinline)) double through_copy(rec *in, int n) {
  double s0 = in[0].p[2] * in[0].w;
  rec tmp[8];
  memcpy(tmp, in, (size_t)n * sizeof(rec));
  double s = s0;
  for (int i = 0; i < n; i++)
    s += tmp[i].w * tmp[i].p[0] * tmp[i].p[1];
  return s;
}

// An overlapping move inside the caller's array (records shift down by one).
__attribute__((noinline)) double through_move(rec *in, int n) {
  memmove(in, in + 1, (size_t)(n - 1) * sizeof(rec));
  double s = 0;
  for (int i = 0; i < n - 1; i++)
    s += in[i].w * in[i].w * in[i].p[0];
  return s;
}

// A heap buffer of records grown by realloc, one record at a time.
__attribute__((noinline)) double through_realloc(const rec *in, int n) {
  rec *buf = NULL;
  double s = 0;
  for (int i = 0; i < n; i++) {
    buf = realloc(buf, (size_t)(i + 1) * sizeof(rec));
    buf[i] = in[i];
    s += buf[i].w * buf[i].p[1];
  }
  for (int i = 0; i < n; i++)
    s += buf[i].w * buf[0].p[0];
  free(buf);
  return s;
}

// Records {double, int, double}: 24 bytes, the int slot is not a double.
__attribute__((noinline)) double mixed_copy(const mixed *in, int n) {
  mixed tmp[6];
  memcpy(tmp, in, (size_t)n * sizeof(mixed));
  double s = 0;
  for (int i = 0; i < n; i++)
    s += tmp[i].a * tmp[i].b * tmp[i].k;
  return s;
}

static double A[3][3], DA[3][3];
static rec R[3], DR[3];

static void reset(int n) {
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 3; k++) {
      A[i][k] = 1 + i + 0.5 * k;
      DA[i][k] = 0;
    }
    R[i].p = A[i];
    R[i].w = 0.3 + i;
    DR[i].p = DA[i];
    DR[i].w = 0;
  }
}

static int pointers_kept(const char *what, int n) {
  int ok = 1;
  for (int i = 0; i < n; i++)
    ok &= fz_check(what, DR[i].p == DA[i] ? 1.0 : 0.0, 1.0, 0);
  return ok;
}

int main(int argc, char **argv) {
  (void)argv;
  int n = argc > 5 ? 2 : 3; /* not a constant for the compiler */

  // through_copy, twice: the second call must add the same gradient again.
  reset(n);
  for (int call = 1; call <= 2; call++) {
    __enzyme_autodiff((void *)through_copy, enzyme_dup, R, DR, enzyme_const, n);
    pointers_kept("copy: shadow pointer kept", n);
    for (int i = 0; i < n; i++) {
      double gw = A[i][0] * A[i][1] + (i == 0 ? A[0][2] : 0);
      fz_check("copy: dw", DR[i].w, call * gw, 1e-14);
      fz_check("copy: dp0", DA[i][0], call * R[i].w * A[i][1], 1e-14);
      fz_check("copy: dp1", DA[i][1], call * R[i].w * A[i][0], 1e-14);
      fz_check("copy: dp2", DA[i][2], call * (i == 0 ? R[0].w : 0), 1e-14);
    }
  }

  // through_move: after the move, record i holds the old record i + 1; the gradient goes
  // to the old records' slots (w of records 1..n-1) and their pointees.
  reset(n);
  double w_old[3];
  for (int i = 0; i < n; i++)
    w_old[i] = R[i].w;
  __enzyme_autodiff((void *)through_move, enzyme_dup, R, DR, enzyme_const, n);
  for (int i = 0; i < n - 1; i++)
    fz_check("move: shadow pointer moved with its record", DR[i].p == DA[i + 1] ? 1.0 : 0.0,
             1.0, 0);
  fz_check("move: dw of record 0 (overwritten)", DR[0].w, 0.0, 0);
  for (int i = 1; i < n; i++)
    fz_check("move: dp0", DA[i][0], w_old[i] * w_old[i], 1e-14);
  // The moved-from last slot (record n-1) is also the source of record n-2's copy: its w
  // adjoint arrives through the move.
  fz_check("move: dw of the last record", DR[n - 1].w, 2 * w_old[n - 1] * A[n - 1][0], 1e-14);

  // through_realloc.
  reset(n);
  __enzyme_autodiff((void *)through_realloc, enzyme_dup, R, DR, enzyme_const, n);
  pointers_kept("realloc: shadow pointer kept", n);
  double sw = 0;
  for (int i = 0; i < n; i++)
    sw += R[i].w;
  for (int i = 0; i < n; i++) {
    fz_check("realloc: dw", DR[i].w, A[i][1] + A[0][0], 1e-14);
    fz_check("realloc: dp1", DA[i][1], R[i].w, 1e-14);
  }
  fz_check("realloc: dp0 of record 0", DA[0][0], sw, 1e-14);

  // mixed_copy against its analytic gradient, the int slots untouched.
  mixed m[3], dm[3];
  for (int i = 0; i < n; i++) {
    m[i].a = 0.5 + i;
    m[i].b = 2.0 - 0.25 * i;
    m[i].k = i + 2;
    dm[i].a = dm[i].b = 0;
    dm[i].k = 1000 + i;
  }
  __enzyme_autodiff((void *)mixed_copy, enzyme_dup, m, dm, enzyme_const, n);
  for (int i = 0; i < n; i++) {
    fz_check("mixed: da", dm[i].a, m[i].b * m[i].k, 1e-14);
    fz_check("mixed: db", dm[i].b, m[i].a * m[i].k, 1e-14);
    fz_check("mixed: shadow int kept", dm[i].k, 1000 + i, 0);
  }
  return fz_finish();
}

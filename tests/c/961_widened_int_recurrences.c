// OPT: O0 O1 O2 O3
// Reversed recurrences over an `int` carried widened in `i64` (gmm24,
// reverse/recurrence.rs "Widened"): taken only where the primal's no-wrap facts say every
// rebuilt value keeps its signed value (`add nsw`, `trunc nsw`, `sext`), refused (kept
// modulo 2^w) otherwise. Edge cases for the signed rebuild: a negative start, a step of
// -1 per row, starts near INT_MAX and INT_MIN that never overflow, a triangle nested per
// point and a triangle whose rows run upwards with two increments per row; and near
// misses that must NOT be widened: an `unsigned` index that wraps past 0 on purpose, a
// `short` index (C's `t++` on a short converts back without a no-wrap fact), a `long`.
// 962 is this file at users' `-O2 -ffast-math` flags (vectorized, unrolled).
// Oracle: central finite differences for every input of every shape.
#include <limits.h>
#include "fz_test.h"

enum { D = 7, T = D * (D - 1) / 2, TX = D * (D + 1) + 8 };

/* t from -T up: l[t + T] is l[0 .. T - 1]. */
double neg_start(const double *l, const double *x, int d) {
  double s = 0;
  int t = -T;
  for (int c = 0; c < d; c++)
    for (int r = c + 1; r < d; r++) {
      s += sin(l[t + T] * x[c]) * x[r];
      t++;
    }
  return s;
}

/* t counts down one per row from T - 1. */
double step_down(const double *l, const double *x, int d) {
  double s = 0;
  int t = T - 1;
  for (int c = 0; c < d; c++)
    for (int r = c + 1; r < d; r++) {
      s += cos(l[t] + x[r]) * x[c];
      t--;
    }
  return s;
}

/* Near the top of int: t ends at INT_MAX exactly (no overflow). */
double near_max(const double *l, const double *x, int d) {
  double s = 0;
  int t = INT_MAX - T;
  for (int c = 0; c < d; c++)
    for (int r = c + 1; r < d; r++) {
      t++;
      s += l[t - (INT_MAX - T) - 1] * l[t - (INT_MAX - T) - 1] * x[c] * x[r];
    }
  return s;
}

/* Near the bottom: t starts at INT_MIN and steps up (upper triangle: rows below c). */
double near_min(const double *l, const double *x, int d) {
  double s = 0;
  int t = INT_MIN;
  for (int c = 0; c < d; c++)
    for (int r = 0; r < c; r++) {
      s += exp(0.3 * l[(long)t - INT_MIN]) * x[c] - x[r] * l[(long)t - INT_MIN];
      t++;
    }
  return s;
}

/* Per point, a triangle with two entries per row (t += 2 in two steps). */
double nested_two(const double *l, const double *x, int d, int np) {
  double s = 0;
  for (int p = 0; p < np; p++) {
    int t = p;
    for (int c = 0; c < d; c++)
      for (int r = c + 1; r < d; r++) {
        s += sin(l[t] * x[c] + 0.1 * p) * l[t + 1] * x[r];
        t++;
        t++;
      }
  }
  return s;
}

/* Near miss: unsigned, wraps past UINT_MAX to 0 on purpose; l[t + 4u] is l[0 ..]. */
double wraps(const double *l, const double *x, int d) {
  double s = 0;
  unsigned t = 0u - 4u;
  for (int c = 0; c < d; c++)
    for (int r = c + 1; r < d; r++) {
      s += sin(l[t + 4u] * x[r]) * x[c];
      t++;
    }
  return s;
}

/* Near miss: a short index (no no-wrap fact on its conversion back from int). */
double short_index(const double *l, const double *x, int d) {
  double s = 0;
  short t = -3;
  for (int c = 0; c < d; c++)
    for (int r = c + 1; r < d; r++) {
      s += cos(l[t + 3] * x[c]) * x[r];
      t++;
    }
  return s;
}

/* A long index (64 bits already: nothing to widen). */
double long_index(const double *l, const double *x, int d) {
  double s = 0;
  long t = -5;
  for (int c = 0; c < d; c++)
    for (int r = c + 1; r < d; r++) {
      s += l[t + 5] * x[c] * sin(x[r]);
      t++;
    }
  return s;
}

static double L[TX], X[D];
static int which;

static double eval(void *unused) {
  (void)unused;
  switch (which) {
  case 0: return neg_start(L, X, D);
  case 1: return step_down(L, X, D);
  case 2: return near_max(L, X, D);
  case 3: return near_min(L, X, D);
  case 4: return nested_two(L, X, D, 3);
  case 5: return wraps(L, X, D);
  case 6: return short_index(L, X, D);
  default: return long_index(L, X, D);
  }
}

int main(void) {
  fz_fill(L, TX, -1.0, 1.0);
  fz_fill(X, D, -1.0, 1.0);
  const char *names[] = {"neg_start", "step_down", "near_max", "near_min",
                         "nested_two", "wraps", "short_index", "long_index"};
  for (which = 0; which < 8; which++) {
    double dl[TX], dx[D], fl[TX], fx[D];
    fz_zero(dl, TX);
    fz_zero(dx, D);
    switch (which) {
    case 0: __enzyme_autodiff((void *)neg_start, L, dl, X, dx, D); break;
    case 1: __enzyme_autodiff((void *)step_down, L, dl, X, dx, D); break;
    case 2: __enzyme_autodiff((void *)near_max, L, dl, X, dx, D); break;
    case 3: __enzyme_autodiff((void *)near_min, L, dl, X, dx, D); break;
    case 4: __enzyme_autodiff((void *)nested_two, L, dl, X, dx, D, 3); break;
    case 5: __enzyme_autodiff((void *)wraps, L, dl, X, dx, D); break;
    case 6: __enzyme_autodiff((void *)short_index, L, dl, X, dx, D); break;
    default: __enzyme_autodiff((void *)long_index, L, dl, X, dx, D); break;
    }
    fz_fd_grad(eval, 0, L, TX, fl);
    fz_fd_grad(eval, 0, X, D, fx);
    char what[64];
    snprintf(what, sizeof what, "%s d/dl (finite differences)", names[which]);
    fz_check_arr(what, dl, fl, TX, 1e-6);
    snprintf(what, sizeof what, "%s d/dx (finite differences)", names[which]);
    fz_check_arr(what, dx, fx, D, 1e-6);
  }
  return fz_finish();
}

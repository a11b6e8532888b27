// OPT: O0 O1 O2 O3
// A loop-carried integer that is not a +1 counter but grows by an amount that does not
// depend on itself (GMM's packed-triangle index t: t += d - c - 1 per column) is stepped
// back in the reverse sweep (t = u - D, reverse/recurrence.rs) instead of cached once per
// column. Shapes it handles: the lower triangle (the inner loop's exit value, a join of
// "no row ran" and "rows ran"), the upper triangle (inner bound is the column counter),
// an extra +1 after the inner loop. Near misses that must keep the cache: a step read
// from memory, a multiplicative recurrence, and a column loop left by a data-dependent
// break (not only from its latch); a constant stride is kept on the tape by choice.
// per_point nests the triangle in a loop over points (GMM's shape).
// Oracle: central finite differences for every input of every shape.
#include "fz_test.h"

enum { D = 6, T = D * (D - 1) / 2, TX = D * (D + 1) / 2 };

/* GMM's Qtimesx triangle, summed nonlinearly so that every l[t] and x[c] is needed. */
double lower(const double *l, const double *x, int d) {
  double s = 0;
  int t = 0;
  for (int c = 0; c < d; c++)
    for (int r = c + 1; r < d; r++) {
      s += sin(l[t] * x[c]) * x[r];
      t++;
    }
  return s;
}

/* Upper triangle: rows 0..c-1 of column c. */
double upper(const double *l, const double *x, int d) {
  double s = 0;
  int t = 0;
  for (int c = 0; c < d; c++)
    for (int r = 0; r < c; r++) {
      s += l[t] * l[t] * x[c] * x[r];
      t++;
    }
  return s;
}

/* One more index per column after its rows (the diagonal kept in the same array). */
double with_diag(const double *l, const double *x, int d) {
  double s = 0;
  int t = 0;
  for (int c = 0; c < d; c++) {
    for (int r = c + 1; r < d; r++) {
      s += cos(l[t] + x[r]) * x[c];
      t++;
    }
    s += exp(l[t]) * x[c];
    t++;
  }
  return s;
}

/* Near miss: the step is read from memory (the reverse cannot recompute it without the
 * data; here the data is constant, but the rule does not look at loads). */
double data_step(const double *l, const double *x, const int *step, int d) {
  double s = 0;
  int t = 0;
  for (int c = 0; c < d; c++) {
    s += sin(l[t]) * x[c];
    t += step[c];
  }
  return s;
}

/* Near miss: t = 3t + 1 mod 7 is not t + D. */
double multiplicative(const double *l, const double *x, int d) {
  double s = 0;
  int t = 1;
  for (int c = 0; c < d; c++) {
    s += l[t] * l[t] * x[c];
    t = (3 * t + 1) % 7;
  }
  return s;
}

/* Near miss: the column loop is also left by a data-dependent break. */
double early_exit(const double *l, const double *x, int d) {
  double s = 0;
  int t = 0;
  for (int c = 0; c < d; c++) {
    for (int r = c + 1; r < d; r++) {
      s += sin(l[t] * x[r]);
      t++;
    }
    if (s > 1e30 * (x[c] * x[c] + 1)) break;
    s *= 1.0 + 0.1 * x[c];
  }
  return s;
}

/* A constant stride set before the loop (kept on the tape: cheaper there). */
double strided(const double *l, const double *x, int d, int s) {
  double r = 0;
  int t = 0;
  for (int c = 0; c < d; c++) {
    r += sin(l[t] * x[c]) * l[t];
    t += s;
  }
  return r;
}

/* GMM's nesting: the triangle per point, t reset per point (the slot restarts from each
 * point's last column). */
double per_point(const double *l, const double *x, int d, int np) {
  double s = 0;
  for (int p = 0; p < np; p++) {
    int t = 0;
    for (int c = 0; c < d; c++)
      for (int r = c + 1; r < d; r++) {
        s += cos(l[t] * x[c] + 0.1 * p) * x[r];
        t++;
      }
  }
  return s;
}

static double L[TX], X[D];
static const int STEP[D] = {1, 2, 1, 3, 1, 2};
static int which;

static double eval(void *unused) {
  (void)unused;
  switch (which) {
  case 0: return lower(L, X, D);
  case 1: return upper(L, X, D);
  case 2: return with_diag(L, X, D);
  case 3: return data_step(L, X, STEP, D);
  case 4: return multiplicative(L, X, D);
  case 5: return early_exit(L, X, D);
  case 6: return strided(L, X, D, 3);
  default: return per_point(L, X, D, 3);
  }
}

int main(void) {
  fz_fill(L, TX, -1.0, 1.0);
  fz_fill(X, D, -1.0, 1.0);
  const char *names[] = {"lower", "upper", "with_diag", "data_step", "multiplicative",
                         "early_exit", "strided", "per_point"};
  for (which = 0; which < 8; which++) {
    double dl[TX], dx[D], fl[TX], fx[D];
    fz_zero(dl, TX);
    fz_zero(dx, D);
    switch (which) {
    case 0: __enzyme_autodiff((void *)lower, L, dl, X, dx, D); break;
    case 1: __enzyme_autodiff((void *)upper, L, dl, X, dx, D); break;
    case 2: __enzyme_autodiff((void *)with_diag, L, dl, X, dx, D); break;
    case 3: __enzyme_autodiff((void *)data_step, L, dl, X, dx, enzyme_const, STEP, D); break;
    case 4: __enzyme_autodiff((void *)multiplicative, L, dl, X, dx, D); break;
    case 5: __enzyme_autodiff((void *)early_exit, L, dl, X, dx, D); break;
    case 6: __enzyme_autodiff((void *)strided, L, dl, X, dx, D, 3); break;
    default: __enzyme_autodiff((void *)per_point, L, dl, X, dx, D, 3); break;
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

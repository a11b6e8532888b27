// OPT: O0 O1 O2 O3
// A scratch buffer filled by one loop and read inside a triangular loop of the same
// outer iteration (GMM's fused formulation: y = x - mu, then row r of the packed lower
// triangle gathers y[c] for c < r), with integer divisions and remainders by constants
// in the index arithmetic. At -O2 and -O3 the reverse sweep recomputes y[c] from the
// fill's stored expression (reverse/forwarding.rs: the load's bound is the row counter,
// itself below the fill's bound; at -O1 the fill and the reads keep separate guards, the
// fill does not dominate the reads and they stay on the tape) and the
// divisions from their operands (reverse/values.rs, is_division_by_constant). Variants where
// forwarding would be wrong or is not provable keep the tape: the buffer partially
// overwritten between the fill and the reads, and rows running to another bound.
// Oracles: analytic (tri_lt, tri_le) and central finite differences (all).
#include "fz_test.h"

enum { P = 3, D = 6, NT = D * (D - 1) / 2, NL = D * (D + 1) / 2, NW = 9 };

/* GMM's row gather: z_r = q_r y_r + sum_{c<r} L[(r,c)] y_c with L packed column-wise
 * at c (2d - c - 1) / 2 + r - c - 1, f = sum_p sum_r z_r^2. */
double tri_lt(const double *x, const double *mu, const double *q, const double *l, int n,
              int d) {
  double y[d];
  double s = 0;
  for (int p = 0; p < n; p++) {
    for (int j = 0; j < d; j++) y[j] = x[p * d + j] - mu[j];
    for (int r = 0; r < d; r++) {
      double z = q[r] * y[r];
      for (int c = 0; c < r; c++) z += l[c * (2 * d - c - 1) / 2 + r - c - 1] * y[c];
      s += z * z;
    }
  }
  return s;
}

/* c <= r: the lower triangle with its diagonal, packed by rows at r (r + 1) / 2 + c. */
double tri_le(const double *x, const double *mu, const double *m, int n, int d) {
  double *y = malloc(sizeof(double) * d);
  double s = 0;
  for (int p = 0; p < n; p++) {
    for (int j = 0; j < d; j++) y[j] = x[p * d + j] - mu[j];
    for (int r = 0; r < d; r++) {
      double z = 0;
      for (int c = 0; c <= r; c++) z += m[r * (r + 1) / 2 + c] * y[c];
      s += z * z;
    }
  }
  free(y);
  return s;
}

/* Divisions and remainders by constants of negative and positive dividends, signed and
 * unsigned, in the indices of w; y[c] forwarded, y[(r + c) % 3] not (not a counter). */
double tri_divmod(const double *x, const double *mu, const double *w, int n, int d) {
  double y[d];
  double s = 0;
  for (int p = 0; p < n; p++) {
    for (int j = 0; j < d; j++) y[j] = x[p * d + j] * mu[j];
    for (int r = 0; r < d; r++)
      for (int c = 0; c < r; c++) {
        int a = 3 + (c - r) / 2;                /* sdiv of a negative dividend: 1..3 */
        int b = 2 + (c - r * p) % 3;            /* srem, negative: 0..2 */
        unsigned u = (unsigned)(c * 5 + r) / 4u % 4u; /* udiv, urem: 0..3 */
        s += w[a] * y[c] * sin(w[b + 4] * y[(r + c) % 3]) + w[u] * y[c] * y[c];
      }
  }
  return s;
}

/* y[0] is overwritten between the fill and the reads: the reads must not be recomputed
 * from the fill's expression. */
double overwritten(const double *x, const double *mu, const double *q, const double *l,
                   int n, int d) {
  double y[d];
  double s = 0;
  for (int p = 0; p < n; p++) {
    for (int j = 0; j < d; j++) y[j] = x[p * d + j] - mu[j];
    y[0] = mu[0] * x[p * d + 1];
    for (int r = 0; r < d; r++) {
      double z = q[r] * y[r];
      for (int c = 0; c < r; c++) z += l[c * (2 * d - c - 1) / 2 + r - c - 1] * y[c];
      s += z * z;
    }
  }
  return s;
}

/* Rows run to rows <= d (a run-time fact the transform cannot see): kept on the tape. */
double other_bound(const double *x, const double *mu, const double *l, int n, int d,
                   int rows) {
  double y[d];
  double s = 0;
  for (int p = 0; p < n; p++) {
    for (int j = 0; j < d; j++) y[j] = x[p * d + j] - mu[j];
    for (int r = 0; r < rows; r++) {
      double z = y[r];
      for (int c = 0; c < r; c++) z += l[c * (2 * rows - c - 1) / 2 + r - c - 1] * y[c];
      s += cos(z) * z;
    }
  }
  return s;
}

static double X[P * D], MU[D], Q[D], L[NT], M[NL], W[NW];
static int which;

static double eval(void *unused) {
  (void)unused;
  switch (which) {
  case 0: return tri_lt(X, MU, Q, L, P, D);
  case 1: return tri_le(X, MU, M, P, D);
  case 2: return tri_divmod(X, MU, W, P, D);
  case 3: return overwritten(X, MU, Q, L, P, D);
  default: return other_bound(X, MU, L, P, D, D - 1);
  }
}

/* Analytic gradient of tri_lt / tri_le: with z = A y (A lower triangular, diagonal q or
 * packed in m), dx_p = 2 A^T z, dmu = -sum_p 2 A^T z, dA(r,c) = sum_p 2 z_r y_c. */
static void check_analytic(int le, const double *dx, const double *dmu, const double *dq,
                           const double *da) {
  double A[D][D] = {{0}}, wdx[P * D] = {0}, wdmu[D] = {0}, wdq[D] = {0}, wda[NL] = {0};
  for (int r = 0; r < D; r++)
    for (int c = 0; c <= r; c++)
      A[r][c] = le ? M[r * (r + 1) / 2 + c]
                   : (c == r ? Q[r] : L[c * (2 * D - c - 1) / 2 + r - c - 1]);
  for (int p = 0; p < P; p++) {
    double y[D], z[D];
    for (int j = 0; j < D; j++) y[j] = X[p * D + j] - MU[j];
    for (int r = 0; r < D; r++) {
      z[r] = 0;
      for (int c = 0; c <= r; c++) z[r] += A[r][c] * y[c];
    }
    for (int c = 0; c < D; c++) {
      double g = 0;
      for (int r = c; r < D; r++) g += 2 * A[r][c] * z[r];
      wdx[p * D + c] = g;
      wdmu[c] -= g;
    }
    for (int r = 0; r < D; r++)
      for (int c = 0; c <= r; c++) {
        if (le) wda[r * (r + 1) / 2 + c] += 2 * z[r] * y[c];
        else if (c == r) wdq[r] += 2 * z[r] * y[r];
        else wda[c * (2 * D - c - 1) / 2 + r - c - 1] += 2 * z[r] * y[c];
      }
  }
  const char *nm = le ? "tri_le" : "tri_lt";
  char what[64];
  snprintf(what, sizeof what, "%s d/dx analytic", nm);
  fz_check_arr(what, dx, wdx, P * D, 1e-10);
  snprintf(what, sizeof what, "%s d/dmu analytic", nm);
  fz_check_arr(what, dmu, wdmu, D, 1e-10);
  if (le) {
    fz_check_arr("tri_le d/dm analytic", da, wda, NL, 1e-10);
  } else {
    fz_check_arr("tri_lt d/dq analytic", dq, wdq, D, 1e-10);
    fz_check_arr("tri_lt d/dl analytic", da, wda, NT, 1e-10);
  }
}

int main(void) {
  fz_fill(X, P * D, -1.0, 1.0);
  fz_fill(MU, D, -0.5, 0.5);
  fz_fill(Q, D, 0.5, 1.5);
  fz_fill(L, NT, -1.0, 1.0);
  fz_fill(M, NL, -1.0, 1.0);
  fz_fill(W, NW, -1.0, 1.0);
  const char *names[] = {"tri_lt", "tri_le", "tri_divmod", "overwritten", "other_bound"};
  for (which = 0; which < 5; which++) {
    double dx[P * D], dmu[D], dq[D], dl[NT], dm[NL], dw[NW], fx[P * D], fmu[D];
    fz_zero(dx, P * D);
    fz_zero(dmu, D);
    fz_zero(dq, D);
    fz_zero(dl, NT);
    fz_zero(dm, NL);
    fz_zero(dw, NW);
    switch (which) {
    case 0: __enzyme_autodiff((void *)tri_lt, X, dx, MU, dmu, Q, dq, L, dl, P, D); break;
    case 1: __enzyme_autodiff((void *)tri_le, X, dx, MU, dmu, M, dm, P, D); break;
    case 2: __enzyme_autodiff((void *)tri_divmod, X, dx, MU, dmu, W, dw, P, D); break;
    case 3: __enzyme_autodiff((void *)overwritten, X, dx, MU, dmu, Q, dq, L, dl, P, D); break;
    default:
      __enzyme_autodiff((void *)other_bound, X, dx, MU, dmu, L, dl, P, D, D - 1);
      break;
    }
    char what[64];
    fz_fd_grad(eval, 0, X, P * D, fx);
    fz_fd_grad(eval, 0, MU, D, fmu);
    snprintf(what, sizeof what, "%s d/dx (finite differences)", names[which]);
    fz_check_arr(what, dx, fx, P * D, 1e-6);
    snprintf(what, sizeof what, "%s d/dmu (finite differences)", names[which]);
    fz_check_arr(what, dmu, fmu, D, 1e-6);
    if (which == 0 || which == 3) {
      double fq[D], fl[NT];
      fz_fd_grad(eval, 0, Q, D, fq);
      fz_fd_grad(eval, 0, L, NT, fl);
      snprintf(what, sizeof what, "%s d/dq (finite differences)", names[which]);
      fz_check_arr(what, dq, fq, D, 1e-6);
      snprintf(what, sizeof what, "%s d/dl (finite differences)", names[which]);
      fz_check_arr(what, dl, fl, NT, 1e-6);
    }
    if (which == 4) {
      /* Rows to D-1 use the first (D-1)(D-2)/2 entries of L, packed for D-1 rows. */
      double fl[NT];
      fz_fd_grad(eval, 0, L, NT, fl);
      fz_check_arr("other_bound d/dl (finite differences)", dl, fl, NT, 1e-6);
    }
    if (which == 1) {
      double fm[NL];
      fz_fd_grad(eval, 0, M, NL, fm);
      fz_check_arr("tri_le d/dm (finite differences)", dm, fm, NL, 1e-6);
    }
    if (which == 2) {
      double fw[NW];
      fz_fd_grad(eval, 0, W, NW, fw);
      fz_check_arr("tri_divmod d/dw (finite differences)", dw, fw, NW, 1e-6);
    }
    if (which == 0) check_analytic(0, dx, dmu, dq, dl);
    if (which == 1) check_analytic(1, dx, dmu, dq, dm);
  }
  return fz_finish();
}

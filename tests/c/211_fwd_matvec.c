// OPT: O0 O1 O2 O3
// Forward mode through a dense matrix-vector product y = A x + b (row
// major, A m x n) with tangents in A, x and b: dy = dA x + A dx + db, and
// with A constant: dy = A dx. Oracles: that formula, directional FD; the
// dot-product identity against __enzyme_autodiff with dy seeded.
#include "fz_test.h"
#include "fz_modes.h"

#define M 5
#define NC 7

__attribute__((noinline)) void matvec(const double *A, const double *x, const double *b, double *y,
                                      int m, int n) {
  for (int i = 0; i < m; i++) {
    double s = b[i];
    for (int j = 0; j < n; j++) s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

static double Z[M * NC + NC + M]; /* A, x, b packed for the FD oracle */
static void e_mv(void *c, double *out) { (void)c; matvec(Z, Z + M * NC, Z + M * NC + NC, out, M, NC); }

int main(void) {
  fz_seed(211);
  const int NZ = M * NC + NC + M;
  double V[M * NC + NC + M], y[M], dy[M], want[M], fd[M], w[M], G[M * NC + NC + M];
  double *A = Z, *x = Z + M * NC, *b = x + NC, *dA = V, *dx = V + M * NC, *db = dx + NC;
  for (int t = 0; t < 3; t++) {
    fz_fill(Z, NZ, -1, 1);
    fz_fill(V, NZ, -1, 1);
    fz_fill(w, M, -1, 1);
    for (int i = 0; i < M; i++) dy[i] = -5.0;
    __enzyme_fwddiff_void((void *)matvec, enzyme_dup, A, dA, enzyme_dup, x, dx, enzyme_dup, b, db,
                          enzyme_dup, y, dy, enzyme_const, M, enzyme_const, NC);
    for (int i = 0; i < M; i++) {
      want[i] = db[i];
      for (int j = 0; j < NC; j++) want[i] += dA[i * NC + j] * x[j] + A[i * NC + j] * dx[j];
    }
    fz_fd_jvp(e_mv, NULL, Z, V, NZ, M, fd);
    fz_mcheck2_arr("dy (A, x, b active)", dy, want, 1e-12, fd, 1e-6, M);
    /* reverse, same activity: seed dy = w */
    double seed[M];
    memcpy(seed, w, sizeof w);
    fz_zero(G, NZ);
    __enzyme_autodiff((void *)matvec, enzyme_dup, A, G, enzyme_dup, x, G + M * NC, enzyme_dup, b,
                      G + M * NC + NC, enzyme_dup, y, seed, enzyme_const, M, enzyme_const, NC);
    fz_check_dot("matvec (analytic Jv, reverse)", V, G, NZ, want, w, M, 1e-10);
    fz_mcheck_dot("matvec", V, G, NZ, dy, w, M, 1e-10);

    /* A and b constant: dy = A dx */
    for (int i = 0; i < M; i++) dy[i] = 1e300;
    __enzyme_fwddiff_void((void *)matvec, enzyme_const, A, enzyme_dup, x, dx, enzyme_const, b,
                          enzyme_dup, y, dy, M, NC);
    for (int i = 0; i < M; i++) {
      want[i] = 0.0;
      for (int j = 0; j < NC; j++) want[i] += A[i * NC + j] * dx[j];
    }
    fz_mcheck_arr("dy (A, b const)", dy, want, M, 1e-12);
    double yref[M];
    matvec(A, x, b, yref, M, NC);
    fz_mcheck_arr("primal y", y, yref, M, 0.0);
  }
  return fz_finish();
}

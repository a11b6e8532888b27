// OPT: O0 O2
// Integer-indexed gathers and scatters with repeated indices, as particle-in-cell and
// sparse assembly codes write them: `y[idx[i]] += w[i] * x[i]` with the same target hit
// several times in a row and far apart, a gather `g[i] = x[idx[i]]` reading one input
// many times, a `float` accumulator fed `double` weights and `double` inputs (the
// products rounded to float before the sum), and a permutation written back in place
// through the index array (`x[idx[i]] = ...` after reading). Oracles: reverse mode
// against forward mode by the dot-product identity (<J v, s> = <v, J^T s>), forward mode
// and central differences (h = 1e-3 for the float sums; tolerance 1e-3), and the reverse
// adjoint of the scatter against its transpose written by hand.
#include "fz_test.h"
#include "fz_modes.h"

#define N 9
#define M 4
static const int IDX[N] = {2, 2, 0, 3, 2, 0, 1, 1, 2};
static const int PERM[M] = {3, 0, 1, 2};

void model(const double *x, const double *w, double *out) {
  double y[M] = {0};
  for (int i = 0; i < N; i++) y[IDX[i]] += w[i] * x[i];
  float acc[M] = {0};
  for (int i = 0; i < N; i++) acc[IDX[(i + 3) % N]] += (float)(w[(i * 5) % N] * y[IDX[i]]);
  double g[M];
  for (int j = 0; j < M; j++) g[j] = x[IDX[2 * j]] * (double)acc[j] + sin(y[j]);
  for (int j = 0; j < M; j++) y[PERM[j]] = g[j] + 0.5 * y[PERM[j]];
  for (int j = 0; j < M; j++) out[j] = y[j] * y[j] + g[(j + 1) % M];
}

/* the scatter alone, to check its transpose */
void scatter(const double *x, const double *w, double *y) {
  for (int j = 0; j < M; j++) y[j] = 0;
  for (int i = 0; i < N; i++) y[IDX[i]] += w[i] * x[i];
}

static double X[N], W[N], V[2 * N], SEED[M];
static double seeded(void) {
  double o[M];
  model(X, W, o);
  return fz_dot(o, SEED, M);
}
/* central differences with h = 1e-3: the float sums round at 6e-8 relative, which the
   usual h = 1e-6 would amplify to 0.1; the h^2 error stays near 1e-6 here */
static double fd_wide(double *xi) {
  double x0 = *xi, h = 1e-3;
  *xi = x0 + h;
  double fp = seeded();
  *xi = x0 - h;
  double fm = seeded();
  *xi = x0;
  return (fp - fm) / (2 * h);
}

int main(void) {
  fz_seed(1404);
  fz_fill(X, N, -0.7, 0.9);
  fz_fill(W, N, 0.2, 1.1);
  fz_fill(V, 2 * N, -1, 1);
  fz_fill(SEED, M, -1, 1);
  double o[M], s[M], gx[N] = {0}, gw[N] = {0};
  memcpy(s, SEED, sizeof s);
  __enzyme_autodiff((void *)model, enzyme_dup, X, gx, enzyme_dup, W, gw, enzyme_dup, o, s);
  /* forward along V = (vx, vw) */
  double to[M] = {0};
  __enzyme_fwddiff_void((void *)model, enzyme_dup, X, V, enzyme_dup, W, V + N, enzyme_dup, o, to);
  double lhs = fz_dot(to, SEED, M), rhs = fz_dot(gx, V, N) + fz_dot(gw, V + N, N);
  /* the float accumulator's adjoints and tangents round in float, in different orders */
  fz_mcheck("dot product <J v, s> = <v, J^T s>", lhs, rhs, 1e-6);
  for (int i = 0; i < N; i++) {
    char b[48];
    snprintf(b, sizeof b, "d/dx[%d]", i);
    fz_check(b, gx[i], fd_wide(&X[i]), 1e-3);
    snprintf(b, sizeof b, "d/dw[%d]", i);
    fz_check(b, gw[i], fd_wide(&W[i]), 1e-3);
  }
  /* the scatter's transpose: dx[i] = w[i] dy[IDX[i]], dw[i] = x[i] dy[IDX[i]] */
  double y[M], dy[M] = {1, -2, 0.5, 3}, dys[M], sx[N] = {0}, sw[N] = {0};
  memcpy(dys, dy, sizeof dy);
  __enzyme_autodiff((void *)scatter, enzyme_dup, X, sx, enzyme_dup, W, sw, enzyme_dup, y, dys);
  for (int i = 0; i < N; i++) {
    fz_check("scatter^T dx", sx[i], W[i] * dy[IDX[i]], 1e-15);
    fz_check("scatter^T dw", sw[i], X[i] * dy[IDX[i]], 1e-15);
  }
  return fz_finish();
}

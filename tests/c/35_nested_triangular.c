// OPT: O0 O1 O2 O3
// Nested loops and a triangular loop (j < i): a quadratic form over the
// strictly lower triangle, plus a lower-triangular forward substitution.
#include "fz_test.h"

double tri(const double *x, const double *C, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) s += C[i * n + j] * x[i] * x[j];
  return s;
}

/* solve L y = b (L lower triangular, unit-ish diagonal), write y */
void fwdsub(const double *L, const double *b, double *y, int n) {
  for (int i = 0; i < n; i++) {
    double s = b[i];
    for (int j = 0; j < i; j++) s -= L[i * n + j] * y[j];
    y[i] = s / L[i * n + i];
  }
}

#define N 9
struct ctx { double *L, *b, *w; };
static double eval(void *c) {
  struct ctx *k = c;
  double y[N];
  fwdsub(k->L, k->b, y, N);
  double r = 0;
  for (int i = 0; i < N; i++) r += k->w[i] * y[i];
  return r;
}

int main(void) {
  fz_seed(35);
  double x[N], dx[N], C[N * N], dC[N * N], want[N * N];
  fz_fill(x, N, -1, 1);
  fz_fill(C, N * N, -1, 1);
  fz_zero(dx, N);
  fz_zero(dC, N * N);
  __enzyme_autodiff((void *)tri, enzyme_dup, x, dx, enzyme_dup, C, dC, enzyme_const, N);
  for (int k = 0; k < N; k++) {
    double g = 0;
    for (int j = 0; j < k; j++) g += C[k * N + j] * x[j];
    for (int i = k + 1; i < N; i++) g += C[i * N + k] * x[i];
    want[k] = g;
  }
  fz_check_arr("dx", dx, want, N, 1e-10);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) want[i * N + j] = j < i ? x[i] * x[j] : 0.0;
  fz_check_arr("dC", dC, want, N * N, 1e-10);

  double L[N * N], dL[N * N], b[N], db[N], y[N], dy[N], w[N], fd[N * N];
  fz_fill(L, N * N, -0.3, 0.3);
  for (int i = 0; i < N; i++) L[i * N + i] = fz_uniform(1.0, 2.0);
  fz_fill(b, N, -1, 1);
  fz_fill(w, N, -1, 1);
  fz_zero(dL, N * N);
  fz_zero(db, N);
  memcpy(dy, w, sizeof dy);
  __enzyme_autodiff((void *)fwdsub, enzyme_dup, L, dL, enzyme_dup, b, db, enzyme_dup, y, dy,
                    enzyme_const, N);
  struct ctx c = {L, b, w};
  fz_fd_grad(eval, &c, b, N, fd);
  fz_check_arr("fwdsub db fd", db, fd, N, 1e-6);
  fz_fd_grad(eval, &c, L, N * N, fd);
  fz_check_arr("fwdsub dL fd", dL, fd, N * N, 1e-6);
  return fz_finish();
}

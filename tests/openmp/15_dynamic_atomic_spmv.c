// OMP_THREADS: 1 2
// OPT: O0 O2
// A sparse matrix-vector product in CSR form with `schedule(dynamic, 2)` (rows of
// different lengths), a transposed product scattering through the column indices with
// `omp atomic` (several threads add to one entry), a `critical` section updating two
// shared accumulators, `collapse(2)` over a dense block with a `reduction(+:)` of two
// variables, and `omp_get_num_threads` (inactive). Loss = sum of squares of the results.
// Reverse mode is checked against central finite differences and forward mode against
// reverse mode (the dot-product identity), at 1 and 2 threads.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 10
#define NB 4

static int rowptr[N + 1], colidx[4 * N];
static double vals[4 * N];

static void build_matrix(void) {
  int k = 0;
  for (int i = 0; i < N; i++) {
    rowptr[i] = k;
    int len = 1 + (i * 7) % 4; /* 1..4 entries */
    for (int j = 0; j < len; j++) {
      colidx[k] = (i + 3 * j) % N;
      vals[k] = 0.5 + 0.1 * ((i + j) % 5);
      k++;
    }
  }
  rowptr[N] = k;
}

double loss(const double *x, const double *w) {
  double y[N], z[N], acc = 0, acc2 = 0, block = 0, block2 = 0;
  for (int i = 0; i < N; i++) z[i] = 0;
#pragma omp parallel
  {
#pragma omp for schedule(dynamic, 2)
    for (int i = 0; i < N; i++) {
      double s = 0;
      for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += vals[k] * w[k] * x[colidx[k]];
      y[i] = tanh(s);
    }
#pragma omp for
    for (int i = 0; i < N; i++)
      for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
#pragma omp atomic
        z[colidx[k]] += vals[k] * y[i];
      }
#pragma omp for
    for (int i = 0; i < N; i++) {
      double t = z[i] * x[i];
#pragma omp critical
      {
        acc += t * t;
        acc2 += sin(t);
      }
    }
  }
#pragma omp parallel for collapse(2) reduction(+ : block, block2)
  for (int i = 0; i < NB; i++)
    for (int j = 0; j < NB; j++) {
      double a = x[i] * w[j] - y[j];
      block += a * a;
      block2 += x[i + j] * z[j];
    }
  return acc + 0.5 * acc2 + block + 0.1 * block2 * block2;
}

static double xs[N], ws[4 * N];
static double eval(void *ctx) {
  (void)ctx;
  return loss(xs, ws);
}

int main(void) {
  build_matrix();
  int nnz = rowptr[N];
  fz_seed(15);
  fz_fill(xs, N, -1, 1);
  fz_fill(ws, nnz, -1, 1);
  double dx[N], dw[4 * N], fx[N], fw[4 * N];
  fz_zero(dx, N);
  fz_zero(dw, nnz);
  __enzyme_autodiff((void *)loss, enzyme_dup, xs, dx, enzyme_dup, ws, dw);
  fz_fd_grad(eval, 0, xs, N, fx);
  fz_fd_grad(eval, 0, ws, nnz, fw);
  fz_check_arr("dloss/dx fd", dx, fx, N, 1e-6);
  fz_check_arr("dloss/dw fd", dw, fw, nnz, 1e-6);
  double vx[N], vw[4 * N], dot = 0;
  fz_fill(vx, N, -1, 1);
  fz_fill(vw, nnz, -1, 1);
  for (int i = 0; i < N; i++) dot += vx[i] * dx[i];
  for (int k = 0; k < nnz; k++) dot += vw[k] * dw[k];
  double tan = __enzyme_fwddiff((void *)loss, enzyme_dup, xs, vx, enzyme_dup, ws, vw);
  fz_check("forward . v = reverse . v", tan, dot, 1e-10);
  return fz_finish();
}

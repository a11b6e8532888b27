// OPT: O0 O1 O2 O3
// The loop shapes of the Rust GMM (branch gmmrust15) written in C: scratch buffers that
// hold a dangling non-null address when empty (Rust's empty `Vec`: the alignment, 8),
// pointers advanced by the loops instead of indices (slice iterators, `split_at`), loops
// unrolled by 4 (`#pragma clang loop unroll_count`: the unrolled loop's index and its
// `niter` step by 4) and a source loop stepping by 2. The loss is
//   f = sum_rows ln(1 + sum_j e^{w_j} (a_rj - m_j)^2 + t_r^2) + sum_j w_j^2,
//   t_r = sum_{c < r'} l_(r',c) y_r' y_c (the strictly lower triangle, column by column).
// Oracles: finite differences of every input; with no rows, dw = 2w exactly, dm = dl = 0.
#include <stdint.h>
#include "fz_test.h"

#define D 7
#define ROWS 9
#define NL (D * (D - 1) / 2)

static double *scratch(int d) {
  return d > 0 ? malloc(d * sizeof(double)) : (double *)(uintptr_t)8;
}

double walk(const double *w, const double *m, const double *l, const double *a, int d,
            int rows) {
  double *e = scratch(d);
  double *y = scratch(d);
  const double *pw = w;
  for (double *pe = e; pe != e + d; pe++, pw++) *pe = exp(*pw);
  double total = 0.0;
  for (int r = 0; r < rows; r++) {
    const double *row = a + r * d;
#pragma clang loop unroll_count(4)
    for (int j = 0; j < d; j++) y[j] = row[j] - m[j];
    double s = 0.0;
#pragma clang loop unroll_count(4)
    for (int j = 0; j < d; j++) s += e[j] * y[j] * y[j];
    double t = 0.0;
    const double *rest = l;
    for (int c = 0; c < d; c++) {
      const double *end = rest + (d - c - 1);
      const double *yr = y + c + 1;
      for (const double *p = rest; p != end; p++, yr++) t += *p * *yr * y[c];
      rest = end;
    }
    total += log(1.0 + s + t * t);
  }
  double sq = 0.0;
  for (int j = 0; j + 1 < d; j += 2) sq += w[j] * w[j] + w[j + 1] * w[j + 1];
  if (d % 2) sq += w[d - 1] * w[d - 1];
  if (d > 0) {
    free(e);
    free(y);
  }
  return total + sq;
}

static double W[D], M[D], L[NL], A[D * ROWS];
static int rows_now = ROWS;
static double eval(void *ctx) { (void)ctx; return walk(W, M, L, A, D, rows_now); }

int main(void) {
  fz_seed(770);
  fz_fill(W, D, -0.6, 0.6);
  fz_fill(M, D, -0.6, 0.6);
  fz_fill(L, NL, -0.6, 0.6);
  fz_fill(A, D * ROWS, -1, 1);
  double dW[D] = {0}, dM[D] = {0}, dL[NL] = {0}, fd[NL];
  __enzyme_autodiff((void *)walk, enzyme_dup, W, dW, enzyme_dup, M, dM, enzyme_dup, L, dL,
                    enzyme_const, A, enzyme_const, D, enzyme_const, ROWS);
  fz_fd_grad(eval, NULL, W, D, fd);
  fz_check_arr("dw fd", dW, fd, D, 1e-6);
  fz_fd_grad(eval, NULL, M, D, fd);
  fz_check_arr("dm fd", dM, fd, D, 1e-6);
  fz_fd_grad(eval, NULL, L, NL, fd);
  fz_check_arr("dl fd", dL, fd, NL, 1e-6);

  /* No rows: f = sum w^2. */
  double gW[D] = {0}, gM[D] = {0}, gL[NL] = {0}, want[D], zero[NL] = {0};
  __enzyme_autodiff((void *)walk, enzyme_dup, W, gW, enzyme_dup, M, gM, enzyme_dup, L, gL,
                    enzyme_const, A, enzyme_const, D, enzyme_const, 0);
  for (int j = 0; j < D; j++) want[j] = 2.0 * W[j];
  fz_check_arr("dw no rows", gW, want, D, 1e-14);
  fz_check_arr("dm no rows", gM, zero, D, 0.0);
  fz_check_arr("dl no rows", gL, zero, NL, 0.0);
  return fz_finish();
}

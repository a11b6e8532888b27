// OPT: O0 O2
// CFLAGS: -std=c++17
// A custom reverse-mode derivative registered the Enzyme way, with a tape: a 2x2 linear
// solve x = A^-1 b whose augmented forward pass solves and returns a tape holding the
// solution, and whose reverse pass computes lambda = A^-T xbar, adds lambda to bbar and
// -lambda x^T to Abar. Both registered functions count their calls: each must run once
// per gradient (the rule wins over differentiating the body). Oracle: finite
// differences of the primal, and the call counts.
#include "fz_cxx.h"
#include <cstdlib>

__attribute__((noinline)) void solve2(const double *A, const double *b, double *x) {
  double det = A[0] * A[3] - A[1] * A[2];
  x[0] = (b[0] * A[3] - A[1] * b[1]) / det;
  x[1] = (A[0] * b[1] - b[0] * A[2]) / det;
}

static int aug_calls = 0, rev_calls = 0;
void *aug_solve2(const double *A, const double *dA, const double *b, const double *db, double *x,
                 double *dx) {
  (void)dA;
  (void)db;
  (void)dx;
  aug_calls++;
  solve2(A, b, x);
  double *tape = (double *)malloc(6 * sizeof(double));
  tape[0] = x[0];
  tape[1] = x[1];
  for (int i = 0; i < 4; i++) tape[2 + i] = A[i];
  return tape;
}
void rev_solve2(const double *A, double *dA, const double *b, double *db, double *x, double *dx,
                void *tape_) {
  (void)A;
  (void)b;
  (void)x;
  rev_calls++;
  double *t = (double *)tape_;
  const double *At = t + 2;
  double lam[2], AT[4] = {At[0], At[2], At[1], At[3]};
  solve2(AT, dx, lam);  // lambda = A^-T xbar
  db[0] += lam[0];
  db[1] += lam[1];
  dA[0] -= lam[0] * t[0];
  dA[1] -= lam[0] * t[1];
  dA[2] -= lam[1] * t[0];
  dA[3] -= lam[1] * t[1];
  dx[0] = dx[1] = 0;
  free(tape_);
}
void *__enzyme_register_gradient_solve2[] = {(void *)solve2, (void *)aug_solve2, (void *)rev_solve2};

double loss(const double *A, const double *b) {
  double x[2];
  solve2(A, b, x);
  return x[0] * x[0] + 3 * x[1];
}

int main() {
  fz_seed(350);
  double A[4] = {2.0, 0.3, -0.4, 1.5}, b[2], dA[4] = {0, 0, 0, 0}, db[2] = {0, 0}, fd[4];
  fz_fill(b, 2, -1, 1);
  __enzyme_autodiff((void *)loss, enzyme_dup, A, dA, enzyme_dup, b, db);
  fz_check("aug calls", aug_calls, 1, 0);
  fz_check("rev calls", rev_calls, 1, 0);
  auto f = [&] { return loss(A, b); };
  fz_fd_grad_of(f, A, 4, fd);
  fz_check_arr("dA", dA, fd, 4, 1e-6);
  fz_fd_grad_of(f, b, 2, fd);
  fz_check_arr("db", db, fd, 2, 1e-6);
  return fz_finish();
}

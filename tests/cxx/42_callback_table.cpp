// OPT: O0 O2
// CFLAGS: -std=c++17
// A table of callbacks indexed at run time (a global array of function pointers, the
// index coming from data), as event or operator dispatch tables do. Oracle: finite
// differences.
#include "fz_cxx.h"
#include <cmath>

typedef double (*op_t)(double, double);
static double op_add(double a, double b) { return a + b; }
static double op_mul(double a, double b) { return a * b; }
static double op_pow(double a, double b) { return std::pow(std::fabs(a) + 1.0, b); }
static double op_hyp(double a, double b) { return std::hypot(a, b); }
op_t ops[4] = {op_add, op_mul, op_pow, op_hyp};

double eval_program(const int *code, int n, const double *x) {
  double acc = x[0];
  for (int i = 0; i < n; i++) acc = ops[code[i] & 3](acc, x[(i + 1) % 4]);
  return acc;
}

int main() {
  fz_seed(342);
  int code[6] = {1, 3, 0, 2, 1, 3};
  double x[4], dx[4], fd[4];
  fz_fill(x, 4, 0.2, 0.9);
  fz_zero(dx, 4);
  __enzyme_autodiff((void *)eval_program, enzyme_const, code, enzyme_const, 6, enzyme_dup, x, dx);
  fz_fd_grad_of([&] { return eval_program(code, 6, x); }, x, 4, fd);
  fz_check_arr("dx", dx, fd, 4, 1e-6);
  return fz_finish();
}

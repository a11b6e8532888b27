// OPT: O0 O2
// CFLAGS: -std=c++17
// References everywhere: output parameters by reference, const references, rvalue
// references with std::move, std::swap of doubles and of small structs, and a function
// returning a reference into an array. Oracle: finite differences.
#include "fz_cxx.h"
#include <utility>
#include <cmath>

struct Pair {
  double a, b;
};

void polar(const double &x, const double &y, double &r, double &t) {
  r = std::hypot(x, y);
  t = std::atan2(y, x);
}
double &pick(double *arr, int i) { return arr[i % 3]; }
double consume(Pair &&p) {
  Pair q = std::move(p);
  return q.a * q.b;
}

double model(const double *in) {
  double x = in[0], y = in[1], r, t;
  polar(x, y, r, t);
  double arr[3] = {in[2], in[3], r};
  std::swap(arr[0], arr[2]);
  pick(arr, 4) *= t;  // arr[1]
  Pair p{arr[0], arr[1]}, q{arr[2], in[0]};
  std::swap(p, q);
  return consume(std::move(p)) + consume(Pair{q.a, q.b}) + arr[1];
}

int main() {
  fz_seed(322);
  double in[4], din[4], fd[4];
  fz_fill(in, 4, 0.2, 1);
  fz_zero(din, 4);
  __enzyme_autodiff((void *)model, enzyme_dup, in, din);
  fz_fd_grad_of([&] { return model(in); }, in, 4, fd);
  fz_check_arr("din", din, fd, 4, 1e-6);
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// Dense linear algebra as a C++ user writes it without a library: a
// `std::vector<std::vector<double>>` matrix built inside the differentiated function
// (`assign`, `resize`, `push_back` of rows), Gaussian elimination with partial pivoting
// that exchanges whole rows with `std::swap` (the rows' buffers change places, not the
// values), back substitution into a `std::vector<double>`, and the objective
// c . A^-1 b. Oracle: the analytic gradient (d/dA = -A^-T c (A^-1 b)^T, d/db = A^-T c)
// computed from an independent elimination, and central finite differences.
#include "fz_cxx.h"
#include <cmath>
#include <utility>
#include <vector>

#define N 5
using Mat = std::vector<std::vector<double>>;

static std::vector<double> solve(Mat a, std::vector<double> b) {
  const int n = (int)a.size();
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++)
      if (std::fabs(a[i][k]) > std::fabs(a[p][k])) p = i;
    if (p != k) {
      std::swap(a[p], a[k]);
      std::swap(b[p], b[k]);
    }
    for (int i = k + 1; i < n; i++) {
      double f = a[i][k] / a[k][k];
      for (int j = k; j < n; j++) a[i][j] -= f * a[k][j];
      b[i] -= f * b[k];
    }
  }
  std::vector<double> x(n);
  for (int i = n - 1; i >= 0; i--) {
    double s = b[i];
    for (int j = i + 1; j < n; j++) s -= a[i][j] * x[j];
    x[i] = s / a[i][i];
  }
  return x;
}

double objective(const double *A, const double *b, const double *c) {
  Mat m;
  for (int i = 0; i < N; i++) {
    std::vector<double> row;
    row.assign(A + i * N, A + (i + 1) * N);
    m.push_back(row);
  }
  m.resize(N);
  std::vector<double> rhs(b, b + N);
  std::vector<double> x = solve(m, rhs);
  double f = 0;
  for (int i = 0; i < N; i++) f += c[i] * x[i];
  return f;
}

int main() {
  double A[N * N], b[N], c[N];
  fz_seed(134);
  fz_fill(A, N * N, -1, 1);
  fz_fill(b, N, -1, 1);
  fz_fill(c, N, -1, 1);
  double dA[N * N] = {0}, db[N] = {0};
  __enzyme_autodiff<void>((void *)objective, enzyme_dup, A, dA, enzyme_dup, b, db, enzyme_const, c);
  // analytic: x = A^-1 b, y = A^-T c; dA = -y x^T, db = y (the transpose solved as a new matrix)
  Mat m(N, std::vector<double>(N)), mt(N, std::vector<double>(N));
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) m[i][j] = A[i * N + j], mt[j][i] = A[i * N + j];
  std::vector<double> x = solve(m, std::vector<double>(b, b + N));
  std::vector<double> y = solve(mt, std::vector<double>(c, c + N));
  double wA[N * N], fd[N * N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) wA[i * N + j] = -y[i] * x[j];
  fz_check_arr("dA analytic", dA, wA, N * N, 1e-9);
  fz_check_arr("db analytic", db, y.data(), N, 1e-9);
  fz_fd_grad_of([&] { return objective(A, b, c); }, A, N * N, fd);
  fz_check_arr("dA fd", dA, fd, N * N, 1e-6);
  return fz_finish();
}

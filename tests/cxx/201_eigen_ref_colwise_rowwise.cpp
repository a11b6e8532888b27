// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// IGNORE-O0: Eigen's SSE helpers `pand`/`por` are functions at -O0 whose masks are arguments: "integer arithmetic on the bits of a floating-point value" (cxx/188 and 189's -O0 refusal); -O1..-O3 and the plugin pass
// IGNORE-REF: as at -O0
// Eigen reductions a data scientist writes over a design matrix (sweep23): the active
// data live in a raw row-major array seen through `Eigen::Map<Matrix<.., RowMajor>>`,
// passed to helpers taking `Eigen::Ref<const MatrixXd>`; the loss standardises the
// columns (`.colwise().mean()`, `.rowwise() - mean`, `.colwise().squaredNorm()`),
// takes the rows' norms (`.rowwise().norm()`), a `.colwise().maxCoeff()`-free soft
// maximum per column through `.array().exp()` and `.colwise().sum()`. Oracles: central
// finite differences of every entry, and the analytic gradient of the column-mean and
// row-norm parts alone (a second function).
#include "fz_cxx.h"
#include <Eigen/Dense>

constexpr int R = 6, C = 3;
using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

static double standardized_energy(const Eigen::Ref<const Eigen::MatrixXd> &x) {
  Eigen::RowVectorXd mean = x.colwise().mean();
  Eigen::MatrixXd centered = x.rowwise() - mean;
  Eigen::RowVectorXd var = centered.colwise().squaredNorm() / double(x.rows());
  double s = 0;
  for (int j = 0; j < x.cols(); j++) s += std::log(var[j] + 0.1);
  return s;
}

static double soft_max_cols(const Eigen::Ref<const Eigen::MatrixXd> &x) {
  Eigen::RowVectorXd lse = x.array().exp().colwise().sum().log();
  return lse.sum();
}

double loss(const double *raw, int rows, int cols) {
  Eigen::Map<const RowMat> x(raw, rows, cols);
  Eigen::MatrixXd xm = x; // column-major copy for the Ref helpers
  return standardized_energy(xm) + 0.5 * soft_max_cols(xm) + 0.1 * x.rowwise().norm().sum();
}

double simple(const double *raw, int rows, int cols) {
  Eigen::Map<const RowMat> x(raw, rows, cols);
  return x.colwise().mean().squaredNorm() + x.rowwise().norm().sum();
}

int main() {
  double raw[R * C], d[R * C] = {0}, ds[R * C] = {0};
  fz_seed(201);
  fz_fill(raw, R * C, -1.5, 1.5);
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, raw, d, enzyme_const, R, enzyme_const, C);
  __enzyme_autodiff<void>((void *)simple, enzyme_dup, raw, ds, enzyme_const, R, enzyme_const,
                          C);
  double want[R * C];
  for (int i = 0; i < R; i++) {
    double nrm = 0;
    for (int j = 0; j < C; j++) nrm += raw[i * C + j] * raw[i * C + j];
    nrm = std::sqrt(nrm);
    for (int j = 0; j < C; j++) {
      double mean = 0;
      for (int q = 0; q < R; q++) mean += raw[q * C + j];
      mean /= R;
      want[i * C + j] = 2 * mean / R + raw[i * C + j] / nrm;
    }
  }
  fz_check_arr("column means + row norms: analytic", ds, want, R * C, 1e-10);
  double fd[R * C];
  fz_fd_grad_of([&] { return loss(raw, R, C); }, raw, R * C, fd);
  fz_check_arr("standardised loss: FD", d, fd, R * C, 1e-6);
  return fz_finish();
}

// OPT: O0 O1 O2
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// Eigen with dynamic sizes (issue 16): MatrixXd / VectorXd products, transpose, norm and
// dot, differentiated in reverse and forward mode. At -O2 this crashed (a null shadow
// dereferenced) before the fix: InstCombine turns the copy of Transpose's matrix
// reference into `store i64 (ptrtoint %m)`, which the augmented forward pass did not
// mirror into the shadow object; the shadow Transpose then held a null pointer. At -O1
// the copy is `load i64` + `store i64` and `inttoptr` of the loaded integer (rejected
// before): `intptr.rs` makes them pointer loads and stores again before differentiation.
// Oracle: central finite differences of the whole function, and the dot-product
// identity between forward and reverse mode.
#include "fz_cxx.h"
#include <Eigen/Dense>

double f(const double *a, const double *vv, int n, int m) {
  Eigen::MatrixXd M(n, m);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) M(i, j) = a[i * m + j];
  Eigen::VectorXd v(m), w(n);
  for (int j = 0; j < m; j++) v(j) = vv[j];
  for (int i = 0; i < n; i++) w(i) = 1.0 + 0.5 * i;
  Eigen::VectorXd u = M.transpose() * (M * v);
  return u.norm() + v.dot(M.transpose() * w);
}

int main() {
  fz_seed(72);
  const int n = 4, m = 3;
  double a[n * m], v[m], da[n * m] = {0}, dv[m] = {0}, ta[n * m], tv[m];
  for (auto &x : a) x = fz_uniform(-1, 1);
  for (auto &x : v) x = fz_uniform(-1, 1);
  for (auto &x : ta) x = fz_uniform(-1, 1);
  for (auto &x : tv) x = fz_uniform(-1, 1);
  __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_dup, v, dv, enzyme_const, n,
                    enzyme_const, m);
  auto loss = [&]() { return f(a, v, n, m); };
  for (int k = 0; k < n * m; k++) fz_check("dA fd", da[k], fz_fd(loss, a[k]), 1e-6);
  for (int k = 0; k < m; k++) fz_check("dv fd", dv[k], fz_fd(loss, v[k]), 1e-6);
  double dir = __enzyme_fwddiff<double>((void *)f, enzyme_dup, a, ta, enzyme_dup, v, tv,
                                        enzyme_const, n, enzyme_const, m);
  double dot = 0;
  for (int k = 0; k < n * m; k++) dot += da[k] * ta[k];
  for (int k = 0; k < m; k++) dot += dv[k] * tv[k];
  fz_check("forward . t == reverse . t", dir, dot, 1e-10);
  return fz_finish();
}

// OPT: O0 O1 O2
// ARGS: -lopenblas
// A heat-conduction step over a rod whose cells carry material ids: the conductivity of
// each material comes from a constant `std::map<int, double>` looked up with `find` (the
// iterator kept in a local, `it->second` read through it), a lambda capturing the state
// by reference computes the fluxes, and `cblas_daxpy` adds a source term into the active
// temperatures. At -O0 the iterator's slot receives a pointer into the constant map (its
// own shadow under runtime activity) and libstdc++'s `operator->` reaches the node through
// four nested accessors; the analysis lost track of where the constant could be, took
// every pointer reloaded from a captured -O0 home for maybe the primal, and refused the
// `cblas_daxpy` call (difftest's C++ seed 7020: "a pointer that is constant or
// differentiable depending on the run is passed to `cblas_daxpy`"). Since cxx45 the
// pointers `operator->` returns given the iterator's slot count as aliases of the slot
// (common/runtime_activity/holders.rs), so only the slot holds the constant. Oracles: central
// differences of the temperatures and the source strength, forward mode against the
// gradient along a direction (dot product), the map unchanged.
#include "fz_cxx.h"
#include <cblas.h>
#include <cmath>
#include <map>

const int N = 6;

double step(double *temp, const double *src, const std::map<int, double> &kappa, const int *mat,
            int n, double strength) {
  double flux[N] = {0};
  auto conduct = [&](int i, double k) { return k * (temp[i + 1] - temp[i]); };
  for (int i = 0; i + 1 < n; i++) {
    double k = 0.1;  // unknown material: a default conductivity
    auto it = kappa.find(mat[i]);
    if (it != kappa.end()) k = it->second;
    flux[i] = conduct(i, k);
  }
  for (int i = 0; i < n; i++) {
    double in = i > 0 ? flux[i - 1] : 0.0;
    double out = i + 1 < n ? flux[i] : 0.0;
    temp[i] += 0.4 * (in - out) * std::exp(-0.1 * temp[i] * temp[i]);
  }
  cblas_daxpy(n, strength, src, 1, temp, 1);
  double e = 0;
  for (int i = 0; i < n; i++) e += temp[i] * temp[i] * (1.0 + 0.1 * i);
  return e;
}

extern int enzyme_dup, enzyme_const, enzyme_out;

int main() {
  std::map<int, double> kappa;
  kappa[1] = 0.8;
  kappa[2] = 0.35;
  kappa[4] = 1.2;
  const std::map<int, double> kappa0 = kappa;
  const int mat[N] = {1, 2, 2, 4, 3, 1};  // material 3 is not in the table
  const double src[N] = {0.2, -0.1, 0.05, 0.3, 0.0, -0.25};
  const double t0[N] = {0.9, 0.4, -0.3, 0.7, 1.1, -0.6};
  const double strength = 0.75;

  double t[N], dt[N];
  for (int i = 0; i < N; i++) t[i] = t0[i], dt[i] = 0;
  double ds = __enzyme_autodiff<double>((void *)step, enzyme_dup, t, dt, enzyme_const, src,
                                        enzyme_const, &kappa, enzyme_const, mat, enzyme_const, N,
                                        enzyme_out, strength);
  fz_check("enzyme_const map unchanged", kappa == kappa0 ? 1 : 0, 1, 0);

  double tx[N], sx = strength, fd[N];  // the point central differences perturb
  for (int i = 0; i < N; i++) tx[i] = t0[i];
  auto f = [&] {
    double w[N];
    for (int i = 0; i < N; i++) w[i] = tx[i];
    return step(w, src, kappa0, mat, N, sx);
  };
  fz_fd_grad_of(f, tx, N, fd);
  fz_check_arr("d/dtemp finite differences", dt, fd, N, 1e-6);
  fz_check("d/dstrength finite differences", ds, fz_fd(f, sx), 1e-6);

  // Forward mode along a direction: the tangent equals <gradient, direction>.
  double v[N] = {0.3, -0.2, 0.5, 0.1, -0.4, 0.25}, vs = 0.6;
  double t2[N], dt2[N];
  for (int i = 0; i < N; i++) t2[i] = t0[i], dt2[i] = v[i];
  double tan = __enzyme_fwddiff<double>((void *)step, enzyme_dup, t2, dt2, enzyme_const, src,
                                        enzyme_const, &kappa, enzyme_const, mat, enzyme_const, N,
                                        strength, vs);
  double dot = ds * vs;
  for (int i = 0; i < N; i++) dot += dt[i] * v[i];
  fz_check("forward tangent = <gradient, direction>", tan, dot, 1e-9);
  fz_check("enzyme_const map unchanged after forward", kappa == kappa0 ? 1 : 0, 1, 0);
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// A C++ class whose method writes its outputs into a buffer, differentiated as Enzyme's
// users do with the outputs passed as `enzyme_dupnoneed, nullptr, adjoint` (sweep19): a
// static member function as the entry point, calling a const member function of an
// `enzyme_const` object, and a free wrapper around a non-static method. Reverse mode
// against finite differences of the weighted outputs; forward mode (nullptr primal
// outputs too) against finite differences along a direction and the dot-product identity
// <J v, w> = <v, J^T w>.
#include "fz_cxx.h"
#include <cmath>
#include <vector>

class Chain {
 public:
  Chain(double k, double rest) : k_(k), rest_(rest) {}
  // Spring energies and a bending term per link of n points.
  void link_terms(double *out, const double *x, int n) const {
    for (int i = 0; i + 1 < n; i++) {
      double e = x[i + 1] - x[i] - rest_;
      double bend = i + 2 < n ? x[i + 2] - 2 * x[i + 1] + x[i] : 0.0;
      out[i] = 0.5 * k_ * e * e + std::sin(x[i]) * bend;
    }
  }
  static void entry(const Chain *c, double *out, const double *x, int n) {
    c->link_terms(out, x, n);
  }

 private:
  double k_, rest_;
};

void wrapper(const Chain *c, double *out, const double *x, int n) { c->link_terms(out, x, n); }

enum { N = 6 };

using Entry = void (*)(const Chain *, double *, const double *, int);

// The entry point is a template argument, so each hook call names its function.
template <Entry F, class L>
void check(const Chain &chain, double *x, const double *w, const double *fd, L &weighted) {
  double wbar[N - 1], dx[N] = {0};
  for (int i = 0; i < N - 1; i++) wbar[i] = w[i];
  __enzyme_autodiff<void>((void *)F, enzyme_const, &chain, enzyme_dupnoneed, nullptr, wbar, enzyme_dup,
                          x, dx, enzyme_const, (int)N);
  fz_check_arr("J^T w vs FD", dx, fd, N, 1e-6);
  double v[N] = {0.3, -1.0, 0.5, 2.0, -0.7, 1.1}, jv[N - 1] = {0};
  __enzyme_fwddiff<void>((void *)F, enzyme_const, &chain, enzyme_dupnoneed, nullptr, jv, enzyme_dup, x,
                         v, enzyme_const, (int)N);
  double lhs = 0, rhs = 0;
  for (int i = 0; i < N - 1; i++) lhs += jv[i] * w[i];
  for (int i = 0; i < N; i++) rhs += v[i] * dx[i];
  fz_check("<J v, w> = <v, J^T w>", lhs, rhs, 1e-12);
  fz_check("<J v, w> vs FD", lhs, fz_fd_dir_of(weighted, x, v, N), 1e-6);
}

int main() {
  Chain chain(3.5, 0.75);
  double x[N] = {0.1, 0.9, 1.7, 2.2, 3.1, 3.9};
  double w[N - 1] = {1.0, -0.5, 2.0, 0.25, -1.5};
  auto weighted = [&]() {
    double out[N - 1];
    chain.link_terms(out, x, N);
    double s = 0;
    for (int i = 0; i < N - 1; i++) s += w[i] * out[i];
    return s;
  };
  double fd[N];
  fz_fd_grad_of(weighted, x, N, fd);
  check<&Chain::entry>(chain, x, w, fd, weighted);
  check<wrapper>(chain, x, w, fd, weighted);
  return fz_finish();
}

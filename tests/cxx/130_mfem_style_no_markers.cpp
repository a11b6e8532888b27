// OPT: O0 O1 O2 O3
// The call shapes of MFEM's Enzyme unit tests and similar C++ users: no activity markers
// at all (pointer arguments are duplicated by default), a function *template*
// instantiation passed directly as the first argument (`square<Vec>`, no `(void *)`
// cast), the output as a `double &` whose shadow is the seed, a small user vector class
// with `operator[]` and a `std::vector<double>` used the same way, and forward mode
// through `__enzyme_fwddiff<void>` on the same template. Oracle: analytic derivatives
// (d sum v_i^2 * c_i = 2 c_i v_i) and central finite differences.
#include "fz_cxx.h"
#include <vector>

// MFEM's general/enzyme.hpp declares the entry points over any argument list (the
// `void *` overloads of fz_cxx.h stay available; these take the function itself).
template <typename return_type, typename... Args>
return_type __enzyme_autodiff(Args...);
template <typename return_type, typename... Args>
return_type __enzyme_fwddiff(Args...);

struct Vec {
  double data[4];
  explicit Vec(int) : data{0, 0, 0, 0} {}
  double &operator[](int i) { return data[i]; }
  const double &operator[](int i) const { return data[i]; }
  int size() const { return 4; }
};

template <typename VectorT>
void square(const VectorT &v, double &y) {
  for (int i = 0; i < (int)v.size(); i++) y += (i + 1) * v[i] * v[i];
}

template <typename VectorT>
void softplus_norm(const VectorT &v, double &y) {
  double s = 0;
  for (int i = 0; i < (int)v.size(); i++) s += std::log1p(std::exp(v[i]));
  y = std::sqrt(s);
}

template <typename VectorT>
void dsquare(const VectorT &v, double &y, VectorT &dydv) {
  double seed = 1.0;
  __enzyme_autodiff<void>(square<VectorT>, &v, &dydv, &y, &seed);
}

template <typename VectorT>
void check_type(const char *name) {
  VectorT v(4), dv(4);
  v[0] = 2.0, v[1] = 3.0, v[2] = 1.0, v[3] = 7.0;
  double y = 0;
  dsquare(v, y, dv);
  char b[64];
  for (int i = 0; i < 4; i++) {
    snprintf(b, sizeof b, "%s square d%d", name, i);
    fz_check(b, dv[i], 2.0 * (i + 1) * v[i], 1e-14);
  }
  snprintf(b, sizeof b, "%s square primal", name);
  fz_check(b, y, 4 + 18 + 3 + 196, 1e-14);

  VectorT g(4);
  double z = 0, dz = 1.0;
  __enzyme_autodiff<void>(softplus_norm<VectorT>, &v, &g, &z, &dz);
  double s = 0;
  for (int i = 0; i < 4; i++) s += std::log1p(std::exp(v[i]));
  for (int i = 0; i < 4; i++) {
    snprintf(b, sizeof b, "%s softplus d%d", name, i);
    double sig = 1 / (1 + std::exp(-v[i]));
    fz_check(b, g[i], sig / (2 * std::sqrt(s)), 1e-13);
    double fd = fz_fd(
        [&] {
          double r = 0;
          softplus_norm(v, r);
          return r;
        },
        v[i]);
    fz_check(b, g[i], fd, 1e-6);
  }

  // forward: direction t, y' = sum (i+1) 2 v_i t_i
  VectorT t(4);
  for (int i = 0; i < 4; i++) t[i] = 0.5 - 0.25 * i;
  double y2 = 0, dy2 = 0;
  __enzyme_fwddiff<void>(square<VectorT>, &v, &t, &y2, &dy2);
  double want = 0;
  for (int i = 0; i < 4; i++) want += 2.0 * (i + 1) * v[i] * t[i];
  snprintf(b, sizeof b, "%s forward", name);
  fz_check(b, dy2, want, 1e-14);
}

int main() {
  check_type<Vec>("Vec");
  check_type<std::vector<double>>("std::vector");
  return fz_finish();
}

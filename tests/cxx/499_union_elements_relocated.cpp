// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// VARIANTS: all
// cxx43: containers whose elements hold a union (a double in some elements, an integer
// in others at the same bytes), grown past their capacity so the elements are
// relocated with a byte copy: `std::vector<std::variant<int, double>>` (cxx/498's
// class: the `int` alternative first), `std::variant<long, short, double>`,
// `std::variant<int, float>` (float adjoints in the union's bytes), a tagged C union in a
// struct, and a `std::deque` of variants (no relocation, a regression check). Through `--ad-before-opt` type analysis took the relocated bytes for integers
// (the conflict met in the new element's pointer was not sent back to the buffer) and
// the moved elements lost their adjoints, silently. Oracles: central differences,
// forward = reverse (each input's tangent against the gradient).
#include <cmath>
#include <deque>
#include <variant>
#include <vector>
#include "fz_cxx.h"

using IV = std::variant<int, double>;
using LFD = std::variant<long, short, double>;
struct Tagged {
  int tag;
  union {
    long i;
    double d;
  } u;
};

// Each loop grows its vector from empty, so the early elements are moved three times.
static double variants(const double *x, int n) {
  std::vector<IV> v;
  for (int i = 0; i < n; i++) {
    if (x[i] > 0) v.emplace_back(x[i] * x[(i + 1) % n]);
    else v.emplace_back(i);
  }
  double e = 0;
  for (auto &a : v) e += std::holds_alternative<double>(a) ? std::get<double>(a) : 0.5 * std::get<int>(a);
  return e;
}
static double three_kinds(const double *x, int n) {
  std::vector<LFD> v;
  for (int i = 0; i < n; i++) {
    if (i % 3 == 0) v.emplace_back(std::sin(x[i]));
    else if (i % 3 == 1) v.emplace_back(long(i));
    else v.emplace_back(short(i));
  }
  double e = 0;
  for (auto &a : v) {
    if (auto *d = std::get_if<double>(&a)) e += 2 * *d;
    else if (auto *f = std::get_if<short>(&a)) e += *f;
    else e += std::get<long>(a);
  }
  return e;
}
// Each float element is 2 * float(x[i]): its derivative is exactly 2 (analytic oracle;
// finite differences of float-rounded values are too noisy).
static double floats(const double *x, int n) {
  std::vector<std::variant<int, float>> v;
  for (int i = 0; i < n; i++) {
    if (i % 2) v.emplace_back(float(x[i]));
    else v.emplace_back(i);
  }
  double e = 0;
  for (auto &a : v)
    if (auto *f = std::get_if<float>(&a)) e += 2.0 * *f;
  return e;
}
static double tagged(const double *x, int n) {
  std::vector<Tagged> v;
  for (int i = 0; i < n; i++) {
    Tagged t;
    if (x[i] < 1.0) {
      t.tag = 1;
      t.u.d = std::exp(0.5 * x[i]);
    } else {
      t.tag = 0;
      t.u.i = 3 * i;
    }
    v.push_back(t);
  }
  double e = 0;
  for (const Tagged &t : v) e += t.tag ? t.u.d * t.u.d : double(t.u.i);
  return e;
}
static double queued(const double *x, int n) {
  std::deque<IV> q;
  for (int i = 0; i < n; i++) {
    if (i % 2) q.emplace_front(x[i] / (1 + x[i] * x[i]));
    else q.emplace_back(i);
  }
  double e = 0;
  for (auto &a : q)
    if (auto *d = std::get_if<double>(&a)) e += *d;
  return e;
}
double model(const double *x, int n) {
  return variants(x, n) + three_kinds(x, n) + tagged(x, n) + 0.5 * queued(x, n);
}
int main() {
  const int n = 9;
  double x[n] = {0.3, -1.2, 0.7, 2.1, -0.4, 1.5, -0.9, 0.25, 1.1}, dx[n] = {0};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  auto L = [&] { return model(x, n); };
  for (int i = 0; i < n; i++) fz_check("relocated unions", dx[i], fz_fd(L, x[i]), 1e-6);
  double df[n] = {0};
  __enzyme_autodiff<void>((void *)floats, enzyme_dup, x, df, enzyme_const, n);
  for (int i = 0; i < n; i++) fz_check("relocated float alternative", df[i], i % 2 ? 2.0 : 0.0, 1e-12);
  for (int i = 0; i < n; i++) {
    double e[n] = {0};
    e[i] = 1;
    fz_check("fwd relocated unions", __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, e, enzyme_const, n), dx[i], 1e-10);
  }
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// A quadrature function differentiated the way MFEM's Enzyme backend calls Enzyme:
// a captureless wrapper taking the functor as a constant, the primal arguments packed in
// a std::tuple and expanded with an index sequence, `enzyme_dup, &args..., 
// enzyme_interleave, &shadows..., enzyme_runtime_activity` through the templated
// `__enzyme_fwddiff<void>` of <enzyme/enzyme>; and the reverse mode of the same call.
// Oracle: analytic tangents and adjoints of a hyperelastic-like flux.
#include "fz_cxx.h"
#include <enzyme/enzyme>
#include <tuple>
#include <utility>

extern int enzyme_dup, enzyme_const, enzyme_interleave, enzyme_runtime_activity;

struct Mat2 {
  double a[4];
};

struct NeoHookean {
  double mu, lambda;
  // flux = mu * F + lambda * log(det F) * F^{-T} ; energy-ish scalar in w
  void operator()(const Mat2 &F, Mat2 &P, double &w) const {
    double det = F.a[0] * F.a[3] - F.a[1] * F.a[2];
    double ld = std::log(det);
    double invT[4] = {F.a[3] / det, -F.a[2] / det, -F.a[1] / det, F.a[0] / det};
    for (int i = 0; i < 4; i++) P.a[i] = mu * F.a[i] + lambda * ld * invT[i];
    w = 0.5 * mu * (F.a[0] * F.a[0] + F.a[1] * F.a[1] + F.a[2] * F.a[2] + F.a[3] * F.a[3]) +
        0.5 * lambda * ld * ld;
  }
};

template <typename Q, typename... A> void qwrap(const Q *q, A &...a) { (*q)(a...); }

template <typename Q, typename Tup, std::size_t... I>
void fwd_apply(const Q &q, Tup &args, Tup &dargs, std::index_sequence<I...>) {
  using W = void (*)(const Q *, std::tuple_element_t<I, Tup> &...);
  W w = &qwrap<Q, std::tuple_element_t<I, Tup>...>;
  __enzyme_fwddiff<void>((void *)w, enzyme_const, &q, enzyme_dup, &std::get<I>(args)...,
                         enzyme_interleave, &std::get<I>(dargs)..., enzyme_runtime_activity);
}
template <typename Q, typename Tup, std::size_t... I>
void rev_apply(const Q &q, Tup &args, Tup &bargs, std::index_sequence<I...>) {
  using W = void (*)(const Q *, std::tuple_element_t<I, Tup> &...);
  W w = &qwrap<Q, std::tuple_element_t<I, Tup>...>;
  __enzyme_autodiff<void>((void *)w, enzyme_const, &q, enzyme_dup, &std::get<I>(args)...,
                          enzyme_interleave, &std::get<I>(bargs)...);
}

int main() {
  NeoHookean q{0.8, 1.3};
  using Tup = std::tuple<Mat2, Mat2, double>;
  Tup args{Mat2{{1.2, 0.1, -0.2, 0.9}}, Mat2{}, 0.0};
  Tup dargs{Mat2{{0.3, -0.5, 0.2, 0.7}}, Mat2{}, 0.0};
  fwd_apply(q, args, dargs, std::make_index_sequence<3>{});
  // finite differences of the primal along dF
  auto eval = [&](double h, Mat2 &P, double &w) {
    Mat2 F = std::get<0>(args);
    for (int i = 0; i < 4; i++) F.a[i] += h * std::get<0>(dargs).a[i];
    q(F, P, w);
  };
  const double h = 1e-6;
  Mat2 Pp, Pm;
  double wp, wm;
  eval(h, Pp, wp);
  eval(-h, Pm, wm);
  for (int i = 0; i < 4; i++)
    fz_check("tangent of P", std::get<1>(dargs).a[i], (Pp.a[i] - Pm.a[i]) / (2 * h), 1e-6);
  fz_check("tangent of w", std::get<2>(dargs), (wp - wm) / (2 * h), 1e-6);
  // reverse: seed w only; dF = dw/dF = mu F + lambda log(det) F^{-T}  (= P)
  Tup bargs{Mat2{}, Mat2{}, 1.0};
  rev_apply(q, args, bargs, std::make_index_sequence<3>{});
  const Mat2 &P = std::get<1>(args);
  for (int i = 0; i < 4; i++) fz_check("adjoint dw/dF = P", std::get<0>(bargs).a[i], P.a[i], 1e-12);
  return fz_finish();
}

// OPT: O0 O2
// CFLAGS: -std=c++20
// `std::mdspan`-like views as users hand-write them before C++23: a `View<T, Rank,
// Layout>` template holding a pointer, extents and strides (row-major and column-major
// layout policies as tag types with a static `offset`), `transposed()` and `sub()`
// (a strided sub-block) returning new views over the same memory, a templated `matmul`
// kernel writing through a view into a local buffer, and a 3-D view over a `std::vector`
// of the active parameters reduced with a `std::span` of weights. Oracle: the analytic
// gradient of the trace term, central differences, forward/reverse dot products, and the
// `enzyme_const` weights left as they were (cxx35: at -O0 the reverse sweep added their
// adjoints into them, and the gradient read after that was wrong).
#include "fz_cxx.h"
#include <array>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

struct RowMajor {
  template <std::size_t R>
  static std::array<std::ptrdiff_t, R> strides(const std::array<std::ptrdiff_t, R> &e) {
    std::array<std::ptrdiff_t, R> s{};
    std::ptrdiff_t k = 1;
    for (std::size_t d = R; d-- > 0;) {
      s[d] = k;
      k *= e[d];
    }
    return s;
  }
};

struct ColMajor {
  template <std::size_t R>
  static std::array<std::ptrdiff_t, R> strides(const std::array<std::ptrdiff_t, R> &e) {
    std::array<std::ptrdiff_t, R> s{};
    std::ptrdiff_t k = 1;
    for (std::size_t d = 0; d < R; d++) {
      s[d] = k;
      k *= e[d];
    }
    return s;
  }
};

template <typename T, std::size_t R>
struct View {
  T *data;
  std::array<std::ptrdiff_t, R> ext, str;

  template <typename Layout>
  static View make(T *p, std::array<std::ptrdiff_t, R> e, Layout) {
    return View{p, e, Layout::template strides<R>(e)};
  }
  template <typename... I>
  T &operator()(I... i) const {
    std::array<std::ptrdiff_t, R> idx{std::ptrdiff_t(i)...};
    std::ptrdiff_t off = 0;
    for (std::size_t d = 0; d < R; d++) off += idx[d] * str[d];
    return data[off];
  }
  std::ptrdiff_t extent(std::size_t d) const { return ext[d]; }
  View transposed() const
    requires(R == 2)
  {
    return View{data, {ext[1], ext[0]}, {str[1], str[0]}};
  }
  // rows [r0, r0 + nr) and every `step`-th column from c0
  View sub(std::ptrdiff_t r0, std::ptrdiff_t nr, std::ptrdiff_t c0, std::ptrdiff_t nc,
           std::ptrdiff_t step) const
    requires(R == 2)
  {
    return View{data + r0 * str[0] + c0 * str[1], {nr, nc}, {str[0], str[1] * step}};
  }
};

template <typename A, typename B, typename C>
void matmul(const A &a, const B &b, const C &c) {
  for (std::ptrdiff_t i = 0; i < c.extent(0); i++)
    for (std::ptrdiff_t j = 0; j < c.extent(1); j++) {
      double s = 0;
      for (std::ptrdiff_t k = 0; k < a.extent(1); k++) s += a(i, k) * b(k, j);
      c(i, j) = s;
    }
}

// p: a 4x6 row-major matrix M (24 entries), then a 2x3x2 tensor T (12 entries) stored
// column-major; w: 12 constant weights.
double model(const double *p, const double *w) {
  std::vector<double> q(p, p + 36);
  auto M = View<double, 2>::make(q.data(), {4, 6}, RowMajor{});
  auto S = M.sub(1, 3, 0, 3, 2);  // rows 1..3, columns 0, 2, 4: a 3x3 strided block
  double prod[9];
  auto P = View<double, 2>::make(prod, {3, 3}, ColMajor{});
  matmul(S, S.transposed(), P);  // P = S S^T (symmetric)
  double tr = 0;
  for (int i = 0; i < 3; i++) tr += P(i, i);
  auto T = View<double, 3>::make(q.data() + 24, {2, 3, 2}, ColMajor{});
  std::span<const double> ws(w, 12);
  double t = 0;
  int n = 0;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 2; k++) t += ws[n++] * std::sin(T(i, j, k) * P(j, i + k));
  return tr + t;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int np = 36;
  double p[np], dp[np] = {0}, fd[np], w[12];
  for (int i = 0; i < np; i++) p[i] = 0.5 * std::cos(0.9 * i + 0.2);
  for (int i = 0; i < 12; i++) w[i] = 0.3 + 0.1 * i;
  double w0[12];
  for (int i = 0; i < 12; i++) w0[i] = w[i];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, p, dp, enzyme_const, w);
  // before cxx35 the -O0 reverse sweep added the weights' adjoints into `w` itself (the
  // `std::span` constructor keeps the constant pointer through `std::to_address`)
  fz_check_arr("enzyme_const weights unchanged", w, w0, 12, 0);
  fz_fd_grad_of([&] { return model(p, w); }, p, np, fd);
  fz_check_arr("d/dp finite differences", dp, fd, np, 1e-6);
  // the trace of S S^T is the sum of squares of S: d tr / d M(r, c) = 2 M(r, c) for the
  // block's entries; entries outside the block and the tensor's only enter t
  double fd_t[np];
  double wz[12] = {0};
  fz_fd_grad_of([&] { return model(p, wz); }, p, np, fd_t);
  double want_tr[np] = {0};
  for (int r = 1; r < 4; r++)
    for (int c = 0; c < 6; c += 2) want_tr[r * 6 + c] = 2 * p[r * 6 + c];
  fz_check_arr("d trace / dp (analytic, central differences)", fd_t, want_tr, np, 1e-6);
  double dz[np] = {0};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, p, dz, enzyme_const, wz);
  fz_check_arr("d trace / dp (analytic)", dz, want_tr, np, 1e-12);
  double v[np], dv = 0;
  for (int i = 0; i < np; i++) v[i] = std::sin(1.3 * i + 0.4);
  for (int i = 0; i < np; i++) dv += dp[i] * v[i];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, p, v, enzyme_const, w);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-10);
  return fz_finish();
}

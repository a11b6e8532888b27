// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++20
// IGNORE-O0: "a pointer passed as an integer argument": unoptimized `std::ranges::transform` over two ranges receives its output iterator as `i64` (the six argument registers are taken) and rebuilds it with `inttoptr`, which has no shadow (it crashed with SIGSEGV before sweep23; tests/errors/ranges_transform_iterator_as_integer_O0.cpp); -O1..-O3 and the plugin pass
// IGNORE-REF: as at -O0
// C++20 as it is written now (sweep23): `std::views::iota(0, n) | std::views::transform`
// to generate sample points, `std::ranges::transform` into a vector of residuals,
// `std::views::zip`-free pairing through `std::views::iota` indices, structured
// bindings over a function returning `std::tuple<double, double, int>` (a fitted
// slope, intercept and count) and over `std::pair` elements of a vector, `std::span`
// parameters and `std::ranges::fold_left`-free accumulation with a range-for. The loss
// is a least-squares fit's residual energy plus a penalty on the fitted slope. Oracles:
// central finite differences, forward mode against reverse mode.
#include "fz_cxx.h"
#include <algorithm>
#include <ranges>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

static std::tuple<double, double, int> line_fit(std::span<const double> t, std::span<const double> y) {
  double st = 0, sy = 0, stt = 0, sty = 0;
  int n = (int)t.size();
  for (int i : std::views::iota(0, n)) {
    st += t[i]; sy += y[i]; stt += t[i] * t[i]; sty += t[i] * y[i];
  }
  double slope = (n * sty - st * sy) / (n * stt - st * st);
  return {slope, (sy - slope * st) / n, n};
}

double fit_energy(const double *obs, const double *warp, int n) {
  auto ts = std::views::iota(0, n) | std::views::transform([&](int i) {
              return 0.2 * i + warp[0] * std::sin(0.3 * i);
            });
  std::vector<double> t(ts.begin(), ts.end());
  std::vector<double> y(obs, obs + n);
  auto [slope, icept, count] = line_fit(t, y);
  std::vector<double> res(n);
  std::ranges::transform(t, y, res.begin(), [&](double ti, double yi) { return yi - (slope * ti + icept); });
  std::vector<std::pair<double, double>> weighted;
  for (int i : std::views::iota(0, n)) weighted.emplace_back(1.0 + 0.1 * i, res[i]);
  double e = 0;
  for (const auto &[w, r] : weighted) e += w * r * r;
  return e / count + warp[1] * slope * slope;
}

extern "C" double __enzyme_fwddiff(void *, ...);

int main() {
  constexpr int N = 9;
  double obs[N], warp[2] = {0.15, 0.4};
  fz_seed(204);
  for (int i = 0; i < N; i++) obs[i] = 0.5 + 0.7 * 0.2 * i + fz_uniform(-0.2, 0.2);
  double dobs[N] = {0}, dwarp[2] = {0};
  __enzyme_autodiff<void>((void *)fit_energy, enzyme_dup, obs, dobs, enzyme_dup, warp, dwarp,
                          enzyme_const, N);
  auto f = [&] { return fit_energy(obs, warp, N); };
  double fo[N], fw[2];
  fz_fd_grad_of(f, obs, N, fo);
  fz_fd_grad_of(f, warp, 2, fw);
  fz_check_arr("d/dobs FD", dobs, fo, N, 1e-6);
  fz_check_arr("d/dwarp FD", dwarp, fw, 2, 1e-6);
  double v[N], vw[2] = {0.3, -0.8}, dot = 0;
  fz_fill(v, N, -1, 1);
  double jv = __enzyme_fwddiff((void *)fit_energy, enzyme_dup, obs, v, enzyme_dup, warp, vw,
                               enzyme_const, N);
  for (int i = 0; i < N; i++) dot += v[i] * dobs[i];
  dot += vw[0] * dwarp[0] + vw[1] * dwarp[1];
  fz_check("forward . v vs reverse (dot-product identity)", jv, dot, 1e-10);
  return fz_finish();
}

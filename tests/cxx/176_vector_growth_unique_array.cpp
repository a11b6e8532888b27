// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Containers built inside the differentiated function as a new user writes them
// (sweep20): a `std::vector<double>` that `reserve`s, then grows by `push_back` and
// `emplace_back` of values computed from the input (past the reserved capacity, so it
// reallocates), a `std::vector<Point>` of structs grown by `emplace_back(x, y)`, and a
// `std::unique_ptr<double[]>` scratch array (`std::make_unique<double[]>(n)`), released
// when the function returns. Reverse and forward mode. Oracles: the analytic gradient of
// the closed form and finite differences; forward = <tangent, gradient>.
#include "fz_cxx.h"
#include <cmath>
#include <memory>
#include <vector>

struct Point {
  double x, y;
  Point(double a, double b) : x(a), y(b) {}
};

// Moving averages of the squared inputs, then a polyline length.
double features(const double *u, int n) {
  std::vector<double> sq;
  sq.reserve(2);  // grows past this
  for (int i = 0; i < n; i++) {
    if (i % 2)
      sq.push_back(u[i] * u[i]);
    else
      sq.emplace_back(u[i] * u[i]);
  }
  auto avg = std::make_unique<double[]>(n - 1);
  for (int i = 0; i + 1 < n; i++) avg[i] = 0.5 * (sq[i] + sq[i + 1]);
  std::vector<Point> poly;
  for (int i = 0; i + 1 < n; i++) poly.emplace_back(double(i), avg[i]);
  double len = 0;
  for (size_t i = 0; i + 1 < poly.size(); i++) {
    double dx = poly[i + 1].x - poly[i].x, dy = poly[i + 1].y - poly[i].y;
    len += std::sqrt(dx * dx + dy * dy);
  }
  return len;
}

static void features_grad(const double *u, int n, double *g) {
  for (int i = 0; i < n; i++) g[i] = 0;
  for (int i = 0; i + 2 < n; i++) {
    double a0 = 0.5 * (u[i] * u[i] + u[i + 1] * u[i + 1]);
    double a1 = 0.5 * (u[i + 1] * u[i + 1] + u[i + 2] * u[i + 2]);
    double dy = a1 - a0, l = std::sqrt(1 + dy * dy);
    double c = dy / l;  // d len / d a1 = c, d len / d a0 = -c
    g[i] += -c * u[i];
    g[i + 1] += -c * u[i + 1] + c * u[i + 1];
    g[i + 2] += c * u[i + 2];
  }
}

int main() {
  const int N = 9;
  double u[N], gu[N] = {0}, want[N];
  fz_seed(176);
  fz_fill(u, N, -1.5, 1.5);
  __enzyme_autodiff<void>((void *)features, enzyme_dup, u, gu, enzyme_const, N);
  features_grad(u, N, want);
  fz_check_arr("gradient vs closed form", gu, want, N, 1e-12);
  for (int i = 0; i < N; i++) {
    auto f = [&]() { return features(u, N); };
    fz_check("gradient vs FD", gu[i], fz_fd(f, u[i]), 1e-6);
  }
  double t[N];
  fz_fill(t, N, -1, 1);
  double d = __enzyme_fwddiff<double>((void *)features, enzyme_dup, u, t, enzyme_const, N);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += t[i] * gu[i];
  fz_check("forward = <t, gradient>", d, dot, 1e-11);
  return fz_finish();
}

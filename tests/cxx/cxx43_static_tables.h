// cxx43_static_tables.h -- the function-local static tables of tests/cxx/500 and 501,
// each first built inside the derivative that reads it: a `static std::vector<double>`
// filled by an immediately invoked lambda, a `static std::vector<std::vector<double>>`
// of rows, a static `std::vector<double>` resized and filled on first use.
#pragma once
#include <cmath>
#include <vector>

static const std::vector<double> &weights() {
  static std::vector<double> w = [] {
    std::vector<double> t(12);
    for (int i = 0; i < 12; i++) t[i] = 1.0 + 0.5 * std::sin(0.3 * i);
    return t;
  }();
  return w;
}
static const std::vector<std::vector<double>> &rows() {
  static std::vector<std::vector<double>> r = [] {
    std::vector<std::vector<double>> t;
    for (int i = 0; i < 3; i++) t.push_back(std::vector<double>(12, 0.25 * (i + 1)));
    return t;
  }();
  return r;
}
static double shift(int i) {
  static std::vector<double> s;
  if (s.empty()) {
    s.resize(12);
    for (int k = 0; k < 12; k++) s[k] = 0.1 * k;
  }
  return s[i];
}

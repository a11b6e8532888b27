// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Growing containers inside the differentiated function: a `std::vector<std::vector<double>>`
// built row by row (`reserve` on the outer vector, `push_back` of rows that grow
// element by element without reserve), `emplace_back` of a struct with a constructor
// computing from active values, `insert` in the middle (elements shifted up), `erase` of
// a range (shifted down), `resize` with a fill value, `assign`, `swap` of two rows and
// `std::move` of a row into another vector. Oracle: central finite differences.
#include "fz_cxx.h"
#include <cmath>
#include <utility>
#include <vector>

extern int enzyme_dup, enzyme_const, enzyme_out;

struct Body {
  double m, r, e;
  Body(double mass, double radius) : m(mass), r(radius), e(0.5 * mass * radius * radius) {}
};

double grow(const double *x, int n) {
  std::vector<std::vector<double>> rows;
  rows.reserve(4);
  for (int r = 0; r < 6; r++) {  // past the reserve: the outer vector reallocates
    std::vector<double> row;
    for (int c = 0; c <= r + 2; c++) row.push_back(x[(r + c) % n] * (1 + 0.1 * c));
    rows.push_back(row);
  }
  std::vector<Body> bodies;
  for (int i = 0; i < n; i++) bodies.emplace_back(std::fabs(x[i]) + 0.5, x[(i + 1) % n]);

  rows[2].insert(rows[2].begin() + 1, {x[0] * x[1], x[2]});
  rows[4].erase(rows[4].begin() + 1, rows[4].begin() + 3);
  rows[1].resize(7, x[3]);
  rows[0].assign(3, x[4] * 2.0);
  std::swap(rows[3], rows[5]);
  std::vector<std::vector<double>> moved;
  moved.push_back(std::move(rows[5]));

  double s = 0;
  for (size_t r = 0; r < rows.size(); r++)
    for (size_t c = 0; c < rows[r].size(); c++) s += std::sin(rows[r][c]) * (r + 1) / (c + 1);
  for (double v : moved[0]) s += v * v;
  for (const Body &b : bodies) s += b.e / b.m;
  bodies.insert(bodies.begin(), Body(x[0] + 2.0, 0.3));
  s += bodies.front().e + bodies[1].m;
  return s;
}

int main() {
  const int n = 6;
  double x[n] = {0.3, -0.8, 1.2, 0.45, -0.25, 0.9}, dx[n] = {0}, want[n];
  __enzyme_autodiff<void>((void *)grow, enzyme_dup, x, dx, enzyme_const, n);
  fz_fd_grad_of([&] { return grow(x, n); }, x, n, want);
  fz_check_arr("grow grad", dx, want, n, 1e-6);
  return fz_finish();
}

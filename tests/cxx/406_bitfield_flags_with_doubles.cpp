// OPT: O0 O2
// CFLAGS: -std=c++17
// Records mixing bit-fields and doubles, as in mesh or particle codes: a `Cell` with
// `unsigned boundary : 1, material : 3, level : 4` packed into one word next to active
// doubles, built in a loop that sets the bits with masks and shifts, read back through
// the bit-fields to choose a material coefficient from a table and to skip boundary cells;
// the cells are copied (`std::vector<Cell>` copy, struct assignment) before use. The
// integer bit twiddling shares the record with the floats but never touches them.
// Oracle: the analytic gradient, central differences, forward/reverse dot products.
#include "fz_cxx.h"
#include <cmath>
#include <vector>

struct Cell {
  unsigned boundary : 1;
  unsigned material : 3;
  unsigned level : 4;
  double u;
  double area;
};

static const double kappa[8] = {1.0, 0.5, 2.0, 0.25, 3.0, 1.5, 0.75, 4.0};

double model(const double *u, const unsigned *code, int n) {
  std::vector<Cell> cells(n);
  for (int i = 0; i < n; i++) {
    Cell c{};
    c.boundary = code[i] & 1u;
    c.material = (code[i] >> 1) & 7u;
    c.level = (code[i] >> 4) & 15u;
    c.u = u[i];
    c.area = 1.0 / double(1u << c.level);
    cells[i] = c;
  }
  std::vector<Cell> copy = cells;
  double e = 0;
  for (int i = 0; i < n; i++) {
    const Cell &c = copy[i];
    if (c.boundary) continue;
    e += kappa[c.material] * c.area * c.u * c.u;
    if (i + 1 < n && copy[i + 1].material == c.material) e += c.u * copy[i + 1].u;
  }
  return e + std::sin(copy[n - 1].u) * copy[n - 1].level;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 8;
  double u[n] = {0.5, -0.3, 1.2, 0.8, -0.9, 0.1, 0.7, -0.6}, du[n] = {0}, fd[n], want[n] = {0};
  unsigned code[n] = {0x12, 0x23, 0x03, 0x16, 0x16, 0x01, 0x2a, 0x1a};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, u, du, enzyme_const, code, enzyme_const, n);
  for (int i = 0; i < n; i++) {
    unsigned b = code[i] & 1u, m = (code[i] >> 1) & 7u, l = (code[i] >> 4) & 15u;
    if (b) continue;
    want[i] += 2 * kappa[m] * u[i] / double(1u << l);
    if (i + 1 < n && ((code[i + 1] >> 1) & 7u) == m) {
      want[i] += u[i + 1];
      want[i + 1] += u[i];
    }
  }
  want[n - 1] += std::cos(u[n - 1]) * double((code[n - 1] >> 4) & 15u);
  fz_check_arr("d/du analytic", du, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(u, code, n); }, u, n, fd);
  fz_check_arr("d/du finite differences", du, fd, n, 1e-6);
  double v[n], dv = 0;
  for (int i = 0; i < n; i++) v[i] = std::cos(0.5 + i);
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, u, v, enzyme_const, code,
                                       enzyme_const, n);
  for (int i = 0; i < n; i++) dv += du[i] * v[i];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}

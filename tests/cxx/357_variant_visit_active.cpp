// OPT: O0 O1 O2
// CFLAGS: -std=c++17
// `std::variant<Circle, Rect, Poly>` shapes whose members are active doubles, measured by
// `std::visit` with an overloaded visitor (a struct of `operator()`s) and with a generic
// lambda using `if constexpr`, the alternative chosen at run time from integer tags; the
// shapes live in a local `std::array` (no copies through the heap). Oracle: the
// closed-form gradient of the summed areas and perimeters and central differences.
#include "fz_cxx.h"
#include <array>
#include <cmath>
#include <type_traits>
#include <variant>

struct Circle { double r; };
struct Rect { double w, h; };
// `n` a double: an int sharing the variant's storage with an active double is cxx/148's
// refusal (cannot-deduce-type at -O0, bit arithmetic at -O2 with `int n`).
struct Poly { double side; double n; };
using Shape = std::variant<Circle, Rect, Poly>;

struct Area {
  double operator()(const Circle &c) const { return M_PI * c.r * c.r; }
  double operator()(const Rect &r) const { return r.w * r.h; }
  double operator()(const Poly &p) const {
    return p.n * p.side * p.side / (4 * std::tan(M_PI / p.n));
  }
};

double measure(const double *x, const int *tags) {
  std::array<Shape, 4> shapes;
  for (int i = 0; i < 4; i++) {
    if (tags[i] == 0) shapes[i] = Circle{x[2 * i]};
    else if (tags[i] == 1) shapes[i] = Rect{x[2 * i], x[2 * i + 1]};
    else shapes[i] = Poly{x[2 * i], double(tags[i] + 3)};
  }
  double s = 0;
  for (const auto &sh : shapes) {
    s += std::visit(Area{}, sh);
    s += 0.5 * std::visit(
                   [](const auto &v) -> double {
                     using T = std::decay_t<decltype(v)>;
                     if constexpr (std::is_same_v<T, Circle>) return 2 * M_PI * v.r;
                     else if constexpr (std::is_same_v<T, Rect>) return 2 * (v.w + v.h);
                     else return v.n * v.side;
                   },
                   sh);
  }
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  double x[8] = {0.7, 0.0, 1.2, 0.8, 0.5, 0.0, 0.9, 0.0}, dx[8] = {0}, fd[8], want[8] = {0};
  int tags[4] = {0, 1, 2, 3};  // circle, rect, pentagon, hexagon
  __enzyme_autodiff<void>((void *)measure, enzyme_dup, x, dx, enzyme_const, tags);
  want[0] = 2 * M_PI * x[0] + M_PI;
  want[2] = x[3] + 1.0;
  want[3] = x[2] + 1.0;
  for (int k = 2; k < 4; k++) {
    int n = tags[k] + 3;
    want[2 * k] = n * 2 * x[2 * k] / (4 * std::tan(M_PI / n)) + 0.5 * n;
  }
  fz_check_arr("d/dx analytic", dx, want, 8, 1e-10);
  fz_fd_grad_of([&] { return measure(x, tags); }, x, 8, fd);
  fz_check_arr("d/dx finite differences", dx, fd, 8, 1e-6);
  return fz_finish();
}

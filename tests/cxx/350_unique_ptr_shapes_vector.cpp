// OPT: O0 O2
// CFLAGS: -std=c++17
// `std::vector<std::unique_ptr<Shape>>` of polymorphic shapes built inside the
// differentiated function with `std::make_unique` (circles, rectangles, regular polygons
// whose sizes are active), summed through virtual `area()`/`perimeter()`, one erased
// from the middle (its destructor runs there) and the rest destroyed when the vector
// goes out of scope. Oracle: the analytic gradient and central differences.
#include "fz_cxx.h"
#include <cmath>
#include <memory>
#include <vector>

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
  virtual double perimeter() const = 0;
};
struct Circle : Shape {
  double r;
  explicit Circle(double r_) : r(r_) {}
  double area() const override { return M_PI * r * r; }
  double perimeter() const override { return 2 * M_PI * r; }
};
struct Rect : Shape {
  double w, h;
  Rect(double a, double b) : w(a), h(b) {}
  double area() const override { return w * h; }
  double perimeter() const override { return 2 * (w + h); }
};
struct Polygon : Shape {
  int n;
  double s;
  Polygon(int k, double side) : n(k), s(side) {}
  double area() const override { return n * s * s / (4 * std::tan(M_PI / n)); }
  double perimeter() const override { return n * s; }
};

double layout(const double *p) {
  std::vector<std::unique_ptr<Shape>> shapes;
  shapes.push_back(std::make_unique<Circle>(p[0]));
  shapes.push_back(std::make_unique<Rect>(p[1], p[2]));
  shapes.push_back(std::make_unique<Circle>(100 * p[0]));
  shapes.emplace_back(new Polygon(6, p[3]));
  shapes.erase(shapes.begin() + 2);
  double a = 0, per = 0;
  for (const auto &s : shapes) a += s->area(), per += s->perimeter();
  return a + 0.5 * per * per;
}

extern int enzyme_dup;

int main() {
  double p[4] = {0.8, 1.5, 0.6, 0.9}, dp[4] = {0}, fd[4];
  __enzyme_autodiff<void>((void *)layout, enzyme_dup, p, dp);
  double per = 2 * M_PI * p[0] + 2 * (p[1] + p[2]) + 6 * p[3];
  fz_check("d/dr", dp[0], 2 * M_PI * p[0] + per * 2 * M_PI, 1e-12);
  fz_check("d/dw", dp[1], p[2] + per * 2, 1e-12);
  fz_check("d/dh", dp[2], p[1] + per * 2, 1e-12);
  fz_check("d/ds", dp[3], 6 * 2 * p[3] / (4 * std::tan(M_PI / 6)) + per * 6, 1e-12);
  fz_fd_grad_of([&] { return layout(p); }, p, 4, fd);
  fz_check_arr("finite differences", dp, fd, 4, 1e-6);
  return fz_finish();
}

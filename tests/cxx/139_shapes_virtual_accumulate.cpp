// OPT: O0 O1 O2 O3
// VARIANTS: all
// A user's polymorphic geometry: `std::vector<std::unique_ptr<Shape>>` of circles,
// rectangles and regular polygons (virtual `area()`/`perimeter()`, a template
// `Scaled<S>` wrapper adding a virtual override), a compactness loss summed with
// `std::accumulate` over the pointers with a lambda, and `std::inner_product` of the areas
// with weights in a `std::array`. The shapes are built inside the differentiated
// function from the parameter vector. Oracle: central finite differences and the
// analytic gradient of the closed form.
// At -O0 (and --ad-before-opt) `Polygon`'s `int n` store was refused (cannot-deduce-type)
// until sweep19: the int comes through `make_unique`'s `int &&`, kept in a pointer slot,
// which `int_slot` (reverse/check.rs) now follows (`slots::slot_stores`).
#include "fz_cxx.h"
#include <array>
#include <cmath>
#include <memory>
#include <numeric>
#include <vector>

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
  virtual double perimeter() const = 0;
  double compactness() const { return 4 * M_PI * area() / (perimeter() * perimeter()); }
};
struct Circle : Shape {
  double r;
  explicit Circle(double r) : r(r) {}
  double area() const override { return M_PI * r * r; }
  double perimeter() const override { return 2 * M_PI * r; }
};
struct Rect : Shape {
  double w, h;
  Rect(double w, double h) : w(w), h(h) {}
  double area() const override { return w * h; }
  double perimeter() const override { return 2 * (w + h); }
};
struct Polygon : Shape {
  int n;
  double side;
  Polygon(int n, double s) : n(n), side(s) {}
  double area() const override { return n * side * side / (4 * std::tan(M_PI / n)); }
  double perimeter() const override { return n * side; }
};
template <class S>
struct Scaled : S {
  double k;
  template <class... A>
  Scaled(double k, A... a) : S(a...), k(k) {}
  double area() const override { return k * k * S::area(); }
  double perimeter() const override { return k * S::perimeter(); }
};

double loss(const double *p) {
  std::vector<std::unique_ptr<Shape>> shapes;
  shapes.push_back(std::make_unique<Circle>(p[0]));
  shapes.push_back(std::make_unique<Rect>(p[1], p[2]));
  shapes.push_back(std::make_unique<Polygon>(6, p[3]));
  shapes.push_back(std::make_unique<Scaled<Rect>>(p[4], p[2], p[1] + 1.0));
  double c = std::accumulate(shapes.begin(), shapes.end(), 0.0,
                             [](double s, const std::unique_ptr<Shape> &sh) {
                               return s + (1 - sh->compactness()) * (1 - sh->compactness());
                             });
  std::array<double, 4> areas, wts{{0.5, 1.0, 0.25, 2.0}};
  for (int i = 0; i < 4; i++) areas[i] = shapes[i]->area();
  return c + std::inner_product(areas.begin(), areas.end(), wts.begin(), 0.0);
}

// Closed form of the same loss.
static double closed(const double *p) {
  double cr = (1 - 4 * M_PI * p[1] * p[2] / (4 * (p[1] + p[2]) * (p[1] + p[2])));
  double t = std::tan(M_PI / 6);
  double hex = 6 * p[3] * p[3] / (4 * t);
  double ch = 1 - 4 * M_PI * hex / (36 * p[3] * p[3]);
  double w2 = p[2], h2 = p[1] + 1.0;
  double cs = 1 - 4 * M_PI * w2 * h2 / (4 * (w2 + h2) * (w2 + h2));
  double a = 0.5 * M_PI * p[0] * p[0] + p[1] * p[2] + 0.25 * hex + 2.0 * p[4] * p[4] * w2 * h2;
  return cr * cr + ch * ch + cs * cs + a;
}

int main() {
  double p[5] = {0.8, 1.3, 0.6, 0.45, 1.7}, dp[5] = {0}, fd[5], fc[5];
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, p, dp);
  fz_fd_grad_of([&] { return loss(p); }, p, 5, fd);
  fz_fd_grad_of([&] { return closed(p); }, p, 5, fc);
  fz_check("primal vs closed form", loss(p), closed(p), 1e-12);
  fz_check_arr("reverse vs fd", dp, fd, 5, 1e-6);
  fz_check_arr("reverse vs closed-form fd", dp, fc, 5, 1e-6);
  return fz_finish();
}

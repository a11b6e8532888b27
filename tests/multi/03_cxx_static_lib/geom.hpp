#pragma once
namespace geom {

class Circle {
 public:
  explicit Circle(double r) : r_(r) {}
  double area() const;
  double perimeter() const;

 private:
  double r_;
};

template <typename T>
T poly_eval(const T *c, int n, T x);

extern const double kPoly[3];

}  // namespace geom

double shape_cost(const double *radii, int n, double w);

#include "geom.hpp"

#include <cmath>

namespace geom {

double Circle::area() const { return M_PI * r_ * r_; }
double Circle::perimeter() const { return 2 * M_PI * r_; }

template <typename T>
T poly_eval(const T *c, int n, T x) {
  T acc = 0;
  for (int i = n - 1; i >= 0; i--) acc = acc * x + c[i];
  return acc;
}
template double poly_eval<double>(const double *, int, double);

const double kPoly[3] = {1.0, 2.0, 3.0};

}  // namespace geom

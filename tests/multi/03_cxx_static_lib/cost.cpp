#include "geom.hpp"

double shape_cost(const double *radii, int n, double w) {
  double c = 0;
  for (int i = 0; i < n; i++) {
    geom::Circle s(radii[i]);
    double p = s.perimeter();
    c += w * s.area() + 0.1 * p * p + geom::poly_eval(geom::kPoly, 3, radii[i]);
  }
  return c;
}

#include <enzyme/enzyme>

#include "fz_test.h"
#include "geom.hpp"

int main() {
  fz_seed(503);
  const int n = 6;
  double r[n], dr[n], want[n], t[n];
  fz_fill(r, n, 0.2, 2.0);
  fz_fill(t, n, -1, 1);
  fz_zero(dr, n);
  double w = fz_uniform(0.5, 1.5);
  auto res = enzyme::autodiff<enzyme::Reverse>(
      shape_cost, enzyme::Duplicated<const double *>{r, dr}, enzyme::Const{n},
      enzyme::Active{w});
  double dw = enzyme::get<0>(enzyme::get<0>(res));
  double dw_want = 0;
  for (int i = 0; i < n; i++) {
    want[i] = w * 2 * M_PI * r[i] + 0.1 * 8 * M_PI * M_PI * r[i] + 2 + 6 * r[i];
    dw_want += M_PI * r[i] * r[i];
  }
  fz_check_arr("dr", dr, want, n, 1e-12);
  fz_check("dw", dw, dw_want, 1e-12);

  // Forward mode along (t, tw): the tangent must equal <gradient, (t, tw)>.
  double tw = 0.7;
  auto fwd = enzyme::autodiff<enzyme::Forward, enzyme::Duplicated<double>>(
      shape_cost, enzyme::Duplicated<const double *>{r, t}, enzyme::Const{n},
      enzyme::Duplicated<double>{w, tw});
  double dot = tw * dw;
  for (int i = 0; i < n; i++) dot += t[i] * dr[i];
  fz_check("tangent = <grad, dir>", enzyme::get<1>(fwd), dot, 1e-12);
  fz_check("primal", enzyme::get<0>(fwd), shape_cost(r, n, w), 1e-14);
  return fz_finish();
}

// OPT: O0 O2
// CFLAGS: -std=c++17
// A custom forward derivative in vector forward mode (enzyme_width 3): every lane's
// tangent must come from the registered rule (applied to that lane's tangent), not from
// the body, whose derivative is zero (it rounds). Oracles: the rule's formula per lane,
// and that the rule ran.
#include "fz_cxx.h"
#include <cmath>

__attribute__((noinline)) double stair_exp(double x) { return std::exp(std::round(x * 64.0) / 64.0); }
struct dpair {
  double primal, tangent;
};
static int fwd_calls = 0;
dpair fwd_stair_exp(double x, double dx) {
  fwd_calls++;
  return {stair_exp(x), std::exp(x) * dx};
}
void *__enzyme_register_derivative_stair_exp[] = {(void *)stair_exp, (void *)fwd_stair_exp};

double model(double x, double y) { return stair_exp(x) * y + y * y; }

typedef struct {
  double d[3];
} v3;
extern int enzyme_width;
extern v3 __enzyme_fwddiff_v3(void *, ...);

int main() {
  double x = 0.4, y = -0.7;
  double tx[3] = {1.0, 0.0, 0.5}, ty[3] = {0.0, 1.0, -2.0};
  v3 t = __enzyme_fwddiff_v3((void *)model, enzyme_width, 3, x, tx[0], tx[1], tx[2], y, ty[0],
                             ty[1], ty[2]);
  for (int l = 0; l < 3; l++)
    fz_check("lane", t.d[l], std::exp(x) * tx[l] * y + (stair_exp(x) + 2 * y) * ty[l], 1e-12);
  fz_check("rule used", fwd_calls > 0, 1, 0);
  return fz_finish();
}

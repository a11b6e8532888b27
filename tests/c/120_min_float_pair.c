// OPT: O0 O1 O2 O3
// Minimal: struct {float a, b;} (e.g. complex float) swapped as a whole:
// LLVM moves it as one i64.
#include "fz_test.h"

typedef struct { float a, b; } FF;

float f(FF *p) {
  FF t = p[0]; p[0] = p[1]; p[1] = t;
  return p[0].a * 2.0f + p[0].b * 3.0f + p[1].a * 5.0f + p[1].b * 7.0f;
}

int main(void) {
  FF p[2] = {{0.5f, 0.25f}, {-1.5f, 2.0f}}, dp[2] = {{0, 0}, {0, 0}};
  __enzyme_autodiff((void *)f, enzyme_dup, p, dp);
  fz_check("dp0.a", dp[0].a, 5, 1e-6);
  fz_check("dp0.b", dp[0].b, 7, 1e-6);
  fz_check("dp1.a", dp[1].a, 2, 1e-6);
  fz_check("dp1.b", dp[1].b, 3, 1e-6);
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// Minimal: struct {int k; float b;} swapped as a whole (one i64 move); the
// float's gradient does not follow the move (silently wrong at O1+).
#include "fz_test.h"

typedef struct { int k; float b; } IF;

float f(IF *p) {
  IF t = p[0]; p[0] = p[1]; p[1] = t;
  return p[0].b * 2.0f + p[1].b * 3.0f;
}

int main(void) {
  IF p[2] = {{1, 0.5f}, {2, -1.5f}}, dp[2] = {{0, 0}, {0, 0}};
  __enzyme_autodiff((void *)f, enzyme_dup, p, dp);
  fz_check("dp0.b", dp[0].b, 3, 1e-6);
  fz_check("dp1.b", dp[1].b, 2, 1e-6);
  return fz_finish();
}

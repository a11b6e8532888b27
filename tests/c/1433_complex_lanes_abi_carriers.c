// OPT: O0 O1 O2 O3
// Vector forward mode (`enzyme_width` 2, 3, 4) of functions with a `float _Complex`
// parameter (one `<2 x float>`), checked lane by lane against the scalar forward mode,
// the analytic tangent and central differences in double. Once the x86-64 ABI runs out of
// SSE registers, the hook call passes a `float _Complex` lane (or the value itself) on
// the stack: as an `i64` when no integer register is left either (difftest C seed 8049:
// "missing tangent for argument 8 ... expected 2 tangent(s) after the value"), in memory
// (`ptr byval({ float, float })`) while one is. Both carry the vector's bits and are
// accepted now (`marshal::abi_float_pair`). `double _Complex` is two doubles for the ABI:
// each part is followed by its tangents (README, "What the pass differentiates at the
// hook boundary"), also past the eighth SSE register, where doubles go on the stack as
// doubles. (In reverse mode the hook passes no more floats than the function takes, so a
// complex value the hook passes on the stack is on the function's stack too: a `byval`
// parameter, refused as before.) The value itself comes as an i64 in the `fw` calls.
#include "fz_test.h"
#include <complex.h>

extern int enzyme_width, enzyme_dup, enzyme_const;

// Many pointers first: no integer register is left for the later complex lanes (i64).
__attribute__((noinline)) float fw(float *p, const float *q, int n, float a, float b,
                                   float c, float _Complex z) {
  float s = 0;
  for (int i = 0; i < n; i++) s += p[i] * q[i];
  return s * a + b * c * crealf(z) * cimagf(z) + cimagf(z) * cimagf(z) * a;
}
static float fw_tan(const float *p, const float *dp, const float *q, int n, float a, float da,
                    float b, float db, float c, float dc, float _Complex z, float _Complex dz) {
  float s = 0, ds = 0;
  for (int i = 0; i < n; i++) s += p[i] * q[i], ds += dp[i] * q[i];
  float re = crealf(z), im = cimagf(z), dre = crealf(dz), dim = cimagf(dz);
  return ds * a + s * da + (db * c + b * dc) * re * im + b * c * (dre * im + re * dim) +
         2 * im * dim * a + im * im * da;
}

// Few arguments: the lanes past the SSE registers go in memory (byval).
__attribute__((noinline)) float fb(float a, float _Complex z) {
  return a * crealf(z) * cimagf(z) + cimagf(z) * cimagf(z) / (1 + a * a);
}
static float fb_tan(float a, float da, float _Complex z, float _Complex dz) {
  float re = crealf(z), im = cimagf(z), dre = crealf(dz), dim = cimagf(dz);
  float den = 1 + a * a;
  return da * re * im + a * (dre * im + re * dim) + 2 * im * dim / den -
         im * im * 2 * a * da / (den * den);
}

// `double _Complex`: two doubles.
__attribute__((noinline)) double fd(double a, double b, double _Complex z) {
  return a * creal(z) * cimag(z) + b * cimag(z) * cimag(z) + a * b * creal(z);
}
static double fd_tan(double a, double da, double b, double db, double re, double dre, double im,
                     double dim) {
  return da * re * im + a * (dre * im + re * dim) + db * im * im + 2 * b * im * dim +
         (da * b + a * db) * re + a * b * dre;
}

typedef struct { float v[2]; } F2;
typedef struct { float v[3]; } F3;
typedef struct { float v[4]; } F4;
typedef struct { double v[2]; } D2;
typedef struct { double v[3]; } D3;
typedef struct { double v[4]; } D4;
typedef float _Complex CF;

extern float __enzyme_fwddiff_w1(void *, int, float *, float *, int, const float *, int, int, int,
                                 float, float, int, float, float, int, float, float, int, CF, CF);
extern F2 __enzyme_fwddiff_w2(void *, int, int, int, float *, float *, float *, int, const float *,
                              int, int, int, float, float, float, int, float, float, float, int,
                              float, float, float, int, CF, CF, CF);
extern F3 __enzyme_fwddiff_w3(void *, int, int, int, float *, float *, float *, float *, int,
                              const float *, int, int, int, float, float, float, float, int, float,
                              float, float, float, int, float, float, float, float, int, CF, CF,
                              CF, CF);
extern F4 __enzyme_fwddiff_w4(void *, int, int, int, float *, float *, float *, float *, float *,
                              int, const float *, int, int, int, float, float, float, float,
                              float, int, float, float, float, float, float, int, float, float,
                              float, float, float, int, CF, CF, CF, CF, CF);
extern float __enzyme_fwddiff_b1(void *, int, float, float, int, CF, CF);
extern F2 __enzyme_fwddiff_b2(void *, int, int, int, float, float, float, int, CF, CF, CF);
extern F3 __enzyme_fwddiff_b3(void *, int, int, int, float, float, float, float, int, CF, CF, CF,
                              CF);
extern F4 __enzyme_fwddiff_b4(void *, int, int, int, float, float, float, float, float, int, CF,
                              CF, CF, CF, CF);
extern double __enzyme_fwddiff_d1(void *, int, double, double, int, double, double, int, double,
                                  double, int, double, double);
extern D2 __enzyme_fwddiff_d2(void *, int, int, int, double, double, double, int, double, double,
                              double, int, double, double, double, int, double, double, double);
extern D3 __enzyme_fwddiff_d3(void *, int, int, int, double, double, double, double, int, double,
                              double, double, double, int, double, double, double, double, int,
                              double, double, double, double);
extern D4 __enzyme_fwddiff_d4(void *, int, int, int, double, double, double, double, double, int,
                              double, double, double, double, double, int, double, double, double,
                              double, double, int, double, double, double, double, double);
#define N 3
static float P[N] = {1.0f, 2.0f, -1.5f}, Q[N] = {0.5f, -1.0f, 2.0f};
static float DP[4][N] = {{1, 0, 0}, {0, 1, 0.5f}, {0.25f, -1, 0}, {0, 0, 2}};
static const float A = 1.3f, B = 0.7f, C = -0.4f;
static const float DA[4] = {0.0f, 1.0f, 0.1f, -0.3f}, DB[4] = {0.5f, 0.0f, 0.0f, 0.2f},
                   DC[4] = {0.0f, 0.0f, -1.0f, 0.4f};
static CF Z, DZ[4];

static double fw_fd(int k) {
  double h = 1e-4;
  float pp[N], pm[N];
  for (int i = 0; i < N; i++) pp[i] = P[i] + h * DP[k][i], pm[i] = P[i] - h * DP[k][i];
  double fp = fw(pp, Q, N, A + h * DA[k], B + h * DB[k], C + h * DC[k], Z + (float)h * DZ[k]);
  double fm = fw(pm, Q, N, A - h * DA[k], B - h * DB[k], C - h * DC[k], Z - (float)h * DZ[k]);
  return (fp - fm) / (2 * h);
}

static void check_fw_lane(const char *what, int k, float got) {
  char buf[96];
  float pc[N];
  for (int i = 0; i < N; i++) pc[i] = P[i];
  float one = __enzyme_fwddiff_w1((void *)fw, enzyme_dup, pc, DP[k], enzyme_const, Q, enzyme_const,
                                  N, enzyme_dup, A, DA[k], enzyme_dup, B, DB[k], enzyme_dup, C,
                                  DC[k], enzyme_dup, Z, DZ[k]);
  float want = fw_tan(P, DP[k], Q, N, A, DA[k], B, DB[k], C, DC[k], Z, DZ[k]);
  snprintf(buf, sizeof buf, "%s lane %d vs scalar forward", what, k);
  fz_check(buf, got, one, 1e-5);
  snprintf(buf, sizeof buf, "%s lane %d vs analytic", what, k);
  fz_check(buf, got, want, 1e-5);
  snprintf(buf, sizeof buf, "%s lane %d vs central differences", what, k);
  fz_check(buf, got, fw_fd(k), 2e-2);
}

static void check_fb_lane(const char *what, int k, float got) {
  char buf[96];
  float one = __enzyme_fwddiff_b1((void *)fb, enzyme_dup, A, DA[k], enzyme_dup, Z, DZ[k]);
  snprintf(buf, sizeof buf, "%s lane %d vs scalar forward", what, k);
  fz_check(buf, got, one, 1e-5);
  snprintf(buf, sizeof buf, "%s lane %d vs analytic", what, k);
  fz_check(buf, got, fb_tan(A, DA[k], Z, DZ[k]), 1e-5);
  double h = 1e-3;
  double fdv = ((double)fb(A + h * DA[k], Z + (float)h * DZ[k]) -
                fb(A - h * DA[k], Z - (float)h * DZ[k])) / (2 * h);
  snprintf(buf, sizeof buf, "%s lane %d vs central differences", what, k);
  fz_check(buf, got, fdv, 2e-2);
}

static const double DR = 0.8, DI = -1.7;
static const double DDA[4] = {1, 0, 0.5, -0.2}, DDB[4] = {0, 1, 0.3, 0.1},
                    DDR[4] = {0, 0, 1, 0.7}, DDI[4] = {0.4, 0, 0, 1};

static void check_fd_lane(const char *what, int k, double got) {
  char buf[96];
  double one = __enzyme_fwddiff_d1((void *)fd, enzyme_dup, 1.3, DDA[k], enzyme_dup, -0.6, DDB[k],
                                   enzyme_dup, DR, DDR[k], enzyme_dup, DI, DDI[k]);
  snprintf(buf, sizeof buf, "%s lane %d vs scalar forward", what, k);
  fz_check(buf, got, one, 1e-12);
  snprintf(buf, sizeof buf, "%s lane %d vs analytic", what, k);
  fz_check(buf, got, fd_tan(1.3, DDA[k], -0.6, DDB[k], DR, DDR[k], DI, DDI[k]), 1e-12);
  double h = 1e-6;
  double fp = fd(1.3 + h * DDA[k], -0.6 + h * DDB[k], (DR + h * DDR[k]) + (DI + h * DDI[k]) * I);
  double fm = fd(1.3 - h * DDA[k], -0.6 - h * DDB[k], (DR - h * DDR[k]) + (DI - h * DDI[k]) * I);
  snprintf(buf, sizeof buf, "%s lane %d vs central differences", what, k);
  fz_check(buf, got, (fp - fm) / (2 * h), 1e-6);
}

int main(void) {
  Z = 1.1f + 0.6f * I;
  DZ[0] = 1.0f;
  DZ[1] = 1.0f * I;
  DZ[2] = 0.3f - 0.2f * I;
  DZ[3] = -0.5f + 2.0f * I;
  float pc[N], q0[N];
  for (int i = 0; i < N; i++) pc[i] = P[i], q0[i] = Q[i];

  F2 w2 = __enzyme_fwddiff_w2((void *)fw, enzyme_width, 2, enzyme_dup, pc, DP[0], DP[1],
                              enzyme_const, Q, enzyme_const, N, enzyme_dup, A, DA[0], DA[1],
                              enzyme_dup, B, DB[0], DB[1], enzyme_dup, C, DC[0], DC[1],
                              enzyme_dup, Z, DZ[0], DZ[1]);
  for (int k = 0; k < 2; k++) check_fw_lane("fw width 2", k, w2.v[k]);
  F3 w3 = __enzyme_fwddiff_w3((void *)fw, enzyme_width, 3, enzyme_dup, pc, DP[0], DP[1], DP[2],
                              enzyme_const, Q, enzyme_const, N, enzyme_dup, A, DA[0], DA[1], DA[2],
                              enzyme_dup, B, DB[0], DB[1], DB[2], enzyme_dup, C, DC[0], DC[1],
                              DC[2], enzyme_dup, Z, DZ[0], DZ[1], DZ[2]);
  for (int k = 0; k < 3; k++) check_fw_lane("fw width 3", k, w3.v[k]);
  F4 w4 = __enzyme_fwddiff_w4((void *)fw, enzyme_width, 4, enzyme_dup, pc, DP[0], DP[1], DP[2],
                              DP[3], enzyme_const, Q, enzyme_const, N, enzyme_dup, A, DA[0], DA[1],
                              DA[2], DA[3], enzyme_dup, B, DB[0], DB[1], DB[2], DB[3], enzyme_dup,
                              C, DC[0], DC[1], DC[2], DC[3], enzyme_dup, Z, DZ[0], DZ[1], DZ[2],
                              DZ[3]);
  for (int k = 0; k < 4; k++) check_fw_lane("fw width 4", k, w4.v[k]);

  F2 b2 = __enzyme_fwddiff_b2((void *)fb, enzyme_width, 2, enzyme_dup, A, DA[0], DA[1],
                              enzyme_dup, Z, DZ[0], DZ[1]);
  for (int k = 0; k < 2; k++) check_fb_lane("fb width 2", k, b2.v[k]);
  F3 b3 = __enzyme_fwddiff_b3((void *)fb, enzyme_width, 3, enzyme_dup, A, DA[0], DA[1], DA[2],
                              enzyme_dup, Z, DZ[0], DZ[1], DZ[2]);
  for (int k = 0; k < 3; k++) check_fb_lane("fb width 3", k, b3.v[k]);
  F4 b4 = __enzyme_fwddiff_b4((void *)fb, enzyme_width, 4, enzyme_dup, A, DA[0], DA[1], DA[2],
                              DA[3], enzyme_dup, Z, DZ[0], DZ[1], DZ[2], DZ[3]);
  for (int k = 0; k < 4; k++) check_fb_lane("fb width 4", k, b4.v[k]);

  D2 d2 = __enzyme_fwddiff_d2((void *)fd, enzyme_width, 2, enzyme_dup, 1.3, DDA[0], DDA[1],
                              enzyme_dup, -0.6, DDB[0], DDB[1], enzyme_dup, DR, DDR[0], DDR[1],
                              enzyme_dup, DI, DDI[0], DDI[1]);
  for (int k = 0; k < 2; k++) check_fd_lane("fd width 2", k, d2.v[k]);
  D3 d3 = __enzyme_fwddiff_d3((void *)fd, enzyme_width, 3, enzyme_dup, 1.3, DDA[0], DDA[1],
                              DDA[2], enzyme_dup, -0.6, DDB[0], DDB[1], DDB[2], enzyme_dup, DR,
                              DDR[0], DDR[1], DDR[2], enzyme_dup, DI, DDI[0], DDI[1], DDI[2]);
  for (int k = 0; k < 3; k++) check_fd_lane("fd width 3", k, d3.v[k]);
  D4 d4 = __enzyme_fwddiff_d4((void *)fd, enzyme_width, 4, enzyme_dup, 1.3, DDA[0], DDA[1],
                              DDA[2], DDA[3], enzyme_dup, -0.6, DDB[0], DDB[1], DDB[2], DDB[3],
                              enzyme_dup, DR, DDR[0], DDR[1], DDR[2], DDR[3], enzyme_dup, DI,
                              DDI[0], DDI[1], DDI[2], DDI[3]);
  for (int k = 0; k < 4; k++) check_fd_lane("fd width 4", k, d4.v[k]);

  for (int i = 0; i < N; i++) {
    fz_check("p unchanged", pc[i], P[i], 0);
    fz_check("q unchanged", Q[i], q0[i], 0);
  }
  return fz_finish();
}

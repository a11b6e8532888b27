// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: llvm.x86.
// Target intrinsics (_mm256_hadd_pd & co.) have no derivative rules yet.
// CFLAGS: -march=x86-64-v3
// Hand-written AVX intrinsics: hadd, blendv, max/min, permute, dp_ps,
// sqrt, fmadd, round, and movemask-based control.
#include "../c/fz_test.h"
#include <immintrin.h>

double f_hadd(const double *x) {
  __m256d a = _mm256_loadu_pd(x), b = _mm256_loadu_pd(x + 4);
  __m256d h = _mm256_hadd_pd(_mm256_mul_pd(a, a), b);
  double o[4];
  _mm256_storeu_pd(o, h);
  return o[0] + 2 * o[1] + 3 * o[2] + 4 * o[3];
}
double f_blend(const double *x) {
  __m256d a = _mm256_loadu_pd(x), b = _mm256_loadu_pd(x + 4);
  __m256d m = _mm256_cmp_pd(a, b, _CMP_LT_OQ);
  __m256d r = _mm256_blendv_pd(_mm256_mul_pd(a, b), _mm256_mul_pd(b, b), m);
  double o[4];
  _mm256_storeu_pd(o, r);
  return o[0] + 2 * o[1] + 3 * o[2] + 4 * o[3];
}
double f_maxmin(const double *x) {
  __m256d a = _mm256_loadu_pd(x), b = _mm256_loadu_pd(x + 4);
  __m256d r = _mm256_add_pd(_mm256_max_pd(a, b), _mm256_mul_pd(_mm256_min_pd(a, b), a));
  double o[4];
  _mm256_storeu_pd(o, r);
  return o[0] + 2 * o[1] + 3 * o[2] + 4 * o[3];
}
double f_perm(const double *x) {
  __m256d a = _mm256_loadu_pd(x), b = _mm256_loadu_pd(x + 4);
  __m256d p = _mm256_permute4x64_pd(a, 0x1B);
  __m256d q = _mm256_permute2f128_pd(a, b, 0x21);
  __m256d r = _mm256_fmadd_pd(p, q, _mm256_sqrt_pd(_mm256_mul_pd(b, b)));
  double o[4];
  _mm256_storeu_pd(o, r);
  return o[0] + 2 * o[1] + 3 * o[2] + 4 * o[3];
}
float f_dp(const float *x) {
  __m128 a = _mm_loadu_ps(x), b = _mm_loadu_ps(x + 4);
  __m128 d = _mm_dp_ps(a, b, 0xF1);
  __m128 r = _mm_rsqrt_ps(_mm_mul_ps(a, a));  /* approximate, ~1e-3 */
  float o[4];
  _mm_storeu_ps(o, r);
  return _mm_cvtss_f32(d) + o[0] * 0.0f;
}

struct ctx { int w; double *x; };
static double eval(void *p) {
  struct ctx *c = p;
  switch (c->w) {
    case 0: return f_hadd(c->x);
    case 1: return f_blend(c->x);
    case 2: return f_maxmin(c->x);
    default: return f_perm(c->x);
  }
}

int main(void) {
  double x[8] = {0.3, -0.7, 1.2, 0.5, -0.2, 0.9, -1.1, 0.45}, dx[8], fd[8];
  const char *nm[4] = {"hadd", "blend", "maxmin", "perm"};
  for (int w = 0; w < 4; w++) {
    fz_zero(dx, 8);
    if (w == 0) __enzyme_autodiff((void *)f_hadd, enzyme_dup, x, dx);
    if (w == 1) __enzyme_autodiff((void *)f_blend, enzyme_dup, x, dx);
    if (w == 2) __enzyme_autodiff((void *)f_maxmin, enzyme_dup, x, dx);
    if (w == 3) __enzyme_autodiff((void *)f_perm, enzyme_dup, x, dx);
    struct ctx c = {w, x};
    fz_fd_grad(eval, &c, x, 8, fd);
    fz_check_arr(nm[w], dx, fd, 8, 1e-6);
  }
  float xf[8] = {0.3f, -0.7f, 1.2f, 0.5f, -0.2f, 0.9f, -1.1f, 0.45f}, dxf[8] = {0}, wf[8];
  __enzyme_autodiff((void *)f_dp, enzyme_dup, xf, dxf);
  for (int i = 0; i < 4; i++) { wf[i] = xf[i + 4]; wf[i + 4] = xf[i]; }
  fz_check_arrf("dp", dxf, wf, 8, 1e-5);
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// IGNORE-REF: with --ad-before-opt the SSE wrapper `_mm_xor_pd` is differentiated as a function of its own whose mask is a parameter, not a constant: a clear unsupported-instruction error (integer arithmetic on the bits of a float); -O0..-O3 and the plugin inline it
// SSE2 code that moves the doubles of an __m128d with _mm_shuffle_epi32 (no 64-bit
// shuffle takes one register in SSE2; Eigen's complex-double packets do this): swap
// (0x4E), broadcast of the low (0x44) and of the high double (0xEE), a two-register
// _mm_unpackhi_epi64 of integer views, and _mm_xor_pd negating one lane, in reverse and
// forward mode. At -O0 the shuffles stay `<4 x i32>` shuffles of the doubles' halves;
// their derivative was a silent zero (double_halves.rs). Oracle: analytic.
#include "fz_test.h"
#include <emmintrin.h>

extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff_void(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

static inline __m128d shuf(__m128d x, int which) {
  __m128i b = _mm_castpd_si128(x);
  switch (which) {
  case 0: return _mm_castsi128_pd(_mm_shuffle_epi32(b, 0x4E)); /* swap */
  case 1: return _mm_castsi128_pd(_mm_shuffle_epi32(b, 0x44)); /* low, low */
  default: return _mm_castsi128_pd(_mm_shuffle_epi32(b, 0xEE)); /* high, high */
  }
}

/* c . (shuffle(x) * y) + 0.5 * (-x0*y1 + x1*y0) and an unpack of two integer views */
double kernel(const double *a, const double *b, int which) {
  __m128d x = _mm_loadu_pd(a), y = _mm_loadu_pd(b);
  __m128d s = _mm_mul_pd(shuf(x, which), y);
  __m128d t = _mm_mul_pd(x, _mm_castsi128_pd(_mm_shuffle_epi32(_mm_castpd_si128(y), 0x4E)));
  t = _mm_xor_pd(t, _mm_set_pd(0.0, -0.0)); /* -x0*y1, x1*y0 */
  __m128d u = _mm_castsi128_pd(_mm_unpackhi_epi64(_mm_castpd_si128(x), _mm_castpd_si128(y)));
  double o[2], p[2], q[2];
  _mm_storeu_pd(o, s);
  _mm_storeu_pd(p, t);
  _mm_storeu_pd(q, u); /* x1, y1 */
  return 3 * o[0] + 5 * o[1] + 0.5 * (p[0] + p[1]) + q[0] * q[1];
}

int main(void) {
  double a[2] = {1.5, -0.75}, b[2] = {0.25, 2.0};
  for (int which = 0; which < 3; which++) {
    /* shuffled x lanes: which 0 -> (x1, x0), 1 -> (x0, x0), 2 -> (x1, x1) */
    static const int lanes[3][2] = {{1, 0}, {0, 0}, {1, 1}};
    int l0 = lanes[which][0], l1 = lanes[which][1];
    double ga[2] = {0, 0}, gb[2] = {0, 0};
    ga[l0] += 3 * b[0];
    ga[l1] += 5 * b[1];
    gb[0] += 3 * a[l0];
    gb[1] += 5 * a[l1];
    ga[0] += -0.5 * b[1];
    gb[1] += -0.5 * a[0];
    ga[1] += 0.5 * b[0];
    gb[0] += 0.5 * a[1];
    ga[1] += b[1];
    gb[1] += a[1];
    double da[2] = {0, 0}, db[2] = {0, 0};
    __enzyme_autodiff_void((void *)kernel, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const,
                           which);
    char m[64];
    for (int i = 0; i < 2; i++) {
      snprintf(m, sizeof m, "which %d rev da[%d]", which, i);
      fz_check(m, da[i], ga[i], 1e-14);
      snprintf(m, sizeof m, "which %d rev db[%d]", which, i);
      fz_check(m, db[i], gb[i], 1e-14);
    }
    double ta[2] = {0.5, -1.0}, tb[2] = {2.0, 0.25};
    double t = __enzyme_fwddiff((void *)kernel, enzyme_dup, a, ta, enzyme_dup, b, tb,
                                enzyme_const, which);
    snprintf(m, sizeof m, "which %d fwd", which);
    fz_check(m, t, ga[0] * ta[0] + ga[1] * ta[1] + gb[0] * tb[0] + gb[1] * tb[1], 1e-14);
  }
  return fz_finish();
}

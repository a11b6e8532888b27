// OPT: O0
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: moves pieces of active doubles in integer lanes narrower than a double
// _mm_shuffle_epi32 with 0xB1 swaps the 32-bit halves of each double of an __m128d:
// the result is made of pieces of the inputs, which no derivative describes. At -O0
// the shuffle stays one of <4 x i32>; it used to be a silent zero derivative.
#include <emmintrin.h>
extern int enzyme_dup;
extern void __enzyme_autodiff(void *, ...);

double scramble(const double *a) {
  __m128d x = _mm_loadu_pd(a);
  __m128d s = _mm_castsi128_pd(_mm_shuffle_epi32(_mm_castpd_si128(x), 0xB1));
  double o[2];
  _mm_storeu_pd(o, s);
  return o[0] * 3 + o[1] * 5;
}

int main(void) {
  double a[2] = {1, 2}, d[2] = {0, 0};
  __enzyme_autodiff((void *)scramble, enzyme_dup, a, d);
  return d[0] != 0.0;
}

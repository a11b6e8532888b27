/* FFT, second formulation: the same problem, harness and checks as fft.c
 * (foobar = ifft(fft(data)) in place on N interleaved complex numbers), with the
 * transform written iteratively, as most hand-written FFTs are: the bit-reversal
 * permutation, then log2 N stages of butterflies over blocks of doubling length,
 * the twiddles of each block from a rotation recurrence started at the stage's
 * cos/sin, and the 1/N scaling of the inverse folded into one loop. */
#define FFT_ELSEWHERE
#include "fft.c"

/* Radix-2 decimation in time on scrambled data: sign s = +1 forward, -1 inverse
 * (twiddles exp(-s 2 pi i k / len)). */
static void stages(double *data, unsigned long n, int s) {
  for (unsigned long len = 2; len <= n; len <<= 1) {
    double theta = -s * 2.0 * M_PI / (double)len;
    double cr = cos(theta), ci = sin(theta);
    for (unsigned long start = 0; start < n; start += len) {
      double wr = 1.0, wi = 0.0;
      for (unsigned long k = 0; k < len / 2; k++) {
        unsigned long a = 2 * (start + k), b = a + len;
        double tr = data[b] * wr - data[b + 1] * wi;
        double ti = data[b] * wi + data[b + 1] * wr;
        data[b] = data[a] - tr;
        data[b + 1] = data[a + 1] - ti;
        data[a] += tr;
        data[a + 1] += ti;
        double t = wr;
        wr = wr * cr - wi * ci;
        wi = wi * cr + t * ci;
      }
    }
  }
}

static void fft(double *data, unsigned long n) {
  scramble(data, n);
  stages(data, n, 1);
}

/* Differentiated (in place). */
void foobar(double *data, unsigned long n) {
  fft(data, n);
  scramble(data, n);
  stages(data, n, -1);
  double inv = 1.0 / (double)n;
  for (unsigned long i = 0; i < 2 * n; i++) data[i] *= inv;
}

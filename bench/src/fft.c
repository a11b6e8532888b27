/* FFT: recursive radix-2 decimation-in-time FFT on N interleaved complex
 * numbers (BENCHMARKS.md 6.2), written here from the description: a
 * bit-reversal permutation (Numerical Recipes' four1 indexing) followed by a
 * recursion that transforms both halves and combines them with twiddles
 * from a recurrence.  The benchmarked function is foobar = ifft(fft(data)),
 * in place; reverse mode with the shadow seeded to 1 everywhere gives back 1
 * everywhere (the adjoint of the identity).
 */
#include "bench.h"

/* Bit-reversal permutation of the n complex values in data (2n doubles). */
static void scramble(double *data, unsigned long n) {
  unsigned long j = 1;
  for (unsigned long ii = 0; ii < n; ii++) {
    unsigned long i = 2 * ii + 1;
    if (j > i) {
      double t = data[j - 1];
      data[j - 1] = data[i - 1];
      data[i - 1] = t;
      t = data[j];
      data[j] = data[i];
      data[i] = t;
    }
    unsigned long m = n;
    while (m >= 2 && j > m) {
      j -= m;
      m >>= 1;
    }
    j += m;
  }
}

/* Danielson-Lanczos recursion on the already scrambled data; sign s = +1 for
 * the forward transform, -1 for the inverse. */
static void rec_apply(double *data, unsigned long n, int s) {
  if (n == 1) return;
  rec_apply(data, n / 2, s);
  rec_apply(data + n, n / 2, s);
  double wt = s * sin(M_PI / (double)n);
  double wpr = -2.0 * wt * wt;
  double wpi = -s * sin(2.0 * M_PI / (double)n);
  double wr = 1.0, wi = 0.0;
  for (unsigned long ii = 0; ii < n / 2; ii++) {
    unsigned long i = 2 * ii, in = i + n;
    double tr = data[in] * wr - data[in + 1] * wi;
    double ti = data[in] * wi + data[in + 1] * wr;
    data[in] = data[i] - tr;
    data[in + 1] = data[i + 1] - ti;
    data[i] += tr;
    data[i + 1] += ti;
    double t = wr;
    wr = wr * (wpr + 1.0) - wi * wpi;
    wi = wi * (wpr + 1.0) + t * wpi;
  }
}

#ifdef FFT_ELSEWHERE
/* another formulation (fft_iter.c) brings fft, ifft and foobar and reuses the harness */
static void fft(double *data, unsigned long n);
void foobar(double *data, unsigned long n);
#else
static void fft(double *data, unsigned long n) {
  scramble(data, n);
  rec_apply(data, n, 1);
}

static void ifft(double *data, unsigned long n) {
  scramble(data, n);
  rec_apply(data, n, -1);
  for (unsigned long i = 0; i < 2 * n; i++) data[i] /= (double)n;
}

/* Differentiated (in place). */
void foobar(double *data, unsigned long n) {
  fft(data, n);
  ifft(data, n);
}
#endif

/* ---- harness ------------------------------------------------------------ */
typedef struct {
  unsigned long n;
  double *data, *ddata, *seed;
} fft_ctx;

static void run_primal(void *p) {
  fft_ctx *c = p;
  foobar(c->data, c->n);
  bench_sink = c->data[0];
}

/* One gradient: shadow = 1 in, J^T 1 = 1 out (so repeated calls keep the
 * same seed without resetting it). */
static void run_grad(void *p) {
  fft_ctx *c = p;
  __enzyme_autodiff((void *)foobar, enzyme_dupnoneed, c->data, c->ddata, enzyme_const, c->n);
  bench_sink = c->ddata[0];
}

/* FD functional: seed . foobar(data) */
static fft_ctx *fd_c;
static double *fd_work;
static double eval_dot(void *unused) {
  (void)unused;
  fft_ctx *c = fd_c;
  memcpy(fd_work, c->data, sizeof(double) * 2 * c->n);
  foobar(fd_work, c->n);
  double s = 0.0;
  for (unsigned long i = 0; i < 2 * c->n; i++) s += c->seed[i] * fd_work[i];
  return s;
}

int main(int argc, char **argv) {
  bench_opts o = bench_parse(argc, argv);
  fft_ctx c = {0};
  c.n = strtoul(o.input, NULL, 10);
  if (c.n < 2 || (c.n & (c.n - 1))) {
    printf("CHECK FAIL input must be a power of two N (complex points)\n");
    return bench_finish();
  }
  unsigned long n = c.n, len = 2 * n;
  c.data = malloc(sizeof(double) * len);
  c.ddata = malloc(sizeof(double) * len);
  c.seed = malloc(sizeof(double) * len);
  printf("INFO fft N=%lu complex points\n", n);

  /* the forward transform on the small check vector of the reference */
  {
    double v[16], ref[16];
    for (int i = 0; i < 16; i++) v[i] = i + 1;
    fft(v, 8);
    char path[1024];
    snprintf(path, sizeof path, "%s/reference/misc_reference.json", o.data);
    char *json = bench_slurp(path);
    const char *sec = json ? strstr(json, "\"fft_small\"") : NULL;
    if (sec && bench_json_nums(sec, NULL, "fft_output", ref, 16) == 16)
      bench_check_arr("fft of (1+2i, ..., 15+16i) vs reference", v, ref, 16, 1e-12);
    free(json);
  }
  for (unsigned long i = 0; i < len; i++) c.data[i] = 2.0;
  foobar(c.data, n);
  double worst = 0;
  for (unsigned long i = 0; i < len; i++) {
    double e = bench_finite(c.data[i]) ? fabs(c.data[i] - 2.0) : 1e300;
    if (e > worst) worst = e;
  }
  bench_check("max |ifft(fft(2)) - 2|", worst, 0.0, 1e-10);

  if (o.grad) {
    /* Enzyme's harness: input 2.0, shadow 1.0 -> gradient 1.0 everywhere */
    for (unsigned long i = 0; i < len; i++) c.data[i] = 2.0, c.ddata[i] = 1.0;
    run_grad(&c);
    double *want = malloc(sizeof(double) * len);
    for (unsigned long i = 0; i < len; i++) want[i] = 1.0;
    bench_check_arr("gradient with seed 1 (= 1 everywhere)", c.ddata, want, len, 1e-10);
    /* a random seed and random data: gradient of seed.foobar(x) must equal the
     * seed, and match finite differences on a few coordinates */
    uint64_t st = 12345;
    for (unsigned long i = 0; i < len; i++) {
      st ^= st << 13, st ^= st >> 7, st ^= st << 17;
      c.seed[i] = (double)(st >> 11) / 9007199254740992.0 - 0.5;
      st ^= st << 13, st ^= st >> 7, st ^= st << 17;
      c.data[i] = (double)(st >> 11) / 9007199254740992.0 * 4.0 - 2.0;
      c.ddata[i] = c.seed[i];
    }
    double *x0 = malloc(sizeof(double) * len);
    memcpy(x0, c.data, sizeof(double) * len);
    run_grad(&c);
    memcpy(c.data, x0, sizeof(double) * len); /* dupnoneed: primal output unspecified */
    bench_check_arr("gradient with a random seed (= the seed)", c.ddata, c.seed, len, 1e-10);
    fd_c = &c;
    fd_work = malloc(sizeof(double) * len);
    unsigned long picks[4] = {0, 1, len / 3, len - 1};
    for (int i = 0; i < 4; i++) {
      char what[96];
      snprintf(what, sizeof what, "grad[%lu] vs finite differences", picks[i]);
      bench_check(what, c.ddata[picks[i]], bench_fd(eval_dot, NULL, &c.data[picks[i]], 1e-3),
                  1e-8);
    }
    free(fd_work);
    free(x0);
    free(want);
    /* back to Enzyme's setting for the timing */
    for (unsigned long i = 0; i < len; i++) c.data[i] = 2.0, c.ddata[i] = 1.0;
  }
  if (bench_failures) return bench_finish();
  for (unsigned long i = 0; i < len; i++) c.data[i] = 2.0;
  if (o.primal) bench_measure("primal", run_primal, &c, &o);
  if (o.grad) {
    bench_measure("grad", run_grad, &c, &o);
    /* the seed must have stayed 1: a drifting shadow would mean wrong timings */
    double drift = 0;
    for (unsigned long i = 0; i < len; i++)
      if (!bench_finite(c.ddata[i]) || fabs(c.ddata[i] - 1.0) > drift)
        drift = bench_finite(c.ddata[i]) ? fabs(c.ddata[i] - 1.0) : 1e300;
    bench_check("shadow after the timed calls (still 1)", drift, 0.0, 1e-6);
  }
  return bench_finish();
}

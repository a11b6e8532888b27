// OPT: O0 O1 O2 O3
// Recursive radix-2 FFTs (issue 14, fft13): every call of the recursive butterfly
// function reserves its loop's record stack once (a counted loop after the two recursive
// calls: fixed_tape.rs), in a split pair whose tapes come from the per-thread arena;
// small stack buffers come from malloc, the top levels' (N = 1024) from the pool. Written
// for an experiment that moved the small buffers into the arena (bench/README "fft13",
// not kept), it stays as the recursive FFT's regression test. Checked: ifft(fft(x)) in
// place with enzyme_dupnoneed (the gradient of seed . foobar(x) is the seed, and finite
// differences) at N = 4, 256 and 1024; the power spectrum sum_k w_k |X_k|^2 against
// Parseval (w = 1: 2 N x) and finite differences; a nonlinear recursive butterfly whose
// records hold data values, against finite differences; and the tape memory held after
// each gradient (back to where it was: every tape block and stack buffer given back) and
// its peak over 20 gradients (no growth).
#include "fz_test.h"

extern long long __ferrozyme_tape_stats[2] __attribute__((weak));

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

static void fft(double *data, unsigned long n) {
  scramble(data, n);
  rec_apply(data, n, 1);
}

static void ifft(double *data, unsigned long n) {
  scramble(data, n);
  rec_apply(data, n, -1);
  for (unsigned long i = 0; i < 2 * n; i++) data[i] /= (double)n;
}

void roundtrip(double *data, unsigned long n) {
  fft(data, n);
  ifft(data, n);
}

/* sum_k w_k |X_k|^2, X = fft(x) computed in work (2n doubles) */
double spectrum(const double *x, double *work, const double *w, unsigned long n) {
  for (unsigned long i = 0; i < 2 * n; i++) work[i] = x[i];
  fft(work, n);
  double e = 0.0;
  for (unsigned long k = 0; k < n; k++)
    e += w[k] * (work[2 * k] * work[2 * k] + work[2 * k + 1] * work[2 * k + 1]);
  return e;
}

/* A nonlinear butterfly: the reverse sweep needs the data values of every iteration. */
static void rec_nl(double *d, unsigned long n, double c) {
  if (n == 1) return;
  rec_nl(d, n / 2, c);
  rec_nl(d + n, n / 2, 0.9 * c);
  double g = c;
  for (unsigned long ii = 0; ii < n; ii++) {
    double a = d[ii], b = d[ii + n];
    d[ii] = a + g * sin(b);
    d[ii + n] = 0.5 * a * b - g * cos(a);
    g = 0.8 * g + 0.1;
  }
}

double nl(double *d, unsigned long n) {
  rec_nl(d, n, 0.7);
  double s = 0.0;
  for (unsigned long i = 0; i < 2 * n; i++) s += (i % 3 + 1) * d[i];
  return s;
}

/* ---- finite-difference functionals ------------------------------------- */
typedef struct {
  double *x, *work, *seed, *w;
  unsigned long n;
} ctx_t;

static double eval_roundtrip(void *p) {
  ctx_t *c = p;
  for (unsigned long i = 0; i < 2 * c->n; i++) c->work[i] = c->x[i];
  roundtrip(c->work, c->n);
  double s = 0.0;
  for (unsigned long i = 0; i < 2 * c->n; i++) s += c->seed[i] * c->work[i];
  return s;
}

static double eval_spectrum(void *p) {
  ctx_t *c = p;
  return spectrum(c->x, c->work, c->w, c->n);
}

static double eval_nl(void *p) {
  ctx_t *c = p;
  for (unsigned long i = 0; i < 2 * c->n; i++) c->work[i] = c->x[i];
  return nl(c->work, c->n);
}

static void check_roundtrip(unsigned long n) {
  unsigned long len = 2 * n;
  double *x = malloc(sizeof(double) * len), *x0 = malloc(sizeof(double) * len);
  double *dx = malloc(sizeof(double) * len), *seed = malloc(sizeof(double) * len);
  double *work = malloc(sizeof(double) * len);
  fz_fill(x, (int)len, -2, 2);
  fz_fill(seed, (int)len, -0.5, 0.5);
  for (unsigned long i = 0; i < len; i++) x0[i] = x[i], dx[i] = seed[i];
  long long held = __ferrozyme_tape_stats ? __ferrozyme_tape_stats[0] : 0;
  __enzyme_autodiff((void *)roundtrip, enzyme_dupnoneed, x, dx, enzyme_const, n);
  if (__ferrozyme_tape_stats)
    fz_check("roundtrip: tape bytes held after the gradient", (double)__ferrozyme_tape_stats[0],
             (double)held, 0);
  char what[96];
  snprintf(what, sizeof what, "roundtrip N=%lu: gradient = seed", n);
  fz_check_arr(what, dx, seed, (int)len, 1e-10);
  for (unsigned long i = 0; i < len; i++) x[i] = x0[i];
  ctx_t c = {x, work, seed, NULL, n};
  unsigned long picks[4] = {0, 1, len / 3, len - 1};
  for (int k = 0; k < 4; k++) {
    snprintf(what, sizeof what, "roundtrip N=%lu: grad[%lu] vs finite differences", n, picks[k]);
    fz_check(what, dx[picks[k]], fz_fd_ptr(eval_roundtrip, &c, &x[picks[k]]), 1e-6);
  }
  free(x), free(x0), free(dx), free(seed), free(work);
}

static void check_spectrum(unsigned long n) {
  unsigned long len = 2 * n;
  double *x = malloc(sizeof(double) * len), *dx = calloc(len, sizeof(double));
  double *work = malloc(sizeof(double) * len), *dwork = calloc(len, sizeof(double));
  double *w = malloc(sizeof(double) * n), *want = malloc(sizeof(double) * len);
  fz_fill(x, (int)len, -1, 1);
  for (unsigned long k = 0; k < n; k++) w[k] = 1.0;
  __enzyme_autodiff((void *)spectrum, enzyme_dup, x, dx, enzyme_dup, work, dwork,
                    enzyme_const, w, enzyme_const, n);
  for (unsigned long i = 0; i < len; i++) want[i] = 2.0 * (double)n * x[i];
  char what[96];
  snprintf(what, sizeof what, "spectrum N=%lu, w = 1: gradient = 2 N x (Parseval)", n);
  fz_check_arr(what, dx, want, (int)len, 1e-9);
  for (unsigned long k = 0; k < n; k++) w[k] = 0.5 + (double)(k % 5) / (double)n;
  fz_zero(dx, (int)len);
  fz_zero(dwork, (int)len);
  __enzyme_autodiff((void *)spectrum, enzyme_dup, x, dx, enzyme_dup, work, dwork,
                    enzyme_const, w, enzyme_const, n);
  ctx_t c = {x, work, NULL, w, n};
  /* E is quadratic and large (~N |x|^2): the five-point difference with its larger step
   * is exact up to rounding, the central one with h = 1e-6 is not (cancellation) */
  for (unsigned long i = 0; i < len; i++) want[i] = fz_fd5_ptr(eval_spectrum, &c, &x[i]);
  snprintf(what, sizeof what, "spectrum N=%lu, weighted: gradient vs finite differences", n);
  fz_check_arr(what, dx, want, (int)len, 1e-6);
  free(x), free(dx), free(work), free(dwork), free(w), free(want);
}

static void check_nl(unsigned long n) {
  unsigned long len = 2 * n;
  double *x = malloc(sizeof(double) * len), *d = malloc(sizeof(double) * len);
  double *dd = calloc(len, sizeof(double)), *work = malloc(sizeof(double) * len);
  double *want = malloc(sizeof(double) * len);
  fz_fill(x, (int)len, -1, 1);
  for (unsigned long i = 0; i < len; i++) d[i] = x[i];
  __enzyme_autodiff((void *)nl, enzyme_dup, d, dd, enzyme_const, n);
  ctx_t c = {x, work, NULL, NULL, n};
  fz_fd_grad(eval_nl, &c, x, (int)len, want);
  char what[96];
  snprintf(what, sizeof what, "nonlinear recursion N=%lu: gradient vs finite differences", n);
  fz_check_arr(what, dd, want, (int)len, 1e-6);
  free(x), free(d), free(dd), free(work), free(want);
}

/* Twenty gradients in a row: the peak of tape bytes stays that of the first (arena
 * blocks are given back, not accumulated). */
static void check_repeated(unsigned long n) {
  unsigned long len = 2 * n;
  double *x = malloc(sizeof(double) * len), *dx = malloc(sizeof(double) * len);
  for (unsigned long i = 0; i < len; i++) x[i] = 2.0, dx[i] = 1.0;
  __enzyme_autodiff((void *)roundtrip, enzyme_dupnoneed, x, dx, enzyme_const, n);
  long long peak = __ferrozyme_tape_stats ? __ferrozyme_tape_stats[1] : 0;
  for (int r = 0; r < 19; r++)
    __enzyme_autodiff((void *)roundtrip, enzyme_dupnoneed, x, dx, enzyme_const, n);
  if (__ferrozyme_tape_stats)
    fz_check("20 gradients: peak tape bytes as after the first",
             (double)__ferrozyme_tape_stats[1], (double)peak, 0);
  double *ones = malloc(sizeof(double) * len);
  for (unsigned long i = 0; i < len; i++) ones[i] = 1.0;
  fz_check_arr("20 gradients: the seed 1 stays 1", dx, ones, (int)len, 1e-9);
  free(x), free(dx), free(ones);
}

int main(void) {
  fz_seed(678);
  check_roundtrip(4);
  check_roundtrip(256);
  check_roundtrip(1024);
  check_spectrum(16);
  check_spectrum(256);
  check_nl(8);
  check_nl(64);
  check_repeated(512);
  return fz_finish();
}

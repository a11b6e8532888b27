// OPT: O0 O2
// probe45: C as scientists write it, the corners nobody checked yet, in one program: an
// `__int128` counter picking weights, `#pragma pack(1)` records with misaligned doubles,
// bit-fields beside doubles (memset first), a `_Thread_local` accumulator, a mutable
// global table of function pointers filled in `main` and chosen per element at run
// time, two sorting networks (compare-exchange by `fmin`/`fmax` and by branches, on
// active keys), `errno`/`fenv` checks around `log`/`pow` with early returns and
// `isfinite`/`signbit`/`fpclassify`, `strtod` of a literal, an allocator wrapper taking
// an enum read from a global declared inactive (Enzyme's customglob shape), and
// `posix_memalign` in a loop of a float function (Enzyme's posix_memalignfor shape).
// Reverse mode against central differences, forward mode against <gradient, v>
// (fz_grad_check.h); the float function analytically. Passed as written at O0-O3 and
// `--ad-before-opt`.
#include "fz_test.h"
#include "fz_grad_check.h"
#include <errno.h>
#include <fenv.h>

double int128_weights(const double *x, int n) {
  __int128 c = 0;
  double s = 0;
  for (int i = 0; i < n; i++) {
    c = c * 3 + (x[i] > 0.5);
    s += x[i] * x[i] * (double)(c % 7);
  }
  return s + (double)(x[0] > 0) * x[1];
}

#pragma pack(push, 1)
struct packed { char tag; double a; short s; double b; };
#pragma pack(pop)
struct bits { unsigned flag : 1; unsigned kind : 3; double w; unsigned cnt : 12; double z; };
double records(const double *x, int n) {
  struct packed p[3];
  struct bits b[4];
  memset(b, 0, sizeof b);
  for (int i = 0; i < 3; i++) { p[i].tag = 'a' + i; p[i].a = x[i]; p[i].s = i; p[i].b = x[i] * x[i + 1]; }
  for (int i = 0; i < 4; i++) { b[i].flag = i & 1; b[i].kind = i; b[i].w = x[i] * 2; b[i].cnt = i * 3; b[i].z = x[i + 1] * x[i]; }
  double s = 0;
  for (int i = 0; i < 3; i++) s += p[i].a * p[i].b + p[i].s * p[i].a;
  for (int i = 0; i < 4; i++) s += (b[i].flag ? b[i].w * b[i].z : b[i].w) * (b[i].kind + b[i].cnt);
  (void)n;
  return s;
}

_Thread_local double tl_acc;
static double fa(double v) { return v * v; }
static double fb(double v) { return sin(v); }
static double fc(double v) { return exp(-v); }
double (*ops[3])(double);
int which[8] = {1, 2, 0, 0, 2, 1, 1, 0};
double tls_and_table(const double *x, int n) {
  tl_acc = 0;
  for (int i = 0; i < n; i++) tl_acc += ops[which[i]](x[i]) * x[i];
  return tl_acc * 2;
}

#define CSWAP(a, b) do { double lo_ = fmin(a, b), hi_ = fmax(a, b); a = lo_; b = hi_; } while (0)
#define BSWAP(a, b) do { if (a > b) { double t_ = a; a = b; b = t_; } } while (0)
double sorting_networks(const double *x, int n) {
  double a[6], b[6];
  for (int i = 0; i < 6; i++) { a[i] = x[i] * x[i] - 0.5 * x[i]; b[i] = sin(x[i]); }
  CSWAP(a[1], a[2]); CSWAP(a[4], a[5]); CSWAP(a[0], a[2]); CSWAP(a[3], a[5]); CSWAP(a[0], a[1]); CSWAP(a[3], a[4]);
  CSWAP(a[1], a[4]); CSWAP(a[0], a[3]); CSWAP(a[2], a[5]); CSWAP(a[1], a[3]); CSWAP(a[2], a[4]); CSWAP(a[2], a[3]);
  BSWAP(b[0], b[1]); BSWAP(b[2], b[3]); BSWAP(b[4], b[5]); BSWAP(b[0], b[2]); BSWAP(b[3], b[5]); BSWAP(b[1], b[4]);
  BSWAP(b[0], b[1]); BSWAP(b[2], b[3]); BSWAP(b[4], b[5]); BSWAP(b[1], b[2]); BSWAP(b[3], b[4]); BSWAP(b[2], b[3]);
  double s = 0;
  for (int i = 0; i < 6; i++) s += (i + 1) * a[i] + (i * i + 0.5) * b[i];
  (void)n;
  return s;
}

double checked_math(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    errno = 0;
    feclearexcept(FE_ALL_EXCEPT);
    double l = log(x[i] * x[i] + 0.5);
    if (errno || fetestexcept(FE_INVALID)) return -1;
    double p = pow(fabs(x[i]) + 0.1, 1.5);
    if (!isfinite(p) || signbit(p) || fpclassify(p) == FP_SUBNORMAL) continue;
    s += l * p;
  }
  return s + strtod("2.5", NULL) * x[0];
}

enum memkind { HOST, DEVICE };
enum memkind host_kind = HOST;
void *__enzyme_inactive_global = &host_kind;
__attribute__((noinline)) void *my_alloc(size_t sz, enum memkind k) { (void)k; return malloc(sz); }
__attribute__((noinline)) void my_free(void *p, enum memkind k) { (void)k; free(p); }
double wrapped_alloc(const double *x, int n) {
  double *t = my_alloc(n * sizeof(double), host_kind);
  for (int i = 0; i < n; i++) t[i] = x[i] * x[(i + 2) % n];
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(t[i]);
  my_free(t, host_kind);
  return s;
}

/* sum_i ((i + 1) inp)^2 over six separately allocated floats */
float memalign_loop(float inp, int n) {
  float *xs[6];
  for (int i = 0; i < 6; i++) {
    if (posix_memalign((void **)&xs[i], 16, 8 * (i + 1))) return 0;
    *xs[i] = inp * (i + 1);
  }
  float r = 0;
  for (int i = 0; i < 6; i++) { r += *xs[i] * *xs[i]; free(xs[i]); }
  (void)n;
  return r;
}
extern float __enzyme_autodiff_f(void *, float, int);

int main(void) {
  ops[0] = fa; ops[1] = fb; ops[2] = fc;
  double x[8];
  for (int i = 0; i < 8; i++) x[i] = 0.45 + 0.31 * i - 1.37 * (i % 3 == 1);
  FZ_CHECK_GRAD("__int128 counter", int128_weights, x, 8, 1e-6);
  FZ_CHECK_GRAD("packed records and bit-fields", records, x, 5, 1e-6);
  FZ_CHECK_GRAD("thread-local accumulator, mutable function table", tls_and_table, x, 8, 1e-6);
  double xn[6] = {0.25, -0.35, 0.95, 1.15, 0.55, 1.75}; /* no ties among the keys */
  FZ_CHECK_GRAD("sorting networks", sorting_networks, xn, 6, 1e-6);
  FZ_CHECK_GRAD("errno and fenv checks", checked_math, x, 6, 1e-6);
  FZ_CHECK_GRAD("allocator wrapper with an inactive enum", wrapped_alloc, x, 6, 1e-6);
  float d = __enzyme_autodiff_f((void *)memalign_loop, 1.5f, 3);
  fz_check("posix_memalign in a loop (float)", d, 2 * 1.5 * 91, 1e-5);
  return fz_finish();
}

// OPT: O0 O2
// err35: C library calls a new user puts in the differentiated function that carry no
// derivative: rand() (a constant drawn once per call), time(), clock(), getenv(),
// fprintf(stderr), puts(), and exit() on a path that is not taken. Each must be
// inactive and run exactly as often as in the primal: the derivative must not draw
// a second random number (checked by the next rand() after the derivative, against
// the sequence srand(7) gives), in reverse and in forward mode; and a void function
// differentiated forward with its output enzyme_dupnoneed. Oracle: analytic, with
// the random factor drawn from the same seed.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
extern void __enzyme_fwddiff_v(void *, ...) __asm__("__enzyme_fwddiff");

static int draws = 0;

double f(const double *x, int n) {
  if (n < 0) {
    fprintf(stderr, "f: bad n=%d\n", n);
    exit(3);
  }
  double noise = rand() / (double)RAND_MAX;
  draws++;
  time_t t = time(NULL);
  clock_t c = clock();
  double stamp = (t > 0 && c >= 0) ? 1.0 : 2.0;
  const char *e = getenv("FZ_1440_UNSET_VARIABLE");
  double sc = e ? atof(e) : 1.0;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (1 + noise) * stamp * sc * x[i] * x[i] + sin(x[i]);
  fprintf(stderr, "f: noise=%g s=%g\n", noise, s);
  puts("f done");
  return s;
}

void g(const double *x, double *y, int n) {
  double noise = rand() / (double)RAND_MAX;
  draws++;
  for (int i = 0; i < n; i++)
    y[i] = (2 + noise) * x[i] * x[i] * x[i];
  printf("g: noise=%g\n", noise);
}

int main(void) {
  enum { N = 5 };
  double x[N], dx[N], v[N];
  fz_fill(x, N, -1.5, 1.5);
  fz_fill(v, N, -1.0, 1.0);
  srand(7);
  int r1 = rand(), r2 = rand();
  double noise = r1 / (double)RAND_MAX;

  // Reverse: gradient (1 + noise) 2 x_i + cos x_i; one draw.
  srand(7);
  fz_zero(dx, N);
  draws = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++)
    fz_check("reverse d/dx_i", dx[i], (1 + noise) * 2 * x[i] + cos(x[i]), 1e-12);
  fz_check("reverse: one draw", draws, 1, 0);
  fz_check("reverse: rand() sequence advanced once", rand(), r2, 0);

  // Forward: <grad, v>; one draw.
  srand(7);
  draws = 0;
  double want = 0;
  for (int i = 0; i < N; i++) want += ((1 + noise) * 2 * x[i] + cos(x[i])) * v[i];
  double jv = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, N);
  fz_check("forward <grad, v>", jv, want, 1e-12);
  fz_check("forward: one draw", draws, 1, 0);
  fz_check("forward: rand() sequence advanced once", rand(), r2, 0);

  // Forward through a void function, output enzyme_dupnoneed: dy_i = 3 (2 + noise) x_i^2 v_i.
  double y[N], dy[N];
  fz_zero(y, N);
  fz_zero(dy, N);
  srand(7);
  draws = 0;
  __enzyme_fwddiff_v((void *)g, enzyme_dup, x, v, enzyme_dupnoneed, y, dy, enzyme_const, N);
  for (int i = 0; i < N; i++)
    fz_check("forward dupnoneed dy_i", dy[i], 3 * (2 + noise) * x[i] * x[i] * v[i], 1e-12);
  fz_check("forward void: one draw", draws, 1, 0);
  fz_check("forward void: rand() sequence advanced once", rand(), r2, 0);
  return fz_finish();
}

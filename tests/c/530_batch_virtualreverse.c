// OPT: O0 O2
// LLI: O0 O2
// __enzyme_batch: a scalar function over 4 lanes (vector arguments with one value per
// lane, a scalar shared by all lanes, a buffer with a byte stride), results returned in
// a struct and an array, a function writing through its pointer argument, width 1; and
// __enzyme_virtualreverse (the shadow of a function pointer: the function itself).
// Oracle: the function called lane by lane.
#include "fz_test.h"

extern int enzyme_width, enzyme_vector, enzyme_scalar, enzyme_buffer;
typedef struct { double r[4]; } v4;
typedef struct { int r[4]; } i4;
extern v4 __enzyme_batch(void *, ...);
extern i4 __enzyme_batch_i(void *, ...);
extern void __enzyme_batch_void(void *, ...);
extern double __enzyme_batch1(void *, ...);
extern void *__enzyme_virtualreverse(void *);

double f(double x, double s, const double *p) { return sin(x) * s + p[0] * p[1]; }
int count_above(double x, double t) { return x > t; }
void scale(double *p, double s) { p[0] *= s; }

int main(void) {
  double xs[4] = {0.1, -0.4, 1.3, 2.2}, s = 1.7;
  double buf[4][2] = {{1, 2}, {3, 4}, {-1, 0.5}, {2, -2}};
  v4 r = __enzyme_batch((void *)f, enzyme_width, 4, enzyme_vector, xs[0], xs[1], xs[2], xs[3],
                        enzyme_scalar, s, enzyme_buffer, (int)sizeof buf[0], &buf[0][0]);
  for (int k = 0; k < 4; k++) fz_check("batch lane", r.r[k], f(xs[k], s, buf[k]), 0);
  /* Default: every argument is a vector argument. */
  i4 c = __enzyme_batch_i((void *)count_above, enzyme_width, 4, xs[0], xs[1], xs[2], xs[3],
                          0.5, 0.5, 0.5, -1.0);
  for (int k = 0; k < 4; k++)
    fz_check("batch int lanes", c.r[k], count_above(xs[k], k == 3 ? -1.0 : 0.5), 0);
  /* Lanes that write through their pointers. */
  double w[4] = {1, 2, 3, 4};
  __enzyme_batch_void((void *)scale, enzyme_width, 4, enzyme_buffer, (int)sizeof(double), w,
                      enzyme_scalar, 2.0);
  for (int k = 0; k < 4; k++) fz_check("batch writes", w[k], 2.0 * (k + 1), 0);
  fz_check("batch width 1", __enzyme_batch1((void *)f, 0.3, s, buf[1]), f(0.3, s, buf[1]), 0);
  /* The shadow of a function pointer. */
  double (*g)(double, double, const double *) =
      (double (*)(double, double, const double *))__enzyme_virtualreverse((void *)f);
  fz_check("virtualreverse gives the function", g(0.2, 1.0, buf[0]), f(0.2, 1.0, buf[0]), 0);
  return fz_finish();
}

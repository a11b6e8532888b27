// OPT: O0 O2
// C library functions on the differentiated path that carry no derivative (the
// inactive-library table): snprintf into a local buffer, strlen, strcmp, strncmp,
// memcmp, atoi, isdigit, toupper, printf, puts, fflush(stdout). Their integer results scale
// the function; the derivative is that of the floating-point part. Oracle: analytic
// (the scale is computed from the same library calls, outside the derivative).
#include "fz_test.h"
#include <ctype.h>

static const int table_a[4] = {1, 2, 3, 4}, table_b[4] = {1, 2, 3, 5};

static double scale_of(int n, const char *mode) {
  char buf[64];
  int len = snprintf(buf, sizeof buf, "n=%d", n);
  double scale = (double)strlen(buf) + len;
  if (strcmp(mode, "square") == 0) scale *= 2;
  if (strncmp(mode, "sq", 2) == 0) scale += 1;
  if (memcmp(table_a, table_b, sizeof table_a) < 0) scale += 0.5;
  scale += atoi("3") + (isdigit((unsigned char)buf[2]) ? 1 : 0) + toupper('a') - 'A';
  return scale;
}

double f(const double *x, int n, const char *mode) {
  double scale = scale_of(n, mode);
  double s = 0;
  for (int i = 0; i < n; i++) s += scale * x[i] * x[i];
  printf("f: n=%d mode=%s s=%g\n", n, mode, s);
  puts("f done");
  fflush(stdout);
  return s;
}

int main(void) {
  fz_seed(281);
  double x[5], dx[5];
  fz_fill(x, 5, -1, 1);
  fz_zero(dx, 5);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 5, enzyme_const, "square");
  double scale = scale_of(5, "square");
  fz_check("scale", scale, 17.5, 0);
  for (int i = 0; i < 5; i++) fz_check("dx", dx[i], 2 * scale * x[i], 1e-12);
  return fz_finish();
}

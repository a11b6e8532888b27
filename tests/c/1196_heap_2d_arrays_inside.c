// OPT: O0 O1 O2 O3
// Two-dimensional arrays allocated inside the differentiated function in the three ways
// C programs do: a pointer to a VLA row type (`double (*a)[m] = malloc(n * sizeof *a)`),
// row pointers into one contiguous block (`double **r` with `r[i] = block + i * m`), and
// rows allocated one by one with calloc and freed in a loop; a 2-D smoothing pass moves
// values between them (neighbour reads with clamped indices). Oracle: central
// differences of the primal.
#include "fz_test.h"

enum { NR = 4, NC = 5 };

double smooth(const double *x, int n, int m) {
  double (*a)[m] = malloc(n * sizeof *a);
  double *block = malloc(n * m * sizeof *block);
  double **r = malloc(n * sizeof *r);
  double **c = malloc(n * sizeof *c);
  for (int i = 0; i < n; i++) {
    r[i] = block + i * m;
    c[i] = calloc(m, sizeof **c);
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) a[i][j] = x[i * m + j] * x[i * m + j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      int up = i > 0 ? i - 1 : i, dn = i + 1 < n ? i + 1 : i;
      int lf = j > 0 ? j - 1 : j, rt = j + 1 < m ? j + 1 : j;
      r[i][j] = 0.5 * a[i][j] + 0.125 * (a[up][j] + a[dn][j] + a[i][lf] + a[i][rt]);
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) c[i][j] = sin(r[i][j]) + r[(i + 1) % n][j] * x[i * m + j];
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) s += c[i][j] * c[i][j];
  for (int i = 0; i < n; i++) free(c[i]);
  free(c);
  free(r);
  free(block);
  free(a);
  return s;
}

static double ctx(void *p) { return smooth((const double *)p, NR, NC); }

int main(void) {
  double x[NR * NC], dx[NR * NC] = {0}, fd[NR * NC];
  fz_seed(9);
  fz_fill(x, NR * NC, -1, 1);
  __enzyme_autodiff((void *)smooth, enzyme_dup, x, dx, enzyme_const, NR, enzyme_const, NC);
  fz_fd_grad(ctx, x, x, NR * NC, fd);
  char nm[32];
  for (int k = 0; k < NR * NC; k++) {
    snprintf(nm, sizeof nm, "dx[%d]", k);
    fz_check(nm, dx[k], fd[k], 1e-6);
  }
  return fz_finish();
}

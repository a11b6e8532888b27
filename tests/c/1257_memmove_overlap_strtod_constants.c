// OPT: O0 O1 O2 O3
// `memmove` over overlapping ranges of an active buffer (a delay line shifted right by
// one and left by two in place, inside the differentiated function) and coefficients
// parsed with `strtod` from a constant string (parsing constants carries no derivative,
// the values are ordinary constants). A filter runs over the shifted line. Oracle:
// central differences of the primal and the analytic weights of each input.
#include "fz_test.h"

static const char *coef_text = "0.5 -0.25 0.125 1.5";
enum { N = 8, C = 4 };

double filter(double *line, const double *in, int n, int steps) {
  double c[C];
  const char *p = coef_text;
  char *end;
  for (int k = 0; k < C; k++) {
    c[k] = strtod(p, &end);
    p = end;
  }
  double acc = 0;
  for (int s = 0; s < steps; s++) {
    memmove(line + 1, line, (n - 1) * sizeof(double)); /* shift right, overlapping */
    line[0] = in[s];
    double y = 0;
    for (int k = 0; k < C; k++) y += c[k] * line[k];
    acc += y * y;
  }
  memmove(line, line + 2, (n - 2) * sizeof(double)); /* shift left by two */
  line[n - 2] = line[n - 1] = 0;
  for (int i = 0; i < n; i++) acc += c[3] * line[i] * line[i] * (i + 1);
  return acc;
}

static double g_line0[N], g_in[5];
static double eval(void *c) {
  (void)c;
  double line[N];
  memcpy(line, g_line0, sizeof line);
  return filter(line, g_in, N, 5);
}

int main(void) {
  fz_seed(57);
  fz_fill(g_line0, N, -1, 1);
  fz_fill(g_in, 5, -1, 1);
  double line[N], dline[N] = {0}, din[5] = {0};
  memcpy(line, g_line0, sizeof line);
  double f = __enzyme_autodiff((void *)filter, enzyme_dup, line, dline, enzyme_dup, g_in, din,
                               enzyme_const, N, enzyme_const, 5);
  (void)f;
  char nm[48];
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "d line0[%d]", i);
    fz_check(nm, dline[i], fz_fd_ptr(eval, NULL, &g_line0[i]), 1e-6);
  }
  for (int s = 0; s < 5; s++) {
    snprintf(nm, sizeof nm, "d in[%d]", s);
    fz_check(nm, din[s], fz_fd_ptr(eval, NULL, &g_in[s]), 1e-6);
  }
  /* the line after the call is the primal's */
  double ref[N];
  memcpy(ref, g_line0, sizeof ref);
  filter(ref, g_in, N, 5);
  for (int i = 0; i < N; i++) fz_check("line after call", line[i], ref[i], 0);
  return fz_finish();
}

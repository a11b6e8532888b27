// OPT: O0 O2
// Regression: 8-byte integers (`long`, `size_t`) stored into and loaded from memory that
// also holds differentiable data were rejected as `cannot-deduce-type` (type analysis
// knew only the first 4 bytes of each integer). Checked against the analytic gradient.
#include "fz_test.h"

struct Cell {
  double x;
  long n;
  double w[3];
  long steps;
};

void update(struct Cell *c, long k, double *out) {
  c->n = k * 3 + 1;
  c->steps += c->n;
  double s = 0;
  for (long i = 0; i < 3; i++) s += c->w[i] * c->x * (double)(c->n + i);
  *out = s * c->x + (double)c->steps;
}

int main(void) {
  struct Cell c = {1.25, 0, {0.5, -1.5, 2.0}, 7}, dc;
  memset(&dc, 0, sizeof dc);
  double out = 0, dout = 1;
  long k = 5;
  __enzyme_autodiff((void *)update, enzyme_dup, &c, &dc, enzyme_const, k, enzyme_dup, &out,
                    &dout);
  /* out = x^2 * sum_i w_i (n + i) + steps, with n = 3k + 1 */
  long n = 3 * k + 1;
  double sw = 0;
  for (int i = 0; i < 3; i++) sw += c.w[i] * (double)(n + i);
  fz_check("dx", dc.x, 2 * c.x * sw, 1e-12);
  for (int i = 0; i < 3; i++) {
    char name[16];
    snprintf(name, sizeof name, "dw[%d]", i);
    fz_check(name, dc.w[i], c.x * c.x * (double)(n + i), 1e-12);
  }
  fz_check("n", (double)c.n, (double)n, 0);
  fz_check("steps", (double)c.steps, 7.0 + (double)n, 0);
  return fz_finish();
}

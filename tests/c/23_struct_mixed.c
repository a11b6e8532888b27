// OPT: O0 O2
// A struct mixing int and double fields: struct {int n; double w; double v[4];}.
// The shadow struct gets gradients only in the double fields.
#include "fz_test.h"

typedef struct {
  int n;
  double w;
  double v[4];
} S;

double f(const S *s) {
  double acc = 0.0;
  for (int i = 0; i < s->n; i++) acc += s->v[i] * s->v[i];
  return s->w * acc + s->w * s->w * (double)s->n;
}

/* writes back into the struct */
void g(S *s, double *out) {
  s->w = s->w * 2.0;
  out[0] = s->w * s->v[0] + s->v[3];
}

int main(void) {
  fz_seed(23);
  S s, ds;
  s.n = 3;
  s.w = fz_uniform(0.5, 1.5);
  fz_fill(s.v, 4, -1, 1);
  memset(&ds, 0, sizeof ds);
  __enzyme_autodiff((void *)f, enzyme_dup, &s, &ds);
  double acc = s.v[0] * s.v[0] + s.v[1] * s.v[1] + s.v[2] * s.v[2];
  fz_check("dw", ds.w, acc + 2.0 * s.w * 3, 1e-10);
  for (int i = 0; i < 4; i++) {
    char what[32];
    snprintf(what, sizeof what, "dv[%d]", i);
    fz_check(what, ds.v[i], i < 3 ? 2.0 * s.w * s.v[i] : 0.0, 1e-10);
  }
  fz_check("dn stays 0 (int field)", (double)ds.n, 0.0, 0.0);

  double w0 = s.w, out = 0.0, dout = 1.0;
  memset(&ds, 0, sizeof ds);
  __enzyme_autodiff((void *)g, enzyme_dup, &s, &ds, enzyme_dup, &out, &dout);
  fz_check("g primal", out, 2.0 * w0 * s.v[0] + s.v[3], 1e-10);
  fz_check("g dw", ds.w, 2.0 * s.v[0], 1e-10);
  fz_check("g dv0", ds.v[0], 2.0 * w0, 1e-10);
  fz_check("g dv3", ds.v[3], 1.0, 1e-10);
  return fz_finish();
}

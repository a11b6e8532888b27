// OPT: O0 O2
// Type punning through a union of double and uint64_t: |x| by clearing the sign bit and
// -x by flipping it (the derivative is sign(x) and -1, carried through integer bit
// operations on the float's bits), in an array of structs whose bit-fields (kind : 3,
// on : 1, lvl : 12) sit beside the doubles, select the branch, and are updated in place.
// Oracles: central differences, forward mode = reverse mode, the bit-fields' primal
// update.
#include "fz_test.h"
#include "fz_modes.h"
typedef union { double d; uint64_t u; } pun;
static double abs_bits(double x) { pun p = {.d = x}; p.u &= ~(1ull << 63); return p.d; }
static double neg_bits(double x) { pun p = {.d = x}; p.u ^= 1ull << 63; return p.d; }
typedef struct { unsigned kind : 3; unsigned on : 1; int lvl : 12; double w; double v; } cell;
double f(cell *c, int n, double s) {
  double acc = 0;
  for (int i = 0; i < n; i++) {
    if (!c[i].on) continue;
    double t = c[i].kind == 2 ? abs_bits(c[i].v) : neg_bits(c[i].v);
    acc += c[i].w * t * s + c[i].lvl * c[i].v;
    c[i].lvl += 1;
  }
  return acc;
}
static cell C[6]; static double S = 1.3;
static double eval(void *u) { (void)u; cell tmp[6]; memcpy(tmp, C, sizeof C); return f(tmp, 6, S); }
int main(void) {
  for (int i = 0; i < 6; i++) { C[i].kind = i % 3; C[i].on = i != 4; C[i].lvl = i - 3; C[i].w = 0.5 + 0.1 * i; C[i].v = (i & 1 ? -1 : 1) * (0.3 + 0.2 * i); }
  cell c[6], dc[6];
  memcpy(c, C, sizeof C); memset(dc, 0, sizeof dc);
  double ds = __enzyme_autodiff((void *)f, enzyme_dup, c, dc, enzyme_const, 6, S);
  fz_check("d/ds", ds, fz_fd_ptr(eval, 0, &S), 1e-7);
  for (int i = 0; i < 6; i++) {
    fz_check("d/dw", dc[i].w, fz_fd_ptr(eval, 0, &C[i].w), 1e-7);
    fz_check("d/dv", dc[i].v, fz_fd_ptr(eval, 0, &C[i].v), 1e-7);
    fz_check("bit-fields updated", c[i].lvl, C[i].lvl + (i != 4), 0);
  }
  for (int j = 0; j < 6; j++) {
    cell c2[6], t2[6]; memcpy(c2, C, sizeof C); memset(t2, 0, sizeof t2); t2[j].v = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, c2, t2, enzyme_const, 6, S, 0.0);
    fz_check("fwd = rev", t, dc[j].v, 1e-12);
  }
  return fz_finish();
}

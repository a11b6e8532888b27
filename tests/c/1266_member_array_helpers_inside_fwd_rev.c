// OPT: O0 O1 O2 O3
// Member arrays written and read through pointer helpers INSIDE the differentiated
// function (c31's member-array typing, seen from the other side): `copy_in(c->w, src, 4)`
// and `scale(c->x, 3, a)` take pointers to the `double` member arrays of cells
// {int node[4]; double w[4]; double x[3]; int kind;} held in calloc'd memory, and
// `set_ints(c->node, 4, base)` fills the `int` member array through an `int *` helper;
// cells are copied whole (`cell t = cs[i]`, padding and ints included) and written back.
// Reverse mode and forward mode (the dot-product identity <J v, w> = <v, J^T w>).
// Oracle: central differences of the primal, and the identity.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

typedef struct {
  int node[4];
  double w[4];
  double x[3];
  int kind;
} cell;

__attribute__((noinline)) static void copy_in(double *dst, const double *src, int n) {
  for (int i = 0; i < n; i++) dst[i] = src[i];
}
__attribute__((noinline)) static void scale(double *v, int n, double a) {
  for (int i = 0; i < n; i++) v[i] *= a;
}
__attribute__((noinline)) static void set_ints(int *v, int n, int base) {
  for (int i = 0; i < n; i++) v[i] = (base + i) % 5;
}

enum { C = 3 };

double assemble(cell *cs, const double *src, double a, int nc) {
  double e = 0;
  for (int i = 0; i < nc; i++) {
    copy_in(cs[i].w, src + i, 4);
    set_ints(cs[i].node, 4, i);
    scale(cs[i].x, 3, a);
    cs[i].kind = i & 1;
  }
  for (int i = 0; i < nc; i++) {
    cell t = cs[i];
    for (int k = 0; k < 4; k++) e += t.w[k] * t.x[t.node[k] % 3] * (1 + t.kind);
    t.x[0] += t.w[0];
    cs[i] = t;
  }
  for (int i = 0; i < nc; i++) e += cs[i].x[0] * cs[i].x[0];
  return e;
}

static cell *g_cells0;
static double g_src[C + 4], g_a = 1.3;
static double eval(void *c) {
  (void)c;
  cell *cs = calloc(C, sizeof *cs);
  memcpy(cs, g_cells0, C * sizeof *cs);
  double r = assemble(cs, g_src, g_a, C);
  free(cs);
  return r;
}

int main(void) {
  fz_seed(66);
  g_cells0 = calloc(C, sizeof *g_cells0);
  for (int i = 0; i < C; i++) fz_fill(g_cells0[i].x, 3, -1, 1);
  fz_fill(g_src, C + 4, -1, 1);
  cell *cs = calloc(C, sizeof *cs), *dcs = calloc(C, sizeof *dcs);
  memcpy(cs, g_cells0, C * sizeof *cs);
  double dsrc[C + 4] = {0};
  double da = __enzyme_autodiff((void *)assemble, enzyme_dup, cs, dcs, enzyme_dup, g_src, dsrc,
                                enzyme_out, g_a, enzyme_const, C);
  char nm[48];
  for (int i = 0; i < C; i++)
    for (int d = 0; d < 3; d++) {
      snprintf(nm, sizeof nm, "d x[%d][%d]", i, d);
      fz_check(nm, dcs[i].x[d], fz_fd_ptr(eval, NULL, &g_cells0[i].x[d]), 1e-6);
    }
  for (int j = 0; j < C + 4; j++) {
    snprintf(nm, sizeof nm, "d src[%d]", j);
    fz_check(nm, dsrc[j], fz_fd_ptr(eval, NULL, &g_src[j]), 1e-6);
  }
  fz_check("d a", da, fz_fd_ptr(eval, NULL, &g_a), 1e-6);
  /* forward: tangent along v = (x tangents, src tangents, a tangent) */
  cell *tcs = calloc(C, sizeof *tcs);
  double tsrc[C + 4], dot = 0;
  memcpy(cs, g_cells0, C * sizeof *cs);
  for (int i = 0; i < C; i++)
    for (int d = 0; d < 3; d++) {
      tcs[i].x[d] = 0.1 * (i + 1) - 0.05 * d;
      dot += tcs[i].x[d] * dcs[i].x[d];
    }
  for (int j = 0; j < C + 4; j++) {
    tsrc[j] = 0.2 - 0.03 * j;
    dot += tsrc[j] * dsrc[j];
  }
  double ta = 0.7;
  dot += ta * da;
  double jv = __enzyme_fwddiff((void *)assemble, enzyme_dup, cs, tcs, enzyme_dup, g_src, tsrc,
                               g_a, ta, enzyme_const, C);
  fz_check("<J v, 1> = <v, J^T 1>", jv, dot, 1e-10);
  free(cs), free(dcs), free(tcs), free(g_cells0);
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// A small particle code in the global-state style of legacy C: positions in a mutable
// global array (shadowed automatically), a global struct of parameters, a ring buffer
// shifted with memmove, a snapshot with memcpy, a scratch buffer cleared with memset,
// and neighbour order found by qsort of an index array with a comparator that reads the
// global positions (integer results of float comparisons steer which pairs interact).
// The inputs are copied into the globals inside the differentiated function from an
// enzyme_dup argument, so the gradient lands in the argument's shadow; the spring
// constant goes through a global struct field. Oracle: central finite differences, and
// forward mode against the gradient.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { P = 7, HIST = 4 };

double g_pos[P];
struct { double k, r0; int hist; } g_par = {2.0, 0.3, HIST};
double g_ring[HIST];
double g_scratch[P];

static int by_position(const void *a, const void *b) {
  double pa = g_pos[*(const int *)a], pb = g_pos[*(const int *)b];
  return (pa > pb) - (pa < pb);
}

double particle_energy(const double *x, double k) {
  memcpy(g_pos, x, sizeof g_pos);
  g_par.k = k;
  int order[P];
  for (int i = 0; i < P; i++) order[i] = i;
  qsort(order, P, sizeof(int), by_position);
  memset(g_scratch, 0, sizeof g_scratch);
  double e = 0;
  for (int j = 0; j + 1 < P; j++) {
    double gap = g_pos[order[j + 1]] - g_pos[order[j]];
    double s = gap - g_par.r0;
    e += 0.5 * g_par.k * s * s;
    g_scratch[order[j]] += s;
  }
  for (int t = 0; t < g_par.hist; t++) {
    memmove(g_ring + 1, g_ring, (HIST - 1) * sizeof(double));
    g_ring[0] = e * (t + 1) + g_scratch[t];
  }
  double snap[HIST];
  memcpy(snap, g_ring, sizeof snap);
  double f = 0;
  for (int t = 0; t < HIST; t++) f += snap[t] * (1.0 + 0.1 * t);
  return f;
}

static double g_x[P], g_k;
static double eval(void *ctx) {
  (void)ctx;
  return particle_energy(g_x, g_k);
}

int main(void) {
  fz_seed(1169);
  for (int i = 0; i < P; i++) g_x[i] = fz_uniform(-2, 2);
  g_k = 1.5;
  double dx[P] = {0};
  double dk = __enzyme_autodiff((void *)particle_energy, enzyme_dup, g_x, dx, enzyme_out, g_k);
  char nm[40];
  for (int i = 0; i < P; i++) {
    snprintf(nm, sizeof nm, "dx[%d] vs FD", i);
    fz_check(nm, dx[i], fz_fd_ptr(eval, NULL, &g_x[i]), 1e-6);
  }
  fz_check("dk vs FD", dk, fz_fd_ptr(eval, NULL, &g_k), 1e-6);
  double v[P], want = 0;
  for (int i = 0; i < P; i++) v[i] = fz_uniform(-1, 1), want += v[i] * dx[i];
  double t = __enzyme_fwddiff((void *)particle_energy, enzyme_dup, g_x, v, g_k, 0.5);
  fz_check("forward = <grad, v>", t, want + 0.5 * dk, 1e-10);
  return fz_finish();
}

// OMP_THREADS: 1 2
// OPT: O0 O2
// A finite-element style assembly: a parallel loop over elements scatters each element's
// contribution into shared nodal arrays with `#pragma omp atomic` through an index
// array (elements share nodes), then an orphaned `#pragma omp for` in a function called
// inside a parallel region (with `nowait` and a barrier) computes the nodal energy. The
// gradient is checked against central finite differences and forward mode against
// reverse mode.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define NE 30
#define NN (NE + 1)

static int conn[NE][2];

static void nodal_energy(const double *f, const double *u, double *e_node) {
#pragma omp for nowait
  for (int k = 0; k < NN; k++) e_node[k] = f[k] * f[k] + u[k] * f[k];
#pragma omp barrier
}

double assemble(const double *u, double *f, double *e_node) {
  for (int k = 0; k < NN; k++) f[k] = 0;
#pragma omp parallel for
  for (int e = 0; e < NE; e++) {
    int a = conn[e][0], b = conn[e][1];
    double h = u[b] - u[a];
    double q = sin(h) + 0.1 * h * h * h; /* the element's "force" */
#pragma omp atomic
    f[a] -= q;
#pragma omp atomic
    f[b] += q * (1.0 + 0.01 * e);
  }
#pragma omp parallel
  nodal_energy(f, u, e_node);
  double s = 0;
  for (int k = 0; k < NN; k++) s += e_node[k];
  return s;
}

static double u[NN], fb[NN], eb[NN];
static double eval(void *ctx) {
  (void)ctx;
  return assemble(u, fb, eb);
}

int main(void) {
  for (int e = 0; e < NE; e++) {
    conn[e][0] = e;
    conn[e][1] = e + 1;
  }
  fz_seed(1313);
  fz_fill(u, NN, -1, 1);
  double du[NN], f[NN], df[NN], en[NN], den[NN];
  fz_zero(du, NN);
  fz_zero(df, NN);
  fz_zero(den, NN);
  __enzyme_autodiff((void *)assemble, enzyme_dup, u, du, enzyme_dup, f, df, enzyme_dup, en, den);
  for (int k = 0; k < NN; k++) {
    char name[32];
    snprintf(name, sizeof name, "fd[%d]", k);
    fz_check(name, du[k], fz_fd_ptr(eval, 0, &u[k]), 1e-6);
  }
  double v[NN], tf[NN], ten[NN];
  fz_fill(v, NN, -1, 1);
  fz_zero(tf, NN);
  fz_zero(ten, NN);
  double jvp = __enzyme_fwddiff((void *)assemble, enzyme_dup, u, v, enzyme_dup, f, tf,
                                enzyme_dup, en, ten);
  double dot = 0;
  for (int k = 0; k < NN; k++) dot += du[k] * v[k];
  fz_check("forward vs reverse", jvp, dot, 1e-10);
  return fz_finish();
}

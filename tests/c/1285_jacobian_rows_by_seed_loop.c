// OPT: O0 O2
// A full Jacobian built the way C users do it with Enzyme: __enzyme_autodiff called in a
// loop over the output index, each call seeding one output's shadow (dy = e_i) of a
// vector function y = F(x) that writes its outputs through a pointer (a small chemical
// kinetics right-hand side: mass-action rates with an Arrhenius factor, the rates
// summed into species by a stoichiometry table), then the columns by __enzyme_fwddiff in
// a loop over the input index (dx = e_j); the Jacobian-vector product against
// J * v formed from the rows; and the rows accumulated without clearing (gradients add
// up: a second pass doubles them).
// Oracle: central differences of each column, rows = columns (transpose identity), the
// analytic entries of the Arrhenius column, and the doubling.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { NS = 4, NR = 3 };
static const int nu[NR][NS] = {{-1, -1, 1, 0}, {0, 1, -1, 1}, {1, 0, 0, -2}};
static const int order[NR][NS] = {{1, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 2}};

// x = species concentrations c[0..3] and the temperature T (x[4]); y = dc/dt.
void rhs(const double *x, double *y) {
  const double k0[NR] = {2.0, 0.7, 1.3}, Ea[NR] = {1.1, 0.4, 2.0};
  double T = x[NS];
  for (int s = 0; s < NS; s++) y[s] = 0;
  for (int r = 0; r < NR; r++) {
    double rate = k0[r] * exp(-Ea[r] / T);
    for (int s = 0; s < NS; s++)
      for (int p = 0; p < order[r][s]; p++) rate *= x[s];
    for (int s = 0; s < NS; s++) y[s] += nu[r][s] * rate;
  }
}

enum { NX = NS + 1, NY = NS };
static double X0[NX];
static int g_i;
static double eval_yi(void *c) {
  (void)c;
  double y[NY];
  rhs(X0, y);
  return y[g_i];
}

int main(void) {
  fz_seed(1285);
  fz_fill(X0, NS, 0.2, 1.5);
  X0[NS] = 1.7;
  double rows[NY][NX], cols[NX][NY], y[NY];
  for (int i = 0; i < NY; i++) {
    double dx[NX] = {0}, dy[NY] = {0};
    dy[i] = 1.0;
    __enzyme_autodiff((void *)rhs, enzyme_dup, X0, dx, enzyme_dup, y, dy);
    for (int j = 0; j < NX; j++) rows[i][j] = dx[j];
    fz_check("seed consumed (dy zeroed)", dy[i], 0.0, 0);
  }
  for (int j = 0; j < NX; j++) {
    double tx[NX] = {0}, ty[NY] = {0};
    tx[j] = 1.0;
    __enzyme_fwddiff((void *)rhs, enzyme_dup, X0, tx, enzyme_dup, y, ty);
    for (int i = 0; i < NY; i++) cols[j][i] = ty[i];
  }
  char nm[48];
  for (int i = 0; i < NY; i++)
    for (int j = 0; j < NX; j++) {
      g_i = i;
      snprintf(nm, sizeof nm, "J[%d][%d] reverse vs fd", i, j);
      fz_check(nm, rows[i][j], fz_fd_ptr(eval_yi, 0, &X0[j]), 1e-6);
      snprintf(nm, sizeof nm, "J[%d][%d] reverse = forward", i, j);
      fz_check(nm, rows[i][j], cols[j][i], 1e-13);
    }
  // The temperature column analytically: d rate_r / dT = rate_r * Ea_r / T^2.
  const double k0[NR] = {2.0, 0.7, 1.3}, Ea[NR] = {1.1, 0.4, 2.0};
  for (int s = 0; s < NS; s++) {
    double want = 0, T = X0[NS];
    for (int r = 0; r < NR; r++) {
      double rate = k0[r] * exp(-Ea[r] / T);
      for (int q = 0; q < NS; q++) rate *= pow(X0[q], order[r][q]);
      want += nu[r][s] * rate * Ea[r] / (T * T);
    }
    snprintf(nm, sizeof nm, "J[%d][T] analytic", s);
    fz_check(nm, rows[s][NS], want, 1e-12);
  }
  // All rows at once into one accumulator, twice without clearing: 2 * sum of rows.
  double acc[NX] = {0};
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < NY; i++) {
      double dy[NY] = {0};
      dy[i] = 1.0;
      __enzyme_autodiff((void *)rhs, enzyme_dup, X0, acc, enzyme_dup, y, dy);
    }
  for (int j = 0; j < NX; j++) {
    double want = 0;
    for (int i = 0; i < NY; i++) want += 2 * rows[i][j];
    snprintf(nm, sizeof nm, "accumulated 2 * 1^T J [%d]", j);
    fz_check(nm, acc[j], want, 1e-12);
  }
  return fz_finish();
}

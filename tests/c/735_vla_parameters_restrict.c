// OPT: O0 O1 O2 O3
// C99 array parameters as numerical C code writes them: variably modified parameters
// `double a[n][m]`, a pointer to rows `double (*b)[4]`, `restrict` on the output,
// `static` array sizes (`double v[static 3]`), a local VLA matrix product, the Frobenius
// norm of A B + diag(v). Reverse mode with respect to A, B and v, forward mode along a
// random direction (the dot-product identity). Oracles: analytic and finite differences.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

double frob(int n, int m, const double a[n][m], const double (*b)[4], const double v[static 3],
            double *restrict out) {
  double c[n][4];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 4; j++) {
      double s = (i == j && i < 3) ? v[i] : 0.0;
      for (int k = 0; k < m; k++) s += a[i][k] * b[k][j];
      c[i][j] = s;
    }
  double f = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 4; j++) {
      out[i * 4 + j] = c[i][j];
      f += c[i][j] * c[i][j];
    }
  return f;
}

#define NR 3
#define MC 5
static double A[NR][MC], B[MC][4], Vd[3], OUT[NR * 4];
static double eval(void *ctx) { (void)ctx; return frob(NR, MC, A, B, Vd, OUT); }

int main(void) {
  fz_seed(735);
  fz_fill(&A[0][0], NR * MC, -1, 1);
  fz_fill(&B[0][0], MC * 4, -1, 1);
  fz_fill(Vd, 3, -1, 1);
  double dA[NR][MC] = {{0}}, dB[MC][4] = {{0}}, dv[3] = {0}, dout[NR * 4] = {0};
  __enzyme_autodiff((void *)frob, enzyme_const, NR, enzyme_const, MC, enzyme_dup, A, dA,
                    enzyme_dup, B, dB, enzyme_dup, Vd, dv, enzyme_dupnoneed, OUT, dout);
  double C[NR][4];
  frob(NR, MC, A, B, Vd, &C[0][0]);
  double wA[NR][MC], wB[MC][4], wv[3];
  for (int i = 0; i < NR; i++)
    for (int k = 0; k < MC; k++) {
      wA[i][k] = 0;
      for (int j = 0; j < 4; j++) wA[i][k] += 2 * C[i][j] * B[k][j];
    }
  for (int k = 0; k < MC; k++)
    for (int j = 0; j < 4; j++) {
      wB[k][j] = 0;
      for (int i = 0; i < NR; i++) wB[k][j] += 2 * C[i][j] * A[i][k];
    }
  for (int i = 0; i < 3; i++) wv[i] = 2 * C[i][i];
  fz_check_arr("dA analytic", &dA[0][0], &wA[0][0], NR * MC, 1e-12);
  fz_check_arr("dB analytic", &dB[0][0], &wB[0][0], MC * 4, 1e-12);
  fz_check_arr("dv analytic", dv, wv, 3, 1e-12);
  double fdA[NR * MC];
  fz_fd_grad(eval, NULL, &A[0][0], NR * MC, fdA);
  fz_check_arr("dA fd", &dA[0][0], fdA, NR * MC, 1e-6);
  /* forward along a random direction: <J t, 1> == <t, grad> */
  double tA[NR][MC], tB[MC][4], tv[3], tout[NR * 4];
  fz_fill(&tA[0][0], NR * MC, -1, 1);
  fz_fill(&tB[0][0], MC * 4, -1, 1);
  fz_fill(tv, 3, -1, 1);
  double jt = __enzyme_fwddiff((void *)frob, enzyme_const, NR, enzyme_const, MC, enzyme_dup, A, tA,
                               enzyme_dup, B, tB, enzyme_dup, Vd, tv, enzyme_dup, OUT, tout);
  double dot = 0;
  for (int i = 0; i < NR * MC; i++) dot += (&tA[0][0])[i] * (&dA[0][0])[i];
  for (int i = 0; i < MC * 4; i++) dot += (&tB[0][0])[i] * (&dB[0][0])[i];
  for (int i = 0; i < 3; i++) dot += tv[i] * dv[i];
  fz_check("forward . reverse", jt, dot, 1e-10);
  return fz_finish();
}

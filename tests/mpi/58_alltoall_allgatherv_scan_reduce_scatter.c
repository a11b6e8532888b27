// MPI: 2 3 4
// OPT: O0 O2
// One distributed step chaining the collectives that redistribute active data, each
// feeding the next: MPI_Alltoall (every rank sends one product of its inputs to every
// rank), MPI_Allgatherv (rank r contributes r + 1 values built from what it received, so
// the counts and displacements differ per rank), MPI_Scan of an active value (an
// inclusive running sum of a squared local total), and MPI_Reduce_scatter with one entry
// per rank (each rank's entry is the sum over ranks of products with the gathered
// vector). The gradient gathered on rank 0 is compared with the serial program's
// (itself checked against central finite differences) to 1e-12, forward mode with the
// dot-product identity.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern void __enzyme_fwddiff(void *, ...);

#define NL 4 /* inputs per rank, >= the largest rank count */
#define PMAX 4
#define TMAX (PMAX * (PMAX + 1) / 2)

void step(const double *x, double *out) {
  int me = fz_rank, P = fz_size;
  double send[PMAX], recv[PMAX];
  for (int j = 0; j < P; j++) send[j] = x[j] * x[(j + 1) % NL];
  MPI_Alltoall(send, 1, MPI_DOUBLE, recv, 1, MPI_DOUBLE, MPI_COMM_WORLD);
  double y[PMAX], all[TMAX];
  int counts[PMAX], displs[PMAX];
  for (int r = 0, d = 0; r < P; r++) {
    counts[r] = r + 1;
    displs[r] = d;
    d += r + 1;
  }
  for (int k = 0; k <= me; k++) y[k] = x[k] + recv[k % P];
  MPI_Allgatherv(y, me + 1, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  double a = 0, s;
  for (int j = 0; j < P; j++) a += recv[j];
  a = a * a;
  MPI_Scan(&a, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double c[PMAX], rs;
  int ones[PMAX];
  for (int j = 0; j < P; j++) {
    c[j] = x[j % NL] * all[j];
    ones[j] = 1;
  }
  MPI_Reduce_scatter(c, &rs, ones, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double loss = s * x[0] + rs * rs;
  if (me == 0) {
    int T = P * (P + 1) / 2;
    for (int k = 0; k < T; k++) loss += all[k] * all[k] * (1 + 0.1 * k);
  }
  MPI_Allreduce(&loss, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* The same for P ranks: X is P blocks of NL inputs. */
double serial(const double *X, int P) {
  double recv[PMAX][PMAX], all[TMAX], a[PMAX];
  int T = 0;
  for (int m = 0; m < P; m++)
    for (int j = 0; j < P; j++) recv[m][j] = X[j * NL + m] * X[j * NL + (m + 1) % NL];
  for (int r = 0; r < P; r++)
    for (int k = 0; k <= r; k++) all[T++] = X[r * NL + k] + recv[r][k % P];
  for (int r = 0; r < P; r++) {
    double t = 0;
    for (int j = 0; j < P; j++) t += recv[r][j];
    a[r] = t * t;
  }
  double loss = 0, s = 0;
  for (int r = 0; r < P; r++) {
    s += a[r];
    double rs = 0;
    for (int q = 0; q < P; q++) rs += X[q * NL + r % NL] * all[r];
    loss += s * X[r * NL] + rs * rs;
  }
  for (int k = 0; k < T; k++) loss += all[k] * all[k] * (1 + 0.1 * k);
  return loss;
}

static double xg[NL * PMAX];
static int P;
static double eval(void *ctx) {
  (void)ctx;
  return serial(xg, P);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  P = fz_size;
  if (P > PMAX) {
    if (fz_rank == 0) printf("FAIL (at most %d ranks)\n", PMAX);
    MPI_Finalize();
    return 1;
  }
  fz_seed(58);
  fz_fill(xg, NL * P, -1, 1);
  const double *x = xg + fz_rank * NL;
  double dx[NL], out = 0, dout = fz_rank == 0 ? 1 : 0;
  fz_zero(dx, NL);
  __enzyme_autodiff((void *)step, enzyme_dup, x, dx, enzyme_dup, &out, &dout);
  double all[NL * PMAX];
  fz_gather(dx, NL, all);
  if (fz_rank == 0) {
    fz_check("distributed = serial", out, serial(xg, P), 1e-12);
    double ds[NL * PMAX];
    fz_zero(ds, NL * P);
    __enzyme_autodiff((void *)serial, enzyme_dup, xg, ds, enzyme_const, P);
    fz_check_vs_serial("gathered gradient vs serial", all, ds, NL * P, eval, 0, xg, 1);
  }
  double v[NL], o2 = 0, to = 0, dot = 0, dots;
  fz_fill(v, NL, -1, 1);
  __enzyme_fwddiff((void *)step, enzyme_dup, x, v, enzyme_dup, &o2, &to);
  for (int i = 0; i < NL; i++) dot += dx[i] * v[i];
  MPI_Allreduce(&dot, &dots, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward <J v> = <grad, v>", to, dots, 1e-10);
  return fz_mpi_finish();
}

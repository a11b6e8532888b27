// MPI: 2 3 4
// OPT: O0 O2
// The in-place and irregular forms of the redistributing collectives, chained: every rank
// writes its r + 1 values straight into its slot of the shared vector and completes it
// with MPI_Allgatherv(MPI_IN_PLACE, ...), MPI_Reduce_scatter_block gives each rank two
// sums over the ranks of products with that vector, MPI_Exscan(MPI_IN_PLACE, ...) turns
// them into the totals of the ranks before (rank 0 sets its own to zero: MPI leaves it
// undefined there), and MPI_Alltoallv sends each rank one or two values scaled by them
// (counts differ by sender and receiver). The gradient gathered on rank 0 is compared
// with the serial program's (itself checked against central finite differences) to
// 1e-12, forward mode with the dot-product identity.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern void __enzyme_fwddiff(void *, ...);

#define NL 4
#define PMAX 4
#define TMAX (PMAX * (PMAX + 1) / 2)

void chain(const double *x, double *out) {
  int me = fz_rank, P = fz_size, T = P * (P + 1) / 2;
  double buf[TMAX];
  int counts[PMAX], displs[PMAX];
  for (int r = 0, d = 0; r < P; r++) {
    counts[r] = r + 1;
    displs[r] = d;
    d += r + 1;
  }
  for (int k = 0; k <= me; k++) buf[displs[me] + k] = x[k] * x[(k + 1) % NL] + 0.5 * x[k];
  MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, counts, displs, MPI_DOUBLE,
                 MPI_COMM_WORLD);
  double c[2 * PMAX], rb[2];
  for (int j = 0; j < P; j++)
    for (int m = 0; m < 2; m++) c[2 * j + m] = buf[(2 * j + m) % T] * x[m];
  MPI_Reduce_scatter_block(c, rb, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double e[2] = {rb[0], rb[1] * rb[1]};
  MPI_Exscan(MPI_IN_PLACE, e, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) e[0] = e[1] = 0;
  double snd[2 * PMAX], rcv[2 * PMAX];
  int sc[PMAX], sd[PMAX], rc[PMAX], rd[PMAX], ns = 0, nr = 0;
  for (int q = 0; q < P; q++) {
    sc[q] = 1 + q % 2;
    sd[q] = ns;
    for (int i = 0; i < sc[q]; i++) snd[ns++] = x[(q + i) % NL] * (1 + e[0]);
    rc[q] = 1 + me % 2;
    rd[q] = nr;
    nr += rc[q];
  }
  MPI_Alltoallv(snd, sc, sd, MPI_DOUBLE, rcv, rc, rd, MPI_DOUBLE, MPI_COMM_WORLD);
  double loss = rb[0] * rb[1] + e[1] * x[0];
  for (int k = 0; k < nr; k++) loss += rcv[k] * rcv[k] * (1 + 0.1 * k);
  if (me == 0)
    for (int t = 0; t < T; t++) loss += buf[t] * buf[t];
  MPI_Allreduce(&loss, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* The same for P ranks: X is P blocks of NL inputs. */
double serial(const double *X, int P) {
  int T = P * (P + 1) / 2;
  double buf[TMAX], rb[PMAX][2], e[PMAX][2];
  for (int r = 0, d = 0; r < P; r++)
    for (int k = 0; k <= r; k++, d++)
      buf[d] = X[r * NL + k] * X[r * NL + (k + 1) % NL] + 0.5 * X[r * NL + k];
  for (int r = 0; r < P; r++)
    for (int m = 0; m < 2; m++) {
      rb[r][m] = 0;
      for (int q = 0; q < P; q++) rb[r][m] += buf[(2 * r + m) % T] * X[q * NL + m];
    }
  double a0 = 0, a1 = 0, loss = 0;
  for (int r = 0; r < P; r++) {
    e[r][0] = a0;
    e[r][1] = a1;
    a0 += rb[r][0];
    a1 += rb[r][1] * rb[r][1];
  }
  for (int r = 0; r < P; r++) {
    loss += rb[r][0] * rb[r][1] + e[r][1] * X[r * NL];
    int k = 0;
    for (int q = 0; q < P; q++)
      for (int i = 0; i < 1 + r % 2; i++, k++) {
        double v = X[q * NL + (r + i) % NL] * (1 + e[q][0]);
        loss += v * v * (1 + 0.1 * k);
      }
  }
  for (int t = 0; t < T; t++) loss += buf[t] * buf[t];
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
  fz_seed(60);
  fz_fill(xg, NL * P, -1, 1);
  const double *x = xg + fz_rank * NL;
  double dx[NL], out = 0, dout = fz_rank == 0 ? 1 : 0;
  fz_zero(dx, NL);
  __enzyme_autodiff((void *)chain, enzyme_dup, x, dx, enzyme_dup, &out, &dout);
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
  __enzyme_fwddiff((void *)chain, enzyme_dup, x, v, enzyme_dup, &o2, &to);
  for (int i = 0; i < NL; i++) dot += dx[i] * v[i];
  MPI_Allreduce(&dot, &dots, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward <J v> = <grad, v>", to, dots, 1e-10);
  return fz_mpi_finish();
}

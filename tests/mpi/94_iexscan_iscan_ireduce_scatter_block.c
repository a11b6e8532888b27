// MPI: 2 3
// OPT: O0 O2
// Overlapped prefix sums and block reductions as a scientist writes them with MPI-3's
// nonblocking collectives: a distributed cumulative trapezoid integral whose offset is an
// MPI_Iexscan of the local totals started before the local prefix is computed (waited
// with MPI_Wait), an MPI_Iscan of a two-component running (mass, moment) pair, and an
// MPI_Ireduce_scatter_block of every rank's contributions to the global coarse cells,
// each rank keeping its own cells (completed together by MPI_Waitall). They were
// missing-derivative errors (hpc43). The gradient (distributed) is compared with the
// serial program's (differentiated too, against central differences) to 1e-12; forward
// mode against reverse by the dot-product identity on every rank.
#include <mpi.h>
#include <math.h>
#include "fz_test.h"
#include "fz_mpi.h"
extern double __enzyme_fwddiff(void *, ...);
#define NLOC 5
#define MAXP 4
#define CELLS 2 /* coarse cells per rank */
#define H 0.1

static double weight(int g) { return 1.0 + 0.07 * g; }

void cumulative(const double *f, double *loss) {
  /* local trapezoid pieces between my points and the left neighbour's last point is
     not needed: every rank integrates its own NLOC-1 intervals plus the one to the
     right neighbour, which it receives by Sendrecv. */
  double right = 0;
  int lo = fz_rank > 0 ? fz_rank - 1 : MPI_PROC_NULL, hi = fz_rank < fz_size - 1 ? fz_rank + 1 : MPI_PROC_NULL;
  MPI_Sendrecv(&f[0], 1, MPI_DOUBLE, lo, 3, &right, 1, MPI_DOUBLE, hi, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double piece[NLOC], total = 0, offset = 0;
  for (int i = 0; i < NLOC; i++) {
    double next = i < NLOC - 1 ? f[i + 1] : right;
    piece[i] = (fz_rank == fz_size - 1 && i == NLOC - 1) ? 0 : 0.5 * H * (f[i] + next);
    total += piece[i];
  }
  MPI_Request rq[3];
  MPI_Iexscan(&total, &offset, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq[0]);
  double cum[NLOC], run = 0;
  for (int i = 0; i < NLOC; i++) cum[i] = (run += piece[i]);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  if (fz_rank == 0) offset = 0; /* MPI leaves rank 0's Exscan result undefined */
  double pair[2] = {0, 0}, pre[2];
  for (int i = 0; i < NLOC; i++) {
    cum[i] += offset;
    pair[0] += f[i] * f[i];
    pair[1] += f[i] * f[i] * (i + fz_rank * NLOC) * H;
  }
  double contrib[CELLS * MAXP], mine[CELLS];
  for (int c = 0; c < CELLS * fz_size; c++) {
    contrib[c] = 0;
    for (int i = 0; i < NLOC; i++) contrib[c] += cum[i] * cos(0.3 * c + 0.2 * (i + fz_rank * NLOC));
  }
  MPI_Iscan(pair, pre, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq[1]);
  MPI_Ireduce_scatter_block(contrib, mine, CELLS, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq[2]);
  MPI_Waitall(2, &rq[1], MPI_STATUSES_IGNORE);
  double s = 0, t;
  for (int i = 0; i < NLOC; i++) s += cum[i] * cum[i] * weight(i + fz_rank * NLOC);
  s += pre[1] / pre[0] * (1 + 0.1 * fz_rank);
  for (int c = 0; c < CELLS; c++) s += 0.01 * mine[c] * mine[c];
  MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *loss = t;
}

double serial(const double *f, int n, int np) {
  double cum[MAXP * NLOC], run = 0;
  for (int i = 0; i < n; i++) cum[i] = (run += (i < n - 1 ? 0.5 * H * (f[i] + f[i + 1]) : 0));
  double s = 0, m0 = 0, m1 = 0;
  for (int i = 0; i < n; i++) s += cum[i] * cum[i] * weight(i);
  for (int r = 0; r < np; r++) {
    for (int i = r * NLOC; i < (r + 1) * NLOC; i++) m0 += f[i] * f[i], m1 += f[i] * f[i] * i * H;
    s += m1 / m0 * (1 + 0.1 * r);
  }
  for (int c = 0; c < CELLS * np; c++) {
    double v = 0;
    for (int i = 0; i < n; i++) v += cum[i] * cos(0.3 * c + 0.2 * i);
    s += 0.01 * v * v;
  }
  return s;
}

static double fall[MAXP * NLOC];
static double eval(void *ctx) { (void)ctx; return serial(fall, fz_size * NLOC, fz_size); }

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int n = fz_size * NLOC;
  fz_seed(94);
  fz_fill(fall, n, 0.5, 1.5);
  double *f = fall + fz_rank * NLOC;
  double df[NLOC] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  __enzyme_autodiff((void *)cumulative, enzyme_dup, f, df, enzyme_dup, &loss, &dloss);
  double gf[MAXP * NLOC];
  fz_gather(df, NLOC, gf);
  if (fz_rank == 0) {
    double sf[MAXP * NLOC] = {0};
    fz_check("loss vs serial", loss, serial(fall, n, fz_size), 1e-12);
    __enzyme_autodiff((void *)serial, enzyme_dup, fall, sf, enzyme_const, n, enzyme_const, fz_size);
    fz_check_vs_serial("d/df vs serial", gf, sf, n, eval, 0, fall, 1);
  }
  double tf[NLOC], tl = 0, mine = 0, want = 0;
  for (int i = 0; i < NLOC; i++) tf[i] = 0.05 * ((i + fz_rank) % 4) - 0.07;
  for (int i = 0; i < NLOC; i++) mine += tf[i] * df[i];
  MPI_Allreduce(&mine, &want, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  __enzyme_fwddiff((void *)cumulative, enzyme_dup, f, tf, enzyme_dup, &loss, &tl);
  fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_mpi_finish();
}

// MPI: 2 3 4
// OPT: O0 O2
// A 2-D explicit diffusion step as a code split by columns writes it: each rank owns
// NC columns of an NR x (NC * ranks) periodic grid stored row-major with one halo column
// on each side; the halo columns travel as an MPI_Type_vector (NR blocks of one double,
// stride NC + 2) created, committed and freed inside the differentiated function, by
// MPI_Irecv/MPI_Isend pairs completed with one MPI_Waitall per step (three steps). Then a
// weighted sum of squares is summed over the ranks with MPI_Allreduce on MPI_IN_PLACE,
// the row sums travel one rank to the right by MPI_Sendrecv_replace, and their products
// with the receiver's own row sums are summed by MPI_Allreduce. The gradient gathered on
// rank 0 against the serial program's (itself checked against central finite
// differences) to 1e-12; forward mode by the dot-product identity summed over the ranks.
#include <mpi.h>
#include <math.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NR 4
#define NC 3
#define W (NC + 2)
#define STEPS 3
#define MAXR 4

static double uall[NR * NC * MAXR];

static double react(double v) { return 0.05 * sin(v) + 0.02 * v * v; }

void energy(const double *u0, double *e) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Datatype col;
  MPI_Type_vector(NR, 1, W, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  double u[NR][W], un[NR][W];
  for (int i = 0; i < NR; i++)
    for (int j = 0; j < NC; j++) u[i][j + 1] = u0[i * NC + j];
  for (int s = 0; s < STEPS; s++) {
    MPI_Request req[4];
    MPI_Irecv(&u[0][0], 1, col, left, 10, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&u[0][NC + 1], 1, col, right, 11, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u[0][1], 1, col, left, 11, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u[0][NC], 1, col, right, 10, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    for (int i = 0; i < NR; i++) {
      int up = (i + NR - 1) % NR, dn = (i + 1) % NR;
      for (int j = 1; j <= NC; j++)
        un[i][j] = u[i][j] +
                   0.1 * (u[i][j - 1] + u[i][j + 1] + u[up][j] + u[dn][j] - 4 * u[i][j]) +
                   react(u[i][j]);
    }
    for (int i = 0; i < NR; i++)
      for (int j = 1; j <= NC; j++) u[i][j] = un[i][j];
  }
  MPI_Type_free(&col);
  double sq = 0, rows[NR], mine[NR];
  for (int i = 0; i < NR; i++) {
    rows[i] = 0;
    for (int j = 1; j <= NC; j++) {
      sq += (1.0 + 0.1 * i) * u[i][j] * u[i][j];
      rows[i] += u[i][j];
    }
    mine[i] = rows[i];
  }
  MPI_Allreduce(MPI_IN_PLACE, &sq, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Sendrecv_replace(rows, NR, MPI_DOUBLE, right, 7, left, 7, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE);
  double p = 0, pall = 0;
  for (int i = 0; i < NR; i++) p += rows[i] * mine[i];
  MPI_Allreduce(&p, &pall, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *e = sq + 0.3 * pall + 0.01 * sq * sq;
}

/* The whole NR x (NC * ranks) grid, x[i * cols + c] with c = r * NC + j. */
static double serial_energy(const double *x, int ranks) {
  int cols = NC * ranks;
  double g[NR][NC * MAXR], gn[NR][NC * MAXR];
  for (int i = 0; i < NR; i++)
    for (int c = 0; c < cols; c++) g[i][c] = x[i * cols + c];
  for (int s = 0; s < STEPS; s++) {
    for (int i = 0; i < NR; i++) {
      int up = (i + NR - 1) % NR, dn = (i + 1) % NR;
      for (int c = 0; c < cols; c++) {
        int l = (c + cols - 1) % cols, r = (c + 1) % cols;
        gn[i][c] = g[i][c] + 0.1 * (g[i][l] + g[i][r] + g[up][c] + g[dn][c] - 4 * g[i][c]) +
                   react(g[i][c]);
      }
    }
    for (int i = 0; i < NR; i++)
      for (int c = 0; c < cols; c++) g[i][c] = gn[i][c];
  }
  double sq = 0, p = 0;
  for (int i = 0; i < NR; i++)
    for (int c = 0; c < cols; c++) sq += (1.0 + 0.1 * i) * g[i][c] * g[i][c];
  for (int r = 0; r < ranks; r++) {
    int l = (r + ranks - 1) % ranks;
    for (int i = 0; i < NR; i++) {
      double a = 0, b = 0;
      for (int j = 0; j < NC; j++) {
        a += g[i][r * NC + j];
        b += g[i][l * NC + j];
      }
      p += a * b;
    }
  }
  return (sq + 0.3 * p + 0.01 * sq * sq) * ranks; /* every rank's e, seeded on each rank */
}

static double eval(void *ctx) {
  (void)ctx;
  return serial_energy(uall, fz_size);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int cols = NC * fz_size, ng = NR * cols;
  fz_seed(81);
  for (int k = 0; k < ng; k++) uall[k] = fz_uniform(-1, 1);
  double u[NR * NC], du[NR * NC], e = 0, de = 1;
  for (int i = 0; i < NR; i++)
    for (int j = 0; j < NC; j++) u[i * NC + j] = uall[i * cols + fz_rank * NC + j];
  fz_zero(du, NR * NC);
  __enzyme_autodiff((void *)energy, enzyme_dup, u, du, enzyme_dup, &e, &de);
  /* Gathered in rank order, then put back in the grid's layout. */
  double dg[NR * NC * MAXR], dall[NR * NC * MAXR];
  fz_gather(du, NR * NC, dg);
  double vu[NR * NC], te = 0, e2, tsum = 0;
  for (int k = 0; k < NR * NC; k++) vu[k] = 0.1 * (k % 5) - 0.2 + 0.05 * fz_rank;
  __enzyme_fwddiff((void *)energy, enzyme_dup, u, vu, enzyme_dup, &e2, &te);
  double dot = 0, dot_all;
  for (int k = 0; k < NR * NC; k++) dot += du[k] * vu[k];
  MPI_Allreduce(&dot, &dot_all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&te, &tsum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward vs reverse (summed over ranks)", tsum, dot_all, 1e-12);
  if (fz_rank == 0) {
    for (int r = 0; r < fz_size; r++)
      for (int i = 0; i < NR; i++)
        for (int j = 0; j < NC; j++) dall[i * cols + r * NC + j] = dg[r * NR * NC + i * NC + j];
    fz_check("value vs serial", e * fz_size, serial_energy(uall, fz_size), 1e-12);
    double ds[NR * NC * MAXR], sx[NR * NC * MAXR];
    fz_zero(ds, ng);
    for (int k = 0; k < ng; k++) sx[k] = uall[k];
    __enzyme_autodiff((void *)serial_energy, enzyme_dup, sx, ds, enzyme_const, fz_size);
    fz_check_vs_serial("gathered vs serial", dall, ds, ng, eval, 0, uall, 5);
  }
  return fz_mpi_finish();
}

// MPI: 2 3 4
// OPT: O0 O2
// A 2-D field split by columns, as finite-difference codes write it: each rank's block
// is row-major with a ghost column on each side; the ghost columns travel as one
// element of an MPI_Type_create_hvector column type (stride in bytes) through
// MPI_Sendrecv with MPI_PROC_NULL at the ends, two explicit diffusion steps with a
// nonlinear source; then selected entries of each rank's last column (an
// MPI_Type_create_indexed_block type: rows 0, 2, 3) go to rank 0 by MPI_Send/MPI_Recv,
// where they enter the loss; the loss is an MPI_Allreduce seeded on rank 0 only. The
// datatypes are made, committed and freed inside the differentiated function. Gradient
// against the serial program's (itself against central differences); forward mode
// against reverse by the dot-product identity.
#include <mpi.h>
#include <string.h>
#include "fz_test.h"
#include "fz_mpi.h"
extern double __enzyme_fwddiff(void *, ...);
#define NR 4
#define NC 3
#define MAXP 4
#define STEPS 2
#define W (NC + 2)

void field(const double *x, double *loss) {
  double u[NR][W], w[NR][W];
  memset(u, 0, sizeof u);
  memset(w, 0, sizeof w);
  for (int i = 0; i < NR; i++)
    for (int j = 0; j < NC; j++) u[i][j + 1] = x[i * NC + j];
  MPI_Datatype col, pick;
  MPI_Type_create_hvector(NR, 1, W * sizeof(double), MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  int disp[3] = {0, 2 * W, 3 * W};
  MPI_Type_create_indexed_block(3, 1, disp, MPI_DOUBLE, &pick);
  MPI_Type_commit(&pick);
  int left = fz_rank > 0 ? fz_rank - 1 : MPI_PROC_NULL, right = fz_rank < fz_size - 1 ? fz_rank + 1 : MPI_PROC_NULL;
  for (int t = 0; t < STEPS; t++) {
    MPI_Sendrecv(&u[0][1], 1, col, left, 5, &u[0][NC + 1], 1, col, right, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[0][NC], 1, col, right, 6, &u[0][0], 1, col, left, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < NR; i++)
      for (int j = 1; j <= NC; j++) {
        double up = i > 0 ? u[i - 1][j] : 0, dn = i < NR - 1 ? u[i + 1][j] : 0;
        w[i][j] = u[i][j] + 0.1 * (u[i][j - 1] + u[i][j + 1] + up + dn - 4 * u[i][j]) + 0.05 * u[i][j] * u[i][j];
      }
    memcpy(u, w, sizeof u);
  }
  double mine = 0;
  for (int i = 0; i < NR; i++)
    for (int j = 1; j <= NC; j++) mine += u[i][j] * u[i][j] * (1.0 + 0.01 * (i + j));
  if (fz_rank == 0) {
    double got[3];
    for (int p = 1; p < fz_size; p++) {
      MPI_Recv(got, 3, MPI_DOUBLE, p, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int k = 0; k < 3; k++) mine += 0.1 * got[k] * got[k] * got[k] * (1 + 0.2 * p);
    }
  } else {
    MPI_Send(&u[0][NC], 1, pick, 0, 9, MPI_COMM_WORLD);
  }
  MPI_Allreduce(&mine, loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Type_free(&pick);
  MPI_Type_free(&col);
}

/* x: the whole NR x (p NC) interior, row-major. */
double serial(const double *x, int p) {
  int nc = p * NC;
  double u[NR][MAXP * NC + 2], w[NR][MAXP * NC + 2];
  memset(u, 0, sizeof u);
  memset(w, 0, sizeof w);
  for (int i = 0; i < NR; i++)
    for (int j = 0; j < nc; j++) u[i][j + 1] = x[i * nc + j];
  for (int t = 0; t < STEPS; t++) {
    for (int i = 0; i < NR; i++)
      for (int j = 1; j <= nc; j++) {
        double up = i > 0 ? u[i - 1][j] : 0, dn = i < NR - 1 ? u[i + 1][j] : 0;
        w[i][j] = u[i][j] + 0.1 * (u[i][j - 1] + u[i][j + 1] + up + dn - 4 * u[i][j]) + 0.05 * u[i][j] * u[i][j];
      }
    memcpy(u, w, sizeof u);
  }
  double s = 0;
  for (int q = 0; q < p; q++)
    for (int i = 0; i < NR; i++)
      for (int j = 1; j <= NC; j++) s += u[i][q * NC + j] * u[i][q * NC + j] * (1.0 + 0.01 * (i + j));
  int rows[3] = {0, 2, 3};
  for (int q = 1; q < p; q++)
    for (int k = 0; k < 3; k++) {
      double g = u[rows[k]][q * NC + NC];
      s += 0.1 * g * g * g * (1 + 0.2 * q);
    }
  return s;
}
static double xall[NR * MAXP * NC];
static double eval(void *ctx) { (void)ctx; return serial(xall, fz_size); }

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int nc = fz_size * NC, n = NR * nc;
  fz_seed(89);
  fz_fill(xall, n, -1, 1);
  double x[NR * NC], dx[NR * NC] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < NR; i++)
    for (int j = 0; j < NC; j++) x[i * NC + j] = xall[i * nc + fz_rank * NC + j];
  __enzyme_autodiff((void *)field, enzyme_dup, x, dx, enzyme_dup, &loss, &dloss);
  double gx[MAXP * NR * NC];
  fz_gather(dx, NR * NC, gx);
  if (fz_rank == 0) {
    double sx[NR * MAXP * NC] = {0}, wx[NR * MAXP * NC];
    fz_check("loss vs serial", loss, serial(xall, fz_size), 1e-12);
    __enzyme_autodiff((void *)serial, enzyme_dup, xall, sx, enzyme_const, fz_size);
    for (int p = 0; p < fz_size; p++)
      for (int i = 0; i < NR; i++)
        for (int j = 0; j < NC; j++) wx[i * nc + p * NC + j] = gx[p * NR * NC + i * NC + j];
    fz_check_vs_serial("d/dx vs serial", wx, sx, n, eval, 0, xall, 1);
  }
  double tx[NR * NC], tl = 0, mine = 0, want = 0;
  for (int i = 0; i < NR * NC; i++) tx[i] = 0.1 * ((i + 2 * fz_rank) % 3) - 0.07;
  for (int i = 0; i < NR * NC; i++) mine += tx[i] * dx[i];
  MPI_Allreduce(&mine, &want, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  __enzyme_fwddiff((void *)field, enzyme_dup, x, tx, enzyme_dup, &loss, &tl);
  fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_mpi_finish();
}

// MPI: 2 3 4
// OPT: O0 O2
// A 2-D periodic diffusion step as codes write it: MPI_Dims_create and a 2-D periodic
// MPI_Cart_create communicator (made in main, kept in a global with the column type),
// MPI_Cart_shift in both directions, row halos as contiguous doubles and column halos
// as one MPI_Type_vector item, all through MPI_Sendrecv; two nonlinear steps; the energy
// norm by MPI_Iallreduce overlapped with a local sum and completed by MPI_Wait; the loss
// by MPI_Allreduce (seeded on rank 0 only). The gathered gradient is compared with the
// serial program's on the whole periodic grid (itself checked against central finite
// differences), and forward mode with reverse mode.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define LX 3
#define LY 3
#define W (LY + 2)
#define MAXG (4 * LX * LY)

static MPI_Comm grid;
static MPI_Datatype column;
static int dims[2], GX, GY;

static double rate(double u) { return 0.1 * (1 + 0.5 * sin(u)); }

static void halos(double *u) {
  int up, down, left, right;
  MPI_Cart_shift(grid, 0, 1, &up, &down);
  MPI_Cart_shift(grid, 1, 1, &left, &right);
  /* rows: first interior row up, last interior row down */
  MPI_Sendrecv(&u[1 * W + 1], LY, MPI_DOUBLE, up, 1, &u[(LX + 1) * W + 1], LY, MPI_DOUBLE,
               down, 1, grid, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&u[LX * W + 1], LY, MPI_DOUBLE, down, 2, &u[0 * W + 1], LY, MPI_DOUBLE, up, 2,
               grid, MPI_STATUS_IGNORE);
  /* columns: one vector item each */
  MPI_Sendrecv(&u[1 * W + 1], 1, column, left, 3, &u[1 * W + LY + 1], 1, column, right, 3,
               grid, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&u[1 * W + LY], 1, column, right, 4, &u[1 * W + 0], 1, column, left, 4, grid,
               MPI_STATUS_IGNORE);
}

/* x: this rank's LX x LY block (row-major); *out: the loss (on every rank). */
void loss(const double *x, double *out) {
  double u[(LX + 2) * W], v[(LX + 2) * W];
  for (int i = 0; i < LX; i++)
    for (int j = 0; j < LY; j++) u[(i + 1) * W + j + 1] = x[i * LY + j];
  for (int step = 0; step < 2; step++) {
    halos(u);
    for (int i = 1; i <= LX; i++)
      for (int j = 1; j <= LY; j++) {
        double c = u[i * W + j];
        double lap = u[(i - 1) * W + j] + u[(i + 1) * W + j] + u[i * W + j - 1] + u[i * W + j + 1] - 4 * c;
        v[i * W + j] = c + rate(c) * lap;
      }
    for (int i = 1; i <= LX; i++)
      for (int j = 1; j <= LY; j++) u[i * W + j] = v[i * W + j];
  }
  double e = 0, E = 0, cube = 0, l = 0;
  for (int i = 1; i <= LX; i++)
    for (int j = 1; j <= LY; j++) e += u[i * W + j] * u[i * W + j];
  MPI_Request rq;
  MPI_Iallreduce(&e, &E, 1, MPI_DOUBLE, MPI_SUM, grid, &rq);
  for (int i = 1; i <= LX; i++)
    for (int j = 1; j <= LY; j++) cube += u[i * W + j] * u[i * W + j] * u[i * W + j];
  MPI_Wait(&rq, MPI_STATUS_IGNORE);
  l = cube / sqrt(E);
  MPI_Allreduce(&l, out, 1, MPI_DOUBLE, MPI_SUM, grid);
}

/* The same on the whole GX x GY periodic grid. */
double serial_loss(const double *x, int gx, int gy) {
  double u[MAXG], v[MAXG], e = 0, cube = 0;
  for (int k = 0; k < gx * gy; k++) u[k] = x[k];
  for (int step = 0; step < 2; step++) {
    for (int i = 0; i < gx; i++)
      for (int j = 0; j < gy; j++) {
        double c = u[i * gy + j];
        double lap = u[((i + gx - 1) % gx) * gy + j] + u[((i + 1) % gx) * gy + j] +
                     u[i * gy + (j + gy - 1) % gy] + u[i * gy + (j + 1) % gy] - 4 * c;
        v[i * gy + j] = c + rate(c) * lap;
      }
    for (int k = 0; k < gx * gy; k++) u[k] = v[k];
  }
  for (int k = 0; k < gx * gy; k++) e += u[k] * u[k], cube += u[k] * u[k] * u[k];
  return cube / sqrt(e);
}

static double xall[MAXG];
static double eval(void *ctx) {
  (void)ctx;
  return serial_loss(xall, GX, GY);
}

/* Copies this rank's block of a GX x GY field (rank r's block at its coordinates). */
static void block_of(int r, double *field, double *b, int to_field) {
  int c[2];
  MPI_Cart_coords(grid, r, 2, c);
  for (int i = 0; i < LX; i++)
    for (int j = 0; j < LY; j++) {
      double *g = &field[(c[0] * LX + i) * GY + c[1] * LY + j];
      if (to_field)
        *g = b[i * LY + j];
      else
        b[i * LY + j] = *g;
    }
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int periods[2] = {1, 1};
  MPI_Dims_create(fz_size, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Type_vector(LX, 1, W, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  GX = dims[0] * LX, GY = dims[1] * LY;
  fz_seed(34);
  fz_fill(xall, GX * GY, -1, 1);
  int me;
  MPI_Comm_rank(grid, &me);
  double x[LX * LY], dx[LX * LY], out = 0, dout = fz_rank == 0 ? 1 : 0;
  block_of(me, xall, x, 0);
  double value = 0;
  loss(x, &value);
  fz_check("distributed value vs serial", value, serial_loss(xall, GX, GY), 1e-12);
  fz_zero(dx, LX * LY);
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_dup, &out, &dout);
  double blocks[MAXG], dall[MAXG];
  MPI_Gather(dx, LX * LY, MPI_DOUBLE, blocks, LX * LY, MPI_DOUBLE, 0, grid);
  if (me == 0) {
    for (int r = 0; r < fz_size; r++) block_of(r, dall, &blocks[r * LX * LY], 1);
    double ds[MAXG];
    fz_zero(ds, GX * GY);
    __enzyme_autodiff((void *)serial_loss, enzyme_dup, xall, ds, enzyme_const, GX, enzyme_const, GY);
    fz_check_vs_serial("gathered vs serial", dall, ds, GX * GY, eval, 0, xall, 4);
  }
  /* forward mode along v (every rank's block), against <grad, v> */
  double v[LX * LY], tout = 0, o2 = 0, dot = 0, total = 0;
  fz_fill(v, LX * LY, -1, 1);
  __enzyme_fwddiff((void *)loss, enzyme_dup, x, v, enzyme_dup, &o2, &tout);
  for (int k = 0; k < LX * LY; k++) dot += dx[k] * v[k];
  MPI_Allreduce(&dot, &total, 1, MPI_DOUBLE, MPI_SUM, grid);
  fz_check("forward <J v> = <grad, v>", tout, total, 1e-10);
  MPI_Type_free(&column);
  MPI_Comm_free(&grid);
  return fz_mpi_finish();
}

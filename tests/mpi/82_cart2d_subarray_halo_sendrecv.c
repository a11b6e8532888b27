// MPI: 2 4
// OPT: O0 O2
// A 2-D block decomposition as a stencil code writes it: MPI_Dims_create and a periodic
// 2-D MPI_Cart_create, MPI_Cart_shift in both directions, and the four halos (north and
// south rows, west and east columns of an (NB + 2) x (NB + 2) local block) described by
// MPI_Type_create_subarray types with their starts (eight types, made, committed and
// freed inside the differentiated function) exchanged by MPI_Sendrecv; two explicit
// reaction-diffusion steps; then MPI_Allreduce of a weighted sum of squares and
// MPI_Reduce + MPI_Bcast of the blocks' maxima. The gradient gathered on rank 0 against
// the serial program's (itself checked against central finite differences) to 1e-12;
// forward mode by the dot-product identity summed over the ranks.
#include <mpi.h>
#include <math.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NB 3
#define L (NB + 2)
#define STEPS 2
#define MAXR 4

static double uall[NB * NB * MAXR];
static int dims[2];

static double react(double v) { return 0.04 * sin(2 * v) + 0.03 * v * v; }

static void grid_dims(int size) {
  dims[0] = dims[1] = 0;
  MPI_Dims_create(size, 2, dims);
}

void energy(const double *u0, double *e) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int d[2] = {0, 0}, periods[2] = {1, 1}, me, coords[2];
  MPI_Dims_create(size, 2, d);
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, d, periods, 0, &cart);
  MPI_Comm_rank(cart, &me);
  MPI_Cart_coords(cart, me, 2, coords);
  int up, down, left, right;
  MPI_Cart_shift(cart, 0, 1, &up, &down);
  MPI_Cart_shift(cart, 1, 1, &left, &right);
  /* Send: first/last interior row and column; receive: the halo row/column opposite. */
  int sizes[2] = {L, L}, row[2] = {1, NB}, col[2] = {NB, 1};
  int s_n[2] = {1, 1}, s_s[2] = {NB, 1}, s_w[2] = {1, 1}, s_e[2] = {1, NB};
  int r_s[2] = {NB + 1, 1}, r_n[2] = {0, 1}, r_e[2] = {1, NB + 1}, r_w[2] = {1, 0};
  MPI_Datatype t[8];
  MPI_Type_create_subarray(2, sizes, row, s_n, MPI_ORDER_C, MPI_DOUBLE, &t[0]);
  MPI_Type_create_subarray(2, sizes, row, r_s, MPI_ORDER_C, MPI_DOUBLE, &t[1]);
  MPI_Type_create_subarray(2, sizes, row, s_s, MPI_ORDER_C, MPI_DOUBLE, &t[2]);
  MPI_Type_create_subarray(2, sizes, row, r_n, MPI_ORDER_C, MPI_DOUBLE, &t[3]);
  MPI_Type_create_subarray(2, sizes, col, s_w, MPI_ORDER_C, MPI_DOUBLE, &t[4]);
  MPI_Type_create_subarray(2, sizes, col, r_e, MPI_ORDER_C, MPI_DOUBLE, &t[5]);
  MPI_Type_create_subarray(2, sizes, col, s_e, MPI_ORDER_C, MPI_DOUBLE, &t[6]);
  MPI_Type_create_subarray(2, sizes, col, r_w, MPI_ORDER_C, MPI_DOUBLE, &t[7]);
  for (int k = 0; k < 8; k++) MPI_Type_commit(&t[k]);
  double u[L][L], un[L][L];
  for (int i = 0; i < NB; i++)
    for (int j = 0; j < NB; j++) u[i + 1][j + 1] = u0[i * NB + j];
  for (int s = 0; s < STEPS; s++) {
    MPI_Sendrecv(u, 1, t[0], up, 1, u, 1, t[1], down, 1, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(u, 1, t[2], down, 2, u, 1, t[3], up, 2, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(u, 1, t[4], left, 3, u, 1, t[5], right, 3, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(u, 1, t[6], right, 4, u, 1, t[7], left, 4, cart, MPI_STATUS_IGNORE);
    for (int i = 1; i <= NB; i++)
      for (int j = 1; j <= NB; j++)
        un[i][j] = u[i][j] +
                   0.1 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] - 4 * u[i][j]) +
                   react(u[i][j]);
    for (int i = 1; i <= NB; i++)
      for (int j = 1; j <= NB; j++) u[i][j] = un[i][j];
  }
  for (int k = 0; k < 8; k++) MPI_Type_free(&t[k]);
  double sq = 0, big = -1e300, sqall, bigall;
  for (int i = 1; i <= NB; i++)
    for (int j = 1; j <= NB; j++) {
      sq += (1.0 + 0.1 * i + 0.01 * j) * u[i][j] * u[i][j];
      if (u[i][j] > big) big = u[i][j];
    }
  MPI_Allreduce(&sq, &sqall, 1, MPI_DOUBLE, MPI_SUM, cart);
  MPI_Reduce(&big, &bigall, 1, MPI_DOUBLE, MPI_MAX, 0, cart);
  MPI_Bcast(&bigall, 1, MPI_DOUBLE, 0, cart);
  MPI_Comm_free(&cart);
  *e = sqall + bigall * bigall;
}

/* The global grid of dims[0] x dims[1] blocks; x holds the blocks in rank order (the
 * Cartesian ranks of an unreordered communicator are row-major in the coordinates). */
static double serial_energy(const double *x, int ranks) {
  (void)ranks;
  int R = NB * dims[0], C = NB * dims[1];
  double g[NB * 2][NB * 2], gn[NB * 2][NB * 2];
  for (int b = 0; b < dims[0] * dims[1]; b++) {
    int bi = b / dims[1], bj = b % dims[1];
    for (int i = 0; i < NB; i++)
      for (int j = 0; j < NB; j++) g[bi * NB + i][bj * NB + j] = x[b * NB * NB + i * NB + j];
  }
  for (int s = 0; s < STEPS; s++) {
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++) {
        int n = (i + R - 1) % R, so = (i + 1) % R, w = (j + C - 1) % C, ea = (j + 1) % C;
        gn[i][j] = g[i][j] + 0.1 * (g[n][j] + g[so][j] + g[i][w] + g[i][ea] - 4 * g[i][j]) +
                   react(g[i][j]);
      }
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++) g[i][j] = gn[i][j];
  }
  double sq = 0, big = -1e300;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      int li = i % NB + 1, lj = j % NB + 1;
      sq += (1.0 + 0.1 * li + 0.01 * lj) * g[i][j] * g[i][j];
      if (g[i][j] > big) big = g[i][j];
    }
  return (sq + big * big) * ranks; /* every rank's e, seeded on each rank */
}

static double eval(void *ctx) {
  (void)ctx;
  return serial_energy(uall, fz_size);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  grid_dims(fz_size);
  int ng = NB * NB * fz_size;
  fz_seed(82);
  for (int k = 0; k < ng; k++) uall[k] = fz_uniform(-1, 1);
  double u[NB * NB], du[NB * NB], e = 0, de = 1;
  for (int k = 0; k < NB * NB; k++) u[k] = uall[fz_rank * NB * NB + k];
  fz_zero(du, NB * NB);
  __enzyme_autodiff((void *)energy, enzyme_dup, u, du, enzyme_dup, &e, &de);
  double dall[NB * NB * MAXR];
  fz_gather(du, NB * NB, dall);
  double vu[NB * NB], te = 0, e2, tsum = 0;
  for (int k = 0; k < NB * NB; k++) vu[k] = 0.1 * (k % 4) - 0.15 + 0.05 * fz_rank;
  __enzyme_fwddiff((void *)energy, enzyme_dup, u, vu, enzyme_dup, &e2, &te);
  double dot = 0, dot_all;
  for (int k = 0; k < NB * NB; k++) dot += du[k] * vu[k];
  MPI_Allreduce(&dot, &dot_all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&te, &tsum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward vs reverse (summed over ranks)", tsum, dot_all, 1e-12);
  if (fz_rank == 0) {
    fz_check("value vs serial", e * fz_size, serial_energy(uall, fz_size), 1e-12);
    double ds[NB * NB * MAXR], sx[NB * NB * MAXR];
    fz_zero(ds, ng);
    for (int k = 0; k < ng; k++) sx[k] = uall[k];
    __enzyme_autodiff((void *)serial_energy, enzyme_dup, sx, ds, enzyme_const, fz_size);
    fz_check_vs_serial("gathered vs serial", dall, ds, ng, eval, 0, uall, 4);
  }
  return fz_mpi_finish();
}

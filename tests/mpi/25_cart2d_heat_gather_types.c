// MPI: 2 3 4
// OPT: O0 O2
// A 2-D heat stencil on a Cartesian communicator (MPI_Dims_create, MPI_Cart_create,
// MPI_Cart_coords, MPI_Cart_shift; non-periodic, MPI_PROC_NULL at the edges), each rank
// holding a BX x BY block with a one-cell halo: rows travel as contiguous doubles, columns
// as an MPI_Type_vector. Derived datatypes then meet the collectives other than MPI_Bcast:
// rank 0 scatters source weights into a strided column (MPI_Scatter with a vector receive
// type), the blocks' interiors are gathered to rank 0 as one MPI_Type_create_subarray item
// each (MPI_Gather into contiguous doubles), and every rank gathers the first interior
// column of every block (MPI_Allgather of one vector item). Allgather with a derived send
// type used to give a silently wrong gradient (the adjoint was added to the send buffer
// as if it were contiguous); Gather and Scatter with derived types read or zeroed the
// wrong shadow elements. The gradient with respect to the initial field and the weights,
// gathered on rank 0, is compared with the serial program's (itself checked against
// finite differences), and forward mode with the dot-product identity.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define BX 3 /* rows per block */
#define BY 2 /* columns per block */
#define STEPS 2
#define MAXP 4

static MPI_Comm cart;
static MPI_Datatype column, interior, strided;
static int dims[2], coords[2];

static double update(double c, double n, double s, double w, double e) {
  return c + 0.1 * (n + s + w + e - 4 * c) + 0.05 * sin(c);
}

/* x: this rank's BX x BY block; wsrc: BX * size weights (read on rank 0 only). */
void loss(const double *x, const double *wsrc, double *out) {
  int up, down, left, right;
  MPI_Cart_shift(cart, 0, 1, &up, &down);
  MPI_Cart_shift(cart, 1, 1, &left, &right);
  double u[BX + 2][BY + 2], nx[BX + 2][BY + 2], g[BX][2];
  for (int i = 0; i < BX + 2; i++)
    for (int j = 0; j < BY + 2; j++)
      u[i][j] = (i >= 1 && i <= BX && j >= 1 && j <= BY) ? x[(i - 1) * BY + j - 1] : 0;
  MPI_Scatter(wsrc, BX, MPI_DOUBLE, &g[0][0], 1, strided, 0, cart);
  for (int i = 0; i < BX; i++) u[i + 1][1] += g[i][0];
  for (int s = 0; s < STEPS; s++) {
    MPI_Sendrecv(&u[1][1], BY, MPI_DOUBLE, up, 1, &u[BX + 1][1], BY, MPI_DOUBLE, down, 1, cart,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[BX][1], BY, MPI_DOUBLE, down, 2, &u[0][1], BY, MPI_DOUBLE, up, 2, cart,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[1][1], 1, column, left, 3, &u[1][BY + 1], 1, column, right, 3, cart,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[1][BY], 1, column, right, 4, &u[1][0], 1, column, left, 4, cart,
                 MPI_STATUS_IGNORE);
    for (int i = 1; i <= BX; i++)
      for (int j = 1; j <= BY; j++)
        nx[i][j] = update(u[i][j], u[i - 1][j], u[i + 1][j], u[i][j - 1], u[i][j + 1]);
    for (int i = 1; i <= BX; i++)
      for (int j = 1; j <= BY; j++) u[i][j] = nx[i][j];
  }
  double all[MAXP * BX * BY], cols[MAXP * BX], l = 0;
  MPI_Gather(&u[0][0], 1, interior, all, BX * BY, MPI_DOUBLE, 0, cart);
  if (fz_rank == 0)
    for (int k = 0; k < fz_size * BX * BY; k++) l += (1 + 0.01 * k) * all[k] * all[k];
  MPI_Allgather(&u[1][1], 1, column, cols, BX, MPI_DOUBLE, cart);
  double a = 0;
  for (int k = 0; k < fz_size * BX; k++) a += cos(cols[k]) * (k + 1);
  l += 0.1 * (fz_rank + 1) * a;
  MPI_Allreduce(&l, out, 1, MPI_DOUBLE, MPI_SUM, cart);
}

/* The same on the whole (dims[0] BX) x (dims[1] BY) field; block r at Cartesian
 * coordinates (r / dims[1], r % dims[1]) (MPI_Cart_create without reordering). */
#define GX (MAXP * BX)
#define GY (MAXP * BY)
double serial(const double *xall, const double *w, int p) {
  int nx0 = dims[0] * BX, ny0 = dims[1] * BY;
  double u[GX + 2][GY + 2], nx[GX + 2][GY + 2];
  for (int i = 0; i < GX + 2; i++)
    for (int j = 0; j < GY + 2; j++) u[i][j] = 0;
  for (int r = 0; r < p; r++) {
    int cx = r / dims[1], cy = r % dims[1];
    for (int i = 0; i < BX; i++) {
      for (int j = 0; j < BY; j++) u[cx * BX + i + 1][cy * BY + j + 1] = xall[r * BX * BY + i * BY + j];
      u[cx * BX + i + 1][cy * BY + 1] += w[r * BX + i];
    }
  }
  for (int s = 0; s < STEPS; s++) {
    for (int i = 1; i <= nx0; i++)
      for (int j = 1; j <= ny0; j++)
        nx[i][j] = update(u[i][j], u[i - 1][j], u[i + 1][j], u[i][j - 1], u[i][j + 1]);
    for (int i = 1; i <= nx0; i++)
      for (int j = 1; j <= ny0; j++) u[i][j] = nx[i][j];
  }
  double l = 0, a = 0;
  for (int r = 0; r < p; r++) {
    int cx = r / dims[1], cy = r % dims[1];
    for (int i = 0; i < BX; i++) {
      for (int j = 0; j < BY; j++) {
        int k = r * BX * BY + i * BY + j;
        double v = u[cx * BX + i + 1][cy * BY + j + 1];
        l += (1 + 0.01 * k) * v * v;
      }
      a += cos(u[cx * BX + i + 1][cy * BY + 1]) * (r * BX + i + 1);
    }
  }
  return l + 0.1 * a * p * (p + 1) / 2;
}

static double xall[MAXP * BX * BY], wall[MAXP * BX];
static int P;
static double eval(void *ctx) {
  (void)ctx;
  return serial(xall, wall, P);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int periods[2] = {0, 0};
  MPI_Dims_create(fz_size, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Cart_coords(cart, fz_rank, 2, coords);
  fz_check("Cartesian rank order", coords[0] * dims[1] + coords[1], fz_rank, 0);
  MPI_Type_vector(BX, 1, BY + 2, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  int sizes[2] = {BX + 2, BY + 2}, sub[2] = {BX, BY}, start[2] = {1, 1};
  MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &interior);
  MPI_Type_commit(&interior);
  MPI_Type_vector(BX, 1, 2, MPI_DOUBLE, &strided);
  MPI_Type_commit(&strided);
  P = fz_size;
  fz_seed(2517);
  int n = BX * BY;
  fz_fill(xall, P * n, -1, 1);
  fz_fill(wall, P * BX, -0.5, 0.5);
  double x[BX * BY], dx[BX * BY], w[MAXP * BX], dw[MAXP * BX], out = 0;
  double dout = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < n; i++) x[i] = xall[fz_rank * n + i];
  for (int i = 0; i < P * BX; i++) w[i] = fz_rank == 0 ? wall[i] : 0;
  fz_zero(dx, n);
  fz_zero(dw, P * BX);
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, &out, &dout);
  double dall[MAXP * BX * BY];
  fz_gather(dx, n, dall);
  if (fz_rank == 0) {
    double ds[MAXP * BX * BY], dws[MAXP * BX];
    fz_zero(ds, P * n);
    fz_zero(dws, P * BX);
    __enzyme_autodiff((void *)serial, enzyme_dup, xall, ds, enzyme_dup, wall, dws, enzyme_const,
                      P);
    fz_check("loss", out, serial(xall, wall, P), 1e-12);
    fz_check_arr("gathered field gradient vs serial", dall, ds, P * n, 1e-12);
    fz_check_arr("weight gradient vs serial", dw, dws, P * BX, 1e-12);
    for (int q = 0; q < P * n; q += 3) {
      char name[40];
      snprintf(name, sizeof name, "serial vs fd x[%d]", q);
      fz_check(name, ds[q], fz_fd_ptr(eval, 0, &xall[q]), 1e-6);
    }
    for (int q = 0; q < P * BX; q += 2) {
      char name[40];
      snprintf(name, sizeof name, "serial vs fd w[%d]", q);
      fz_check(name, dws[q], fz_fd_ptr(eval, 0, &wall[q]), 1e-6);
    }
  } else {
    double z = 0;
    for (int i = 0; i < P * BX; i++) z += fabs(dw[i]);
    fz_check("non-root weight adjoint is zero", z, 0, 0);
  }
  /* Forward mode: tangents of the field everywhere and of the weights on rank 0. */
  double v[BX * BY], tw[MAXP * BX], tout = 0;
  for (int i = 0; i < n; i++) v[i] = 0.3 + 0.1 * i - 0.2 * fz_rank;
  for (int i = 0; i < P * BX; i++) tw[i] = fz_rank == 0 ? 0.5 - 0.1 * i : 0;
  __enzyme_fwddiff((void *)loss, enzyme_dup, x, v, enzyme_dup, w, tw, enzyme_dup, &out, &tout);
  double dot = 0, total;
  for (int i = 0; i < n; i++) dot += dx[i] * v[i];
  for (int i = 0; i < P * BX; i++) dot += dw[i] * tw[i];
  MPI_Allreduce(&dot, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward vs reverse", tout, total, 1e-12);
  MPI_Type_free(&column);
  MPI_Type_free(&interior);
  MPI_Type_free(&strided);
  MPI_Comm_free(&cart);
  return fz_mpi_finish();
}

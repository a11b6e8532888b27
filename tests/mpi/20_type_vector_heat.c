// MPI: 2 3
// OPT: O0 O2
// A 2-D explicit heat step on a field stored row-major and split by columns over the
// ranks, as stencil codes write it: the halo columns are strided, so they are sent with
// a derived datatype (MPI_Type_vector of NY doubles with stride C+2, committed once in
// main and kept in a global). Westward the column goes with MPI_Sendrecv on the column
// type at both ends; eastward with MPI_Isend of the column type into an MPI_Irecv of NY
// contiguous MPI_DOUBLE (the same type signature) and MPI_Waitall. The end ranks talk to
// MPI_PROC_NULL. A source term's two coefficients travel from rank 0 along the ranks as
// one item of an MPI_Type_create_struct of doubles (MPI_Send/MPI_Recv) and are then
// broadcast as one (MPI_Bcast), and the corner cells go as an MPI_Type_contiguous pair. Derived datatypes used to stop the program
// (tests/mpi/14); the gradient with respect to the initial field and the coefficients,
// gathered on rank 0, is compared with the serial program's (itself checked against
// finite differences), and forward mode with the dot-product identity.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NY 4    /* rows */
#define C 3     /* columns per rank */
#define W (C + 2)
#define STEPS 3

typedef struct {
  double alpha;
  double beta[2];
} coeffs;

static MPI_Datatype column, coeff_type, pair;

static void step(double (*u)[W], double (*nx)[W], int cols, const coeffs *k) {
  for (int j = 0; j < NY; j++)
    for (int i = 1; i <= cols; i++) {
      double n = j > 0 ? u[j - 1][i] : 0, s = j < NY - 1 ? u[j + 1][i] : 0;
      nx[j][i] = u[j][i] + k->alpha * (u[j][i - 1] + u[j][i + 1] + n + s - 4 * u[j][i]) +
                 k->beta[0] * sin(u[j][i]) + k->beta[1] * u[j][i] * u[j][i];
    }
  for (int j = 0; j < NY; j++)
    for (int i = 1; i <= cols; i++) u[j][i] = nx[j][i];
}

/* x: this rank's NY x C block (row-major); k: the coefficients (used on rank 0). */
void loss(const double *x, const coeffs *k0, double *out) {
  int west = fz_rank > 0 ? fz_rank - 1 : MPI_PROC_NULL;
  int east = fz_rank < fz_size - 1 ? fz_rank + 1 : MPI_PROC_NULL;
  double u[NY][W], nx[NY][W], ghost[NY];
  coeffs k;
  if (fz_rank == 0) {
    k = *k0;
  } else {
    MPI_Recv(&k, 1, coeff_type, fz_rank - 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (fz_rank < fz_size - 1) MPI_Send(&k, 1, coeff_type, fz_rank + 1, 3, MPI_COMM_WORLD);
  for (int j = 0; j < NY; j++) {
    u[j][0] = u[j][C + 1] = 0;
    for (int i = 0; i < C; i++) u[j][i + 1] = x[j * C + i];
  }
  for (int s = 0; s < STEPS; s++) {
    /* my first column goes west, the east halo arrives from the east */
    MPI_Sendrecv(&u[0][1], 1, column, west, 5, &u[0][C + 1], 1, column, east, 5,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* my last column goes east, the west halo arrives (contiguous) from the west */
    MPI_Request rq[2];
    MPI_Irecv(ghost, NY, MPI_DOUBLE, west, 6, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(&u[0][C], 1, column, east, 6, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    if (west != MPI_PROC_NULL)
      for (int j = 0; j < NY; j++) u[j][0] = ghost[j];
    step(u, nx, C, &k);
  }
  /* the last rank's two corner cells go to rank 0 as one contiguous pair */
  double corner[2] = {u[0][C], u[NY - 1][C]}, far[2] = {0, 0};
  if (fz_size > 1) {
    if (fz_rank == fz_size - 1) MPI_Send(corner, 1, pair, 0, 9, MPI_COMM_WORLD);
    if (fz_rank == 0) MPI_Recv(far, 1, pair, fz_size - 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    far[0] = corner[0];
    far[1] = corner[1];
  }
  /* the coefficients once more, broadcast from rank 0 as one struct item */
  coeffs kb = k;
  MPI_Bcast(&kb, 1, coeff_type, 0, MPI_COMM_WORLD);
  double l = fz_rank == 0 ? far[0] * far[1] : 0;
  l += 0.01 * kb.alpha * kb.beta[1] * (fz_rank + 1);
  for (int j = 0; j < NY; j++)
    for (int i = 1; i <= C; i++) l += cos(u[j][i]) * (1 + 0.1 * j + 0.01 * i);
  MPI_Allreduce(&l, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* The same on the whole field (p * C columns). */
double serial(const double *xall, const coeffs *k, int p) {
  int cols = p * C;
  double u[NY][3 * C + 2], nx[NY][3 * C + 2];
  for (int j = 0; j < NY; j++) {
    u[j][0] = u[j][cols + 1] = 0;
    for (int i = 0; i < cols; i++) u[j][i + 1] = xall[(i / C) * NY * C + j * C + i % C];
  }
  for (int s = 0; s < STEPS; s++) {
    for (int j = 0; j < NY; j++)
      for (int i = 1; i <= cols; i++) {
        double n = j > 0 ? u[j - 1][i] : 0, so = j < NY - 1 ? u[j + 1][i] : 0;
        nx[j][i] = u[j][i] + k->alpha * (u[j][i - 1] + u[j][i + 1] + n + so - 4 * u[j][i]) +
                   k->beta[0] * sin(u[j][i]) + k->beta[1] * u[j][i] * u[j][i];
      }
    for (int j = 0; j < NY; j++)
      for (int i = 1; i <= cols; i++) u[j][i] = nx[j][i];
  }
  double l = u[0][cols] * u[NY - 1][cols] + 0.01 * k->alpha * k->beta[1] * p * (p + 1) / 2;
  for (int j = 0; j < NY; j++)
    for (int i = 1; i <= cols; i++) l += cos(u[j][i]) * (1 + 0.1 * j + 0.01 * ((i - 1) % C + 1));
  return l;
}

static double xall[3 * NY * C];
static coeffs K = {0.12, {0.05, 0.03}};
static int P;
static double eval(void *ctx) {
  (void)ctx;
  return serial(xall, &K, P);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  MPI_Type_vector(NY, 1, W, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  int lens[2] = {1, 2};
  MPI_Aint disp[2] = {offsetof(coeffs, alpha), offsetof(coeffs, beta)};
  MPI_Datatype types[2] = {MPI_DOUBLE, MPI_DOUBLE};
  MPI_Type_create_struct(2, lens, disp, types, &coeff_type);
  MPI_Type_commit(&coeff_type);
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  MPI_Type_commit(&pair);
  P = fz_size;
  fz_seed(2020);
  int n = NY * C;
  fz_fill(xall, P * n, -1, 1);
  double x[NY * C], dx[NY * C], out = 0, dout = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < n; i++) x[i] = xall[fz_rank * n + i];
  fz_zero(dx, n);
  coeffs dk = {0, {0, 0}};
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_dup, &K, &dk, enzyme_dup, &out,
                    &dout);
  double dall[3 * NY * C];
  fz_gather(dx, n, dall);
  if (fz_rank == 0) {
    double ds[3 * NY * C];
    coeffs dks = {0, {0, 0}};
    fz_zero(ds, P * n);
    __enzyme_autodiff((void *)serial, enzyme_dup, xall, ds, enzyme_dup, &K, &dks, enzyme_const,
                      P);
    fz_check("loss", out, serial(xall, &K, P), 1e-12);
    fz_check_arr("gathered vs serial", dall, ds, P * n, 1e-12);
    fz_check("d alpha", dk.alpha, dks.alpha, 1e-12);
    fz_check("d beta0", dk.beta[0], dks.beta[0], 1e-12);
    fz_check("d beta1", dk.beta[1], dks.beta[1], 1e-12);
    for (int q = 0; q < P * n; q += 5) {
      char name[32];
      snprintf(name, sizeof name, "serial vs fd [%d]", q);
      fz_check(name, ds[q], fz_fd_ptr(eval, 0, &xall[q]), 1e-6);
    }
    fz_check("serial vs fd alpha", dks.alpha, fz_fd_ptr(eval, 0, &K.alpha), 1e-6);
    fz_check("serial vs fd beta1", dks.beta[1], fz_fd_ptr(eval, 0, &K.beta[1]), 1e-6);
  } else {
    fz_check("other ranks' coefficient adjoint is zero", dk.alpha, 0, 0);
  }
  /* Forward mode: tangents of the field on every rank and of alpha on rank 0. */
  double v[NY * C], tout = 0;
  for (int i = 0; i < n; i++) v[i] = 0.3 + 0.1 * i - 0.2 * fz_rank;
  coeffs tk = {fz_rank == 0 ? 0.7 : 0, {0, 0}};
  __enzyme_fwddiff((void *)loss, enzyme_dup, x, v, enzyme_dup, &K, &tk, enzyme_dup, &out, &tout);
  double dot = (fz_rank == 0 ? 0.7 * dk.alpha : 0), total;
  for (int i = 0; i < n; i++) dot += dx[i] * v[i];
  MPI_Allreduce(&dot, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward vs reverse", tout, total, 1e-12);
  MPI_Type_free(&column);
  MPI_Type_free(&coeff_type);
  MPI_Type_free(&pair);
  return fz_mpi_finish();
}

// MPI: 2 4
// OMP_THREADS: 2
// OPT: O0 O2
// SOURCES: src/local_energy.f90
// A C MPI driver around a Fortran kernel (src/local_energy.f90, bind(c), with an
// `!$omp parallel do collapse(2) reduction(+:e)` inside): each rank owns NX columns of
// an NY-row field stored column-major with one halo column on each side, fills the
// halos from its neighbours with MPI_Sendrecv (periodic), calls the kernel, and the
// energies are summed with MPI_Allreduce. The gradient gathered on rank 0 is compared
// with the serial program's (the same kernel on the whole field).
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

void local_energy(int nx, int ny, const double *u, double *e);

#define NX 3
#define NY 4

void total(const double *mine, double *out) {
  int left = (fz_rank + fz_size - 1) % fz_size, right = (fz_rank + 1) % fz_size;
  /* Fortran's u(0:NX+1, NY), i fastest: element (i, j) at i + (NX+2)*j; mine is (NX, NY). */
  double u[(NX + 2) * NY], e = 0;
  for (int j = 0; j < NY; j++)
    for (int i = 1; i <= NX; i++) u[i + (NX + 2) * j] = mine[(i - 1) + NX * j];
  for (int j = 0; j < NY; j++) {
    /* my last interior point goes right, my left halo comes from the left; and back */
    MPI_Sendrecv(&u[NX + (NX + 2) * j], 1, MPI_DOUBLE, right, j, &u[(NX + 2) * j], 1,
                 MPI_DOUBLE, left, j, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[1 + (NX + 2) * j], 1, MPI_DOUBLE, left, 100 + j,
                 &u[NX + 1 + (NX + 2) * j], 1, MPI_DOUBLE, right, 100 + j, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  }
  local_energy(NX, NY, u, &e);
  MPI_Allreduce(&e, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* The whole periodic field (P*NX columns) through the same kernel. */
double serial(const double *all, int p) {
  int nx = p * NX;
  double u[(4 * NX + 2) * NY], e = 0;
  for (int j = 0; j < NY; j++) {
    for (int g = 0; g < nx; g++) {
      int r = g / NX, i = g % NX;
      u[g + 1 + (nx + 2) * j] = all[r * NX * NY + i + NX * j];
    }
    u[(nx + 2) * j] = u[nx + (nx + 2) * j];
    u[nx + 1 + (nx + 2) * j] = u[1 + (nx + 2) * j];
  }
  local_energy(nx, NY, u, &e);
  return e;
}

static double xall[4 * NX * NY];
static int P;
static double eval(void *ctx) {
  (void)ctx;
  return serial(xall, P);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  P = fz_size;
  fz_seed(1111);
  int n = NX * NY;
  fz_fill(xall, P * n, -1, 1);
  double x[NX * NY], dx[NX * NY], out = 0, dout = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < n; i++) x[i] = xall[fz_rank * n + i];
  fz_zero(dx, n);
  __enzyme_autodiff((void *)total, enzyme_dup, x, dx, enzyme_dup, &out, &dout);
  double dall[4 * NX * NY];
  fz_gather(dx, n, dall);
  if (fz_rank == 0) {
    double ds[4 * NX * NY];
    fz_zero(ds, P * n);
    __enzyme_autodiff((void *)serial, enzyme_dup, xall, ds, enzyme_const, P);
    fz_check("energy", out, serial(xall, P), 1e-12);
    fz_check_arr("gathered vs serial", dall, ds, P * n, 1e-12);
    for (int k = 0; k < P * n; k += 5) {
      char name[32];
      snprintf(name, sizeof name, "serial vs fd [%d]", k);
      fz_check(name, ds[k], fz_fd_ptr(eval, 0, &xall[k]), 1e-6);
    }
  }
  return fz_mpi_finish();
}

// MPI: 2
// OPT: O0 O2
// EXPECT-RUNTIME-ERROR: differentiated data is communicated as MPI_BYTE, which is not differentiated
// Particles as a C struct {position, velocity} migrated to the next rank as raw bytes
// (`count * sizeof(struct particle)` of MPI_BYTE), as particle codes often do. The
// helpers used to treat MPI_BYTE like an integer type: the adjoint exchange was skipped
// and the gradient of the sender's particles was silently zero. Now the program stops
// with a message naming MPI_BYTE and the remedy (send the reals as MPI_DOUBLE). The same
// check covers the other predefined types that hold reals without being differentiated
// (MPI_PACKED, complex types, long double, MPI_DOUBLE_INT pairs).
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

#define NP 4

struct particle {
  double x, v;
};

/* Each rank moves its particles one step and sends them to the right neighbour, which
 * adds the kinetic energy of what it received. */
void migrate_energy(const struct particle *p, double *e) {
  struct particle out[NP], in[NP];
  int right = (fz_rank + 1) % fz_size, left = (fz_rank + fz_size - 1) % fz_size;
  for (int i = 0; i < NP; i++) {
    out[i].x = p[i].x + 0.1 * p[i].v;
    out[i].v = p[i].v - 0.1 * sin(p[i].x);
  }
  MPI_Sendrecv(out, NP * (int)sizeof(struct particle), MPI_BYTE, right, 3, in,
               NP * (int)sizeof(struct particle), MPI_BYTE, left, 3, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  double local = 0;
  for (int i = 0; i < NP; i++) local += 0.5 * in[i].v * in[i].v + in[i].x * in[i].x;
  MPI_Allreduce(&local, e, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  fz_seed(15 + fz_rank);
  struct particle p[NP], dp[NP];
  for (int i = 0; i < NP; i++) {
    p[i].x = fz_uniform(-1, 1);
    p[i].v = fz_uniform(-1, 1);
    dp[i].x = dp[i].v = 0;
  }
  double e = 0, de = fz_rank == 0 ? 1 : 0;
  __enzyme_autodiff((void *)migrate_energy, enzyme_dup, p, dp, enzyme_dup, &e, &de);
  /* Reached only if the exchange were differentiated: the analytic gradient. */
  for (int i = 0; i < NP; i++) {
    double x1 = p[i].x + 0.1 * p[i].v, v1 = p[i].v - 0.1 * sin(p[i].x);
    fz_check("d/dx", dp[i].x, 2 * x1 - 0.1 * cos(p[i].x) * v1, 1e-12);
    fz_check("d/dv", dp[i].v, 0.2 * x1 + v1, 1e-12);
  }
  return fz_mpi_finish();
}

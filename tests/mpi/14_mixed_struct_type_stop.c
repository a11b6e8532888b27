// MPI: 2
// OPT: O0 O2
// EXPECT-RUNTIME-ERROR: a derived MPI datatype mixing reals with integers
// Particles migrated between ranks as one MPI_Type_create_struct item each: two doubles
// (position) and an int (id), as particle codes send them. Derived datatypes made of one
// real type are differentiated (tests/mpi/20, 21); one that mixes reals with integers
// is not: the adjoint of the exchange stops the program with a message saying so and
// the remedy (send the reals and the integers as separate messages), never a silently
// wrong gradient. (This program used to be 14_type_vector_halo_stop: a halo column as
// MPI_Type_vector, which is differentiated now.)
#include <mpi.h>
#include <stddef.h>
#include "fz_test.h"
#include "fz_mpi.h"

typedef struct {
  double pos[2];
  int id;
} particle;

static MPI_Datatype ptype;

void energy(const double *x, double *e) {
  int right = (fz_rank + 1) % fz_size, left = (fz_rank + fz_size - 1) % fz_size;
  particle mine = {{x[0], x[1]}, fz_rank}, other;
  MPI_Sendrecv(&mine, 1, ptype, right, 0, &other, 1, ptype, left, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  double d0 = other.pos[0] - mine.pos[0], d1 = other.pos[1] - mine.pos[1];
  double local = (d0 * d0 + d1 * d1) * (1 + other.id);
  MPI_Allreduce(&local, e, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int lens[2] = {2, 1};
  MPI_Aint disp[2] = {offsetof(particle, pos), offsetof(particle, id)};
  MPI_Datatype types[2] = {MPI_DOUBLE, MPI_INT};
  MPI_Type_create_struct(2, lens, disp, types, &ptype);
  MPI_Type_commit(&ptype);
  fz_seed(14 + fz_rank);
  double x[2], dx[2] = {0, 0}, e = 0, de = fz_rank == 0 ? 1 : 0;
  fz_fill(x, 2, -1, 1);
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_dup, &e, &de);
  fz_check("unreachable: the mixed datatype stops the program", 0, 1, 0);
  MPI_Type_free(&ptype);
  return fz_mpi_finish();
}

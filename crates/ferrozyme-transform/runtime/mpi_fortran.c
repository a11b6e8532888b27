/* Open MPI's Fortran bindings (`mpif.h`, `use mpi`: `mpi_allreduce_` ...) as C code the
 * AD pass can differentiate.
 *
 * A Fortran MPI call passes every argument by reference and its handles (communicator,
 * datatype, operation) as Fortran integers; the library converts them and calls the C
 * routine. That library has no IR, so inside the functions it differentiates the pass
 * points such calls at these wrappers (same arguments: `ferrozyme_transform::fortran`),
 * which convert the handles with `MPI_*_f2c` (inactive) and call the C routine, whose
 * derivative is the C rule's (`ferrozyme_rules::mpi`): a Fortran `MPI_DOUBLE_PRECISION`
 * is Open MPI's `ompi_mpi_dblprec`, a buffer that carries derivatives.
 *
 * Fortran's sentinels are the addresses of Open MPI's common blocks: `MPI_IN_PLACE` is
 * `&mpi_fortran_in_place_`, `MPI_STATUS_IGNORE` is `&mpi_fortran_status_ignore_`; a
 * Fortran status (`integer :: status(MPI_STATUS_SIZE)`) is written with
 * `MPI_Status_c2f`. The error code goes to `ierr`.
 *
 * Compiled to IR by build.rs; linked into a module only when a differentiated function
 * calls one of these bindings (an MPI program, linked with -lmpi -lmpi_mpifh). */
#include <stddef.h>

typedef void *fz_comm, *fz_type, *fz_op;
typedef int fz_fint;
typedef struct {
  int source, tag, error, cancelled;
  size_t ucount;
} fz_status;

fz_comm MPI_Comm_f2c(fz_fint);
fz_type MPI_Type_f2c(fz_fint);
fz_op MPI_Op_f2c(fz_fint);
int MPI_Status_c2f(const fz_status *, fz_fint *);

int MPI_Send(const void *, int, fz_type, int, int, fz_comm);
int MPI_Ssend(const void *, int, fz_type, int, int, fz_comm);
int MPI_Recv(void *, int, fz_type, int, int, fz_comm, fz_status *);
int MPI_Sendrecv(const void *, int, fz_type, int, int, void *, int, fz_type, int, int, fz_comm,
                 fz_status *);
int MPI_Bcast(void *, int, fz_type, int, fz_comm);
int MPI_Reduce(const void *, void *, int, fz_type, fz_op, int, fz_comm);
int MPI_Allreduce(const void *, void *, int, fz_type, fz_op, fz_comm);
int MPI_Gather(const void *, int, fz_type, void *, int, fz_type, int, fz_comm);
int MPI_Scatter(const void *, int, fz_type, void *, int, fz_type, int, fz_comm);
int MPI_Allgather(const void *, int, fz_type, void *, int, fz_type, fz_comm);
int MPI_Sendrecv_replace(void *, int, fz_type, int, int, int, int, fz_comm, fz_status *);
int MPI_Allgatherv(const void *, int, fz_type, void *, const int *, const int *, fz_type,
                   fz_comm);
int MPI_Gatherv(const void *, int, fz_type, void *, const int *, const int *, fz_type, int,
                fz_comm);
int MPI_Scatterv(const void *, const int *, const int *, fz_type, void *, int, fz_type, int,
                 fz_comm);
int MPI_Barrier(fz_comm);
int MPI_Comm_rank(fz_comm, int *);
int MPI_Comm_size(fz_comm, int *);

/* Open MPI's Fortran sentinels (defined in libmpi). */
extern int mpi_fortran_in_place_, mpi_fortran_status_ignore_;

#define FZ_IN_PLACE ((void *)1)

static const void *fz_in(const void *buf) {
  return buf == (const void *)&mpi_fortran_in_place_ ? FZ_IN_PLACE : buf;
}

static void *fz_inout(void *buf) {
  return buf == (void *)&mpi_fortran_in_place_ ? FZ_IN_PLACE : buf;
}

/* A C status for the call, copied out unless the caller passed MPI_STATUS_IGNORE. */
static void fz_status_out(const fz_status *s, fz_fint *f) {
  if (f != &mpi_fortran_status_ignore_) MPI_Status_c2f(s, f);
}

void __fz_mpif_send(const void *buf, const fz_fint *count, const fz_fint *type,
                    const fz_fint *dest, const fz_fint *tag, const fz_fint *comm, fz_fint *ierr) {
  *ierr = MPI_Send(buf, *count, MPI_Type_f2c(*type), *dest, *tag, MPI_Comm_f2c(*comm));
}

void __fz_mpif_ssend(const void *buf, const fz_fint *count, const fz_fint *type,
                     const fz_fint *dest, const fz_fint *tag, const fz_fint *comm, fz_fint *ierr) {
  *ierr = MPI_Ssend(buf, *count, MPI_Type_f2c(*type), *dest, *tag, MPI_Comm_f2c(*comm));
}

void __fz_mpif_recv(void *buf, const fz_fint *count, const fz_fint *type, const fz_fint *source,
                    const fz_fint *tag, const fz_fint *comm, fz_fint *status, fz_fint *ierr) {
  fz_status s;
  *ierr = MPI_Recv(buf, *count, MPI_Type_f2c(*type), *source, *tag, MPI_Comm_f2c(*comm), &s);
  fz_status_out(&s, status);
}

void __fz_mpif_sendrecv(const void *sbuf, const fz_fint *scount, const fz_fint *stype,
                        const fz_fint *dest, const fz_fint *stag, void *rbuf,
                        const fz_fint *rcount, const fz_fint *rtype, const fz_fint *source,
                        const fz_fint *rtag, const fz_fint *comm, fz_fint *status,
                        fz_fint *ierr) {
  fz_status s;
  *ierr = MPI_Sendrecv(sbuf, *scount, MPI_Type_f2c(*stype), *dest, *stag, rbuf, *rcount,
                       MPI_Type_f2c(*rtype), *source, *rtag, MPI_Comm_f2c(*comm), &s);
  fz_status_out(&s, status);
}

void __fz_mpif_bcast(void *buf, const fz_fint *count, const fz_fint *type, const fz_fint *root,
                     const fz_fint *comm, fz_fint *ierr) {
  *ierr = MPI_Bcast(buf, *count, MPI_Type_f2c(*type), *root, MPI_Comm_f2c(*comm));
}

void __fz_mpif_reduce(const void *sbuf, void *rbuf, const fz_fint *count, const fz_fint *type,
                      const fz_fint *op, const fz_fint *root, const fz_fint *comm,
                      fz_fint *ierr) {
  *ierr = MPI_Reduce(fz_in(sbuf), rbuf, *count, MPI_Type_f2c(*type), MPI_Op_f2c(*op), *root,
                     MPI_Comm_f2c(*comm));
}

void __fz_mpif_allreduce(const void *sbuf, void *rbuf, const fz_fint *count,
                         const fz_fint *type, const fz_fint *op, const fz_fint *comm,
                         fz_fint *ierr) {
  *ierr = MPI_Allreduce(fz_in(sbuf), rbuf, *count, MPI_Type_f2c(*type), MPI_Op_f2c(*op),
                        MPI_Comm_f2c(*comm));
}

void __fz_mpif_gather(const void *sbuf, const fz_fint *scount, const fz_fint *stype, void *rbuf,
                      const fz_fint *rcount, const fz_fint *rtype, const fz_fint *root,
                      const fz_fint *comm, fz_fint *ierr) {
  *ierr = MPI_Gather(fz_in(sbuf), *scount, MPI_Type_f2c(*stype), rbuf, *rcount,
                     MPI_Type_f2c(*rtype), *root, MPI_Comm_f2c(*comm));
}

void __fz_mpif_scatter(const void *sbuf, const fz_fint *scount, const fz_fint *stype, void *rbuf,
                       const fz_fint *rcount, const fz_fint *rtype, const fz_fint *root,
                       const fz_fint *comm, fz_fint *ierr) {
  *ierr = MPI_Scatter(sbuf, *scount, MPI_Type_f2c(*stype), fz_inout(rbuf), *rcount,
                      MPI_Type_f2c(*rtype), *root, MPI_Comm_f2c(*comm));
}

void __fz_mpif_allgather(const void *sbuf, const fz_fint *scount, const fz_fint *stype,
                         void *rbuf, const fz_fint *rcount, const fz_fint *rtype,
                         const fz_fint *comm, fz_fint *ierr) {
  *ierr = MPI_Allgather(fz_in(sbuf), *scount, MPI_Type_f2c(*stype), rbuf, *rcount,
                        MPI_Type_f2c(*rtype), MPI_Comm_f2c(*comm));
}

/* The routines the C side composes (runtime/mpi_composed.c): the C call below is
 * redirected there like the program's own. */
void __fz_mpif_sendrecv_replace(void *buf, const fz_fint *count, const fz_fint *type,
                                const fz_fint *dest, const fz_fint *stag,
                                const fz_fint *source, const fz_fint *rtag,
                                const fz_fint *comm, fz_fint *status, fz_fint *ierr) {
  fz_status s;
  *ierr = MPI_Sendrecv_replace(buf, *count, MPI_Type_f2c(*type), *dest, *stag, *source, *rtag,
                               MPI_Comm_f2c(*comm), &s);
  fz_status_out(&s, status);
}

void __fz_mpif_allgatherv(const void *sbuf, const fz_fint *scount, const fz_fint *stype,
                          void *rbuf, const fz_fint *rcounts, const fz_fint *displs,
                          const fz_fint *rtype, const fz_fint *comm, fz_fint *ierr) {
  *ierr = MPI_Allgatherv(fz_in(sbuf), *scount, MPI_Type_f2c(*stype), rbuf, rcounts, displs,
                         MPI_Type_f2c(*rtype), MPI_Comm_f2c(*comm));
}

void __fz_mpif_gatherv(const void *sbuf, const fz_fint *scount, const fz_fint *stype,
                       void *rbuf, const fz_fint *rcounts, const fz_fint *displs,
                       const fz_fint *rtype, const fz_fint *root, const fz_fint *comm,
                       fz_fint *ierr) {
  *ierr = MPI_Gatherv(fz_in(sbuf), *scount, MPI_Type_f2c(*stype), rbuf, rcounts, displs,
                      MPI_Type_f2c(*rtype), *root, MPI_Comm_f2c(*comm));
}

void __fz_mpif_scatterv(const void *sbuf, const fz_fint *scounts, const fz_fint *displs,
                        const fz_fint *stype, void *rbuf, const fz_fint *rcount,
                        const fz_fint *rtype, const fz_fint *root, const fz_fint *comm,
                        fz_fint *ierr) {
  *ierr = MPI_Scatterv(sbuf, scounts, displs, MPI_Type_f2c(*stype), fz_inout(rbuf), *rcount,
                       MPI_Type_f2c(*rtype), *root, MPI_Comm_f2c(*comm));
}

void __fz_mpif_barrier(const fz_fint *comm, fz_fint *ierr) {
  *ierr = MPI_Barrier(MPI_Comm_f2c(*comm));
}

void __fz_mpif_comm_rank(const fz_fint *comm, fz_fint *rank, fz_fint *ierr) {
  *ierr = MPI_Comm_rank(MPI_Comm_f2c(*comm), rank);
}

void __fz_mpif_comm_size(const fz_fint *comm, fz_fint *size, fz_fint *ierr) {
  *ierr = MPI_Comm_size(MPI_Comm_f2c(*comm), size);
}

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

typedef void *fz_comm, *fz_type, *fz_op, *fz_req;
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
int MPI_Alltoall(const void *, int, fz_type, void *, int, fz_type, fz_comm);
int MPI_Alltoallv(const void *, const int *, const int *, fz_type, void *, const int *,
                  const int *, fz_type, fz_comm);
int MPI_Scan(const void *, void *, int, fz_type, fz_op, fz_comm);
int MPI_Exscan(const void *, void *, int, fz_type, fz_op, fz_comm);
int MPI_Reduce_scatter_block(const void *, void *, int, fz_type, fz_op, fz_comm);
int MPI_Reduce_scatter(const void *, void *, const int *, fz_type, fz_op, fz_comm);
int MPI_Barrier(fz_comm);
int MPI_Isend(const void *, int, fz_type, int, int, fz_comm, fz_req *);
int MPI_Irecv(void *, int, fz_type, int, int, fz_comm, fz_req *);
int MPI_Wait(fz_req *, fz_status *);
int MPI_Send_init(const void *, int, fz_type, int, int, fz_comm, fz_req *);
int MPI_Ssend_init(const void *, int, fz_type, int, int, fz_comm, fz_req *);
int MPI_Recv_init(void *, int, fz_type, int, int, fz_comm, fz_req *);
int MPI_Start(fz_req *);
int MPI_Request_free(fz_req *);
void abort(void);
long write(int, const void *, size_t);
int MPI_Comm_rank(fz_comm, int *);
int MPI_Comm_size(fz_comm, int *);

/* Open MPI's Fortran sentinels (defined in libmpi). */
extern int mpi_fortran_in_place_, mpi_fortran_status_ignore_, mpi_fortran_statuses_ignore_;

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

/* ---- nonblocking calls ----------------------------------------------------------------
 *
 * A Fortran request is an integer; the C rules keep what the reverse sweep needs of a
 * nonblocking operation in the shadow of its C MPI_Request. So inside differentiated code
 * the C requests of Fortran's MPI_ISEND/MPI_IRECV live in this table (a global: its
 * shadow holds the records from the nonblocking call to its wait), and the Fortran
 * request is the slot's number, FZ_REQ_BASE + slot; MPI_WAIT and MPI_WAITALL take them
 * back (MPI_REQUEST_NULL, 0, completes at once) and free the slot. Such a request cannot
 * outlive the differentiated call (it is not an Open MPI handle). */
#define FZ_REQ_SLOTS 4096
#define FZ_REQ_BASE 0x40000000
#define FZ_STATUS_SIZE 6 /* Open MPI's MPI_STATUS_SIZE (mpif-config.h) */
static fz_req fz_requests[FZ_REQ_SLOTS];
static unsigned char fz_slot_used[FZ_REQ_SLOTS]; /* 0 free, 1 used, FZ_PERSISTENT */
#define FZ_PERSISTENT 2

static void fz_die(const char *what) {
  size_t n = 0;
  while (what[n]) n++;
  write(2, "ferrozyme: ", 11);
  write(2, what, n);
  write(2, "\n", 1);
  abort();
}

/* A free slot of a table of `n` (marked used), or a stop with `why`. */
static int fz_take_slot(unsigned char *used, int n, const char *why) {
  for (int k = 0; k < n; k++)
    if (!used[k]) {
      used[k] = 1;
      return k;
    }
  fz_die(why);
  return 0;
}

/* The slot of handle `h` (base + slot) in a table of `n`, or a stop with `why`. */
static int fz_slot_in(fz_fint h, int base, int n, const unsigned char *used, const char *why) {
  int k = h - base;
  if (k < 0 || k >= n || !used[k]) fz_die(why);
  return k;
}

static int fz_new_slot(void) {
  return fz_take_slot(fz_slot_used, FZ_REQ_SLOTS,
                      "more than 4096 Fortran MPI requests pending at once in differentiated "
                      "code");
}

/* The slot of a Fortran request made in differentiated code; -1 for MPI_REQUEST_NULL. */
static int fz_slot_of(fz_fint req) {
  if (req == 0) return -1;
  return fz_slot_in(req, FZ_REQ_BASE, FZ_REQ_SLOTS, fz_slot_used,
                    "a Fortran MPI request waited for in differentiated code was not made "
                    "there (MPI_ISEND/MPI_IRECV and their MPI_WAIT/MPI_WAITALL must be in the "
                    "same differentiated call)");
}

void __fz_mpif_isend(const void *buf, const fz_fint *count, const fz_fint *type,
                     const fz_fint *dest, const fz_fint *tag, const fz_fint *comm, fz_fint *req,
                     fz_fint *ierr) {
  int k = fz_new_slot();
  *ierr = MPI_Isend(buf, *count, MPI_Type_f2c(*type), *dest, *tag, MPI_Comm_f2c(*comm),
                    &fz_requests[k]);
  *req = FZ_REQ_BASE + k;
}

void __fz_mpif_irecv(void *buf, const fz_fint *count, const fz_fint *type,
                     const fz_fint *source, const fz_fint *tag, const fz_fint *comm,
                     fz_fint *req, fz_fint *ierr) {
  int k = fz_new_slot();
  *ierr = MPI_Irecv(buf, *count, MPI_Type_f2c(*type), *source, *tag, MPI_Comm_f2c(*comm),
                    &fz_requests[k]);
  *req = FZ_REQ_BASE + k;
}

/* Completes one request; its Fortran status goes to `status` (null: ignored). A
 * persistent request keeps its slot (it becomes inactive, as the C one does). */
static int fz_wait_slot(fz_fint *req, fz_fint *status) {
  int k = fz_slot_of(*req);
  if (k < 0) return 0;
  fz_status s;
  int err = MPI_Wait(&fz_requests[k], &s);
  if (status) fz_status_out(&s, status);
  if (fz_slot_used[k] == FZ_PERSISTENT) return err;
  fz_slot_used[k] = 0;
  *req = 0;
  return err;
}

/* Persistent requests (MPI_SEND_INIT, MPI_SSEND_INIT, MPI_RECV_INIT): the slot, marked
 * FZ_PERSISTENT, holds the C request until MPI_REQUEST_FREE; MPI_START and MPI_STARTALL
 * start it (the C rules keep the persistent record in the C request's shadow and make
 * each start an MPI_Isend/MPI_Irecv for the sweeps; MPI_STARTALL is the starts in order),
 * MPI_WAIT/MPI_WAITALL complete it and leave it allocated. */
static fz_fint fz_persistent(int k, int err, fz_fint *ierr) {
  fz_slot_used[k] = FZ_PERSISTENT;
  *ierr = err;
  return FZ_REQ_BASE + k;
}

void __fz_mpif_send_init(const void *buf, const fz_fint *count, const fz_fint *type,
                         const fz_fint *dest, const fz_fint *tag, const fz_fint *comm,
                         fz_fint *req, fz_fint *ierr) {
  int k = fz_new_slot();
  int err = MPI_Send_init(buf, *count, MPI_Type_f2c(*type), *dest, *tag, MPI_Comm_f2c(*comm),
                          &fz_requests[k]);
  *req = fz_persistent(k, err, ierr);
}

void __fz_mpif_ssend_init(const void *buf, const fz_fint *count, const fz_fint *type,
                          const fz_fint *dest, const fz_fint *tag, const fz_fint *comm,
                          fz_fint *req, fz_fint *ierr) {
  int k = fz_new_slot();
  int err = MPI_Ssend_init(buf, *count, MPI_Type_f2c(*type), *dest, *tag, MPI_Comm_f2c(*comm),
                           &fz_requests[k]);
  *req = fz_persistent(k, err, ierr);
}

void __fz_mpif_recv_init(void *buf, const fz_fint *count, const fz_fint *type,
                         const fz_fint *source, const fz_fint *tag, const fz_fint *comm,
                         fz_fint *req, fz_fint *ierr) {
  int k = fz_new_slot();
  int err = MPI_Recv_init(buf, *count, MPI_Type_f2c(*type), *source, *tag, MPI_Comm_f2c(*comm),
                          &fz_requests[k]);
  *req = fz_persistent(k, err, ierr);
}

/* The slot of a persistent request made in differentiated code. */
static int fz_persistent_slot(fz_fint req) {
  int k = fz_slot_of(req);
  if (k < 0 || fz_slot_used[k] != FZ_PERSISTENT)
    fz_die("MPI_START, MPI_STARTALL or MPI_REQUEST_FREE of a Fortran request that is not a "
           "persistent request made in the same differentiated call (MPI_SEND_INIT, "
           "MPI_SSEND_INIT or MPI_RECV_INIT)");
  return k;
}

void __fz_mpif_start(fz_fint *req, fz_fint *ierr) {
  *ierr = MPI_Start(&fz_requests[fz_persistent_slot(*req)]);
}

void __fz_mpif_startall(const fz_fint *count, fz_fint *reqs, fz_fint *ierr) {
  int err = 0;
  for (int j = 0; j < *count; j++) {
    int e = MPI_Start(&fz_requests[fz_persistent_slot(reqs[j])]);
    if (e) err = e;
  }
  *ierr = err;
}

void __fz_mpif_request_free(fz_fint *req, fz_fint *ierr) {
  int k = fz_persistent_slot(*req);
  *ierr = MPI_Request_free(&fz_requests[k]);
  fz_slot_used[k] = 0;
  *req = 0;
}

void __fz_mpif_wait(fz_fint *req, fz_fint *status, fz_fint *ierr) {
  *ierr = fz_wait_slot(req, status);
}

/* MPI_WAITALL as waits in order (the operations progress meanwhile). */
void __fz_mpif_waitall(const fz_fint *count, fz_fint *reqs, fz_fint *statuses, fz_fint *ierr) {
  int ignore = statuses == &mpi_fortran_statuses_ignore_;
  int err = 0;
  for (int j = 0; j < *count; j++) {
    int e = fz_wait_slot(&reqs[j], ignore ? 0 : statuses + (long)j * FZ_STATUS_SIZE);
    if (e) err = e;
  }
  *ierr = err;
}

/* MPI_TEST, MPI_TESTALL, MPI_WAITANY, MPI_WAITSOME: as runtime/mpi_composed.c writes the
 * C ones, MPI_Request_get_status (inactive) says which requests are complete and
 * fz_wait_slot completes them (MPI_Wait, whose rule records the request); the pass tapes
 * which ones did. Indices are 1-based; LOGICAL .true. is 1. */
int MPI_Request_get_status(fz_req, int *, fz_status *);
#define FZ_UNDEFINED (-32766) /* Open MPI's MPI_UNDEFINED */

static int fz_slot_done(fz_fint req) {
  int k = fz_slot_of(req);
  if (k < 0) return 1;
  int done = 0;
  fz_status ignored;
  MPI_Request_get_status(fz_requests[k], &done, &ignored);
  return done;
}

static fz_fint *fz_status_at(fz_fint *statuses, long j) {
  return statuses == &mpi_fortran_statuses_ignore_ ? 0 : statuses + j * FZ_STATUS_SIZE;
}

void __fz_mpif_test(fz_fint *req, fz_fint *flag, fz_fint *status, fz_fint *ierr) {
  *ierr = 0;
  *flag = fz_slot_done(*req);
  if (*flag && *req != 0) *ierr = fz_wait_slot(req, status);
}

void __fz_mpif_testall(const fz_fint *count, fz_fint *reqs, fz_fint *flag, fz_fint *statuses,
                       fz_fint *ierr) {
  *ierr = 0;
  *flag = 0;
  for (int j = 0; j < *count; j++)
    if (!fz_slot_done(reqs[j])) return;
  *flag = 1;
  for (int j = 0; j < *count; j++) {
    int e = fz_wait_slot(&reqs[j], fz_status_at(statuses, j));
    if (e) *ierr = e;
  }
}

/* The first request at or after `from` that is complete and not MPI_REQUEST_NULL; -1
 * when all are null; with `spin`, polls until one is complete, else -2 when none is. */
static int fz_slot_find(int n, const fz_fint *reqs, int from, int spin) {
  for (;;) {
    int active = 0;
    for (int j = from; j < n; j++) {
      if (reqs[j] == 0) continue;
      active = 1;
      if (fz_slot_done(reqs[j])) return j;
    }
    if (!active) return -1;
    if (!spin) return -2;
  }
}

void __fz_mpif_waitany(const fz_fint *count, fz_fint *reqs, fz_fint *index, fz_fint *status,
                       fz_fint *ierr) {
  int j = fz_slot_find(*count, reqs, 0, 1);
  *ierr = 0;
  *index = j < 0 ? FZ_UNDEFINED : j + 1;
  if (j >= 0) *ierr = fz_wait_slot(&reqs[j], status);
}

void __fz_mpif_waitsome(const fz_fint *count, fz_fint *reqs, fz_fint *outcount,
                        fz_fint *indices, fz_fint *statuses, fz_fint *ierr) {
  int j = fz_slot_find(*count, reqs, 0, 1);
  *ierr = 0;
  if (j < 0) {
    *outcount = FZ_UNDEFINED;
    return;
  }
  int k = 0;
  while (j >= 0) {
    indices[k] = j + 1;
    int e = fz_wait_slot(&reqs[j], fz_status_at(statuses, k));
    if (e) *ierr = e;
    k++;
    j = fz_slot_find(*count, reqs, j + 1, 0);
  }
  *outcount = k;
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

void __fz_mpif_alltoall(const void *sbuf, const fz_fint *scount, const fz_fint *stype,
                        void *rbuf, const fz_fint *rcount, const fz_fint *rtype,
                        const fz_fint *comm, fz_fint *ierr) {
  *ierr = MPI_Alltoall(fz_in(sbuf), *scount, MPI_Type_f2c(*stype), rbuf, *rcount,
                       MPI_Type_f2c(*rtype), MPI_Comm_f2c(*comm));
}

void __fz_mpif_alltoallv(const void *sbuf, const fz_fint *scounts, const fz_fint *sdispls,
                         const fz_fint *stype, void *rbuf, const fz_fint *rcounts,
                         const fz_fint *rdispls, const fz_fint *rtype, const fz_fint *comm,
                         fz_fint *ierr) {
  *ierr = MPI_Alltoallv(fz_in(sbuf), scounts, sdispls, MPI_Type_f2c(*stype), rbuf, rcounts,
                        rdispls, MPI_Type_f2c(*rtype), MPI_Comm_f2c(*comm));
}

/* Scans (an INTEGER scan, named by its constant handle, stays Open MPI's call: the pass
 * leaves it, `ferrozyme_analysis::calls::composed_without_reals`). */
void __fz_mpif_scan(const void *sbuf, void *rbuf, const fz_fint *count, const fz_fint *type,
                    const fz_fint *op, const fz_fint *comm, fz_fint *ierr) {
  *ierr = MPI_Scan(fz_in(sbuf), rbuf, *count, MPI_Type_f2c(*type), MPI_Op_f2c(*op),
                   MPI_Comm_f2c(*comm));
}

void __fz_mpif_exscan(const void *sbuf, void *rbuf, const fz_fint *count, const fz_fint *type,
                      const fz_fint *op, const fz_fint *comm, fz_fint *ierr) {
  *ierr = MPI_Exscan(fz_in(sbuf), rbuf, *count, MPI_Type_f2c(*type), MPI_Op_f2c(*op),
                     MPI_Comm_f2c(*comm));
}

/* Reduce-scatters (composed: runtime/mpi_composed.c); the counts are default INTEGERs. */
void __fz_mpif_reduce_scatter_block(const void *sbuf, void *rbuf, const fz_fint *count,
                                    const fz_fint *type, const fz_fint *op,
                                    const fz_fint *comm, fz_fint *ierr) {
  *ierr = MPI_Reduce_scatter_block(fz_in(sbuf), rbuf, *count, MPI_Type_f2c(*type),
                                   MPI_Op_f2c(*op), MPI_Comm_f2c(*comm));
}

void __fz_mpif_reduce_scatter(const void *sbuf, void *rbuf, const fz_fint *counts,
                              const fz_fint *type, const fz_fint *op, const fz_fint *comm,
                              fz_fint *ierr) {
  *ierr = MPI_Reduce_scatter(fz_in(sbuf), rbuf, counts, MPI_Type_f2c(*type), MPI_Op_f2c(*op),
                             MPI_Comm_f2c(*comm));
}

/* ---- nonblocking collectives ----------------------------------------------------------
 * Their C requests live in the request table too; the C routines run the collective at
 * once (runtime/mpi_composed.c), MPI_WAIT completes the slot. */
int MPI_Iallreduce(const void *, void *, int, fz_type, fz_op, fz_comm, fz_req *);
int MPI_Ireduce(const void *, void *, int, fz_type, fz_op, int, fz_comm, fz_req *);
int MPI_Ibcast(void *, int, fz_type, int, fz_comm, fz_req *);
int MPI_Iallgather(const void *, int, fz_type, void *, int, fz_type, fz_comm, fz_req *);
int MPI_Ialltoall(const void *, int, fz_type, void *, int, fz_type, fz_comm, fz_req *);
int MPI_Igather(const void *, int, fz_type, void *, int, fz_type, int, fz_comm, fz_req *);
int MPI_Iscatter(const void *, int, fz_type, void *, int, fz_type, int, fz_comm, fz_req *);
int MPI_Ibarrier(fz_comm, fz_req *);
int MPI_Iscan(const void *, void *, int, fz_type, fz_op, fz_comm, fz_req *);
int MPI_Iexscan(const void *, void *, int, fz_type, fz_op, fz_comm, fz_req *);
int MPI_Ireduce_scatter_block(const void *, void *, int, fz_type, fz_op, fz_comm, fz_req *);
int MPI_Ireduce_scatter(const void *, void *, const int *, fz_type, fz_op, fz_comm, fz_req *);
int MPI_Igatherv(const void *, int, fz_type, void *, const int *, const int *, fz_type, int,
                 fz_comm, fz_req *);
int MPI_Iscatterv(const void *, const int *, const int *, fz_type, void *, int, fz_type, int,
                  fz_comm, fz_req *);

void __fz_mpif_iallreduce(const void *sbuf, void *rbuf, const fz_fint *count,
                          const fz_fint *type, const fz_fint *op, const fz_fint *comm,
                          fz_fint *req, fz_fint *ierr) {
  int k = fz_new_slot();
  *ierr = MPI_Iallreduce(fz_in(sbuf), rbuf, *count, MPI_Type_f2c(*type), MPI_Op_f2c(*op),
                         MPI_Comm_f2c(*comm), &fz_requests[k]);
  *req = FZ_REQ_BASE + k;
}

void __fz_mpif_iscan(const void *sbuf, void *rbuf, const fz_fint *count, const fz_fint *type,
                     const fz_fint *op, const fz_fint *comm, fz_fint *req, fz_fint *ierr) {
  int k = fz_new_slot();
  *ierr = MPI_Iscan(fz_in(sbuf), rbuf, *count, MPI_Type_f2c(*type), MPI_Op_f2c(*op),
                    MPI_Comm_f2c(*comm), &fz_requests[k]);
  *req = FZ_REQ_BASE + k;
}

void __fz_mpif_iexscan(const void *sbuf, void *rbuf, const fz_fint *count, const fz_fint *type,
                       const fz_fint *op, const fz_fint *comm, fz_fint *req, fz_fint *ierr) {
  int k = fz_new_slot();
  *ierr = MPI_Iexscan(fz_in(sbuf), rbuf, *count, MPI_Type_f2c(*type), MPI_Op_f2c(*op),
                      MPI_Comm_f2c(*comm), &fz_requests[k]);
  *req = FZ_REQ_BASE + k;
}

void __fz_mpif_ireduce_scatter_block(const void *sbuf, void *rbuf, const fz_fint *count,
                                     const fz_fint *type, const fz_fint *op,
                                     const fz_fint *comm, fz_fint *req, fz_fint *ierr) {
  int k = fz_new_slot();
  *ierr = MPI_Ireduce_scatter_block(fz_in(sbuf), rbuf, *count, MPI_Type_f2c(*type),
                                    MPI_Op_f2c(*op), MPI_Comm_f2c(*comm), &fz_requests[k]);
  *req = FZ_REQ_BASE + k;
}

/* The counts are default INTEGERs, the C ints MPI_Ireduce_scatter takes. */
void __fz_mpif_ireduce_scatter(const void *sbuf, void *rbuf, const fz_fint *counts,
                               const fz_fint *type, const fz_fint *op, const fz_fint *comm,
                               fz_fint *req, fz_fint *ierr) {
  int k = fz_new_slot();
  *ierr = MPI_Ireduce_scatter(fz_in(sbuf), rbuf, counts, MPI_Type_f2c(*type), MPI_Op_f2c(*op),
                              MPI_Comm_f2c(*comm), &fz_requests[k]);
  *req = FZ_REQ_BASE + k;
}

void __fz_mpif_ireduce(const void *sbuf, void *rbuf, const fz_fint *count, const fz_fint *type,
                       const fz_fint *op, const fz_fint *root, const fz_fint *comm,
                       fz_fint *req, fz_fint *ierr) {
  int k = fz_new_slot();
  *ierr = MPI_Ireduce(fz_in(sbuf), rbuf, *count, MPI_Type_f2c(*type), MPI_Op_f2c(*op), *root,
                      MPI_Comm_f2c(*comm), &fz_requests[k]);
  *req = FZ_REQ_BASE + k;
}

void __fz_mpif_ibcast(void *buf, const fz_fint *count, const fz_fint *type, const fz_fint *root,
                      const fz_fint *comm, fz_fint *req, fz_fint *ierr) {
  int k = fz_new_slot();
  *ierr = MPI_Ibcast(buf, *count, MPI_Type_f2c(*type), *root, MPI_Comm_f2c(*comm),
                     &fz_requests[k]);
  *req = FZ_REQ_BASE + k;
}

void __fz_mpif_iallgather(const void *sbuf, const fz_fint *scount, const fz_fint *stype,
                          void *rbuf, const fz_fint *rcount, const fz_fint *rtype,
                          const fz_fint *comm, fz_fint *req, fz_fint *ierr) {
  int k = fz_new_slot();
  *ierr = MPI_Iallgather(fz_in(sbuf), *scount, MPI_Type_f2c(*stype), rbuf, *rcount,
                         MPI_Type_f2c(*rtype), MPI_Comm_f2c(*comm), &fz_requests[k]);
  *req = FZ_REQ_BASE + k;
}

void __fz_mpif_ialltoall(const void *sbuf, const fz_fint *scount, const fz_fint *stype,
                         void *rbuf, const fz_fint *rcount, const fz_fint *rtype,
                         const fz_fint *comm, fz_fint *req, fz_fint *ierr) {
  int k = fz_new_slot();
  *ierr = MPI_Ialltoall(fz_in(sbuf), *scount, MPI_Type_f2c(*stype), rbuf, *rcount,
                        MPI_Type_f2c(*rtype), MPI_Comm_f2c(*comm), &fz_requests[k]);
  *req = FZ_REQ_BASE + k;
}

void __fz_mpif_igather(const void *sbuf, const fz_fint *scount, const fz_fint *stype,
                       void *rbuf, const fz_fint *rcount, const fz_fint *rtype,
                       const fz_fint *root, const fz_fint *comm, fz_fint *req, fz_fint *ierr) {
  int k = fz_new_slot();
  *ierr = MPI_Igather(fz_in(sbuf), *scount, MPI_Type_f2c(*stype), fz_inout(rbuf), *rcount,
                      MPI_Type_f2c(*rtype), *root, MPI_Comm_f2c(*comm), &fz_requests[k]);
  *req = FZ_REQ_BASE + k;
}

void __fz_mpif_iscatter(const void *sbuf, const fz_fint *scount, const fz_fint *stype,
                        void *rbuf, const fz_fint *rcount, const fz_fint *rtype,
                        const fz_fint *root, const fz_fint *comm, fz_fint *req, fz_fint *ierr) {
  int k = fz_new_slot();
  *ierr = MPI_Iscatter(sbuf, *scount, MPI_Type_f2c(*stype), fz_inout(rbuf), *rcount,
                       MPI_Type_f2c(*rtype), *root, MPI_Comm_f2c(*comm), &fz_requests[k]);
  *req = FZ_REQ_BASE + k;
}

void __fz_mpif_igatherv(const void *sbuf, const fz_fint *scount, const fz_fint *stype,
                        void *rbuf, const fz_fint *rcounts, const fz_fint *displs,
                        const fz_fint *rtype, const fz_fint *root, const fz_fint *comm,
                        fz_fint *req, fz_fint *ierr) {
  int k = fz_new_slot();
  *ierr = MPI_Igatherv(fz_in(sbuf), *scount, MPI_Type_f2c(*stype), rbuf, rcounts, displs,
                       MPI_Type_f2c(*rtype), *root, MPI_Comm_f2c(*comm), &fz_requests[k]);
  *req = FZ_REQ_BASE + k;
}

void __fz_mpif_iscatterv(const void *sbuf, const fz_fint *scounts, const fz_fint *displs,
                         const fz_fint *stype, void *rbuf, const fz_fint *rcount,
                         const fz_fint *rtype, const fz_fint *root, const fz_fint *comm,
                         fz_fint *req, fz_fint *ierr) {
  int k = fz_new_slot();
  *ierr = MPI_Iscatterv(sbuf, scounts, displs, MPI_Type_f2c(*stype), fz_inout(rbuf), *rcount,
                        MPI_Type_f2c(*rtype), *root, MPI_Comm_f2c(*comm), &fz_requests[k]);
  *req = FZ_REQ_BASE + k;
}

void __fz_mpif_ibarrier(const fz_fint *comm, fz_fint *req, fz_fint *ierr) {
  int k = fz_new_slot();
  *ierr = MPI_Ibarrier(MPI_Comm_f2c(*comm), &fz_requests[k]);
  *req = FZ_REQ_BASE + k;
}

/* ---- one-sided communication ----------------------------------------------------------
 * A Fortran window is an integer; inside differentiated code the C windows of
 * MPI_WIN_CREATE (runtime/mpi_composed.c: they hold the window memory, whose shadow the
 * pass keeps) live in this table (a global: its shadow holds the windows' shadows) and
 * the Fortran window is FZ_WIN_BASE + slot, until MPI_WIN_FREE. */
#define FZ_WIN_SLOTS 256
#define FZ_WIN_BASE 0x50000000
typedef long fz_aint;
static void *fz_windows[FZ_WIN_SLOTS];
static unsigned char fz_window_used[FZ_WIN_SLOTS];

int MPI_Win_create(void *, fz_aint, int, void *, fz_comm, void **);
int MPI_Win_fence(int, void *);
int MPI_Win_free(void **);
int MPI_Win_lock(int, int, int, void *);
int MPI_Win_unlock(int, void *);
int MPI_Win_lock_all(int, void *);
int MPI_Win_unlock_all(void *);
int MPI_Win_flush(int, void *);
int MPI_Win_flush_all(void *);
int MPI_Put(const void *, int, fz_type, int, fz_aint, int, fz_type, void *);
int MPI_Get(void *, int, fz_type, int, fz_aint, int, fz_type, void *);
int MPI_Accumulate(const void *, int, fz_type, int, fz_aint, int, fz_type, fz_op, void *);
int MPI_Fetch_and_op(const void *, void *, fz_type, int, fz_aint, fz_op, void *);
int MPI_Get_accumulate(const void *, int, fz_type, void *, int, fz_type, int, fz_aint, int,
                       fz_type, fz_op, void *);

/* The slot of a Fortran window made in differentiated code. */
static int fz_window_slot(fz_fint win) {
  return fz_slot_in(win, FZ_WIN_BASE, FZ_WIN_SLOTS, fz_window_used,
                    "an MPI window used in differentiated code was not created there (or was "
                    "freed): call MPI_WIN_CREATE inside the differentiated routine, so its "
                    "memory has a derivative");
}

/* (The info argument is not converted: the derivative's windows take no hints.) */
void __fz_mpif_win_create(void *base, const fz_aint *size, const fz_fint *disp_unit,
                          const fz_fint *info, const fz_fint *comm, fz_fint *win,
                          fz_fint *ierr) {
  (void)info;
  int k = fz_take_slot(fz_window_used, FZ_WIN_SLOTS,
                       "more than 256 Fortran MPI windows at once in differentiated code");
  *ierr = MPI_Win_create(base, *size, *disp_unit, 0, MPI_Comm_f2c(*comm), &fz_windows[k]);
  *win = FZ_WIN_BASE + k;
}

void __fz_mpif_win_fence(const fz_fint *assert, const fz_fint *win, fz_fint *ierr) {
  *ierr = MPI_Win_fence(*assert, fz_windows[fz_window_slot(*win)]);
}

/* Passive-target synchronisation: the C routines, differentiated as the composed
 * window's (runtime/mpi_composed.c). The adjoint epochs are ordered by the program's own
 * synchronisation mirrored in the reverse sweep, MPI_BARRIER among it: its wrapper below
 * reaches MPI_Barrier, so its calls are differentiated (tests/mpi/41, 42). */
void __fz_mpif_win_lock(const fz_fint *lock_type, const fz_fint *rank, const fz_fint *assert,
                        const fz_fint *win, fz_fint *ierr) {
  *ierr = MPI_Win_lock(*lock_type, *rank, *assert, fz_windows[fz_window_slot(*win)]);
}

void __fz_mpif_win_unlock(const fz_fint *rank, const fz_fint *win, fz_fint *ierr) {
  *ierr = MPI_Win_unlock(*rank, fz_windows[fz_window_slot(*win)]);
}

void __fz_mpif_win_lock_all(const fz_fint *assert, const fz_fint *win, fz_fint *ierr) {
  *ierr = MPI_Win_lock_all(*assert, fz_windows[fz_window_slot(*win)]);
}

void __fz_mpif_win_unlock_all(const fz_fint *win, fz_fint *ierr) {
  *ierr = MPI_Win_unlock_all(fz_windows[fz_window_slot(*win)]);
}

void __fz_mpif_win_flush(const fz_fint *rank, const fz_fint *win, fz_fint *ierr) {
  *ierr = MPI_Win_flush(*rank, fz_windows[fz_window_slot(*win)]);
}

void __fz_mpif_win_flush_all(const fz_fint *win, fz_fint *ierr) {
  *ierr = MPI_Win_flush_all(fz_windows[fz_window_slot(*win)]);
}

void __fz_mpif_win_free(fz_fint *win, fz_fint *ierr) {
  int k = fz_window_slot(*win);
  *ierr = MPI_Win_free(&fz_windows[k]);
  fz_window_used[k] = 0;
  *win = 0; /* MPI_WIN_NULL */
}

void __fz_mpif_put(const void *obuf, const fz_fint *ocount, const fz_fint *otype,
                   const fz_fint *target, const fz_aint *disp, const fz_fint *tcount,
                   const fz_fint *ttype, const fz_fint *win, fz_fint *ierr) {
  *ierr = MPI_Put(obuf, *ocount, MPI_Type_f2c(*otype), *target, *disp, *tcount,
                  MPI_Type_f2c(*ttype), fz_windows[fz_window_slot(*win)]);
}

void __fz_mpif_get(void *obuf, const fz_fint *ocount, const fz_fint *otype,
                   const fz_fint *target, const fz_aint *disp, const fz_fint *tcount,
                   const fz_fint *ttype, const fz_fint *win, fz_fint *ierr) {
  *ierr = MPI_Get(obuf, *ocount, MPI_Type_f2c(*otype), *target, *disp, *tcount,
                  MPI_Type_f2c(*ttype), fz_windows[fz_window_slot(*win)]);
}

void __fz_mpif_accumulate(const void *obuf, const fz_fint *ocount, const fz_fint *otype,
                          const fz_fint *target, const fz_aint *disp, const fz_fint *tcount,
                          const fz_fint *ttype, const fz_fint *op, const fz_fint *win,
                          fz_fint *ierr) {
  *ierr = MPI_Accumulate(obuf, *ocount, MPI_Type_f2c(*otype), *target, *disp, *tcount,
                         MPI_Type_f2c(*ttype), MPI_Op_f2c(*op), fz_windows[fz_window_slot(*win)]);
}

/* The one-sided atomics: with MPI_NO_OP (an atomic read) differentiated as MPI_GETs
 * (runtime/mpi_composed.c); other operations stop there. */
void __fz_mpif_fetch_and_op(const void *obuf, void *rbuf, const fz_fint *type,
                            const fz_fint *target, const fz_aint *disp, const fz_fint *op,
                            const fz_fint *win, fz_fint *ierr) {
  *ierr = MPI_Fetch_and_op(obuf, rbuf, MPI_Type_f2c(*type), *target, *disp, MPI_Op_f2c(*op),
                           fz_windows[fz_window_slot(*win)]);
}

void __fz_mpif_get_accumulate(const void *obuf, const fz_fint *ocount, const fz_fint *otype,
                              void *rbuf, const fz_fint *rcount, const fz_fint *rtype,
                              const fz_fint *target, const fz_aint *disp, const fz_fint *tcount,
                              const fz_fint *ttype, const fz_fint *op, const fz_fint *win,
                              fz_fint *ierr) {
  *ierr = MPI_Get_accumulate(obuf, *ocount, MPI_Type_f2c(*otype), rbuf, *rcount,
                             MPI_Type_f2c(*rtype), *target, *disp, *tcount, MPI_Type_f2c(*ttype),
                             MPI_Op_f2c(*op), fz_windows[fz_window_slot(*win)]);
}

/* MPI routines without a rule of their own, written with routines that have one, so the
 * AD pass differentiates them through those (`ferrozyme_rules::mpi`, `Composed`).
 *
 * Inside the functions it differentiates, the pass points calls of these routines at the
 * functions below (same arguments: `ferrozyme_transform::fortran`), then differentiates
 * them like user code: the communication is MPI_Sendrecv, MPI_Bcast, MPI_Gather,
 * MPI_Scatter or MPI_Allgather, whose adjoints the helpers of `runtime/mpi.c` perform,
 * and the copies between the user's buffers and the scratch ones are MPI_Sendrecv to
 * oneself on MPI_COMM_SELF (no message can match another's), so they move derivatives
 * by the datatype the program names, whatever the buffers' types look like (a `memcpy`
 * of a buffer the caller only communicates cannot be typed).
 *
 *  - MPI_Sendrecv_replace: MPI_Sendrecv into a scratch buffer, copied back;
 *  - MPI_Allgatherv, MPI_Gatherv, MPI_Scatterv: each block padded to the largest count,
 *    moved with MPI_Allgather, MPI_Gather or MPI_Scatter, and unpadded (the largest count
 *    comes from the root's counts with an MPI_Bcast of an integer, inactive).
 *
 * The element size is MPI_Type_size's, which is the extent for predefined datatypes;
 * the scratch buffers are of the predefined type of the side that has one (the receive
 * type of an Allgatherv or of a Gatherv's root, the send type of a Scatterv's root), and
 * a derived datatype on the other side is copied in or out through itself (MPI_Sendrecv
 * to oneself with both types, which the MPI rules differentiate). Where the scratch type
 * itself would be derived (MPI_Sendrecv_replace, a derived receive type of an
 * Allgatherv, ...) the program stops with a message.
 * Only derivative code runs these; the primal program keeps Open MPI's routines. */
#include <stddef.h>

typedef void *fz_comm, *fz_type;
typedef struct {
  int source, tag, error, cancelled;
  size_t ucount;
} fz_status;

void *calloc(size_t, size_t);
void free(void *);
void abort(void);
long write(int, const void *, size_t);

int MPI_Sendrecv(const void *, int, fz_type, int, int, void *, int, fz_type, int, int, fz_comm,
                 fz_status *);
int MPI_Bcast(void *, int, fz_type, int, fz_comm);
int MPI_Gather(const void *, int, fz_type, void *, int, fz_type, int, fz_comm);
int MPI_Scatter(const void *, int, fz_type, void *, int, fz_type, int, fz_comm);
int MPI_Allgather(const void *, int, fz_type, void *, int, fz_type, fz_comm);
int MPI_Comm_rank(fz_comm, int *);
int MPI_Comm_size(fz_comm, int *);
int MPI_Type_size(fz_type, int *);
int MPI_Type_get_envelope(fz_type, int *, int *, int *, int *);

extern char ompi_mpi_int[], ompi_mpi_comm_self[];

#define FZ_IN_PLACE ((void *)1)
#define FZ_COMBINER_NAMED 0

/* The bytes of one element of a predefined datatype (a derived one stops the program). */
static size_t fz_elem(fz_type t) {
  int ni, na, nd, combiner = -1, size = 0;
  MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner);
  if (combiner != FZ_COMBINER_NAMED) {
    static const char msg[] =
        "ferrozyme: an MPI datatype that is not predefined (derived datatypes are not "
        "differentiated) in MPI_Sendrecv_replace, MPI_Allgatherv, MPI_Gatherv or "
        "MPI_Scatterv; communicate MPI_DOUBLE or MPI_FLOAT buffers\n";
    write(2, msg, sizeof msg - 1);
    abort();
  }
  MPI_Type_size(t, &size);
  return (size_t)size;
}

/* Copies `fn` items of `ft` at `from` into `tn` items of `tt` at `to` (the same type
 * signature: a derived send type into contiguous elements of the receive type). */
static void fz_convert(void *to, int tn, fz_type tt, const void *from, int fn, fz_type ft) {
  MPI_Sendrecv(from, fn, ft, 0, 0, to, tn, tt, 0, 0, (fz_comm)ompi_mpi_comm_self, 0);
}

/* Copies `n` elements of datatype `t`. */
static void fz_copy(void *to, const void *from, int n, fz_type t) {
  fz_convert(to, n, t, from, n, t);
}

static char *fz_at(const void *base, long elems, size_t elem) {
  return (char *)base + (size_t)elems * elem;
}

int __fz_mpic_sendrecv_replace(void *buf, int n, fz_type t, int dest, int stag, int src,
                               int rtag, fz_comm comm, fz_status *st) {
  size_t elem = fz_elem(t);
  char *in = calloc((size_t)n, elem);
  int err = MPI_Sendrecv(buf, n, t, dest, stag, in, n, t, src, rtag, comm, st);
  fz_copy(buf, in, n, t);
  free(in);
  return err;
}

/* The largest of `n` counts. */
static int fz_max_count(const int *counts, int n) {
  int m = 0;
  for (int k = 0; k < n; k++)
    if (counts[k] > m) m = counts[k];
  return m;
}

int __fz_mpic_allgatherv(const void *s, int sn, fz_type st, void *r, const int *rcounts,
                         const int *displs, fz_type rt, fz_comm comm) {
  int me, np;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &np);
  size_t elem = fz_elem(rt);
  int pad = fz_max_count(rcounts, np);
  char *mine = calloc((size_t)pad, elem), *all = calloc((size_t)pad * np, elem);
  if (s == FZ_IN_PLACE)
    fz_copy(mine, fz_at(r, displs[me], elem), rcounts[me], rt);
  else
    fz_convert(mine, rcounts[me], rt, s, sn, st);
  int err = MPI_Allgather(mine, pad, rt, all, pad, rt, comm);
  for (int k = 0; k < np; k++)
    fz_copy(fz_at(r, displs[k], elem), fz_at(all, (long)k * pad, elem), rcounts[k], rt);
  free(mine);
  free(all);
  return err;
}

int __fz_mpic_gatherv(const void *s, int sn, fz_type st, void *r, const int *rcounts,
                      const int *displs, fz_type rt, int root, fz_comm comm) {
  int me, np;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &np);
  int pad = me == root ? fz_max_count(rcounts, np) : 0;
  MPI_Bcast(&pad, 1, (fz_type)ompi_mpi_int, root, comm);
  fz_type t = me == root ? rt : st;
  size_t elem = fz_elem(t);
  char *mine = calloc((size_t)pad, elem);
  char *all = me == root ? calloc((size_t)pad * np, elem) : 0;
  if (me == root && s == FZ_IN_PLACE)
    fz_copy(mine, fz_at(r, displs[me], elem), rcounts[me], rt);
  else if (me == root)
    fz_convert(mine, rcounts[me], rt, s, sn, st);
  else
    fz_copy(mine, s, sn, st);
  int err = MPI_Gather(mine, pad, t, all, pad, rt, root, comm);
  if (me == root)
    for (int k = 0; k < np; k++)
      fz_copy(fz_at(r, displs[k], elem), fz_at(all, (long)k * pad, elem), rcounts[k], rt);
  free(mine);
  free(all);
  return err;
}

int __fz_mpic_scatterv(const void *s, const int *scounts, const int *displs, fz_type st,
                       void *r, int rn, fz_type rt, int root, fz_comm comm) {
  int me, np;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &np);
  int pad = me == root ? fz_max_count(scounts, np) : 0;
  MPI_Bcast(&pad, 1, (fz_type)ompi_mpi_int, root, comm);
  int in_place = me == root && r == FZ_IN_PLACE;
  fz_type t = me == root ? st : rt;
  size_t elem = fz_elem(t);
  char *all = me == root ? calloc((size_t)pad * np, elem) : 0;
  char *mine = calloc((size_t)pad, elem);
  if (me == root)
    for (int k = 0; k < np; k++)
      fz_copy(fz_at(all, (long)k * pad, elem), fz_at(s, displs[k], elem), scounts[k], st);
  int err = MPI_Scatter(all, pad, st, mine, pad, t, root, comm);
  if (!in_place) fz_convert(r, rn, rt, mine, me == root ? scounts[me] : rn, t);
  free(all);
  free(mine);
  return err;
}

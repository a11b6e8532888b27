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
 *    comes from the root's counts with an MPI_Bcast of an integer, inactive);
 *  - MPI_Alltoall, MPI_Alltoallv: np rounds of MPI_Sendrecv, round k sending the block
 *    for rank me+k and receiving the block of rank me-k (round 0 is the own block, a
 *    message to oneself); the adjoint is the transposed exchange, which the Sendrecv
 *    rules perform round by round in reverse. Blocks are at displacements in units of
 *    each datatype's extent, so derived datatypes of one real type work as in Sendrecv;
 *  - MPI_Scan, MPI_Exscan (MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN on MPI_DOUBLE, MPI_FLOAT
 *    and their Fortran names; on integers they stay Open MPI's calls): every rank's
 *    contribution is gathered with MPI_Allgather and rank r combines those of ranks 0..r (0..r-1) in rank order,
 *    with the arithmetic the pass differentiates (for SUM the adjoint is the reverse
 *    scan: rank k receives the sum of the adjoints of ranks k.. , through the
 *    Allgather's Reduce_scatter). Exscan leaves rank 0's receive buffer as it was, as
 *    MPI does. The gathered copy costs np times the buffer.
 *  - MPI_Iallreduce, MPI_Ireduce, MPI_Ibcast: the blocking collective at once, and as the
 *    request an MPI_Irecv of no element from MPI_PROC_NULL, which the Irecv/Wait rules
 *    record as nothing to reverse; the user's MPI_Wait/MPI_Waitall completes it. Running
 *    the collective when it starts is an allowed progress of a nonblocking collective;
 *    only a program whose ranks call other communication between the start and the
 *    wait in an order that needs the collective to stay pending could wait forever (an
 *    MPI_Send to a rank that receives before starting the collective).
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
int MPI_Type_get_extent(fz_type, long *, long *);

extern char ompi_mpi_int[], ompi_mpi_comm_self[];
extern char ompi_mpi_double[], ompi_mpi_dblprec[], ompi_mpi_real8[], ompi_mpi_float[],
    ompi_mpi_real[], ompi_mpi_real4[];
extern char ompi_mpi_op_sum[], ompi_mpi_op_prod[], ompi_mpi_op_max[], ompi_mpi_op_min[];

typedef void *fz_req;
int MPI_Allreduce(const void *, void *, int, fz_type, void *, fz_comm);
int MPI_Reduce(const void *, void *, int, fz_type, void *, int, fz_comm);
int MPI_Irecv(void *, int, fz_type, int, int, fz_comm, fz_req *);

#define FZ_IN_PLACE ((void *)1)
#define FZ_PROC_NULL (-2)
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

/* The tag of the exchanges of MPI_Alltoall(v): below MPI_TAG_UB/2 of the smallest
 * MPI_TAG_UB the standard allows (32767), so its adjoint tag is free. */
#define FZ_ALLTOALL_TAG 16381

/* The bytes between consecutive items of datatype `t`. */
static long fz_extent(fz_type t) {
  long lb = 0, extent = 0;
  MPI_Type_get_extent(t, &lb, &extent);
  return extent;
}

/* The exchange of MPI_Alltoallv; MPI_Alltoall is the one with equal blocks. */
static int fz_alltoallv(const void *s, const int *sn, const int *sd, fz_type st, void *r,
                        const int *rn, const int *rd, fz_type rt, fz_comm comm) {
  int me, np, err = 0;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &np);
  long sx = fz_extent(st), rx = fz_extent(rt);
  for (int k = 0; k < np; k++) {
    int to = (me + k) % np, from = (me - k + np) % np;
    int e = MPI_Sendrecv((const char *)s + sd[to] * sx, sn[to], st, to, FZ_ALLTOALL_TAG,
                         (char *)r + rd[from] * rx, rn[from], rt, from, FZ_ALLTOALL_TAG, comm,
                         0);
    if (e) err = e;
  }
  return err;
}

/* MPI_IN_PLACE: the data to send is the receive buffer's, copied first (`n` items). */
static void *fz_in_place_copy(const void *r, long n, fz_type rt) {
  void *c = calloc((size_t)(n > 0 ? n : 1), (size_t)fz_extent(rt));
  fz_copy(c, r, (int)n, rt);
  return c;
}

int __fz_mpic_alltoall(const void *s, int sn, fz_type st, void *r, int rn, fz_type rt,
                       fz_comm comm) {
  int np;
  MPI_Comm_size(comm, &np);
  int *sc = calloc((size_t)np, sizeof(int)), *sd = calloc((size_t)np, sizeof(int));
  int *rc = calloc((size_t)np, sizeof(int)), *rd = calloc((size_t)np, sizeof(int));
  /* (The two paths call the exchange apart: a pointer that is MPI_IN_PLACE in one and
   * the user's buffer in the other would mix a constant with differentiated memory.) */
  int in_place = s == FZ_IN_PLACE, err;
  if (in_place) sn = rn;
  for (int k = 0; k < np; k++) sc[k] = sn, sd[k] = k * sn, rc[k] = rn, rd[k] = k * rn;
  if (in_place) {
    void *own = fz_in_place_copy(r, (long)rn * np, rt);
    err = fz_alltoallv(own, sc, sd, rt, r, rc, rd, rt, comm);
    free(own);
  } else {
    err = fz_alltoallv(s, sc, sd, st, r, rc, rd, rt, comm);
  }
  free(sc);
  free(sd);
  free(rc);
  free(rd);
  return err;
}

int __fz_mpic_alltoallv(const void *s, const int *sn, const int *sd, fz_type st, void *r,
                        const int *rn, const int *rd, fz_type rt, fz_comm comm) {
  if (s != FZ_IN_PLACE) return fz_alltoallv(s, sn, sd, st, r, rn, rd, rt, comm);
  int np;
  MPI_Comm_size(comm, &np);
  long end = 0;
  for (int k = 0; k < np; k++)
    if (rd[k] + rn[k] > end) end = rd[k] + rn[k];
  void *own = fz_in_place_copy(r, end, rt);
  int err = fz_alltoallv(own, rn, rd, rt, r, rn, rd, rt, comm);
  free(own);
  return err;
}

/* ---- scans ---------------------------------------------------------------------------- */

enum { FZ_SUM, FZ_PROD, FZ_MAX, FZ_MIN };

static int fz_scan_op(void *op) {
  if (op == (void *)ompi_mpi_op_sum) return FZ_SUM;
  if (op == (void *)ompi_mpi_op_prod) return FZ_PROD;
  if (op == (void *)ompi_mpi_op_max) return FZ_MAX;
  if (op == (void *)ompi_mpi_op_min) return FZ_MIN;
  static const char msg[] = "ferrozyme: MPI_Scan/MPI_Exscan with an operation other than "
                            "MPI_SUM, MPI_PROD, MPI_MAX and MPI_MIN is not differentiated\n";
  write(2, msg, sizeof msg - 1);
  abort();
}

/* Rank `me`'s prefix of the `np` gathered contributions `all` (ranks 0..upto-1), element
 * by element, in rank order as MPI combines them. */
#define FZ_SCAN_COMBINE(T)                                                                    \
  static void fz_scan_##T(T *r, const T *all, int n, int upto, int op) {                     \
    for (long i = 0; i < n; i++) {                                                            \
      T acc = all[i];                                                                         \
      for (long k = 1; k < upto; k++) {                                                       \
        T v = all[k * n + i];                                                                 \
        acc = op == FZ_SUM    ? acc + v                                                       \
              : op == FZ_PROD ? acc * v                                                       \
              : op == FZ_MAX  ? (v > acc ? v : acc)                                           \
                              : (v < acc ? v : acc);                                          \
      }                                                                                       \
      r[i] = acc;                                                                             \
    }                                                                                         \
  }
FZ_SCAN_COMBINE(double)
FZ_SCAN_COMBINE(float)

/* Whether a scan's elements are doubles (1) or floats (0); other types stop: scans of
 * integers named by a constant handle stay Open MPI's calls (the pass leaves them,
 * `ferrozyme_rules::mpi::inactive_by_datatypes`), so only a handle chosen at run time
 * comes here with one. */
static int fz_scan_double_type(fz_type t) {
  if (t == (fz_type)ompi_mpi_double || t == (fz_type)ompi_mpi_dblprec ||
      t == (fz_type)ompi_mpi_real8)
    return 1;
  if (t == (fz_type)ompi_mpi_float || t == (fz_type)ompi_mpi_real || t == (fz_type)ompi_mpi_real4)
    return 0;
  static const char msg[] = "ferrozyme: MPI_Scan/MPI_Exscan in differentiated code of a "
                            "datatype other than MPI_DOUBLE and MPI_FLOAT, chosen at run time; "
                            "name integer datatypes as constants (MPI_INT) or scan before "
                            "the differentiated call\n";
  write(2, msg, sizeof msg - 1);
  abort();
}

/* MPI_Scan (exclusive = 0) and MPI_Exscan (1). */
static int fz_scan(const void *s, void *r, int n, fz_type t, void *op, fz_comm comm,
                   int exclusive) {
  int me, np;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &np);
  int dbl = fz_scan_double_type(t);
  int o = fz_scan_op(op);
  size_t elem = fz_elem(t);
  char *all = calloc((size_t)(n > 0 ? n : 1) * (size_t)np, elem);
  int err;
  if (s == FZ_IN_PLACE) { /* (apart, as in __fz_mpic_alltoall) */
    void *own = fz_in_place_copy(r, n, t);
    err = MPI_Allgather(own, n, t, all, n, t, comm);
    free(own);
  } else {
    err = MPI_Allgather(s, n, t, all, n, t, comm);
  }
  int upto = exclusive ? me : me + 1;
  if (upto > 0) {
    if (dbl)
      fz_scan_double(r, (const double *)all, n, upto, o);
    else
      fz_scan_float(r, (const float *)all, n, upto, o);
  }
  free(all);
  return err;
}

int __fz_mpic_scan(const void *s, void *r, int n, fz_type t, void *op, fz_comm comm) {
  return fz_scan(s, r, n, t, op, comm, 0);
}

int __fz_mpic_exscan(const void *s, void *r, int n, fz_type t, void *op, fz_comm comm) {
  return fz_scan(s, r, n, t, op, comm, 1);
}

/* ---- nonblocking collectives, started and finished at once ---------------------------- */

/* A request that completes at once and carries nothing to reverse. */
static int fz_done_request(void *r, fz_comm comm, fz_req *req) {
  return MPI_Irecv(r, 0, (fz_type)ompi_mpi_double, FZ_PROC_NULL, 0, comm, req);
}

int __fz_mpic_iallreduce(const void *s, void *r, int n, fz_type t, void *op, fz_comm comm,
                         fz_req *req) {
  int e = MPI_Allreduce(s, r, n, t, op, comm);
  int d = fz_done_request(r, comm, req);
  return e ? e : d;
}

int __fz_mpic_ireduce(const void *s, void *r, int n, fz_type t, void *op, int root,
                      fz_comm comm, fz_req *req) {
  int e = MPI_Reduce(s, r, n, t, op, root, comm);
  int d = fz_done_request(r, comm, req);
  return e ? e : d;
}

int __fz_mpic_ibcast(void *b, int n, fz_type t, int root, fz_comm comm, fz_req *req) {
  int e = MPI_Bcast(b, n, t, root, comm);
  int d = fz_done_request(b, comm, req);
  return e ? e : d;
}

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
 *  - MPI_Reduce_scatter_block, MPI_Reduce_scatter: MPI_Allreduce of the whole vector,
 *    this rank's block copied out;
 *  - MPI_Iallreduce, MPI_Ireduce, MPI_Ibcast, MPI_Iallgather(v), MPI_Igather,
 *    MPI_Iscatter, MPI_Ialltoall(v), MPI_Iscan, MPI_Iexscan, MPI_Ireduce_scatter(_block):
 *    the blocking collective (or its composed form above) at once, and as the
 *    request an MPI_Irecv of no element from MPI_PROC_NULL, which the Irecv/Wait rules
 *    record as nothing to reverse; the user's MPI_Wait/MPI_Waitall completes it. Running
 *    the collective when it starts is an allowed progress of a nonblocking collective;
 *    only a program whose ranks call other communication between the start and the
 *    wait in an order that needs the collective to stay pending could wait forever (an
 *    MPI_Send to a rank that receives before starting the collective). MPI_Ibarrier has a
 *    rule of its own (a real nonblocking barrier, mirrored: `runtime/mpi.c`), since the
 *    programs that use it (nonblocking consensus: receive until every rank is in the
 *    barrier) need exactly that pending state.
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
int MPI_Type_get_true_extent(fz_type, long *, long *);

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
        "differentiated) in MPI_Scan, MPI_Exscan or MPI_Reduce_scatter; communicate "
        "MPI_DOUBLE or MPI_FLOAT buffers\n";
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

/* The bytes `n` items of datatype `t` span from their address: a predefined type's size,
 * a derived type's extent (one of a negative lower bound stops the program). */
static size_t fz_span(int n, fz_type t) {
  int ni, na, nd, combiner = -1;
  MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner);
  if (combiner == FZ_COMBINER_NAMED) return (size_t)n * fz_elem(t);
  long lb = 0, extent = 0;
  MPI_Type_get_extent(t, &lb, &extent);
  if (lb < 0) {
    static const char msg[] = "ferrozyme: MPI_Sendrecv_replace of a derived datatype with a "
                              "negative lower bound; resize it to start at its address\n";
    write(2, msg, sizeof msg - 1);
    abort();
  }
  return (size_t)(n > 0 ? n : 1) * (size_t)(lb + extent);
}

static long fz_extent(fz_type t);

/* Is `t` a predefined datatype? */
static int fz_named(fz_type t) {
  int ni, na, nd, combiner = -1;
  MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner);
  return combiner == FZ_COMBINER_NAMED;
}

/* The root's largest count and whether its datatype is predefined, broadcast: the padded
 * blocks move as items of each side's own datatype, so a derived one on one side and a
 * predefined one on the other stops the program. */
static int fz_root_pad(int pad, fz_type t, int root, fz_comm comm) {
  int me, hdr[2] = {pad, fz_named(t)};
  MPI_Comm_rank(comm, &me);
  MPI_Bcast(hdr, 2, (fz_type)ompi_mpi_int, root, comm);
  if (me != root && hdr[1] != fz_named(t)) {
    static const char msg[] = "ferrozyme: MPI_Gatherv or MPI_Scatterv with a derived datatype on "
                              "one side and a predefined one on the other; use the same kind "
                              "of datatype on the root and the other ranks\n";
    write(2, msg, sizeof msg - 1);
    abort();
  }
  return hdr[0];
}

/* The bytes a scratch buffer of `n` items of datatype `t` needs (at least one): for a
 * derived type, up to its last item's true upper bound (a resized column reaches past
 * its extent); one with a negative lower bound stops the program. */
static size_t fz_items_bytes(int n, fz_type t) {
  long lb = 0, extent = 0, tlb = 0, textent = 0;
  MPI_Type_get_extent(t, &lb, &extent);
  MPI_Type_get_true_extent(t, &tlb, &textent);
  if (lb < 0 || tlb < 0) {
    static const char msg[] = "ferrozyme: a derived MPI datatype with a negative lower bound "
                              "in MPI_Allgatherv, MPI_Gatherv or MPI_Scatterv; resize it to "
                              "start at its address\n";
    write(2, msg, sizeof msg - 1);
    abort();
  }
  long bytes = n > 0 ? (long)(n - 1) * extent + tlb + textent : 0;
  if (bytes < (long)n * extent) bytes = (long)n * extent;
  return bytes > 0 ? (size_t)bytes : 1;
}

/* A derived datatype's items go through a scratch buffer laid out as the user's. */
int __fz_mpic_sendrecv_replace(void *buf, int n, fz_type t, int dest, int stag, int src,
                               int rtag, fz_comm comm, fz_status *st) {
  char *in = calloc(fz_span(n, t), 1);
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
  size_t elem = (size_t)fz_extent(rt);
  int pad = fz_max_count(rcounts, np);
  char *mine = calloc(fz_items_bytes(pad, rt), 1), *all = calloc(fz_items_bytes(pad * np, rt), 1);
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
  fz_type t = me == root ? rt : st;
  int pad = fz_root_pad(me == root ? fz_max_count(rcounts, np) : 0, t, root, comm);
  size_t elem = (size_t)fz_extent(t);
  char *mine = calloc(fz_items_bytes(pad, t), 1);
  char *all = me == root ? calloc(fz_items_bytes(pad * np, rt), 1) : 0;
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
  int in_place = me == root && r == FZ_IN_PLACE;
  fz_type t = me == root ? st : rt;
  int pad = fz_root_pad(me == root ? fz_max_count(scounts, np) : 0, t, root, comm);
  size_t elem = (size_t)fz_extent(t);
  char *all = me == root ? calloc(fz_items_bytes(pad * np, st), 1) : 0;
  char *mine = calloc(fz_items_bytes(pad, t), 1);
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
  static const char msg[] = "ferrozyme: MPI_Scan/MPI_Exscan/MPI_Reduce_local with an operation other than "
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
  static const char msg[] = "ferrozyme: MPI_Scan/MPI_Exscan/MPI_Reduce_local in differentiated code of a "
                            "datatype other than MPI_DOUBLE and MPI_FLOAT, chosen at run time; "
                            "name integer datatypes as constants (MPI_INT) or scan before "
                            "the differentiated call\n";
  write(2, msg, sizeof msg - 1);
  abort();
}

/* MPI_Reduce_local(in, inout): `inout = inout op in` element by element, on this rank
 * only: the combination written as arithmetic, whose derivative the pass takes. Integer
 * datatypes named by constants stay Open MPI's call (inactive). */
#define FZ_REDUCE_LOCAL(T)                                                                    \
  static void fz_reduce_local_##T(const T *in, T *io, int n, int op) {                       \
    for (long i = 0; i < n; i++) {                                                            \
      T a = io[i], v = in[i];                                                                 \
      io[i] = op == FZ_SUM    ? a + v                                                         \
              : op == FZ_PROD ? a * v                                                         \
              : op == FZ_MAX  ? (v > a ? v : a)                                               \
                              : (v < a ? v : a);                                              \
    }                                                                                         \
  }
FZ_REDUCE_LOCAL(double)
FZ_REDUCE_LOCAL(float)

int __fz_mpic_reduce_local(const void *in, void *inout, int n, fz_type t, void *op) {
  int k = fz_scan_op(op);
  if (fz_scan_double_type(t))
    fz_reduce_local_double((const double *)in, (double *)inout, n, k);
  else
    fz_reduce_local_float((const float *)in, (float *)inout, n, k);
  return 0;
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

/* MPI_Reduce_scatter_block and MPI_Reduce_scatter: the whole vector reduced with
 * MPI_Allreduce into a scratch buffer (any operation its rule knows: SUM, MAX, MIN),
 * this rank's block copied out. The adjoint is the Allreduce's: every rank's adjoint of
 * its block, zero elsewhere, summed into each rank's send adjoint (for SUM), which is
 * the adjoint of a reduce-scatter (an allgather of the block adjoints). It moves np
 * times the data of a real reduce-scatter. With MPI_IN_PLACE the input is the receive
 * buffer, whole (the block counts' sum), and the result its first block, as MPI says. */
static int fz_reduce_scatter(const void *s, void *r, const int *counts, int n_same,
                             fz_type t, void *op, fz_comm comm) {
  int me, np;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &np);
  size_t elem = fz_elem(t);
  long total = 0, at = 0;
  for (int k = 0; k < np; k++) {
    int c = counts ? counts[k] : n_same;
    if (k == me) at = total;
    total += c;
  }
  int mine = counts ? counts[me] : n_same;
  char *all = calloc(total > 0 ? (size_t)total : 1, elem);
  int err = MPI_Allreduce(s, all, (int)total, t, op, comm);
  fz_copy(r, fz_at(all, at, elem), mine, t);
  free(all);
  return err;
}

/* MPI_IN_PLACE: the receive buffer's whole input copied apart first (as in
 * __fz_mpic_alltoall: a pointer that is MPI_IN_PLACE in one path and the user's buffer
 * in the other would mix a constant with differentiated memory). */
static int fz_reduce_scatter_in_place(void *r, const int *counts, int n_same, fz_type t,
                                      void *op, fz_comm comm) {
  int np;
  MPI_Comm_size(comm, &np);
  long total = 0;
  for (int k = 0; k < np; k++) total += counts ? counts[k] : n_same;
  void *own = fz_in_place_copy(r, total, t);
  int err = fz_reduce_scatter(own, r, counts, n_same, t, op, comm);
  free(own);
  return err;
}

int __fz_mpic_reduce_scatter_block(const void *s, void *r, int n, fz_type t, void *op,
                                   fz_comm comm) {
  if (s == FZ_IN_PLACE) return fz_reduce_scatter_in_place(r, 0, n, t, op, comm);
  return fz_reduce_scatter(s, r, 0, n, t, op, comm);
}

int __fz_mpic_reduce_scatter(const void *s, void *r, const int *counts, fz_type t, void *op,
                             fz_comm comm) {
  if (s == FZ_IN_PLACE) return fz_reduce_scatter_in_place(r, counts, 0, t, op, comm);
  return fz_reduce_scatter(s, r, counts, 0, t, op, comm);
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

int __fz_mpic_iscan(const void *s, void *r, int n, fz_type t, void *op, fz_comm comm,
                    fz_req *req) {
  int e = __fz_mpic_scan(s, r, n, t, op, comm);
  int d = fz_done_request(r, comm, req);
  return e ? e : d;
}

int __fz_mpic_iexscan(const void *s, void *r, int n, fz_type t, void *op, fz_comm comm,
                      fz_req *req) {
  int e = __fz_mpic_exscan(s, r, n, t, op, comm);
  int d = fz_done_request(r, comm, req);
  return e ? e : d;
}

int __fz_mpic_ireduce_scatter_block(const void *s, void *r, int n, fz_type t, void *op,
                                    fz_comm comm, fz_req *req) {
  int e = __fz_mpic_reduce_scatter_block(s, r, n, t, op, comm);
  int d = fz_done_request(r, comm, req);
  return e ? e : d;
}

int __fz_mpic_ireduce_scatter(const void *s, void *r, const int *counts, fz_type t, void *op,
                              fz_comm comm, fz_req *req) {
  int e = __fz_mpic_reduce_scatter(s, r, counts, t, op, comm);
  int d = fz_done_request(r, comm, req);
  return e ? e : d;
}


int __fz_mpic_iallgather(const void *s, int sn, fz_type st, void *r, int rn, fz_type rt,
                         fz_comm comm, fz_req *req) {
  int e = MPI_Allgather(s, sn, st, r, rn, rt, comm);
  int d = fz_done_request(r, comm, req);
  return e ? e : d;
}

int __fz_mpic_igather(const void *s, int sn, fz_type st, void *r, int rn, fz_type rt, int root,
                      fz_comm comm, fz_req *req) {
  int e = MPI_Gather(s, sn, st, r, rn, rt, root, comm);
  int d = fz_done_request(r, comm, req);
  return e ? e : d;
}

int __fz_mpic_iscatter(const void *s, int sn, fz_type st, void *r, int rn, fz_type rt,
                       int root, fz_comm comm, fz_req *req) {
  int e = MPI_Scatter(s, sn, st, r, rn, rt, root, comm);
  int d = fz_done_request(r, comm, req);
  return e ? e : d;
}

int __fz_mpic_ialltoall(const void *s, int sn, fz_type st, void *r, int rn, fz_type rt,
                        fz_comm comm, fz_req *req) {
  int e = __fz_mpic_alltoall(s, sn, st, r, rn, rt, comm);
  int d = fz_done_request(r, comm, req);
  return e ? e : d;
}

int __fz_mpic_iallgatherv(const void *s, int sn, fz_type st, void *r, const int *rcounts,
                          const int *displs, fz_type rt, fz_comm comm, fz_req *req) {
  int e = __fz_mpic_allgatherv(s, sn, st, r, rcounts, displs, rt, comm);
  int d = fz_done_request(r, comm, req);
  return e ? e : d;
}

int __fz_mpic_ialltoallv(const void *s, const int *sn, const int *sd, fz_type st, void *r,
                         const int *rn, const int *rd, fz_type rt, fz_comm comm, fz_req *req) {
  int e = __fz_mpic_alltoallv(s, sn, sd, st, r, rn, rd, rt, comm);
  int d = fz_done_request(r, comm, req);
  return e ? e : d;
}

int __fz_mpic_igatherv(const void *s, int sn, fz_type st, void *r, const int *rcounts,
                       const int *displs, fz_type rt, int root, fz_comm comm, fz_req *req) {
  int e = __fz_mpic_gatherv(s, sn, st, r, rcounts, displs, rt, root, comm);
  int d = fz_done_request(r, comm, req);
  return e ? e : d;
}

int __fz_mpic_iscatterv(const void *s, const int *scounts, const int *displs, fz_type st,
                        void *r, int rn, fz_type rt, int root, fz_comm comm, fz_req *req) {
  int e = __fz_mpic_scatterv(s, scounts, displs, st, r, rn, rt, root, comm);
  int d = fz_done_request(r, comm, req);
  return e ? e : d;
}

/* ---- one-sided communication with fences ----------------------------------------------
 *
 * MPI_Win_create, MPI_Win_allocate, MPI_Put, MPI_Get, MPI_Accumulate (MPI_SUM,
 * MPI_REPLACE), MPI_Win_fence and MPI_Win_free, written with point-to-point routines
 * (MPI standard, ch. 12, active-target synchronisation by fences). Within an epoch (from
 * one fence to the next) the origin's buffer may not change and the target's window
 * memory is not touched by its own rank nor by conflicting operations, and every
 * operation of the epoch completes at the closing fence. So an operation can start at
 * its call from the origin's side and complete at the fence on both sides:
 *
 *  - MPI_Put: the origin posts an MPI_Isend of its buffer; at the fence the target posts
 *    the matching MPI_Irecv into its window memory;
 *  - MPI_Get: the origin posts an MPI_Irecv into its buffer; at the fence the target
 *    posts an MPI_Isend of its window memory;
 *  - MPI_Accumulate with MPI_SUM: as a Put received into a scratch buffer, which the
 *    target then adds into its window memory (MPI_REPLACE is a Put);
 *  - MPI_Win_fence: every rank tells every other which operations it started towards it
 *    (MPI_Alltoall of counts and MPI_Alltoallv of descriptions, integers: inactive),
 *    posts its side of them, waits for all (MPI_Waitall), then adds the accumulations.
 *
 * The adjoints are those of the point-to-point rules: the adjoint of a Put is a get of
 * the target's window adjoint, accumulated into the origin's buffer adjoint (then the
 * window adjoint is zero: the Put overwrote it); that of a Get an accumulation of the
 * origin's buffer adjoint into the target's window adjoint; that of an Accumulate a get
 * of the window adjoint added to the origin's (the window adjoint is kept). The window
 * keeps a duplicate of its communicator, so the operations' messages (tagged by their
 * index in the epoch) never match the program's; it is not freed (the reverse sweep
 * communicates on it after the primal's MPI_Win_free).
 *
 * Target datatypes are predefined ones (the target rebuilds them from a code); origin
 * datatypes may be derived ones of one real type, as in MPI_Isend. A window made outside
 * the differentiated code (an Open MPI window) stops the program.
 *
 * Passive-target epochs (MPI_Win_lock/unlock, MPI_Win_lock_all/unlock_all, flushes) have
 * only the origin taking part, which messages cannot express: every composed window also
 * keeps an Open MPI window over its memory (`rwin`, made by __fz_mpic_rma_win, whose rule
 * makes the derivative's shadow window beside it). While this rank holds a lock on the
 * target, MPI_Put, MPI_Get and MPI_Accumulate go to __fz_mpic_rma_put/get/acc, real
 * one-sided operations on rwin whose rules (runtime/mpi_onesided.c) do the adjoint on
 * the shadow window; the locks and flushes are Open MPI's on rwin
 * (__fz_mpic_rma_sync, inactive). */

typedef long fz_aint;
int MPI_Isend(const void *, int, fz_type, int, int, fz_comm, fz_req *);
int MPI_Waitall(int, fz_req *, fz_status *);
int MPI_Comm_dup(fz_comm, fz_comm *);
int MPI_Alltoall(const void *, int, fz_type, void *, int, fz_type, fz_comm);
int MPI_Alltoallv(const void *, const int *, const int *, fz_type, void *, const int *,
                  const int *, fz_type, fz_comm);
void *malloc(size_t);
extern char ompi_mpi_long[], ompi_mpi_integer[], ompi_mpi_win_null[], ompi_mpi_op_replace[];

/* The most operations one rank may start in one epoch of one window. */
#define FZ_WIN_OPS 4096
#define FZ_WIN_MAGIC 0x46525a57494e444fL /* "FRZWINDO" */

enum { FZ_RMA_PUT, FZ_RMA_GET, FZ_RMA_ACC };
/* An operation's description, as the origin sends it to the target at the fence. */
enum { FZ_M_KIND, FZ_M_INDEX, FZ_M_DISP, FZ_M_COUNT, FZ_M_TYPE, FZ_M_WORDS };
/* The predefined target datatypes, by code (the same in every process). */
enum { FZ_T_DOUBLE, FZ_T_FLOAT, FZ_T_INT, FZ_T_LONG, FZ_T_TYPES };

typedef struct {
  long magic;
  char *base;   /* the window memory */
  int disp_unit, me, np, nops;
  int owned;    /* whether the memory is MPI_Win_allocate's (freed with the window) */
  fz_comm comm; /* a duplicate of the window's communicator */
  int *target;  /* per operation of the epoch: its target rank */
  int *meta;    /* per operation: FZ_M_WORDS integers */
  fz_req *reqs; /* per operation: the origin side's request */
  void *rwin;   /* the Open MPI window over the memory (passive-target epochs) */
  int *locked;  /* per rank: whether this rank holds a lock on it */
  int all_locked; /* whether this rank holds MPI_Win_lock_all */
} fz_win;

/* Open MPI's window over `base` (an inactive copy; the rule RmaWindow makes the shadow
 * window beside it in derivative code). */
int MPI_Win_create(void *, fz_aint, int, void *, fz_comm, void **);
int MPI_Win_free(void **);
int MPI_Win_lock(int, int, int, void *);
int MPI_Win_unlock(int, void *);
int MPI_Win_lock_all(int, void *);
int MPI_Win_unlock_all(void *);
int MPI_Win_flush(int, void *);
int MPI_Win_flush_all(void *);
int MPI_Win_flush_local(int, void *);
int MPI_Win_flush_local_all(void *);
int MPI_Put(const void *, int, fz_type, int, fz_aint, int, fz_type, void *);
int MPI_Get(void *, int, fz_type, int, fz_aint, int, fz_type, void *);
int MPI_Accumulate(const void *, int, fz_type, int, fz_aint, int, fz_type, void *, void *);
extern char ompi_mpi_info_null[];

__attribute__((noinline)) int __fz_mpic_rma_win(void *base, fz_aint size, int disp_unit, fz_comm comm, void **rwin) {
  return MPI_Win_create(base, size, disp_unit, ompi_mpi_info_null, comm, rwin);
}

/* The passive-target operations on the Open MPI window (`base`, the window memory, is
 * what the target's side writes or reads: it makes the call active for the pass). */
__attribute__((noinline)) int __fz_mpic_rma_put(const void *o, int on, fz_type ot, int target, fz_aint disp, int tn,
                      fz_type tt, void *rwin, void *base) {
  (void)base;
  return MPI_Put(o, on, ot, target, disp, tn, tt, rwin);
}

__attribute__((noinline)) int __fz_mpic_rma_get(void *o, int on, fz_type ot, int target, fz_aint disp, int tn, fz_type tt,
                      void *rwin, void *base) {
  (void)base;
  return MPI_Get(o, on, ot, target, disp, tn, tt, rwin);
}

__attribute__((noinline)) int __fz_mpic_rma_acc(const void *o, int on, fz_type ot, int target, fz_aint disp, int tn,
                      fz_type tt, void *rwin, void *base) {
  (void)base;
  return MPI_Accumulate(o, on, ot, target, disp, tn, tt, (void *)ompi_mpi_op_sum, rwin);
}

enum { FZ_SYNC_LOCK, FZ_SYNC_UNLOCK, FZ_SYNC_LOCK_ALL, FZ_SYNC_UNLOCK_ALL, FZ_SYNC_FLUSH,
       FZ_SYNC_FLUSH_ALL, FZ_SYNC_FLUSH_LOCAL, FZ_SYNC_FLUSH_LOCAL_ALL, FZ_SYNC_FREE };

/* Synchronisation of the Open MPI window *rwin (inactive: integers and handles). */
__attribute__((noinline)) int __fz_mpic_rma_sync(int what, int a, int b, int c, void **rwin) {
  switch (what) {
  case FZ_SYNC_LOCK: return MPI_Win_lock(a, b, c, *rwin);
  case FZ_SYNC_UNLOCK: return MPI_Win_unlock(b, *rwin);
  case FZ_SYNC_LOCK_ALL: return MPI_Win_lock_all(c, *rwin);
  case FZ_SYNC_UNLOCK_ALL: return MPI_Win_unlock_all(*rwin);
  case FZ_SYNC_FLUSH: return MPI_Win_flush(b, *rwin);
  case FZ_SYNC_FLUSH_ALL: return MPI_Win_flush_all(*rwin);
  case FZ_SYNC_FLUSH_LOCAL: return MPI_Win_flush_local(b, *rwin);
  case FZ_SYNC_FLUSH_LOCAL_ALL: return MPI_Win_flush_local_all(*rwin);
  default: return MPI_Win_free(rwin);
  }
}

static void fz_rma_stop(const char *msg, size_t n) {
  write(2, msg, n);
  abort();
}
#define FZ_RMA_STOP(s) fz_rma_stop("ferrozyme: " s "\n", sizeof "ferrozyme: " s "\n" - 1)

static fz_type fz_rma_type(int code) {
  switch (code) {
  case FZ_T_DOUBLE: return (fz_type)ompi_mpi_double;
  case FZ_T_FLOAT: return (fz_type)ompi_mpi_float;
  case FZ_T_INT: return (fz_type)ompi_mpi_int;
  default: return (fz_type)ompi_mpi_long;
  }
}

static int fz_rma_code(fz_type t) {
  if (t == (fz_type)ompi_mpi_double || t == (fz_type)ompi_mpi_dblprec ||
      t == (fz_type)ompi_mpi_real8)
    return FZ_T_DOUBLE;
  if (t == (fz_type)ompi_mpi_float || t == (fz_type)ompi_mpi_real ||
      t == (fz_type)ompi_mpi_real4)
    return FZ_T_FLOAT;
  if (t == (fz_type)ompi_mpi_int || t == (fz_type)ompi_mpi_integer) return FZ_T_INT;
  if (t == (fz_type)ompi_mpi_long) return FZ_T_LONG;
  FZ_RMA_STOP("the target datatype of an MPI_Put, MPI_Get or MPI_Accumulate in "
              "differentiated code is not MPI_DOUBLE, MPI_FLOAT, MPI_INT or MPI_LONG (or "
              "their Fortran names); describe the target memory with a predefined "
              "datatype (a derived origin datatype works)");
  return 0;
}

static size_t fz_rma_size(int code) {
  return code == FZ_T_FLOAT || code == FZ_T_INT ? 4 : 8;
}

static fz_win *fz_win_of(void *win) {
  fz_win *w = (fz_win *)win;
  if (!w || win == (void *)ompi_mpi_win_null || w->magic != FZ_WIN_MAGIC)
    FZ_RMA_STOP("an MPI window used in differentiated code was not created there (or was "
                "freed): call MPI_Win_create or MPI_Win_allocate inside the "
                "differentiated function, so its memory has a derivative");
  return w;
}

static fz_win *fz_win_new(void *base, int disp_unit, fz_comm comm) {
  fz_win *w = calloc(1, sizeof(fz_win));
  w->magic = FZ_WIN_MAGIC;
  w->base = (char *)base;
  w->disp_unit = disp_unit;
  MPI_Comm_dup(comm, &w->comm);
  MPI_Comm_rank(w->comm, &w->me);
  MPI_Comm_size(w->comm, &w->np);
  w->target = calloc(FZ_WIN_OPS, sizeof(int));
  w->meta = calloc((size_t)FZ_WIN_OPS * FZ_M_WORDS, sizeof(int));
  w->reqs = calloc(FZ_WIN_OPS, sizeof(fz_req));
  w->locked = calloc((size_t)w->np, sizeof(int));
  return w;
}

int __fz_mpic_win_create(void *base, fz_aint size, int disp_unit, void *info, fz_comm comm,
                         void **win) {
  (void)size;
  (void)info;
  fz_win *w = fz_win_new(base, disp_unit, comm);
  *win = w;
  return __fz_mpic_rma_win(w->base, size, disp_unit, w->comm, &w->rwin);
}

int __fz_mpic_win_allocate(fz_aint size, int disp_unit, void *info, fz_comm comm,
                           void *baseptr, void **win) {
  (void)info;
  void *base = calloc(size > 0 ? (size_t)size : 1, 1);
  fz_win *w = fz_win_new(base, disp_unit, comm);
  w->owned = 1;
  *(void **)baseptr = base;
  *win = w;
  return __fz_mpic_rma_win(w->base, size, disp_unit, w->comm, &w->rwin);
}

int __fz_mpic_win_free(void **win) {
  fz_win *w = fz_win_of(*win);
  int err = __fz_mpic_rma_sync(FZ_SYNC_FREE, 0, 0, 0, &w->rwin);
  w->magic = 0;
  if (w->owned) free(w->base);
  free(w->target);
  free(w->meta);
  free(w->reqs);
  free(w->locked);
  free(w);
  *win = (void *)ompi_mpi_win_null;
  return err;
}

/* ---- passive target -------------------------------------------------------------------- */

/* Whether this rank holds a lock on `target`'s part of the window. An inactive call
 * (`ferrozyme_rules::mpi`): its result goes on the tape, so the reverse of an operation
 * takes the branch its forward sweep took (the lock is gone by then). */
__attribute__((noinline)) int __fz_mpic_rma_passive(void *win, int target) {
  fz_win *w = (fz_win *)win;
  return w->all_locked || (target >= 0 && target < w->np && w->locked[target]);
}

static int fz_rma_passive(fz_win *w, int target) { return __fz_mpic_rma_passive(w, target); }

static void fz_rma_check_rank(fz_win *w, int rank) {
  if (rank < 0 || rank >= w->np)
    FZ_RMA_STOP("MPI_Win_lock, MPI_Win_unlock or MPI_Win_flush in differentiated code on a "
                "rank outside the window's group");
}

int __fz_mpic_win_lock(int lock_type, int rank, int assert, void *win) {
  fz_win *w = fz_win_of(win);
  fz_rma_check_rank(w, rank);
  w->locked[rank] = 1;
  return __fz_mpic_rma_sync(FZ_SYNC_LOCK, lock_type, rank, assert, &w->rwin);
}

int __fz_mpic_win_unlock(int rank, void *win) {
  fz_win *w = fz_win_of(win);
  fz_rma_check_rank(w, rank);
  w->locked[rank] = 0;
  return __fz_mpic_rma_sync(FZ_SYNC_UNLOCK, 0, rank, 0, &w->rwin);
}

int __fz_mpic_win_lock_all(int assert, void *win) {
  fz_win *w = fz_win_of(win);
  w->all_locked = 1;
  return __fz_mpic_rma_sync(FZ_SYNC_LOCK_ALL, 0, 0, assert, &w->rwin);
}

int __fz_mpic_win_unlock_all(void *win) {
  fz_win *w = fz_win_of(win);
  w->all_locked = 0;
  return __fz_mpic_rma_sync(FZ_SYNC_UNLOCK_ALL, 0, 0, 0, &w->rwin);
}

int __fz_mpic_win_flush(int rank, void *win) {
  fz_win *w = fz_win_of(win);
  return __fz_mpic_rma_sync(FZ_SYNC_FLUSH, 0, rank, 0, &w->rwin);
}

int __fz_mpic_win_flush_all(void *win) {
  fz_win *w = fz_win_of(win);
  return __fz_mpic_rma_sync(FZ_SYNC_FLUSH_ALL, 0, 0, 0, &w->rwin);
}

int __fz_mpic_win_flush_local(int rank, void *win) {
  fz_win *w = fz_win_of(win);
  return __fz_mpic_rma_sync(FZ_SYNC_FLUSH_LOCAL, 0, rank, 0, &w->rwin);
}

int __fz_mpic_win_flush_local_all(void *win) {
  fz_win *w = fz_win_of(win);
  return __fz_mpic_rma_sync(FZ_SYNC_FLUSH_LOCAL_ALL, 0, 0, 0, &w->rwin);
}

/* Records an operation of the epoch and returns its index (the tag of its message). */
static int fz_rma_start(fz_win *w, int kind, int target, fz_aint disp, int count,
                        fz_type ttype) {
  if (w->nops == FZ_WIN_OPS)
    FZ_RMA_STOP("more than 4096 one-sided operations from one rank in one epoch of a "
                "window in differentiated code; fence more often");
  int k = w->nops++;
  int *m = w->meta + (long)k * FZ_M_WORDS;
  w->target[k] = target;
  m[FZ_M_KIND] = kind;
  m[FZ_M_INDEX] = k;
  m[FZ_M_DISP] = (int)disp;
  m[FZ_M_COUNT] = count;
  m[FZ_M_TYPE] = fz_rma_code(ttype);
  return k;
}

int __fz_mpic_put(const void *o, int on, fz_type ot, int target, fz_aint disp, int tn,
                  fz_type tt, void *win) {
  fz_win *w = fz_win_of(win);
  if (target == FZ_PROC_NULL) return 0; /* completes at once, moves nothing */
  if (fz_rma_passive(w, target)) {
    fz_rma_code(tt);
    return __fz_mpic_rma_put(o, on, ot, target, disp, tn, tt, w->rwin, w->base);
  }
  int k = fz_rma_start(w, FZ_RMA_PUT, target, disp, tn, tt);
  return MPI_Isend(o, on, ot, target, k, w->comm, &w->reqs[k]);
}

int __fz_mpic_get(void *o, int on, fz_type ot, int target, fz_aint disp, int tn, fz_type tt,
                  void *win) {
  fz_win *w = fz_win_of(win);
  if (target == FZ_PROC_NULL) return 0;
  if (fz_rma_passive(w, target)) {
    fz_rma_code(tt);
    return __fz_mpic_rma_get(o, on, ot, target, disp, tn, tt, w->rwin, w->base);
  }
  int k = fz_rma_start(w, FZ_RMA_GET, target, disp, tn, tt);
  return MPI_Irecv(o, on, ot, target, k, w->comm, &w->reqs[k]);
}

/* The one-sided atomics with MPI_NO_OP are atomic reads of the target: an MPI_Get (its
 * adjoint adds the result's into the target's, which commutes with the other ranks'). With
 * MPI_SUM or MPI_REPLACE the fetched value depends on the order of the ranks' operations,
 * which the reverse sweep would have to replay backwards: not differentiated (a compile-time
 * error when the operation is a constant, parallel::mpi::refused_onesided_op). */
extern char ompi_mpi_op_no_op[];
#define FZ_FETCH_REFUSED                                                                    \
  "an MPI_Fetch_and_op or MPI_Get_accumulate in differentiated code with an operation "     \
  "other than MPI_NO_OP (the order of the ranks' fetches is not replayed)"

int __fz_mpic_fetch_and_op(const void *o, void *r, fz_type t, int target, fz_aint disp,
                           void *op, void *win) {
  (void)o;
  if (op != (void *)ompi_mpi_op_no_op) FZ_RMA_STOP(FZ_FETCH_REFUSED);
  return __fz_mpic_get(r, 1, t, target, disp, 1, t, win);
}

int __fz_mpic_get_accumulate(const void *o, int on, fz_type ot, void *r, int rn, fz_type rt,
                             int target, fz_aint disp, int tn, fz_type tt, void *op,
                             void *win) {
  (void)o, (void)on, (void)ot;
  if (op != (void *)ompi_mpi_op_no_op) FZ_RMA_STOP(FZ_FETCH_REFUSED);
  return __fz_mpic_get(r, rn, rt, target, disp, tn, tt, win);
}

int __fz_mpic_accumulate(const void *o, int on, fz_type ot, int target, fz_aint disp, int tn,
                         fz_type tt, void *op, void *win) {
  fz_win *w = fz_win_of(win);
  if (target == FZ_PROC_NULL) return 0;
  int kind = FZ_RMA_ACC;
  if (op == (void *)ompi_mpi_op_replace)
    kind = FZ_RMA_PUT;
  else if (op != (void *)ompi_mpi_op_sum)
    FZ_RMA_STOP("an MPI_Accumulate in differentiated code with an operation other than "
                "MPI_SUM or MPI_REPLACE");
  if (kind == FZ_RMA_ACC && fz_rma_code(tt) != FZ_T_DOUBLE)
    FZ_RMA_STOP("an MPI_Accumulate with MPI_SUM in differentiated code on a target datatype "
                "other than MPI_DOUBLE (MPI_DOUBLE_PRECISION); accumulate doubles, or "
                "accumulate outside the differentiated call");
  if (fz_rma_passive(w, target))
    return kind == FZ_RMA_PUT
               ? __fz_mpic_rma_put(o, on, ot, target, disp, tn, tt, w->rwin, w->base)
               : __fz_mpic_rma_acc(o, on, ot, target, disp, tn, tt, w->rwin, w->base);
  int k = fz_rma_start(w, kind, target, disp, tn, tt);
  return MPI_Isend(o, on, ot, target, k, w->comm, &w->reqs[k]);
}

/* Adds `n` doubles at `from` into `to`. Only doubles: adding floats into the same
 * window pointer would give every window's memory two real types for type analysis
 * (a memcpy into any window could then not be typed). */
static void fz_rma_add_double(double *to, const double *from, int n) {
  for (int i = 0; i < n; i++) to[i] += from[i];
}

int __fz_mpic_win_fence(int assert, void *win) {
  (void)assert;
  fz_win *w = fz_win_of(win);
  int np = w->np, n = w->nops;
  int *sc = calloc((size_t)np, sizeof(int)), *sd = calloc((size_t)np, sizeof(int));
  int *rc = calloc((size_t)np, sizeof(int)), *rd = calloc((size_t)np, sizeof(int));
  for (int k = 0; k < n; k++) sc[w->target[k]] += FZ_M_WORDS;
  MPI_Alltoall(sc, 1, (fz_type)ompi_mpi_int, rc, 1, (fz_type)ompi_mpi_int, w->comm);
  int out = 0, in = 0;
  for (int r = 0; r < np; r++) sd[r] = out, out += sc[r], rd[r] = in, in += rc[r];
  /* The descriptions grouped by target, in the order of the operations. */
  int *sorted = calloc((size_t)out + 1, sizeof(int)), *got = calloc((size_t)in + 1, sizeof(int));
  int *fill = calloc((size_t)np, sizeof(int));
  for (int k = 0; k < n; k++) {
    int r = w->target[k];
    for (int j = 0; j < FZ_M_WORDS; j++)
      sorted[sd[r] + fill[r] + j] = w->meta[(long)k * FZ_M_WORDS + j];
    fill[r] += FZ_M_WORDS;
  }
  MPI_Alltoallv(sorted, sc, sd, (fz_type)ompi_mpi_int, got, rc, rd, (fz_type)ompi_mpi_int,
                w->comm);
  int nin = in / FZ_M_WORDS;
  /* The origin of each incoming operation, and the scratch bytes of the accumulations. */
  int *from = calloc((size_t)nin + 1, sizeof(int));
  size_t acc_bytes = 0;
  for (int r = 0; r < np; r++)
    for (int j = rd[r]; j < rd[r] + rc[r]; j += FZ_M_WORDS) from[j / FZ_M_WORDS] = r;
  for (int i = 0; i < nin; i++) {
    const int *m = got + (long)i * FZ_M_WORDS;
    if (m[FZ_M_KIND] == FZ_RMA_ACC) acc_bytes += (size_t)m[FZ_M_COUNT] * fz_rma_size(m[FZ_M_TYPE]);
  }
  char *acc = calloc(acc_bytes + 8, 1);
  fz_req *treqs = calloc((size_t)nin + 1, sizeof(fz_req));
  size_t off = 0;
  for (int i = 0; i < nin; i++) {
    const int *m = got + (long)i * FZ_M_WORDS;
    char *at = w->base + (long)m[FZ_M_DISP] * w->disp_unit;
    fz_type t = fz_rma_type(m[FZ_M_TYPE]);
    if (m[FZ_M_KIND] == FZ_RMA_PUT)
      MPI_Irecv(at, m[FZ_M_COUNT], t, from[i], m[FZ_M_INDEX], w->comm, &treqs[i]);
    else if (m[FZ_M_KIND] == FZ_RMA_GET)
      MPI_Isend(at, m[FZ_M_COUNT], t, from[i], m[FZ_M_INDEX], w->comm, &treqs[i]);
    else {
      MPI_Irecv(acc + off, m[FZ_M_COUNT], t, from[i], m[FZ_M_INDEX], w->comm, &treqs[i]);
      off += (size_t)m[FZ_M_COUNT] * fz_rma_size(m[FZ_M_TYPE]);
    }
  }
  int err = MPI_Waitall(nin, treqs, 0);
  int err2 = MPI_Waitall(n, w->reqs, 0);
  off = 0;
  for (int i = 0; i < nin; i++) {
    const int *m = got + (long)i * FZ_M_WORDS;
    if (m[FZ_M_KIND] != FZ_RMA_ACC) continue;
    fz_rma_add_double((double *)(w->base + (long)m[FZ_M_DISP] * w->disp_unit),
                      (const double *)(acc + off), m[FZ_M_COUNT]);
    off += (size_t)m[FZ_M_COUNT] * fz_rma_size(m[FZ_M_TYPE]);
  }
  w->nops = 0;
  free(sc);
  free(sd);
  free(rc);
  free(rd);
  free(sorted);
  free(got);
  free(fill);
  free(from);
  free(acc);
  free(treqs);
  return err ? err : err2;
}

/* ---- completion tests and waits for any of several requests ---------------------------
 *
 * MPI_Test, MPI_Testall, MPI_Testany, MPI_Testsome, MPI_Waitany and MPI_Waitsome, written
 * with MPI_Request_get_status (inactive: it asks whether a request is complete without
 * completing or freeing it) and MPI_Wait on each request found complete, whose rule
 * records the request and, in the reverse sweep, posts its adjoint. Which requests
 * completed, and in which order, is the control flow of the code below, which the pass
 * tapes like any branch: the reverse sweep posts the adjoints of exactly the requests the
 * forward sweep completed, in the reverse order, however the messages arrived. Requests
 * that are MPI_REQUEST_NULL are skipped (their statuses are left as they were). */

extern char ompi_request_null[];
int MPI_Request_get_status(fz_req, int *, fz_status *);
int MPI_Wait(fz_req *, fz_status *);
#define FZ_UNDEFINED (-32766) /* Open MPI's MPI_UNDEFINED */
#define FZ_NONE_ACTIVE (-1)
#define FZ_NONE_DONE (-2)

static int fz_req_null(fz_req r) { return r == (fz_req)ompi_request_null; }

static int fz_req_done(fz_req r) {
  int done = 0;
  fz_status ignored;
  MPI_Request_get_status(r, &done, &ignored);
  return done;
}

/* The first complete request at or after `from` (FZ_NONE_ACTIVE: all are null;
 * FZ_NONE_DONE: none is complete yet); with `spin`, polls until one is. */
static int fz_find_done(int n, const fz_req *reqs, int from, int spin) {
  for (;;) {
    int active = 0;
    for (int i = from; i < n; i++) {
      if (fz_req_null(reqs[i])) continue;
      active = 1;
      if (fz_req_done(reqs[i])) return i;
    }
    if (!active) return FZ_NONE_ACTIVE;
    if (!spin) return FZ_NONE_DONE;
  }
}

int __fz_mpic_test(fz_req *req, int *flag, fz_status *st) {
  if (fz_req_null(*req) || !fz_req_done(*req)) {
    *flag = fz_req_null(*req);
    return 0;
  }
  *flag = 1;
  return MPI_Wait(req, st);
}

int __fz_mpic_testall(int n, fz_req *reqs, int *flag, fz_status *sts) {
  for (int i = 0; i < n; i++)
    if (!fz_req_null(reqs[i]) && !fz_req_done(reqs[i])) {
      *flag = 0;
      return 0;
    }
  *flag = 1;
  int err = 0;
  for (int i = 0; i < n; i++) {
    if (fz_req_null(reqs[i])) continue;
    int e = MPI_Wait(&reqs[i], sts ? &sts[i] : 0);
    if (e) err = e;
  }
  return err;
}

static int fz_any(int n, fz_req *reqs, int *index, int *flag, fz_status *st, int spin) {
  int i = fz_find_done(n, reqs, 0, spin);
  *flag = i != FZ_NONE_DONE;
  *index = i >= 0 ? i : FZ_UNDEFINED;
  return i >= 0 ? MPI_Wait(&reqs[i], st) : 0;
}

int __fz_mpic_waitany(int n, fz_req *reqs, int *index, fz_status *st) {
  int flag;
  return fz_any(n, reqs, index, &flag, st, 1);
}

int __fz_mpic_testany(int n, fz_req *reqs, int *index, int *flag, fz_status *st) {
  return fz_any(n, reqs, index, flag, st, 0);
}

static int fz_some(int n, fz_req *reqs, int *outcount, int *indices, fz_status *sts, int spin) {
  int i = fz_find_done(n, reqs, 0, spin);
  if (i < 0) {
    *outcount = i == FZ_NONE_ACTIVE ? FZ_UNDEFINED : 0;
    return 0;
  }
  int k = 0, err = 0;
  while (i >= 0) {
    indices[k] = i;
    int e = MPI_Wait(&reqs[i], sts ? &sts[k] : 0);
    if (e) err = e;
    k++;
    i = fz_find_done(n, reqs, i + 1, 0);
  }
  *outcount = k;
  return err;
}

int __fz_mpic_waitsome(int n, fz_req *reqs, int *outcount, int *indices, fz_status *sts) {
  return fz_some(n, reqs, outcount, indices, sts, 1);
}

int __fz_mpic_testsome(int n, fz_req *reqs, int *outcount, int *indices, fz_status *sts) {
  return fz_some(n, reqs, outcount, indices, sts, 0);
}

/* The adjoint and tangent communication of differentiated MPI programs (Open MPI).
 *
 * The transform replaces, inside derivative code, each MPI call on differentiated data
 * by calls of these helpers (see `ferrozyme_rules::mpi` for the table of rules):
 *
 *  - `*_fwd` run the primal operation in the forward sweep of reverse mode and record
 *    what the reverse sweep needs (the actual source and tag of a receive, a record
 *    for each nonblocking request, which rank won each element of a MAX/MIN reduction);
 *    the transform keeps what they return on the tape;
 *  - `*_rev` run in the reverse sweep: the adjoint communication, in the other direction;
 *  - `*_tan` run the primal operation and the same operation on the tangents (forward
 *    mode).
 *
 * Adjoint and tangent messages travel on the primal's communicator with the tag
 * `MPI_TAG_UB - tag`, so they never match a primal message. Buffers of MPI_DOUBLE and
 * MPI_FLOAT (and Fortran's REAL*8/REAL*4) carry derivatives; predefined integer,
 * character and logical types carry none (their adjoint communication is skipped on
 * every rank alike); the predefined types that hold reals the helpers do not
 * differentiate (MPI_BYTE and MPI_PACKED, which may be doubles sent as bytes, complex,
 * long double, pairs such as MPI_DOUBLE_INT outside MPI_MAXLOC/MPI_MINLOC reductions) stop
 * the program with a message naming the type: treating them as integers would drop the
 * derivative. In MPI_Reduce/MPI_Allreduce with MPI_MAXLOC or MPI_MINLOC, the pairs
 * MPI_DOUBLE_INT, MPI_FLOAT_INT, MPI_2DOUBLE_PRECISION and MPI_2REAL are differentiated:
 * the value's derivative flows from and to the rank that won (its pair equals the
 * result's, the lowest such rank), the index carries none. Derived datatypes made of
 * one real type (a halo column as MPI_Type_vector of MPI_DOUBLE) are differentiated
 * through contiguous copies of the shadows (see "derived datatypes" below), in
 * point-to-point communication and in Bcast, Gather, Scatter and Allgather (every buffer
 * with its own datatype); in reductions, and when they mix reals with other types, they
 * stop the program.
 *
 * Open MPI's handles are pointers (`MPI_Comm` is `struct ompi_communicator_t *`,
 * `MPI_DOUBLE` is `&ompi_mpi_double`), so the declarations below need no mpi.h; this
 * file is compiled to IR by build.rs and linked into a module only when it has MPI
 * calls to differentiate, which is linked with -lmpi. */
#include <stddef.h>

void *malloc(size_t);
void *calloc(size_t, size_t);
void free(void *);
void abort(void);
long write(int, const void *, size_t);

typedef void *fz_comm, *fz_type, *fz_op, *fz_req;
typedef struct {
  int source, tag, error, cancelled;
  size_t ucount;
} fz_status;

int MPI_Send(const void *, int, fz_type, int, int, fz_comm);
int MPI_Recv(void *, int, fz_type, int, int, fz_comm, fz_status *);
int MPI_Isend(const void *, int, fz_type, int, int, fz_comm, fz_req *);
int MPI_Issend(const void *, int, fz_type, int, int, fz_comm, fz_req *);
int MPI_Irecv(void *, int, fz_type, int, int, fz_comm, fz_req *);
int MPI_Wait(fz_req *, fz_status *);
int MPI_Send_init(const void *, int, fz_type, int, int, fz_comm, fz_req *);
int MPI_Recv_init(void *, int, fz_type, int, int, fz_comm, fz_req *);
int MPI_Start(fz_req *);
int MPI_Startall(int, fz_req *);
int MPI_Request_free(fz_req *);
int MPI_Waitall(int, fz_req *, fz_status *);
int MPI_Bcast(void *, int, fz_type, int, fz_comm);
int MPI_Reduce(const void *, void *, int, fz_type, fz_op, int, fz_comm);
int MPI_Allreduce(const void *, void *, int, fz_type, fz_op, fz_comm);
int MPI_Sendrecv(const void *, int, fz_type, int, int, void *, int, fz_type, int, int, fz_comm,
                 fz_status *);
int MPI_Gather(const void *, int, fz_type, void *, int, fz_type, int, fz_comm);
int MPI_Scatter(const void *, int, fz_type, void *, int, fz_type, int, fz_comm);
int MPI_Allgather(const void *, int, fz_type, void *, int, fz_type, fz_comm);
int MPI_Reduce_scatter_block(const void *, void *, int, fz_type, fz_op, fz_comm);
int MPI_Comm_rank(fz_comm, int *);
int MPI_Comm_size(fz_comm, int *);
int MPI_Comm_get_attr(fz_comm, int, void *, int *);
int MPI_Type_get_envelope(fz_type, int *, int *, int *, int *);
int MPI_Type_get_contents(fz_type, int, int, int, int *, long *, fz_type *);
int MPI_Type_size(fz_type, int *);
int MPI_Type_free(fz_type *);
int MPI_Type_get_name(fz_type, char *, int *);

extern char ompi_mpi_double[], ompi_mpi_float[], ompi_mpi_dblprec[], ompi_mpi_real[],
    ompi_mpi_real8[], ompi_mpi_real4[], ompi_mpi_int[];
/* Predefined types that may hold reals but are not differentiated (see above). */
extern char ompi_mpi_byte[], ompi_mpi_packed[], ompi_mpi_long_double[], ompi_mpi_real2[],
    ompi_mpi_real16[], ompi_mpi_float_int[], ompi_mpi_double_int[], ompi_mpi_longdbl_int[],
    ompi_mpi_2real[], ompi_mpi_2dblprec[], ompi_mpi_c_complex[], ompi_mpi_c_float_complex[],
    ompi_mpi_c_double_complex[], ompi_mpi_c_long_double_complex[], ompi_mpi_cplex[],
    ompi_mpi_dblcplex[], ompi_mpi_ldblcplex[], ompi_mpi_complex8[], ompi_mpi_complex16[],
    ompi_mpi_complex32[], ompi_mpi_2cplex[], ompi_mpi_2dblcplex[], ompi_mpi_cxx_cplex[],
    ompi_mpi_cxx_dblcplex[], ompi_mpi_cxx_ldblcplex[];
static char *const fz_real_holders[] = {
    ompi_mpi_byte,        ompi_mpi_packed,       ompi_mpi_long_double,
    ompi_mpi_real2,       ompi_mpi_real16,       ompi_mpi_float_int,
    ompi_mpi_double_int,  ompi_mpi_longdbl_int,  ompi_mpi_2real,
    ompi_mpi_2dblprec,    ompi_mpi_c_complex,    ompi_mpi_c_float_complex,
    ompi_mpi_c_double_complex, ompi_mpi_c_long_double_complex, ompi_mpi_cplex,
    ompi_mpi_dblcplex,    ompi_mpi_ldblcplex,    ompi_mpi_complex8,
    ompi_mpi_complex16,   ompi_mpi_complex32,    ompi_mpi_2cplex,
    ompi_mpi_2dblcplex,   ompi_mpi_cxx_cplex,    ompi_mpi_cxx_dblcplex,
    ompi_mpi_cxx_ldblcplex};
#define FZ_COMBINER_NAMED 0
extern char ompi_mpi_op_sum[], ompi_mpi_op_max[], ompi_mpi_op_min[], ompi_mpi_op_maxloc[],
    ompi_mpi_op_minloc[];
extern char ompi_mpi_comm_self[];

#define FZ_IN_PLACE ((void *)1)
#define FZ_ANY_SOURCE (-1)
/* MPI_PROC_NULL: a send to it does nothing, a receive from it leaves the buffer as it
 * was (its status has MPI_ANY_TAG), so neither has an adjoint or tangent message. */
#define FZ_PROC_NULL (-2)
/* MPI_REQUEST_NULL is `&ompi_request_null`. */
extern char ompi_request_null[];
#define FZ_REQUEST_NULL ((fz_req)ompi_request_null)
#define FZ_TAG_UB_KEY 0

static void fz_say(const char *s) {
  size_t n = 0;
  while (s[n]) n++;
  write(2, s, n);
}

__attribute__((noreturn)) static void fz_die(const char *what) {
  fz_say("ferrozyme: ");
  fz_say(what);
  fz_say("\n");
  abort();
}

/* Stops at a predefined datatype that may hold reals the helpers do not differentiate. */
__attribute__((noreturn)) static void fz_die_type(fz_type t) {
  char name[64] = "this datatype";
  int len = 0;
  MPI_Type_get_name(t, name, &len);
  fz_say("ferrozyme: differentiated data is communicated as ");
  fz_say(name);
  fz_say(", which is not differentiated (its reals would get no derivative); communicate "
         "the reals as MPI_DOUBLE or MPI_FLOAT (complex numbers as 2 reals each, "
         "MPI_MAXLOC pairs only in MPI_Reduce/MPI_Allreduce with MPI_MAXLOC/MPI_MINLOC)\n");
  abort();
}

/* Is t a predefined datatype? */
static int fz_named(fz_type t) {
  int ni, na, nd, combiner = -1;
  MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner);
  return combiner == FZ_COMBINER_NAMED;
}

/* The predefined real types that carry derivatives: 8 (double), 4 (float), else 0. */
static int fz_real_kind(fz_type t) {
  if (t == (fz_type)ompi_mpi_double || t == (fz_type)ompi_mpi_dblprec ||
      t == (fz_type)ompi_mpi_real8)
    return 8;
  if (t == (fz_type)ompi_mpi_float || t == (fz_type)ompi_mpi_real || t == (fz_type)ompi_mpi_real4)
    return 4;
  return 0;
}

/* Bytes of one element that carries a derivative: 8 (double), 4 (float), 0 (none).
 * Derived datatypes stop the program here: the helpers that differentiate them
 * (point-to-point) replace them by their base type first (fz_flatten). */
static int fz_kind(fz_type t) {
  int real = fz_real_kind(t);
  if (real) return real;
  for (size_t k = 0; k < sizeof fz_real_holders / sizeof fz_real_holders[0]; k++)
    if (t == (fz_type)fz_real_holders[k]) fz_die_type(t);
  if (fz_named(t)) return 0; /* integers, characters, logicals */
  fz_die("a derived MPI datatype in a reduction (MPI_Reduce, MPI_Allreduce: Open MPI's "
         "predefined operations take predefined datatypes; derived datatypes are "
         "differentiated in point-to-point communication, broadcasts, gathers and "
         "scatters); reduce MPI_DOUBLE or MPI_FLOAT buffers");
}

enum { FZ_SUM, FZ_MAX, FZ_MIN };

static int fz_opkind(fz_op op) {
  if (op == (fz_op)ompi_mpi_op_sum) return FZ_SUM;
  if (op == (fz_op)ompi_mpi_op_max) return FZ_MAX;
  if (op == (fz_op)ompi_mpi_op_min) return FZ_MIN;
  fz_die("an MPI reduction operation other than MPI_SUM, MPI_MAX, MPI_MIN (and MPI_MAXLOC, "
         "MPI_MINLOC on value-index pairs) is not differentiated");
}

/* How the elements of a reduction lie: `kind` bytes of the real that carries the
 * derivative (0: none), `step` reals from one element to the next (2 for the MAXLOC/
 * MINLOC pairs: value, then index; MPI_DOUBLE_INT's struct is padded to two doubles,
 * MPI_FLOAT_INT's is two floats' size), how a pair's index is stored ('i' an int after
 * the value, 'r' a real, 0 no index), the datatype of one value (`base`) and whether the
 * operation picks one rank's element (`picks`: MAX, MIN, MAXLOC, MINLOC). */
typedef struct {
  int kind, step, index, picks;
  fz_type base;
} fz_layout;

static fz_layout fz_reduce_layout(fz_type t, fz_op op) {
  fz_layout l = {0, 1, 0, 0, t};
  int loc = op == (fz_op)ompi_mpi_op_maxloc || op == (fz_op)ompi_mpi_op_minloc;
  if (t == (fz_type)ompi_mpi_double_int || t == (fz_type)ompi_mpi_2dblprec)
    l.kind = 8, l.base = (fz_type)ompi_mpi_double;
  else if (t == (fz_type)ompi_mpi_float_int || t == (fz_type)ompi_mpi_2real)
    l.kind = 4, l.base = (fz_type)ompi_mpi_float;
  if (l.kind && loc) {
    l.step = 2, l.picks = 1;
    l.index = (t == (fz_type)ompi_mpi_double_int || t == (fz_type)ompi_mpi_float_int) ? 'i' : 'r';
    return l;
  }
  l.kind = fz_kind(t), l.base = t;
  if (l.kind) l.picks = fz_opkind(op) != FZ_SUM;
  return l;
}

static double fz_get(const void *p, int kind, long i);

/* The index of pair `i` of a MAXLOC/MINLOC buffer (as a double: ints are exact). */
static double fz_pair_index(const void *p, fz_layout l, long i) {
  if (l.index == 'i') return *(const int *)((const char *)p + (2 * i + 1) * l.kind);
  return fz_get(p, l.kind, 2 * i + 1);
}

/* The tag of the adjoint (or tangent) message of a message with tag `tag`. */
static int fz_adj_tag(fz_comm comm, int tag) {
  int *ub = 0, flag = 0;
  MPI_Comm_get_attr(comm, FZ_TAG_UB_KEY, &ub, &flag);
  int top = (flag && ub) ? *ub : 32767;
  if (tag < 0 || tag > top / 2) fz_die("an MPI tag above MPI_TAG_UB/2 (the upper half is "
                                       "reserved for adjoint messages)");
  return top - tag;
}

static double fz_get(const void *p, int kind, long i) {
  return kind == 8 ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

static void fz_set(void *p, int kind, long i, double v) {
  if (kind == 8)
    ((double *)p)[i] = v;
  else
    ((float *)p)[i] = (float)v;
}

static void fz_add(void *p, int kind, long i, double v) {
  if (kind == 8)
    ((double *)p)[i] += v;
  else
    ((float *)p)[i] += (float)v;
}

static void fz_zero(void *p, int kind, int n) {
  for (long i = 0; i < n; i++) fz_set(p, kind, i, 0.0);
}

/* ---- derived datatypes ---------------------------------------------------------------
 *
 * A derived datatype whose elements are all of one real type (MPI_Type_vector of
 * MPI_DOUBLE for a halo column, MPI_Type_contiguous, MPI_Type_create_struct of doubles,
 * MPI_Type_indexed, ...) is differentiated through a contiguous copy of the shadow
 * buffer: the helper works on count * (reals per item) elements of the base type, so its
 * adjoint or tangent messages have the primal's type signature and match whatever
 * datatype the peer uses; the copy is written back into the shadow through the datatype,
 * which touches exactly the elements the primal communicated. Copies in and out are
 * MPI_Sendrecv to oneself on MPI_COMM_SELF (the type signatures match). */

/* The real kind (8, 4) every element of t is made of, 0 when it holds no reals; stops the
 * program when t mixes reals with other types or doubles with floats. */
static int fz_elements_kind(fz_type t) {
  int ni, na, nd, combiner = -1;
  MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner);
  if (combiner == FZ_COMBINER_NAMED) return fz_kind(t);
  if (nd <= 0) fz_die("a derived MPI datatype without element types (a Fortran-kind type?) "
                      "communicates differentiated data; use MPI_DOUBLE or MPI_FLOAT");
  int *ints = (int *)malloc((size_t)(ni > 0 ? ni : 1) * sizeof(int));
  long *addrs = (long *)malloc((size_t)(na > 0 ? na : 1) * sizeof(long));
  fz_type *types = (fz_type *)malloc((size_t)nd * sizeof(fz_type));
  MPI_Type_get_contents(t, ni, na, nd, ints, addrs, types);
  int kind = -1, mixed = 0;
  for (int k = 0; k < nd; k++) {
    int named = fz_named(types[k]);
    int e = fz_elements_kind(types[k]);
    if (!named) MPI_Type_free(&types[k]);
    if (kind >= 0 && e != kind) mixed = 1;
    kind = e;
  }
  free(ints);
  free(addrs);
  free(types);
  if (mixed)
    fz_die("a derived MPI datatype mixing reals with integers (or doubles with floats) "
           "communicates differentiated data; only derived datatypes made of one real type "
           "are differentiated: send the reals and the integers as separate messages");
  return kind;
}

/* A shadow buffer seen through its contiguous copy (fz_flatten, fz_unflatten). */
typedef struct {
  void *user;   /* the shadow, laid out by the derived datatype (null: none) */
  int n;        /* the user's count and datatype */
  fz_type t;
  void *flat;   /* the contiguous copy (null: nothing to write back) */
  int m;        /* its count and base type */
  fz_type base;
} fz_flat;

/* Copies n items of t at `from` into m reals of `base` at `to`, or back (`out`). */
static void fz_copy_typed(const fz_flat *f, int out) {
  fz_comm self = (fz_comm)ompi_mpi_comm_self;
  int tag = fz_adj_tag(self, 0);
  if (out)
    MPI_Sendrecv(f->flat, f->m, f->base, 0, tag, f->user, f->n, f->t, 0, tag, self, 0);
  else
    MPI_Sendrecv(f->user, f->n, f->t, 0, tag, f->flat, f->m, f->base, 0, tag, self, 0);
}

/* When *t is a derived datatype: how a shadow buffer `buf` of *n items of it is seen
 * contiguously, f.m reals of the base type f.base, which replace (*n, *t); no copy is
 * made yet (fz_copy_in). f.user is null for a predefined type. A derived type of
 * integers only becomes MPI_INT (no derivative). */
static fz_flat fz_flat_view(void *buf, int *n, fz_type *t) {
  fz_flat f = {0, 0, 0, 0, 0, 0};
  if (fz_real_kind(*t) || fz_named(*t)) return f; /* MPI_DOUBLE: no query */
  int kind = fz_elements_kind(*t);
  if (!kind) {
    *t = (fz_type)ompi_mpi_int;
    return f;
  }
  int size = 0;
  MPI_Type_size(*t, &size);
  f.user = buf;
  f.n = *n;
  f.t = *t;
  f.m = *n > 0 ? *n * (size / kind) : 0;
  f.base = kind == 8 ? (fz_type)ompi_mpi_double : (fz_type)ompi_mpi_float;
  *n = f.m;
  *t = f.base;
  return f;
}

/* Allocates the contiguous copy of f's shadow and fills it through the datatype. */
static void *fz_copy_in(fz_flat *f) {
  f->flat = calloc((size_t)(f->m > 0 ? f->m : 1), (size_t)fz_real_kind(f->base));
  if (!f->flat) fz_die("out of memory for the copy of a derived datatype's buffer");
  fz_copy_typed(f, 0);
  return f->flat;
}

/* As fz_flat_view, and *buf replaced by a contiguous copy of the shadow (it stays null
 * when there is none). */
static fz_flat fz_flatten(void **buf, int *n, fz_type *t) {
  fz_flat f = fz_flat_view(*buf, n, t);
  if (f.user) *buf = fz_copy_in(&f);
  return f;
}

/* As fz_flatten for a buffer of `blocks` blocks of *n items each (the gathered buffer of
 * a gather, the scattered one of a scatter: block r at r * *n items' extent); *n becomes
 * the reals per block. */
static fz_flat fz_flatten_blocks(void **buf, int *n, fz_type *t, int blocks) {
  if (blocks <= 0) {
    fz_flat none = {0, 0, 0, 0, 0, 0};
    return none; /* an argument the MPI call does not read on this rank */
  }
  int total = *n * blocks;
  fz_flat f = fz_flatten(buf, &total, t);
  *n = total / blocks;
  return f;
}

/* Writes the contiguous copy back into the shadow through the derived datatype. */
static void fz_unflatten(fz_flat *f) {
  if (!f->flat) return;
  fz_copy_typed(f, 1);
  free(f->flat);
  f->flat = 0;
}

/* Rank and size of a communicator. */
static void fz_where(fz_comm comm, int *rank, int *size) {
  MPI_Comm_rank(comm, rank);
  MPI_Comm_size(comm, size);
}

/* The shadows of the buffers a gather, scatter or allgather reads on this rank, seen
 * contiguously (fz_flatten_blocks); the counts and types become the base type's. */
typedef struct {
  fz_flat send, recv;
} fz_flat2;

static fz_flat2 fz_flatten_gather(const void *send, void **dsend, int *sn, fz_type *st,
                                  void **drecv, int *rn, fz_type *rt, int root, fz_comm comm) {
  int rank, size;
  fz_where(comm, &rank, &size);
  int all = root < 0 || rank == root; /* an allgather, or the root */
  fz_flat2 f;
  f.send = fz_flatten_blocks(dsend, sn, st, send != FZ_IN_PLACE);
  f.recv = fz_flatten_blocks(drecv, rn, rt, all ? size : 0);
  return f;
}

static fz_flat2 fz_flatten_scatter(void **dsend, int *sn, fz_type *st, const void *recv,
                                   void **drecv, int *rn, fz_type *rt, int root, fz_comm comm) {
  int rank, size;
  fz_where(comm, &rank, &size);
  fz_flat2 f;
  f.send = fz_flatten_blocks(dsend, sn, st, rank == root ? size : 0);
  f.recv = fz_flatten_blocks(drecv, rn, rt, recv != FZ_IN_PLACE);
  return f;
}

static void fz_unflatten2(fz_flat2 *f) {
  fz_unflatten(&f->send);
  fz_unflatten(&f->recv);
}

/* Buffered adjoint and tangent sends (mpi_buffered.c, included at the end). */
static void fz_send_buffered(const void *buf, int n, fz_type t, int kind, int dest, int tag,
                             fz_comm comm);

/* ---- blocking point to point ------------------------------------------------------ */

/* Reverse of MPI_Send: the adjoint comes back from `dest`. */
static void fz_send_rev(void *dbuf, int n, fz_type t, int dest, int tag, fz_comm comm) {
  int kind = fz_kind(t);
  if (!kind || n <= 0 || dest == FZ_PROC_NULL) return;
  void *tmp = malloc((size_t)n * (size_t)kind);
  MPI_Recv(tmp, n, t, dest, fz_adj_tag(comm, tag), comm, 0);
  if (dbuf)
    for (long i = 0; i < n; i++) fz_add(dbuf, kind, i, fz_get(tmp, kind, i));
  free(tmp);
}

void __fz_mpi_send_rev(void *dbuf, int n, fz_type t, int dest, int tag, fz_comm comm) {
  fz_flat f = fz_flatten(&dbuf, &n, &t);
  fz_send_rev(dbuf, n, t, dest, tag, comm);
  fz_unflatten(&f);
}

/* MPI_Recv in the forward sweep: returns the error code; *who = (source << 32) | tag of
 * the message received (for the reverse sweep's send). */
int __fz_mpi_recv_fwd(void *buf, int n, fz_type t, int src, int tag, fz_comm comm,
                      fz_status *st, long *who) {
  fz_status mine;
  fz_status *s = st ? st : &mine;
  int err = MPI_Recv(buf, n, t, src, tag, comm, s);
  *who = ((long)s->source << 32) | (unsigned)s->tag;
  return err;
}

/* Reverse of MPI_Recv: the adjoint goes back to where the message came from. */
static void fz_recv_rev(void *dbuf, int n, fz_type t, long who, fz_comm comm) {
  int kind = fz_kind(t);
  if (!kind || n <= 0) return;
  int src = (int)(who >> 32), tag = (int)(who & 0xffffffff);
  if (src == FZ_PROC_NULL) return; /* the buffer was left as it was: so is its adjoint */
  /* Buffered: the message may have come from a buffered send (mpi_buffered.c). */
  fz_send_buffered(dbuf, n, t, kind, src, fz_adj_tag(comm, tag), comm);
  if (dbuf) fz_zero(dbuf, kind, n);
}

void __fz_mpi_recv_rev(void *dbuf, int n, fz_type t, long who, fz_comm comm) {
  fz_flat f = fz_flatten(&dbuf, &n, &t);
  fz_recv_rev(dbuf, n, t, who, comm);
  fz_unflatten(&f);
}

/* MPI_Sendrecv in the forward sweep: as MPI_Recv's, *who is the message's actual source
 * and tag. */
int __fz_mpi_sendrecv_fwd(const void *sbuf, int sn, fz_type st, int dest, int stag, void *rbuf,
                          int rn, fz_type rt, int src, int rtag, fz_comm comm, fz_status *status,
                          long *who) {
  fz_status mine;
  fz_status *s = status ? status : &mine;
  int err = MPI_Sendrecv(sbuf, sn, st, dest, stag, rbuf, rn, rt, src, rtag, comm, s);
  *who = ((long)s->source << 32) | (unsigned)s->tag;
  return err;
}

/* One exchange of adjoint or tangent messages: `out` (n_out elements of t_out, NULL:
 * zeros) to `to` with tag `out_tag`, `in` (NULL: discarded) from `from` with `in_tag`.
 * A side whose type carries no derivative, whose count is zero or whose peer is
 * MPI_PROC_NULL is left out; its peer leaves it out too (the types match). Returns
 * whether something arrived in `in`. */
static int fz_exchange(const void *out, int n_out, fz_type t_out, int to, int out_tag, void *in,
                       int n_in, fz_type t_in, int from, int in_tag, fz_comm comm) {
  int ko = fz_kind(t_out), ki = fz_kind(t_in);
  int send = ko && n_out > 0 && to != FZ_PROC_NULL;
  int recv = ki && n_in > 0 && from != FZ_PROC_NULL;
  void *z = (send && !out) ? calloc((size_t)n_out, (size_t)ko) : 0;
  void *sink = (recv && !in) ? malloc((size_t)n_in * (size_t)ki) : 0;
  const void *o = out ? out : z;
  void *r = in ? in : sink;
  if (send && recv)
    MPI_Sendrecv(o, n_out, t_out, to, fz_adj_tag(comm, out_tag), r, n_in, t_in, from,
                 fz_adj_tag(comm, in_tag), comm, 0);
  else if (send) /* the adjoint of a receive alone: buffered (mpi_buffered.c) */
    fz_send_buffered(o, n_out, t_out, ko, to, fz_adj_tag(comm, out_tag), comm);
  else if (recv)
    MPI_Recv(r, n_in, t_in, from, fz_adj_tag(comm, in_tag), comm, 0);
  free(z);
  free(sink);
  return recv && in;
}

/* Reverse of MPI_Sendrecv: the received buffer's adjoint goes back to the actual source,
 * the sent buffer's adjoint comes back from `dest` and is added. */
static void fz_sendrecv_rev(void *dsend, int sn, fz_type st, int dest, int stag, void *drecv,
                            int rn, fz_type rt, long who, fz_comm comm) {
  int src = (int)(who >> 32), rtag = (int)(who & 0xffffffff);
  int sk = fz_kind(st), rk = fz_kind(rt);
  void *tmp = sk && sn > 0 ? malloc((size_t)sn * (size_t)sk) : 0;
  int got = fz_exchange(drecv, rn, rt, src, rtag, tmp, sn, st, dest, stag, comm);
  if (drecv && rk && rn > 0 && src != FZ_PROC_NULL) fz_zero(drecv, rk, rn);
  if (got && dsend)
    for (long i = 0; i < sn; i++) fz_add(dsend, sk, i, fz_get(tmp, sk, i));
  free(tmp);
}

void __fz_mpi_sendrecv_rev(void *dsend, int sn, fz_type st, int dest, int stag, void *drecv,
                           int rn, fz_type rt, long who, fz_comm comm) {
  fz_flat fs = fz_flatten(&dsend, &sn, &st), fr = fz_flatten(&drecv, &rn, &rt);
  fz_sendrecv_rev(dsend, sn, st, dest, stag, drecv, rn, rt, who, comm);
  fz_unflatten(&fs);
  fz_unflatten(&fr);
}

int __fz_mpi_sendrecv_tan(const void *sbuf, const void *dsend, int sn, fz_type st, int dest,
                          int stag, void *rbuf, void *drecv, int rn, fz_type rt, int src,
                          int rtag, fz_comm comm, fz_status *status) {
  fz_status mine;
  fz_status *s = status ? status : &mine;
  int err = MPI_Sendrecv(sbuf, sn, st, dest, stag, rbuf, rn, rt, src, rtag, comm, s);
  void *ds = (void *)dsend;
  fz_flat fs = fz_flatten(&ds, &sn, &st), fr = fz_flatten(&drecv, &rn, &rt);
  fz_exchange(ds, sn, st, dest, stag, drecv, rn, rt, s->source, s->tag, comm);
  fz_unflatten(&fs);
  fz_unflatten(&fr);
  return err;
}

/* ---- nonblocking point to point ------------------------------------------------------ */

/* What the reverse sweep needs of a nonblocking operation, from MPI_Isend/MPI_Irecv to
 * the wait that completes it and back. The forward sweep keeps its address in the
 * shadow of the user's MPI_Request and on the tape. */
typedef struct {
  int is_recv, n, peer, tag, kind;
  int barrier;   /* MPI_Ibarrier's: the adjoint is an MPI_Ibarrier on `comm` */
  fz_type type;
  fz_comm comm;
  void *dbuf;    /* the shadow of the user's buffer (null for a derived datatype) */
  fz_flat user;  /* a derived datatype's shadow, copied when the adjoint is posted */
  void *tmp;     /* reverse of an Isend: where the adjoint arrives */
  fz_req adj;    /* the adjoint (or tangent) operation's request */
  int posted;    /* whether `adj` is an operation to complete */
  /* A persistent request's record (MPI_Send_init, MPI_Recv_init): what each MPI_Start
   * makes the record of one MPI_Isend/MPI_Irecv from, and that start's record until a
   * wait takes it. */
  int persistent;
  void *pbuf;
  int pn;
  fz_type ptype;
  void *cur;
} fz_rec;

static fz_rec *fz_rec_new(int is_recv, void *dbuf, int n, fz_type t, int peer, int tag,
                          fz_comm comm) {
  fz_rec *r = (fz_rec *)calloc(1, sizeof(fz_rec));
  if (!r) fz_die("out of memory for an MPI request record");
  r->is_recv = is_recv;
  r->user = fz_flat_view(dbuf, &n, &t);
  if (r->user.user) dbuf = 0; /* copied when the adjoint or tangent travels, not now */
  r->dbuf = dbuf;
  r->n = n;
  r->type = t;
  r->kind = fz_kind(t);
  r->peer = peer;
  r->tag = tag;
  r->comm = comm;
  return r;
}

/* MPI_Isend or MPI_Issend: the primal keeps its mode (a synchronous send's completion
 * says the receiver matched it); the adjoint is the same for both. */
typedef int (*fz_isend_fn)(const void *, int, fz_type, int, int, fz_comm, fz_req *);

static int fz_isend_fwd(fz_isend_fn isend, const void *buf, void *dbuf, int n, fz_type t,
                        int dest, int tag, fz_comm comm, fz_req *req, fz_rec **sreq) {
  int err = isend(buf, n, t, dest, tag, comm, req);
  *sreq = fz_rec_new(0, dbuf, n, t, dest, tag, comm);
  return err;
}

int __fz_mpi_isend_fwd(const void *buf, void *dbuf, int n, fz_type t, int dest, int tag,
                       fz_comm comm, fz_req *req, fz_rec **sreq) {
  return fz_isend_fwd(MPI_Isend, buf, dbuf, n, t, dest, tag, comm, req, sreq);
}

int __fz_mpi_issend_fwd(const void *buf, void *dbuf, int n, fz_type t, int dest, int tag,
                        fz_comm comm, fz_req *req, fz_rec **sreq) {
  return fz_isend_fwd(MPI_Issend, buf, dbuf, n, t, dest, tag, comm, req, sreq);
}

/* MPI_Ibsend: the primal's buffered send (its wait returns once the data is copied);
 * the adjoint is MPI_Isend's. */
int MPI_Ibsend(const void *, int, fz_type, int, int, fz_comm, fz_req *);
int MPI_Bsend(const void *, int, fz_type, int, int, fz_comm);

int __fz_mpi_ibsend_fwd(const void *buf, void *dbuf, int n, fz_type t, int dest, int tag,
                        fz_comm comm, fz_req *req, fz_rec **sreq) {
  return fz_isend_fwd(MPI_Ibsend, buf, dbuf, n, t, dest, tag, comm, req, sreq);
}

int __fz_mpi_irecv_fwd(void *buf, void *dbuf, int n, fz_type t, int src, int tag,
                       fz_comm comm, fz_req *req, fz_rec **sreq) {
  int err = MPI_Irecv(buf, n, t, src, tag, comm, req);
  *sreq = fz_rec_new(1, dbuf, n, t, src, tag, comm);
  return err;
}

int MPI_Ibarrier(fz_comm, fz_req *);

/* MPI_Ibarrier in the forward sweep and in forward mode: the primal's nonblocking barrier
 * and a record that says so in the shadow of its request (none where the request has no
 * shadow). Its mirror in the reverse sweep is as an MPI_Isend's: the reverse of the wait
 * or test that completes it posts an MPI_Ibarrier (fz_post_adjoint), the reverse of this
 * call waits for that one (__fz_mpi_nonblocking_rev). Between the two a rank keeps
 * sending and receiving adjoints, as it kept receiving messages in the forward sweep
 * until every rank had entered the barrier; a blocking barrier in either place would
 * stop it answering a rank that still needs it. In forward mode the wait has nothing to
 * receive (fz_finish_tangent frees the record). */
int __fz_mpi_ibarrier_fwd(fz_comm comm, fz_req *req, fz_rec **sreq) {
  int err = MPI_Ibarrier(comm, req);
  if (sreq) {
    fz_rec *r = (fz_rec *)calloc(1, sizeof(fz_rec));
    if (!r) fz_die("out of memory for an MPI request record");
    r->barrier = 1;
    r->comm = comm;
    *sreq = r;
  }
  return err;
}

/* A receive's record learns where its message came from when it completes. */
static void fz_completed(fz_rec *r, const fz_status *s) {
  if (r && r->is_recv) {
    r->peer = s->source;
    r->tag = s->tag;
  }
}

/* The record a wait completes, from the shadow of its request: a persistent request's
 * current start (taken: a second wait of the same start has none), or the record of an
 * MPI_Isend/MPI_Irecv. */
static fz_rec *fz_started(fz_rec *r) {
  if (!r || !r->persistent) return r;
  /* MPI_Waitany, MPI_Waitsome and the tests (runtime/mpi_composed.c) take a completed
   * persistent request for one to wait for again, which would drop the others' adjoints. */
  if (!r->cur)
    fz_die("a wait or test of a persistent request that no MPI_Start started since its "
           "last completion (MPI_Waitany, MPI_Waitsome and MPI_Test* of persistent requests "
           "are not differentiated); complete persistent requests with MPI_Wait or "
           "MPI_Waitall");
  fz_rec *cur = (fz_rec *)r->cur;
  r->cur = 0;
  return cur;
}

fz_rec *__fz_mpi_started(fz_rec *r) { return fz_started(r); }

int __fz_mpi_wait_fwd(fz_req *req, fz_status *st, fz_rec *r) {
  fz_status mine;
  fz_status *s = st ? st : &mine;
  int err = MPI_Wait(req, s);
  fz_completed(r, s);
  return err;
}

/* Waitall in the forward sweep: returns the records of the requests (copied from their
 * shadows before they complete), for the tape; *err is MPI_Waitall's result. */
fz_rec **__fz_mpi_waitall_fwd(int n, fz_req *reqs, fz_rec **sreqs, fz_status *sts, int *err) {
  fz_rec **recs = (fz_rec **)calloc((size_t)(n > 0 ? n : 1), sizeof(fz_rec *));
  fz_status *s = sts ? sts : (fz_status *)calloc((size_t)(n > 0 ? n : 1), sizeof(fz_status));
  for (int k = 0; k < n; k++) recs[k] = sreqs ? fz_started(sreqs[k]) : 0;
  *err = MPI_Waitall(n, reqs, s);
  for (int k = 0; k < n; k++) fz_completed(recs[k], &s[k]);
  if (!sts) free(s);
  return recs;
}

/* Reverse of the wait: posts the adjoint operation (the other direction). */
static void fz_post_adjoint(fz_rec *r) {
  if (r && r->barrier) {
    MPI_Ibarrier(r->comm, &r->adj);
    r->posted = 1;
    return;
  }
  if (!r || !r->kind || r->n <= 0 || r->peer == FZ_PROC_NULL) return;
  int tag = fz_adj_tag(r->comm, r->tag);
  if (r->is_recv) {
    /* Sent buffered (mpi_buffered.c): the reverse of the MPI_Irecv, which zeroes the
     * adjoint, has nothing to wait for. */
    if (r->user.user) r->dbuf = r->tmp = fz_copy_in(&r->user);
    fz_send_buffered(r->dbuf, r->n, r->type, r->kind, r->peer, tag, r->comm);
    r->adj = FZ_REQUEST_NULL;
  } else {
    r->tmp = malloc((size_t)r->n * (size_t)r->kind);
    MPI_Irecv(r->tmp, r->n, r->type, r->peer, tag, r->comm, &r->adj);
  }
  r->posted = 1;
}

void __fz_mpi_wait_rev(fz_rec *r) { fz_post_adjoint(r); }

void __fz_mpi_waitall_rev(int n, fz_rec **recs) {
  for (int k = 0; k < n; k++) fz_post_adjoint(recs[k]);
  free(recs);
}

/* Reverse of MPI_Isend/MPI_Irecv: completes the adjoint operation, then the adjoint of
 * the buffer is updated (+= what arrived; zero after it was sent). */
void __fz_mpi_nonblocking_rev(fz_rec *r) {
  if (!r) return;
  if (r->posted) {
    MPI_Wait(&r->adj, 0);
    if (r->user.user) r->dbuf = r->user.flat = r->is_recv ? r->tmp : fz_copy_in(&r->user);
    if (r->is_recv) {
      if (r->dbuf && (r->dbuf != r->tmp || r->user.user)) fz_zero(r->dbuf, r->kind, r->n);
    } else if (r->dbuf) {
      for (long i = 0; i < r->n; i++) fz_add(r->dbuf, r->kind, i, fz_get(r->tmp, r->kind, i));
    }
    if (r->user.user) {
      fz_copy_typed(&r->user, 1);
      if (r->user.flat != r->tmp) free(r->user.flat);
    }
  }
  free(r->tmp);
  free(r);
}

/* ---- persistent requests ------------------------------------------------------------ */

/* MPI_Send_init/MPI_Recv_init (both sweeps and forward mode): the persistent request's
 * record goes into the shadow of the request (and on the tape); each start is an
 * MPI_Isend/MPI_Irecv for differentiation. */
static fz_rec *fz_persistent_new(int is_recv, void *dbuf, int n, fz_type t, int peer, int tag,
                                 fz_comm comm) {
  fz_rec *p = (fz_rec *)calloc(1, sizeof(fz_rec));
  if (!p) fz_die("out of memory for an MPI persistent request record");
  p->persistent = 1;
  p->is_recv = is_recv;
  p->pbuf = dbuf;
  p->pn = n;
  p->ptype = t;
  p->peer = peer;
  p->tag = tag;
  p->comm = comm;
  return p;
}

int __fz_mpi_send_init_fwd(const void *buf, void *dbuf, int n, fz_type t, int dest, int tag,
                           fz_comm comm, fz_req *req, fz_rec **sreq) {
  int err = MPI_Send_init(buf, n, t, dest, tag, comm, req);
  *sreq = fz_persistent_new(0, dbuf, n, t, dest, tag, comm);
  return err;
}

int __fz_mpi_recv_init_fwd(void *buf, void *dbuf, int n, fz_type t, int src, int tag,
                           fz_comm comm, fz_req *req, fz_rec **sreq) {
  int err = MPI_Recv_init(buf, n, t, src, tag, comm, req);
  *sreq = fz_persistent_new(1, dbuf, n, t, src, tag, comm);
  return err;
}

/* Reverse of MPI_Send_init/MPI_Recv_init: every start's adjoint is complete. */
void __fz_mpi_persistent_rev(fz_rec *p) { free(p); }

static fz_rec *fz_persistent(const fz_rec *p, const char *routine) {
  if (!p || !p->persistent) {
    fz_say("ferrozyme: ");
    fz_say(routine);
    fz_say(" of a request that no MPI_Send_init/MPI_Ssend_init/MPI_Recv_init of the "
           "differentiated code set up; set the persistent request up inside the "
           "differentiated function\n");
    abort();
  }
  return (fz_rec *)p;
}

/* One start: the record of an MPI_Isend/MPI_Irecv of the persistent request's buffer,
 * which the wait that completes it takes. */
static fz_rec *fz_start(fz_rec *p) {
  if (p->cur)
    fz_die("MPI_Start of a persistent request whose last start no MPI_Wait/MPI_Waitall "
           "completed");
  fz_rec *r = fz_rec_new(p->is_recv, p->pbuf, p->pn, p->ptype, p->peer, p->tag, p->comm);
  p->cur = r;
  return r;
}

fz_rec *__fz_mpi_start_fwd(fz_req *req, fz_rec *p, int *err) {
  fz_rec *r = fz_start(fz_persistent(p, "MPI_Start"));
  *err = MPI_Start(req);
  return r;
}

fz_rec **__fz_mpi_startall_fwd(int n, fz_req *reqs, fz_rec **sreqs, int *err) {
  fz_rec **recs = (fz_rec **)calloc((size_t)(n > 0 ? n : 1), sizeof(fz_rec *));
  for (int k = 0; k < n; k++) recs[k] = fz_start(fz_persistent(sreqs[k], "MPI_Startall"));
  *err = MPI_Startall(n, reqs);
  return recs;
}

void __fz_mpi_startall_rev(int n, fz_rec **recs) {
  for (int k = n - 1; k >= 0; k--) __fz_mpi_nonblocking_rev(recs[k]);
  free(recs);
}

/* MPI_Request_free in the forward sweep: of a persistent request, the record stays
 * for the reverse sweep; of a nonblocking operation not yet completed, the adjoint
 * would never be posted. */
int __fz_mpi_request_free_fwd(fz_req *req, fz_rec **sreq) {
  fz_rec *r = sreq ? *sreq : 0;
  if (r && !r->persistent && *req != FZ_REQUEST_NULL)
    fz_die("MPI_Request_free of an MPI_Isend/MPI_Irecv request that no wait completed: "
           "its adjoint would never be posted; complete it with MPI_Wait/MPI_Waitall");
  return MPI_Request_free(req);
}

/* ---- collectives ------------------------------------------------------------------- */

/* Reverse of MPI_Bcast: the root's adjoint is the sum of every rank's; the others'
 * buffers were overwritten, their adjoints become zero. */
static void fz_bcast_rev(void *dbuf, int n, fz_type t, int root, fz_comm comm) {
  int kind = fz_kind(t);
  if (!kind || n <= 0) return;
  int rank;
  MPI_Comm_rank(comm, &rank);
  void *mine = dbuf ? dbuf : calloc((size_t)n, (size_t)kind);
  void *sum = malloc((size_t)n * (size_t)kind);
  MPI_Reduce(mine, sum, n, t, (fz_op)ompi_mpi_op_sum, root, comm);
  if (dbuf) {
    if (rank == root)
      for (long i = 0; i < n; i++) fz_set(dbuf, kind, i, fz_get(sum, kind, i));
    else
      fz_zero(dbuf, kind, n);
  } else {
    free(mine);
  }
  free(sum);
}

/* A broadcast of a derived datatype made of one real type: on its contiguous copy. */
void __fz_mpi_bcast_rev(void *dbuf, int n, fz_type t, int root, fz_comm comm) {
  fz_flat f = fz_flatten(&dbuf, &n, &t);
  fz_bcast_rev(dbuf, n, t, root, comm);
  fz_unflatten(&f);
}

/* Which elements this rank won in a MAX/MIN (MAXLOC/MINLOC) reduction whose result `out`
 * every rank has: the lowest rank holding the winning value (and index) (a byte per
 * element). */
static unsigned char *fz_winners(const void *in, const void *out, int n, fz_layout l,
                                 fz_comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int *cand = (int *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
  for (long i = 0; i < n; i++) {
    int same = fz_get(in, l.kind, i * l.step) == fz_get(out, l.kind, i * l.step);
    if (l.index) same = same && fz_pair_index(in, l, i) == fz_pair_index(out, l, i);
    cand[i] = same ? rank : size;
  }
  int *low = (int *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
  MPI_Allreduce(cand, low, n, (fz_type)ompi_mpi_int, (fz_op)ompi_mpi_op_min, comm);
  unsigned char *win = (unsigned char *)malloc((size_t)(n > 0 ? n : 1));
  for (long i = 0; i < n; i++) win[i] = low[i] == rank;
  free(cand);
  free(low);
  return win;
}

/* The data a rank contributed to a reduction (its recvbuf before the call when
 * MPI_IN_PLACE), copied before the call overwrites it. */
static void *fz_input_copy(const void *send, const void *recv, int n, fz_layout l) {
  const char *src = send == FZ_IN_PLACE ? recv : send;
  size_t bytes = (size_t)(n > 0 ? n : 1) * (size_t)(l.kind * l.step);
  char *c = malloc(bytes);
  for (size_t i = 0; i < bytes; i++) c[i] = src[i];
  return c;
}

/* The values of `n` elements of a shadow buffer laid out as `l`, contiguous (zeros when
 * there is no shadow); `src` itself when it is contiguous already. */
static void *fz_values(const void *src, int n, fz_layout l) {
  if (src && l.step == 1) return (void *)src;
  void *c = calloc((size_t)(n > 0 ? n : 1), (size_t)l.kind);
  if (src)
    for (long i = 0; i < n; i++) fz_set(c, l.kind, i, fz_get(src, l.kind, i * l.step));
  return c;
}

/* Writes the contiguous values `v` into the value slots of `dst` (laid out as `l`) and
 * frees `v` when it was a copy. */
static void fz_store_values(void *dst, void *v, int n, fz_layout l) {
  if (dst == v) return;
  if (dst)
    for (long i = 0; i < n; i++) fz_set(dst, l.kind, i * l.step, fz_get(v, l.kind, i));
  free(v);
}

/* Allreduce in the forward sweep; for MAX/MIN returns this rank's winners (for the
 * tape), else null; *err is MPI_Allreduce's result. */
unsigned char *__fz_mpi_allreduce_fwd(const void *send, void *recv, int n, fz_type t, fz_op op,
                                      fz_comm comm, int *err) {
  fz_layout l = fz_reduce_layout(t, op);
  void *in = l.picks ? fz_input_copy(send, recv, n, l) : 0;
  *err = MPI_Allreduce(send, recv, n, t, op, comm);
  if (!in) return 0;
  unsigned char *win = fz_winners(in, recv, n, l, comm);
  free(in);
  return win;
}

/* The adjoint of a reduction's inputs on this rank, from the adjoint of its result
 * summed over the ranks (`total`): everything for SUM, the won elements for MAX/MIN. */
static void fz_reduce_adjoint(const void *send, void *dsend, void *drecv, const void *total,
                              int n, fz_layout l, const unsigned char *win, int receives) {
  int kind = l.kind;
  if (send == FZ_IN_PLACE) {
    /* The input was the receive buffer: its adjoint is what flows back. */
    if (drecv)
      for (long i = 0; i < n; i++)
        fz_set(drecv, kind, i * l.step, (!win || win[i]) ? fz_get(total, kind, i) : 0.0);
    return;
  }
  if (dsend)
    for (long i = 0; i < n; i++)
      if (!win || win[i]) fz_add(dsend, kind, i * l.step, fz_get(total, kind, i));
  if (receives && drecv)
    for (long i = 0; i < n; i++) fz_set(drecv, kind, i * l.step, 0.0);
}

void __fz_mpi_allreduce_rev(const void *send, void *dsend, void *drecv, int n, fz_type t,
                            fz_op op, fz_comm comm, unsigned char *win) {
  fz_layout l = fz_reduce_layout(t, op);
  if (l.kind && n > 0) {
    void *mine = fz_values(drecv, n, l);
    void *total = malloc((size_t)n * (size_t)l.kind);
    MPI_Allreduce(mine, total, n, l.base, (fz_op)ompi_mpi_op_sum, comm);
    if (mine != drecv) free(mine);
    fz_reduce_adjoint(send, dsend, drecv, total, n, l, win, 1);
    free(total);
  }
  free(win);
}

/* Reduce to `root` in the forward sweep (winners as for Allreduce; every rank learns
 * the result to find them). */
unsigned char *__fz_mpi_reduce_fwd(const void *send, void *recv, int n, fz_type t, fz_op op,
                                   int root, fz_comm comm, int *err) {
  fz_layout l = fz_reduce_layout(t, op);
  int rank;
  MPI_Comm_rank(comm, &rank);
  void *in = l.picks ? fz_input_copy(send, recv, n, l) : 0;
  *err = MPI_Reduce(send, recv, n, t, op, root, comm);
  if (!in) return 0;
  void *out = rank == root ? fz_input_copy(recv, recv, n, l) : fz_input_copy(in, in, n, l);
  MPI_Bcast(out, n, t, root, comm);
  unsigned char *win = fz_winners(in, out, n, l, comm);
  free(in);
  free(out);
  return win;
}

void __fz_mpi_reduce_rev(const void *send, void *dsend, void *drecv, int n, fz_type t,
                         fz_op op, int root, fz_comm comm, unsigned char *win) {
  fz_layout l = fz_reduce_layout(t, op);
  int kind = l.kind;
  if (kind && n > 0) {
    int rank;
    MPI_Comm_rank(comm, &rank);
    void *total = malloc((size_t)n * (size_t)kind);
    if (rank == root) {
      for (long i = 0; i < n; i++)
        fz_set(total, kind, i, drecv ? fz_get(drecv, kind, i * l.step) : 0.0);
    }
    MPI_Bcast(total, n, l.base, root, comm);
    fz_reduce_adjoint(send, dsend, drecv, total, n, l, win, rank == root);
    free(total);
  }
  free(win);
}

/* ---- gather and scatter -------------------------------------------------------------- */

static void *fz_buffer(long n, int kind) {
  return calloc((size_t)(n > 0 ? n : 1), (size_t)kind);
}

/* Reverse of MPI_Gather: the root scatters the adjoint of what it gathered back to the
 * senders (dsend += it); the root's gathered adjoint becomes zero, except its own block
 * when it gathered MPI_IN_PLACE (that block is its own data's adjoint). The kind comes
 * from the arguments each rank's MPI call reads (root: rtype, others: stype). */
static void fz_gather_rev(const void *send, void *dsend, int sn, fz_type st, void *drecv, int rn,
                          fz_type rt, int root, fz_comm comm) {
  int rank, size;
  fz_where(comm, &rank, &size);
  int me = rank == root, in_place = send == FZ_IN_PLACE;
  int kind = fz_kind(me ? rt : st);
  if (!kind) return;
  if (me) {
    long all = (long)rn * size;
    void *src = drecv ? drecv : fz_buffer(all, kind);
    void *tmp = in_place ? 0 : fz_buffer(sn, kind);
    MPI_Scatter(src, rn, rt, in_place ? FZ_IN_PLACE : tmp, sn, st, root, comm);
    if (tmp && dsend)
      for (long i = 0; i < sn; i++) fz_add(dsend, kind, i, fz_get(tmp, kind, i));
    if (drecv) {
      for (long i = 0; i < all; i++)
        if (!in_place || i / (rn > 0 ? rn : 1) != rank) fz_set(drecv, kind, i, 0.0);
    } else {
      free(src);
    }
    free(tmp);
  } else {
    void *tmp = fz_buffer(sn, kind);
    MPI_Scatter(0, 0, st, tmp, sn, st, root, comm);
    if (dsend)
      for (long i = 0; i < sn; i++) fz_add(dsend, kind, i, fz_get(tmp, kind, i));
    free(tmp);
  }
}

/* Reverse of MPI_Scatter: the root gathers the adjoints of the blocks it sent
 * (dsend += them); the receivers' adjoints become zero (the root's own block stays in
 * dsend when it scattered with MPI_IN_PLACE). */
static void fz_scatter_rev(void *dsend, int sn, fz_type st, const void *recv, void *drecv,
                           int rn, fz_type rt, int root, fz_comm comm) {
  int rank, size;
  fz_where(comm, &rank, &size);
  int me = rank == root, in_place = recv == FZ_IN_PLACE;
  int kind = fz_kind(me ? st : rt);
  if (!kind) return;
  void *z = (!in_place && !drecv) ? fz_buffer(rn, kind) : 0;
  const void *mine = in_place ? FZ_IN_PLACE : (drecv ? drecv : z);
  if (me) {
    long all = (long)sn * size;
    void *tmp = fz_buffer(all, kind);
    MPI_Gather(mine, rn, rt, tmp, sn, st, root, comm);
    if (dsend)
      for (long i = 0; i < all; i++) fz_add(dsend, kind, i, fz_get(tmp, kind, i));
    free(tmp);
  } else {
    MPI_Gather(mine, rn, rt, 0, 0, rt, root, comm);
  }
  if (drecv && !in_place) fz_zero(drecv, kind, rn);
  free(z);
}

/* Reverse of MPI_Allgather: block r of every rank's gathered adjoint belongs to rank r's
 * contribution; MPI_Reduce_scatter_block sums them and hands rank r its block. With
 * MPI_IN_PLACE the contribution was the rank's own block of the gathered buffer. */
static void fz_allgather_rev(const void *send, void *dsend, int sn, fz_type st, void *drecv,
                             int rn, fz_type rt, fz_comm comm) {
  (void)st;
  int rank, size;
  fz_where(comm, &rank, &size);
  int kind = fz_kind(rt), in_place = send == FZ_IN_PLACE;
  if (!kind) return;
  long all = (long)rn * size;
  void *src = drecv ? drecv : fz_buffer(all, kind);
  void *tmp = fz_buffer(rn, kind);
  MPI_Reduce_scatter_block(src, tmp, rn, rt, (fz_op)ompi_mpi_op_sum, comm);
  if (drecv) {
    fz_zero(drecv, kind, (int)all);
    if (in_place)
      for (long i = 0; i < rn; i++) fz_set(drecv, kind, (long)rank * rn + i, fz_get(tmp, kind, i));
  } else {
    free(src);
  }
  if (!in_place && dsend)
    for (long i = 0; i < sn; i++) fz_add(dsend, kind, i, fz_get(tmp, kind, i));
  free(tmp);
}

void __fz_mpi_gather_rev(const void *send, void *dsend, int sn, fz_type st, void *drecv, int rn,
                         fz_type rt, int root, fz_comm comm) {
  fz_flat2 f = fz_flatten_gather(send, &dsend, &sn, &st, &drecv, &rn, &rt, root, comm);
  fz_gather_rev(send, dsend, sn, st, drecv, rn, rt, root, comm);
  fz_unflatten2(&f);
}

void __fz_mpi_scatter_rev(void *dsend, int sn, fz_type st, const void *recv, void *drecv, int rn,
                          fz_type rt, int root, fz_comm comm) {
  fz_flat2 f = fz_flatten_scatter(&dsend, &sn, &st, recv, &drecv, &rn, &rt, root, comm);
  fz_scatter_rev(dsend, sn, st, recv, drecv, rn, rt, root, comm);
  fz_unflatten2(&f);
}

void __fz_mpi_allgather_rev(const void *send, void *dsend, int sn, fz_type st, void *drecv,
                            int rn, fz_type rt, fz_comm comm) {
  fz_flat2 f = fz_flatten_gather(send, &dsend, &sn, &st, &drecv, &rn, &rt, -1, comm);
  fz_allgather_rev(send, dsend, sn, st, drecv, rn, rt, comm);
  fz_unflatten2(&f);
}

/* ---- forward mode ------------------------------------------------------------------- */

/* The primal send (kept in its mode), then the tangent: a standard send, or for a
 * buffered primal (`buffered`) a buffered one, which returns at once as the primal did
 * (mpi_buffered.c). */
typedef int (*fz_send_fn)(const void *, int, fz_type, int, int, fz_comm);

static int fz_send_tan(fz_send_fn send, int buffered, const void *buf, const void *dbuf, int n,
                       fz_type t, int dest, int tag, fz_comm comm) {
  int err = send(buf, n, t, dest, tag, comm);
  void *db = (void *)dbuf;
  fz_flat f = fz_flatten(&db, &n, &t);
  int kind = fz_kind(t);
  if (kind && n > 0 && dest != FZ_PROC_NULL && buffered) {
    fz_send_buffered(db, n, t, kind, dest, fz_adj_tag(comm, tag), comm);
  } else if (kind && n > 0 && dest != FZ_PROC_NULL) {
    void *z = db ? 0 : calloc((size_t)n, (size_t)kind);
    MPI_Send(db ? db : z, n, t, dest, fz_adj_tag(comm, tag), comm);
    free(z);
  }
  free(f.flat);
  return err;
}

int __fz_mpi_send_tan(const void *buf, const void *dbuf, int n, fz_type t, int dest, int tag,
                      fz_comm comm) {
  return fz_send_tan(MPI_Send, 0, buf, dbuf, n, t, dest, tag, comm);
}

int __fz_mpi_bsend_tan(const void *buf, const void *dbuf, int n, fz_type t, int dest, int tag,
                       fz_comm comm) {
  return fz_send_tan(MPI_Bsend, 1, buf, dbuf, n, t, dest, tag, comm);
}

int __fz_mpi_recv_tan(void *buf, void *dbuf, int n, fz_type t, int src, int tag, fz_comm comm,
                      fz_status *st) {
  fz_status mine;
  fz_status *s = st ? st : &mine;
  int err = MPI_Recv(buf, n, t, src, tag, comm, s);
  fz_flat f = fz_flatten(&dbuf, &n, &t);
  int kind = fz_kind(t);
  if (kind && n > 0 && s->source != FZ_PROC_NULL) {
    void *sink = dbuf ? dbuf : malloc((size_t)n * (size_t)kind);
    MPI_Recv(sink, n, t, s->source, fz_adj_tag(comm, s->tag), comm, 0);
    if (!dbuf) free(sink);
    fz_unflatten(&f);
  }
  free(f.flat);
  return err;
}

/* Nonblocking, forward mode: an Isend's tangent travels at once with its own request;
 * an Irecv's tangent is received when the primal message has arrived (its source and
 * tag are known then), in the wait. */
static int fz_isend_tan(fz_isend_fn isend, const void *buf, void *dbuf, int n, fz_type t,
                        int dest, int tag, fz_comm comm, fz_req *req, fz_rec **sreq) {
  int err = isend(buf, n, t, dest, tag, comm, req);
  fz_rec *r = fz_rec_new(0, dbuf, n, t, dest, tag, comm);
  if (r->kind && r->n > 0) {
    if (r->user.user) r->dbuf = r->tmp = fz_copy_in(&r->user);
    if (isend == MPI_Ibsend) {
      /* The primal's wait returns once its data is copied: so must the tangent's. */
      fz_send_buffered(r->dbuf, r->n, r->type, r->kind, dest, fz_adj_tag(comm, tag), comm);
      *sreq = r;
      return err;
    }
    if (!r->dbuf) r->dbuf = r->tmp = calloc((size_t)r->n, (size_t)r->kind);
    MPI_Isend(r->dbuf, r->n, r->type, dest, fz_adj_tag(comm, tag), comm, &r->adj);
    r->posted = 1;
  }
  *sreq = r;
  return err;
}

/* An Issend's tangent message is a standard one: the primal's completion, which the
 * program waits for, already says the receiver matched the primal message, after which
 * the receiver takes the tangent. */
int __fz_mpi_isend_tan(const void *buf, void *dbuf, int n, fz_type t, int dest, int tag,
                       fz_comm comm, fz_req *req, fz_rec **sreq) {
  return fz_isend_tan(MPI_Isend, buf, dbuf, n, t, dest, tag, comm, req, sreq);
}

int __fz_mpi_issend_tan(const void *buf, void *dbuf, int n, fz_type t, int dest, int tag,
                        fz_comm comm, fz_req *req, fz_rec **sreq) {
  return fz_isend_tan(MPI_Issend, buf, dbuf, n, t, dest, tag, comm, req, sreq);
}

int __fz_mpi_ibsend_tan(const void *buf, void *dbuf, int n, fz_type t, int dest, int tag,
                        fz_comm comm, fz_req *req, fz_rec **sreq) {
  return fz_isend_tan(MPI_Ibsend, buf, dbuf, n, t, dest, tag, comm, req, sreq);
}

int __fz_mpi_irecv_tan(void *buf, void *dbuf, int n, fz_type t, int src, int tag, fz_comm comm,
                       fz_req *req, fz_rec **sreq) {
  int err = MPI_Irecv(buf, n, t, src, tag, comm, req);
  *sreq = fz_rec_new(1, dbuf, n, t, src, tag, comm);
  return err;
}

static void fz_finish_tangent(fz_rec *r, const fz_status *s) {
  if (!r) return;
  if (r->is_recv && r->kind && r->n > 0 && s->source != FZ_PROC_NULL) {
    void *sink = r->dbuf ? r->dbuf : malloc((size_t)r->n * (size_t)r->kind);
    MPI_Recv(sink, r->n, r->type, s->source, fz_adj_tag(r->comm, s->tag), r->comm, 0);
    if (r->user.user) {
      r->user.flat = sink;
      fz_copy_typed(&r->user, 1);
    }
    if (!r->dbuf) free(sink);
  } else if (r->posted) {
    MPI_Wait(&r->adj, 0);
  }
  free(r->tmp);
  free(r);
}

/* The record a wait completes in forward mode: a persistent request's current start
 * (its record stays in the shadow), or an MPI_Isend/MPI_Irecv's (the shadow cleared). */
static fz_rec *fz_take(fz_rec **sreq) {
  fz_rec *r = sreq ? *sreq : 0;
  if (r && r->persistent) return fz_started(r);
  if (sreq) *sreq = 0;
  return r;
}

int __fz_mpi_wait_tan(fz_req *req, fz_status *st, fz_rec **sreq) {
  fz_status mine;
  fz_status *s = st ? st : &mine;
  fz_rec *r = fz_take(sreq);
  int err = MPI_Wait(req, s);
  fz_finish_tangent(r, s);
  return err;
}

/* Forward mode of a start: as MPI_Isend (the tangent travels at once) or MPI_Irecv (the
 * wait receives it). */
static void fz_start_tan(fz_rec *p) {
  fz_rec *r = fz_start(p);
  if (!r->is_recv && r->kind && r->n > 0 && r->peer != FZ_PROC_NULL) {
    if (r->user.user) r->dbuf = r->tmp = fz_copy_in(&r->user);
    if (!r->dbuf) r->dbuf = r->tmp = calloc((size_t)r->n, (size_t)r->kind);
    MPI_Isend(r->dbuf, r->n, r->type, r->peer, fz_adj_tag(r->comm, r->tag), r->comm, &r->adj);
    r->posted = 1;
  }
}

int __fz_mpi_start_tan(fz_req *req, fz_rec **sreq) {
  fz_start_tan(fz_persistent(sreq ? *sreq : 0, "MPI_Start"));
  return MPI_Start(req);
}

int __fz_mpi_startall_tan(int n, fz_req *reqs, fz_rec **sreqs) {
  for (int k = 0; k < n; k++) fz_start_tan(fz_persistent(sreqs ? sreqs[k] : 0, "MPI_Startall"));
  return MPI_Startall(n, reqs);
}

/* Forward mode of MPI_Request_free: a persistent request's record goes with it. */
int __fz_mpi_request_free_tan(fz_req *req, fz_rec **sreq) {
  fz_rec *r = sreq ? *sreq : 0;
  if (r && r->persistent) {
    free(r);
    *sreq = 0;
  } else if (r && *req != FZ_REQUEST_NULL) {
    fz_die("MPI_Request_free of an MPI_Isend/MPI_Irecv request that no wait completed: "
           "its tangent would never arrive; complete it with MPI_Wait/MPI_Waitall");
  }
  return MPI_Request_free(req);
}

int __fz_mpi_waitall_tan(int n, fz_req *reqs, fz_rec **sreqs, fz_status *sts) {
  fz_status *s = sts ? sts : (fz_status *)calloc((size_t)(n > 0 ? n : 1), sizeof(fz_status));
  fz_rec **recs = (fz_rec **)calloc((size_t)(n > 0 ? n : 1), sizeof(fz_rec *));
  for (int k = 0; k < n; k++) recs[k] = sreqs ? fz_take(&sreqs[k]) : 0;
  int err = MPI_Waitall(n, reqs, s);
  for (int k = 0; k < n; k++) fz_finish_tangent(recs[k], &s[k]);
  free(recs);
  if (!sts) free(s);
  return err;
}

int __fz_mpi_bcast_tan(void *buf, void *dbuf, int n, fz_type t, int root, fz_comm comm) {
  int err = MPI_Bcast(buf, n, t, root, comm);
  fz_flat f = fz_flatten(&dbuf, &n, &t);
  int kind = fz_kind(t);
  if (kind && n > 0) {
    void *b = dbuf ? dbuf : calloc((size_t)n, (size_t)kind);
    MPI_Bcast(b, n, t, root, comm);
    if (!dbuf) free(b);
  }
  fz_unflatten(&f);
  return err;
}

/* The tangent a rank contributes to a reduction: all of it for SUM, the won elements
 * for MAX/MIN. */
static void *fz_tangent_input(const void *send, const void *dsend, const void *drecv, int n,
                              fz_layout l, const unsigned char *win) {
  const void *src = send == FZ_IN_PLACE ? drecv : dsend;
  void *c = malloc((size_t)(n > 0 ? n : 1) * (size_t)l.kind);
  for (long i = 0; i < n; i++)
    fz_set(c, l.kind, i,
           (src && (!win || win[i])) ? fz_get(src, l.kind, i * l.step) : 0.0);
  return c;
}

int __fz_mpi_allreduce_tan(const void *send, const void *dsend, void *recv, void *drecv, int n,
                           fz_type t, fz_op op, fz_comm comm) {
  int err;
  unsigned char *win = __fz_mpi_allreduce_fwd(send, recv, n, t, op, comm, &err);
  fz_layout l = fz_reduce_layout(t, op);
  if (l.kind && n > 0) {
    void *c = fz_tangent_input(send, dsend, drecv, n, l, win);
    void *sink = fz_values(drecv, n, l);
    MPI_Allreduce(c, sink, n, l.base, (fz_op)ompi_mpi_op_sum, comm);
    fz_store_values(drecv, sink, n, l);
    free(c);
  }
  free(win);
  return err;
}

int __fz_mpi_reduce_tan(const void *send, const void *dsend, void *recv, void *drecv, int n,
                        fz_type t, fz_op op, int root, fz_comm comm) {
  int err;
  unsigned char *win = __fz_mpi_reduce_fwd(send, recv, n, t, op, root, comm, &err);
  fz_layout l = fz_reduce_layout(t, op);
  if (l.kind && n > 0) {
    int rank;
    MPI_Comm_rank(comm, &rank);
    void *c = fz_tangent_input(send, dsend, drecv, n, l, win);
    void *sink = fz_values(rank == root ? drecv : 0, n, l);
    MPI_Reduce(c, sink, n, l.base, (fz_op)ompi_mpi_op_sum, root, comm);
    fz_store_values(rank == root ? drecv : 0, sink, n, l);
    free(c);
  }
  free(win);
  return err;
}

/* Gather, scatter, allgather in forward mode: the same collective on the tangents
 * (zeros for a buffer without one; MPI_IN_PLACE stays in place). */
int __fz_mpi_gather_tan(const void *send, const void *dsend, int sn, fz_type st, void *recv,
                        void *drecv, int rn, fz_type rt, int root, fz_comm comm) {
  int err = MPI_Gather(send, sn, st, recv, rn, rt, root, comm);
  void *ds = (void *)dsend;
  fz_flat2 f = fz_flatten_gather(send, &ds, &sn, &st, &drecv, &rn, &rt, root, comm);
  dsend = ds;
  int rank, size;
  fz_where(comm, &rank, &size);
  int me = rank == root, in_place = send == FZ_IN_PLACE;
  int kind = fz_kind(me ? rt : st);
  if (!kind) return err;
  void *z = (!in_place && !dsend) ? fz_buffer(sn, kind) : 0;
  void *sink = (me && !drecv) ? fz_buffer((long)rn * size, kind) : 0;
  MPI_Gather(in_place ? FZ_IN_PLACE : (dsend ? dsend : z), sn, st, me ? (drecv ? drecv : sink) : 0,
             rn, rt, root, comm);
  free(z);
  free(sink);
  fz_unflatten2(&f);
  return err;
}

int __fz_mpi_scatter_tan(const void *send, const void *dsend, int sn, fz_type st, void *recv,
                         void *drecv, int rn, fz_type rt, int root, fz_comm comm) {
  int err = MPI_Scatter(send, sn, st, recv, rn, rt, root, comm);
  void *ds = (void *)dsend;
  fz_flat2 f = fz_flatten_scatter(&ds, &sn, &st, recv, &drecv, &rn, &rt, root, comm);
  dsend = ds;
  int rank, size;
  fz_where(comm, &rank, &size);
  int me = rank == root, in_place = recv == FZ_IN_PLACE;
  int kind = fz_kind(me ? st : rt);
  if (!kind) return err;
  void *z = (me && !dsend) ? fz_buffer((long)sn * size, kind) : 0;
  void *sink = (!in_place && !drecv) ? fz_buffer(rn, kind) : 0;
  MPI_Scatter(me ? (dsend ? dsend : z) : 0, sn, st, in_place ? FZ_IN_PLACE : (drecv ? drecv : sink),
              rn, rt, root, comm);
  free(z);
  free(sink);
  fz_unflatten2(&f);
  return err;
}

int __fz_mpi_allgather_tan(const void *send, const void *dsend, int sn, fz_type st, void *recv,
                           void *drecv, int rn, fz_type rt, fz_comm comm) {
  int err = MPI_Allgather(send, sn, st, recv, rn, rt, comm);
  void *ds = (void *)dsend;
  fz_flat2 f = fz_flatten_gather(send, &ds, &sn, &st, &drecv, &rn, &rt, -1, comm);
  dsend = ds;
  int rank, size;
  fz_where(comm, &rank, &size);
  int kind = fz_kind(rt), in_place = send == FZ_IN_PLACE;
  if (!kind) return err;
  void *z = (!in_place && !dsend) ? fz_buffer(sn, kind) : 0;
  void *sink = !drecv ? fz_buffer((long)rn * size, kind) : 0;
  MPI_Allgather(in_place ? FZ_IN_PLACE : (dsend ? dsend : z), sn, st, drecv ? drecv : sink, rn, rt,
                comm);
  free(z);
  free(sink);
  fz_unflatten2(&f);
  return err;
}

#include "mpi_onesided.c"
#include "mpi_handle_frees.c"
#include "mpi_buffered.c"

/* Buffered adjoint and tangent sends (included by mpi.c).
 *
 * A buffered send (MPI_Bsend, MPI_Ibsend) completes on its own rank: its data is copied
 * into the buffer the program attached, and the call returns whether the receiver has
 * posted its receive or not. Programs rely on it: two ranks that each MPI_Bsend a large
 * message to the other, then receive, are correct, where standard sends may wait for
 * ever (tests/mpi/107). The derivative must keep that property in both directions.
 *
 *  - Reverse sweep. The adjoint of the buffered send is a receive of the message's
 *    adjoint, at the send's mirror position (a blocking MPI_Recv; for MPI_Ibsend the
 *    Isend rules: the reverse of the wait posts an MPI_Irecv, the reverse of the Ibsend
 *    completes it). The adjoint of the matching receive is a send of the adjoint, at the
 *    receive's mirror position, which comes *before* the buffered send's mirror on the
 *    other rank whenever the primal's send came before the receive. In the primal the
 *    receive waited for the send, never the send for the receive; mirrored, the
 *    adjoint receive may wait for the adjoint send, but the adjoint send must not wait
 *    for the adjoint receive, or the example above waits for ever in its reverse sweep
 *    (both ranks in their adjoint sends, neither at its adjoint receive). So the adjoint
 *    send of every receive (MPI_Recv, the wait of an MPI_Irecv, the receiving half of an
 *    MPI_Sendrecv that has no sending half) is itself buffered: the adjoint is copied and
 *    sent with MPI_Isend, and the call returns at once. The receiver cannot know the
 *    mode of the send it matched, so this holds for all receives; it is always allowed,
 *    since a standard-mode send may buffer, and a program correct with standard sends
 *    (one that does not rely on them buffering) stays correct when they do.
 *  - Forward mode. The tangent travels with the primal message, in the same direction:
 *    the tangent of a buffered send is sent buffered the same way (a standard send would
 *    block where the primal did not), and the receiver receives it after the primal.
 *
 * The derivative's own messages never use the program's attached buffer (it is sized
 * for the primal's messages; MPI_Buffer_attach/detach are inactive). Their copies and
 * requests are kept here, oldest first: each new one first frees those at the head that
 * completed (MPI_Test), and MPI_Finalize completes the rest (the delete callback of an
 * attribute on MPI_COMM_SELF, which MPI_Finalize deletes first, with MPI still usable).
 * Every such send is matched: its receiver posts the adjoint (or tangent) receive in its
 * own sweep. A spin lock guards the list: the adjoints of receives in an OpenMP region
 * of an MPI_THREAD_MULTIPLE program are sent from several threads at once. */

int MPI_Test(fz_req *, int *, fz_status *);
int MPI_Comm_create_keyval(void *, void *, int *, void *);
int MPI_Comm_set_attr(fz_comm, int, void *);
int OMPI_C_MPI_COMM_NULL_COPY_FN(fz_comm, int, void *, void *, void *, int *);

typedef struct fz_buffered {
  fz_req req;
  void *copy;
  struct fz_buffered *next;
} fz_buffered;

static fz_buffered *fz_buffered_head, *fz_buffered_tail;
static char fz_buffered_lock;

static void fz_buffered_enter(void) {
  while (__atomic_test_and_set(&fz_buffered_lock, __ATOMIC_ACQUIRE)) {
  }
}

static void fz_buffered_leave(void) { __atomic_clear(&fz_buffered_lock, __ATOMIC_RELEASE); }

/* Frees the sends at the head of the list that completed (all of them, waiting, with
 * `wait`). */
static void fz_buffered_reap(int wait) {
  while (fz_buffered_head) {
    fz_buffered *b = fz_buffered_head;
    int done = 0;
    if (wait)
      MPI_Wait(&b->req, 0);
    else
      MPI_Test(&b->req, &done, 0);
    if (!wait && !done) return;
    fz_buffered_head = b->next;
    if (!fz_buffered_head) fz_buffered_tail = 0;
    free(b->copy);
    free(b);
  }
}

static int fz_buffered_at_finalize(fz_comm comm, int key, void *value, void *extra) {
  (void)comm, (void)key, (void)value, (void)extra;
  fz_buffered_enter();
  fz_buffered_reap(1);
  fz_buffered_leave();
  return 0;
}

/* Registers the completion of the remaining sends with MPI_Finalize (once). */
static void fz_buffered_hook(void) {
  static int hooked; /* under the lock */
  if (hooked) return;
  hooked = 1;
  int key = 0;
  MPI_Comm_create_keyval((void *)OMPI_C_MPI_COMM_NULL_COPY_FN, (void *)fz_buffered_at_finalize,
                         &key, 0);
  MPI_Comm_set_attr((fz_comm)ompi_mpi_comm_self, key, 0);
}

/* Sends `n` elements of the real type `t` (`kind` bytes each) from `buf` (null: zeros)
 * to `dest` with `tag` (already the adjoint or tangent tag) and returns at once: the data
 * is copied first, so `buf` may change right after. */
static void fz_send_buffered(const void *buf, int n, fz_type t, int kind, int dest, int tag,
                             fz_comm comm) {
  fz_buffered_enter();
  fz_buffered_hook();
  fz_buffered_reap(0);
  fz_buffered *b = (fz_buffered *)malloc(sizeof(fz_buffered));
  void *copy = calloc((size_t)(n > 0 ? n : 1), (size_t)kind);
  if (!b || !copy) fz_die("out of memory for a buffered adjoint or tangent message");
  if (buf) {
    const char *from = (const char *)buf;
    char *to = (char *)copy;
    for (size_t k = 0; k < (size_t)n * (size_t)kind; k++) to[k] = from[k];
  }
  b->copy = copy;
  b->next = 0;
  MPI_Isend(copy, n, t, dest, tag, comm, &b->req);
  if (fz_buffered_tail)
    fz_buffered_tail->next = b;
  else
    fz_buffered_head = b;
  fz_buffered_tail = b;
  fz_buffered_leave();
}

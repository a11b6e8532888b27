/* Passive-target one-sided communication (MPI_Win_lock/unlock, lock_all/unlock_all,
 * flush): the helpers of the rules RmaWindow, RmaPut, RmaGet, RmaAccumulate
 * (`ferrozyme_rules::mpi`). Included by mpi.c (it uses its datatype helpers).
 *
 * Under a lock only the origin takes part, so the adjoint cannot be a message the
 * target receives: it is one-sided too. A composed window (runtime/mpi_composed.c) keeps
 * an Open MPI window over its memory (`rwin`); the derivative creates a second one over
 * the memory's shadow beside it (`swin`, a window of no bytes on a rank whose memory has
 * no shadow), and a table maps each primal window to its shadow window while the primal
 * one exists (the forward sweep records the shadow window, counts, target and
 * displacement of each operation on the tape: the primal window may be freed and its
 * address reused before the reverse sweep).
 *
 *  - reverse of MPI_Put(o -> t): fetch the target region's adjoint and zero it in one
 *    atomic MPI_Get_accumulate(zeros, MPI_REPLACE), add it to o's adjoint;
 *  - reverse of MPI_Get(o <- t): MPI_Accumulate(do, MPI_SUM) into the target's shadow,
 *    do = 0;
 *  - reverse of MPI_Accumulate(o, MPI_SUM): MPI_Get of the target's adjoint, added to do
 *    (the target's adjoint stays: the sum kept its old value);
 *  - forward mode: the same operation on the tangents, into the shadow window.
 *
 * Each adjoint or tangent operation opens and closes its own shared-lock epoch on the
 * target's shadow window, so it is complete when the helper returns. The reverse sweep
 * runs them in the reverse order of the primal operations of this origin; the program's
 * own synchronisation (a barrier, a message after the unlock) is mirrored by its rules,
 * so a target's local uses of its window memory after the epoch have added their
 * adjoints before the origin's reverse fetches them. Adjoint updates from different
 * origins to one target are sums (MPI_Accumulate) or atomic fetch-and-zero of regions a
 * correct primal program only wrote from one origin per epoch, so they commute. The
 * shadow window is freed (collectively) by the reverse of the window's creation, at the
 * end of the reverse sweep; in forward mode it lives until MPI_Finalize. */

int MPI_Win_create(void *, long, int, void *, fz_comm, void **);
int MPI_Win_free(void **);
int MPI_Win_lock(int, int, int, void *);
int MPI_Win_unlock(int, void *);
int MPI_Put(const void *, int, fz_type, int, long, int, fz_type, void *);
int MPI_Get(void *, int, fz_type, int, long, int, fz_type, void *);
int MPI_Accumulate(const void *, int, fz_type, int, long, int, fz_type, fz_op, void *);
int MPI_Get_accumulate(const void *, int, fz_type, void *, int, fz_type, int, long, int, fz_type,
                       fz_op, void *);
extern char ompi_mpi_info_null[], ompi_mpi_op_replace[];
#define FZ_LOCK_SHARED 2 /* Open MPI's MPI_LOCK_SHARED */

/* ---- primal window -> shadow window --------------------------------------------------- */

typedef struct {
  void *rwin, *swin;
} fz_rma_pair;
static fz_rma_pair *fz_rma_pairs;
static int fz_rma_n, fz_rma_cap;

static void fz_rma_register(void *rwin, void *swin) {
  if (fz_rma_n == fz_rma_cap) {
    int cap = fz_rma_cap ? 2 * fz_rma_cap : 16;
    fz_rma_pair *p = (fz_rma_pair *)calloc((size_t)cap, sizeof(fz_rma_pair));
    if (!p) fz_die("out of memory for the table of shadow MPI windows");
    for (int k = 0; k < fz_rma_n; k++) p[k] = fz_rma_pairs[k];
    free(fz_rma_pairs);
    fz_rma_pairs = p;
    fz_rma_cap = cap;
  }
  fz_rma_pairs[fz_rma_n].rwin = rwin;
  fz_rma_pairs[fz_rma_n].swin = swin;
  fz_rma_n++;
}

/* The shadow window of a live primal window: the latest entry (an address of a freed
 * window may come back for a new one). */
static void *fz_rma_shadow(void *rwin) {
  for (int k = fz_rma_n - 1; k >= 0; k--)
    if (fz_rma_pairs[k].rwin == rwin) return fz_rma_pairs[k].swin;
  fz_die("a one-sided operation in a passive-target epoch on a window without a shadow "
         "window (create the window with MPI_Win_create or MPI_Win_allocate inside the "
         "differentiated function)");
}

static void fz_rma_forget(void *swin) {
  for (int k = fz_rma_n - 1; k >= 0; k--)
    if (fz_rma_pairs[k].swin == swin) {
      for (int j = k + 1; j < fz_rma_n; j++) fz_rma_pairs[j - 1] = fz_rma_pairs[j];
      fz_rma_n--;
      return;
    }
}

/* Creates the primal window over base and the shadow window over dbase (collective). */
static void *fz_rma_windows(void *base, void *dbase, long size, int disp_unit, fz_comm comm,
                            void **rwin, int *err) {
  static double nothing;
  *err = MPI_Win_create(base, size, disp_unit, ompi_mpi_info_null, comm, rwin);
  void *swin = 0;
  MPI_Win_create(dbase ? dbase : &nothing, dbase ? size : 0, disp_unit, ompi_mpi_info_null,
                 comm, &swin);
  fz_rma_register(*rwin, swin);
  return swin;
}

void *__fz_mpi_rma_win_fwd(void *base, void *dbase, long size, int disp_unit, fz_comm comm,
                           void **rwin, int *err) {
  return fz_rma_windows(base, dbase, size, disp_unit, comm, rwin, err);
}

int __fz_mpi_rma_win_tan(void *base, void *dbase, long size, int disp_unit, fz_comm comm,
                         void **rwin) {
  int err = 0;
  fz_rma_windows(base, dbase, size, disp_unit, comm, rwin, &err);
  return err;
}

/* Reverse of the window's creation: the last use of its shadow window. */
void __fz_mpi_rma_win_rev(void *swin) {
  fz_rma_forget(swin);
  MPI_Win_free(&swin);
}

/* ---- forward sweep: the primal operation, and its record for the tape ----------------- */

/* What the reverse of one operation needs, recorded when it runs: a Fortran program's
 * counts, ranks and displacements are read through pointers to variables it may
 * reuse for the next call (`disp = 0` between two MPI_PUTs). */
typedef struct {
  void *swin;
  int on, target, tn;
  long disp;
  fz_type ot, tt;
} fz_rma_rec;

static fz_rma_rec *fz_rma_record(int on, fz_type ot, int target, long disp, int tn, fz_type tt,
                                 void *rwin) {
  fz_rma_rec *r = (fz_rma_rec *)malloc(sizeof(fz_rma_rec));
  if (!r) fz_die("out of memory for the record of a one-sided operation");
  r->swin = fz_rma_shadow(rwin);
  r->on = on, r->ot = ot, r->target = target, r->disp = disp, r->tn = tn, r->tt = tt;
  return r;
}

fz_rma_rec *__fz_mpi_rma_put_fwd(const void *o, int on, fz_type ot, int target, long disp,
                                 int tn, fz_type tt, void *rwin, void *base, int *err) {
  (void)base;
  *err = MPI_Put(o, on, ot, target, disp, tn, tt, rwin);
  return fz_rma_record(on, ot, target, disp, tn, tt, rwin);
}

fz_rma_rec *__fz_mpi_rma_get_fwd(void *o, int on, fz_type ot, int target, long disp, int tn,
                                 fz_type tt, void *rwin, void *base, int *err) {
  (void)base;
  *err = MPI_Get(o, on, ot, target, disp, tn, tt, rwin);
  return fz_rma_record(on, ot, target, disp, tn, tt, rwin);
}

fz_rma_rec *__fz_mpi_rma_acc_fwd(const void *o, int on, fz_type ot, int target, long disp,
                                 int tn, fz_type tt, void *rwin, void *base, int *err) {
  (void)base;
  *err = MPI_Accumulate(o, on, ot, target, disp, tn, tt, (fz_op)ompi_mpi_op_sum, rwin);
  return fz_rma_record(on, ot, target, disp, tn, tt, rwin);
}

/* ---- reverse sweep ------------------------------------------------------------------- */

/* The target's adjoint of (disp, tn, tt) fetched (and zeroed when `zero`) into a new
 * buffer of tn elements; null when nothing carries a derivative. */
static void *fz_rma_fetch(int target, long disp, int tn, fz_type tt, void *swin, int zero) {
  int kind = fz_kind(tt);
  if (!kind || tn <= 0 || target == FZ_PROC_NULL) return 0;
  void *got = calloc((size_t)tn, (size_t)kind);
  void *z = zero ? calloc((size_t)tn, (size_t)kind) : 0;
  if (!got || (zero && !z)) fz_die("out of memory for a one-sided adjoint");
  MPI_Win_lock(FZ_LOCK_SHARED, target, 0, swin);
  if (zero)
    MPI_Get_accumulate(z, tn, tt, got, tn, tt, target, disp, tn, tt, (fz_op)ompi_mpi_op_replace,
                       swin);
  else
    MPI_Get(got, tn, tt, target, disp, tn, tt, swin);
  MPI_Win_unlock(target, swin);
  free(z);
  return got;
}

/* do += the fetched adjoint (through the origin datatype's layout). */
static void fz_rma_add_into(void *dbuf, int on, fz_type ot, const void *got, int tn, fz_type tt) {
  if (!dbuf || !got) return;
  fz_flat f = fz_flatten(&dbuf, &on, &ot);
  int kind = fz_kind(ot), tk = fz_kind(tt);
  long n = on < tn ? on : tn;
  if (kind && tk)
    for (long i = 0; i < n; i++) fz_add(dbuf, kind, i, fz_get(got, tk, i));
  fz_unflatten(&f);
}

void __fz_mpi_rma_put_rev(void *dbuf, fz_rma_rec *r) {
  void *got = fz_rma_fetch(r->target, r->disp, r->tn, r->tt, r->swin, 1);
  fz_rma_add_into(dbuf, r->on, r->ot, got, r->tn, r->tt);
  free(got);
  free(r);
}

void __fz_mpi_rma_acc_rev(void *dbuf, fz_rma_rec *r) {
  if (dbuf) { /* else the target's adjoint stays where it is, and so does nothing else */
    void *got = fz_rma_fetch(r->target, r->disp, r->tn, r->tt, r->swin, 0);
    fz_rma_add_into(dbuf, r->on, r->ot, got, r->tn, r->tt);
    free(got);
  }
  free(r);
}

void __fz_mpi_rma_get_rev(void *dbuf, fz_rma_rec *r) {
  int on = r->on;
  fz_type ot = r->ot;
  if (dbuf && r->tn > 0 && r->target != FZ_PROC_NULL && fz_kind(r->tt)) {
    MPI_Win_lock(FZ_LOCK_SHARED, r->target, 0, r->swin);
    MPI_Accumulate(dbuf, on, ot, r->target, r->disp, r->tn, r->tt, (fz_op)ompi_mpi_op_sum,
                   r->swin);
    MPI_Win_unlock(r->target, r->swin);
    fz_flat f = fz_flatten(&dbuf, &on, &ot);
    int kind = fz_kind(ot);
    if (kind) fz_zero(dbuf, kind, on);
    fz_unflatten(&f);
  }
  free(r);
}

/* ---- forward mode ---------------------------------------------------------------------- */

/* One operation on the tangents, in its own epoch on the target's shadow window. */
static void fz_rma_tangent(int what, void *d, int on, fz_type ot, int target, long disp, int tn,
                           fz_type tt, void *rwin) {
  if (tn <= 0 || target == FZ_PROC_NULL || !fz_kind(tt)) return;
  void *swin = fz_rma_shadow(rwin);
  void *z = 0;
  if (!d && what != 1) {
    /* a constant origin: a Put moves zeros, an Accumulate adds nothing */
    if (what == 2) return;
    z = calloc((size_t)tn, (size_t)fz_kind(tt));
    d = z, on = tn, ot = tt;
  }
  if (!d) return; /* a Get into a buffer without tangent */
  MPI_Win_lock(FZ_LOCK_SHARED, target, 0, swin);
  if (what == 0)
    MPI_Put(d, on, ot, target, disp, tn, tt, swin);
  else if (what == 1)
    MPI_Get(d, on, ot, target, disp, tn, tt, swin);
  else
    MPI_Accumulate(d, on, ot, target, disp, tn, tt, (fz_op)ompi_mpi_op_sum, swin);
  MPI_Win_unlock(target, swin);
  free(z);
}

int __fz_mpi_rma_put_tan(const void *o, void *d, int on, fz_type ot, int target, long disp,
                         int tn, fz_type tt, void *rwin, void *base) {
  (void)base;
  int err = MPI_Put(o, on, ot, target, disp, tn, tt, rwin);
  fz_rma_tangent(0, d, on, ot, target, disp, tn, tt, rwin);
  return err;
}

int __fz_mpi_rma_get_tan(void *o, void *d, int on, fz_type ot, int target, long disp, int tn,
                         fz_type tt, void *rwin, void *base) {
  (void)base;
  int err = MPI_Get(o, on, ot, target, disp, tn, tt, rwin);
  fz_rma_tangent(1, d, on, ot, target, disp, tn, tt, rwin);
  return err;
}

int __fz_mpi_rma_acc_tan(const void *o, void *d, int on, fz_type ot, int target, long disp,
                         int tn, fz_type tt, void *rwin, void *base) {
  (void)base;
  int err = MPI_Accumulate(o, on, ot, target, disp, tn, tt, (fz_op)ompi_mpi_op_sum, rwin);
  fz_rma_tangent(2, d, on, ot, target, disp, tn, tt, rwin);
  return err;
}

/* MPI handle frees deferred to the end of the outermost reverse sweep (included by mpi.c).
 *
 * A function differentiated in split mode (a C++ destructor at -O0: `MPI_Type_free(&
 * this->pair)`, `MPI_Comm_free(&this->comm)`) may free a handle it was handed while its
 * callers' adjoint communication, later in the reverse sweep, still uses it. Its
 * augmented function calls `__fz_mpi_defer_free` in place of the free: the handle's value
 * (a C handle, a pointer in Open MPI, or a Fortran binding's integer) is kept with the
 * routine, and the program's variable keeps the handle. A combined derivative whose
 * callees reach such a free brackets its sweeps with `__fz_mpi_defer_enter` (forward
 * entry) and `__fz_mpi_defer_leave` (reverse exit); the outermost leave frees every kept
 * handle, in the order the primal freed them. A handle kept with no bracket open (the
 * split pair called directly through __enzyme_augmentfwd/__enzyme_reverse) is freed at the
 * next outermost leave, or by MPI_Finalize. The calls come from the thread that runs the
 * derivative; a derivative of an OpenMP region's microtask reaching such a free shares
 * the list unlocked (MPI handle frees are not called from several threads at once). */

typedef struct {
  void *routine;    /* MPI_Comm_free, MPI_Type_free, or their Fortran bindings */
  long handle;      /* the handle's bytes */
  int fortran;      /* (handle *, ierr *) rather than (handle *) */
} fz_kept_handle;

static fz_kept_handle *fz_kept_handles;
static int fz_kept_count, fz_kept_cap, fz_defer_depth;

void __fz_mpi_defer_enter(void) { fz_defer_depth++; }

/* `size` bytes of handle at `slot` (4 for a Fortran integer, 8 for a C pointer). */
void __fz_mpi_defer_free(void *routine, const void *slot, int size, int fortran) {
  if (fz_kept_count == fz_kept_cap) {
    int cap = fz_kept_cap ? 2 * fz_kept_cap : 8;
    fz_kept_handle *grown = malloc(sizeof(fz_kept_handle) * (size_t)cap);
    if (!grown) fz_die("out of memory keeping an MPI handle for the reverse sweep");
    for (int k = 0; k < fz_kept_count; k++) grown[k] = fz_kept_handles[k];
    free(fz_kept_handles);
    fz_kept_handles = grown;
    fz_kept_cap = cap;
  }
  fz_kept_handle *h = &fz_kept_handles[fz_kept_count++];
  h->routine = routine;
  h->handle = 0;
  h->fortran = fortran;
  const unsigned char *from = slot;
  unsigned char *to = (unsigned char *)&h->handle;
  for (int k = 0; k < size && k < (int)sizeof(long); k++) to[k] = from[k];
}

void __fz_mpi_defer_leave(void) {
  if (--fz_defer_depth > 0) return;
  fz_defer_depth = 0;
  for (int k = 0; k < fz_kept_count; k++) {
    fz_kept_handle *h = &fz_kept_handles[k];
    if (h->fortran) {
      int ierr = 0;
      ((void (*)(void *, int *))h->routine)(&h->handle, &ierr);
    } else {
      ((int (*)(void *))h->routine)(&h->handle);
    }
  }
  fz_kept_count = 0;
}

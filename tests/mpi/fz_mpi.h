/* fz_mpi.h -- helpers for the MPI end-to-end programs (after fz_test.h and mpi.h).
 *
 * Every program differentiates a distributed computation, gathers the gradient on
 * rank 0 and compares it with the gradient of the serial program computing the same
 * thing on the whole data (differentiated by Ferrozyme too, and itself checked against
 * central finite differences), to 1e-12 relative. The verdict is global: rank 0 prints
 * PASS only when no rank saw a mismatch, and every rank exits with the same status. */
#ifndef FZ_MPI_H
#define FZ_MPI_H

static int fz_rank, fz_size;

static inline void fz_mpi_init(int *argc, char ***argv) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &fz_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &fz_size);
}

/* The global verdict (call on every rank, then return its result from main). Every rank
 * flushes its check lines first, and rank 0 flushes the verdict at once, so that the
 * verdict goes out in one write of its own: mpirun forwards each rank's output in the
 * chunks it was written in, and a verdict split across a full stdio buffer could get
 * another rank's lines inside it ("P" ... "ASS": mpi/81 once, session 25). */
static inline int fz_mpi_finish(void) {
  fflush(stdout);
  int local[2] = {fz_failures, fz_checks}, total[2];
  MPI_Allreduce(local, total, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int code = 0;
  if (fz_rank == 0) {
    if (total[1] == 0) {
      printf("FAIL (no checks ran)\n");
      code = 1;
    } else if (total[0] == 0) {
      printf("PASS (%d checks on %d ranks)\n", total[1], fz_size);
    } else {
      printf("FAIL (%d mismatches of %d checks on %d ranks)\n", total[0], total[1], fz_size);
      code = 1;
    }
    fflush(stdout);
  }
  MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return code;
}

/* Gathers `n` doubles of every rank into `all` on rank 0 (rank order). */
static inline void fz_gather(const double *mine, int n, double *all) {
  MPI_Gather(mine, n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

/* Checks a gradient `got` against the serial program's `want` (n entries, 1e-12
 * relative), and every `stride`-th entry of `want` against central finite differences
 * of `eval(ctx)` in x[k]. */
static inline void fz_check_vs_serial(const char *what, const double *got, const double *want,
                                      int n, double (*eval)(void *), void *ctx, double *x,
                                      int stride) {
  fz_check_arr(what, got, want, n, 1e-12);
  for (int k = 0; k < n; k += stride) {
    char name[32];
    snprintf(name, sizeof name, "serial vs fd [%d]", k);
    fz_check(name, want[k], fz_fd_ptr(eval, ctx, &x[k]), 1e-6);
  }
}

#endif

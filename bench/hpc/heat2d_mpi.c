/* heat2d_mpi.c -- the 2-D heat equation of heat2d_omp.c, distributed with MPI.
 *
 * The N x N grid is split in blocks of rows, one per rank, each with a halo row above
 * and below exchanged every step with MPI_Irecv/MPI_Isend/MPI_Waitall; the loss is the
 * weighted sum of squares summed with MPI_Allreduce into `*loss`, which only rank 0
 * seeds. Ferrozyme differentiates it with respect to each rank's block of the initial
 * field and the diffusion coefficient: the reverse of every halo exchange is the halo
 * exchange of adjoints in the other direction.
 *
 * Checks (rank 0): the gathered gradient against the serial program's (the same loss
 * on the whole grid, differentiated too) to 1e-9, and the serial gradient against
 * central finite differences. Timing is collective: every rank runs the same number of
 * calls; the time per call is the slowest rank's, the minimum over three trials. */
#include <mpi.h>
#include "hpc_bench.h"

static int N, T, rank_, size_;

void loss(const double *u0, const double *k, double *out) {
  int rows = N / size_;
  size_t w = (size_t)N;
  double *a = (double *)malloc(sizeof(double) * (rows + 2) * w);
  double *b = (double *)malloc(sizeof(double) * (rows + 2) * w);
  memcpy(a + w, u0, sizeof(double) * rows * w);
  memcpy(b + w, u0, sizeof(double) * rows * w);
  int up = rank_ - 1, down = rank_ + 1;
  for (int t = 0; t < T; t++) {
    MPI_Request req[4];
    int nreq = 0;
    if (up >= 0) {
      MPI_Irecv(a, N, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &req[nreq++]);
      MPI_Isend(a + w, N, MPI_DOUBLE, up, 2, MPI_COMM_WORLD, &req[nreq++]);
    }
    if (down < size_) {
      MPI_Irecv(a + (rows + 1) * w, N, MPI_DOUBLE, down, 2, MPI_COMM_WORLD, &req[nreq++]);
      MPI_Isend(a + rows * w, N, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &req[nreq++]);
    }
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    for (int r = 1; r <= rows; r++) {
      int i = rank_ * rows + r - 1; /* global row */
      if (i == 0 || i == N - 1) continue;
      for (int j = 1; j < N - 1; j++) {
        size_t c = r * w + j;
        b[c] = a[c] + k[0] * (a[c - w] + a[c + w] + a[c - 1] + a[c + 1] - 4 * a[c]);
      }
    }
    double *s = a;
    a = b;
    b = s;
  }
  double l = 0;
  for (int r = 1; r <= rows; r++)
    for (int j = 0; j < N; j++) {
      size_t g = (size_t)(rank_ * rows + r - 1) * w + j;
      l += a[r * w + j] * a[r * w + j] * (1.0 + 1e-4 * (double)(g % 97));
    }
  free(a);
  free(b);
  MPI_Allreduce(&l, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* The same loss on the whole grid, one process. */
double serial_loss(const double *u0, double k, int n, int steps) {
  double *a = (double *)malloc(sizeof(double) * n * n);
  double *b = (double *)malloc(sizeof(double) * n * n);
  memcpy(a, u0, sizeof(double) * n * n);
  memcpy(b, u0, sizeof(double) * n * n);
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++) {
        int c = i * n + j;
        b[c] = a[c] + k * (a[c - n] + a[c + n] + a[c - 1] + a[c + 1] - 4 * a[c]);
      }
    double *s = a;
    a = b;
    b = s;
  }
  double l = 0;
  for (int c = 0; c < n * n; c++) l += a[c] * a[c] * (1.0 + 1e-4 * (c % 97));
  free(a);
  free(b);
  return l;
}

static double *U0, *G, K[1] = {0.12}, DK[1], L, DL;

static void run_primal(void) { loss(U0, K, &L); }
static void run_grad(void) {
  memset(G, 0, sizeof(double) * (N / size_) * N);
  DK[0] = 0;
  DL = rank_ == 0 ? 1 : 0;
  __enzyme_autodiff((void *)loss, enzyme_dup, U0, G, enzyme_dup, K, DK, enzyme_dup, &L, &DL);
}

/* Collective timing: every rank makes the same calls. */
static double mpi_time(void (*fn)(void), double min_time) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = hb_now();
  fn();
  double one = hb_now() - t0, slowest;
  MPI_Allreduce(&one, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  long reps = (long)(min_time / (slowest > 1e-9 ? slowest : 1e-9));
  if (reps < 1) reps = 1;
  MPI_Bcast(&reps, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  double best = 1e300;
  for (int trial = 0; trial < 3; trial++) {
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = hb_now();
    for (long r = 0; r < reps; r++) fn();
    double dt = (hb_now() - t0) / reps;
    MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (slowest < best) best = slowest;
  }
  return best;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  N = hb_size(argc, argv, 256);
  T = 20;
  if (N % size_) {
    if (rank_ == 0) printf("STATUS fail (N=%d not divisible by %d ranks)\n", N, size_);
    MPI_Finalize();
    return 1;
  }
  double min_time = hb_min_time(argc, argv);
  int rows = N / size_;
  size_t n2 = (size_t)N * N;
  double *all = (double *)malloc(sizeof(double) * n2);
  for (size_t c = 0; c < n2; c++) all[c] = sin(0.37 * c) * cos(0.011 * c);
  U0 = all + (size_t)rank_ * rows * N;
  G = (double *)malloc(sizeof(double) * rows * N);
  run_grad();
  double *gall = (double *)malloc(sizeof(double) * n2), dk_all;
  MPI_Gather(G, rows * N, MPI_DOUBLE, gall, rows * N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  /* kappa is on every rank: its derivative is the sum of the ranks' parts. */
  MPI_Reduce(DK, &dk_all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank_ == 0) {
    double *sg = (double *)calloc(n2, sizeof(double));
    double sdk = __enzyme_autodiff_d((void *)serial_loss, enzyme_dup, all, sg, enzyme_out, K[0],
                                     enzyme_const, N, enzyme_const, T);
    double worst = 0;
    for (size_t c = 0; c < n2; c++) {
      double e = fabs(gall[c] - sg[c]) / (fabs(sg[c]) > 1 ? fabs(sg[c]) : 1);
      if (e > worst) worst = e;
    }
    hb_check("gathered gradient vs serial (max rel err)", worst, 0, 1e-9, 1);
    hb_check("dk (summed over ranks) vs serial", dk_all, sdk, 1e-9, 1);
    size_t probe = n2 / 2 + N / 3;
    double x = all[probe], h = 1e-6 * (fabs(x) > 1 ? fabs(x) : 1);
    all[probe] = x + h;
    double lp = serial_loss(all, K[0], N, T);
    all[probe] = x - h;
    double lm = serial_loss(all, K[0], N, T);
    all[probe] = x;
    hb_check("serial gradient vs finite differences", sg[probe], (lp - lm) / (2 * h), 1e-6, 1);
    free(sg);
  }
  double tp = mpi_time(run_primal, min_time);
  double tg = mpi_time(run_grad, min_time);
  int fails;
  MPI_Allreduce(&hb_failures, &fails, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank_ == 0) {
    printf("TIME primal %.9g\n", tp);
    printf("TIME grad %.9g\n", tg);
    printf("STATUS %s\n", fails ? "fail" : "ok");
  }
  MPI_Finalize();
  return fails != 0;
}

// MPI: 2 3 4
// OPT: O0 O2
// A 2-D transform as distributed FFT codes write it: the N x N field is split by rows,
// every rank applies a dense 1-D transform (a real DFT-like matrix W, passed constant)
// along its rows, the blocks are transposed with MPI_Alltoall (packed R x R blocks, one
// per destination), the same transform runs along the former columns, and a weighted
// energy is summed with MPI_Allreduce. An irregular exchange of the result's first
// elements with MPI_Alltoallv (counts that differ by pair of ranks) and a one-element
// MPI_Alltoall on MPI_IN_PLACE add two more terms. MPI_Alltoall/Alltoallv were a
// missing-derivative error (hpc17); they are now written as rounds of MPI_Sendrecv
// (runtime/mpi_composed.c) whose adjoint is the transposed exchange. The gradient
// gathered on rank 0 is compared with the serial program's (itself checked against
// central finite differences), forward mode with the dot-product identity.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern void __enzyme_fwddiff(void *, ...);

#define N 12

/* The Alltoallv counts: rank p sends c(p, q) elements to rank q. */
static int cnt(int p, int q) { return 1 + (p + 2 * q) % 3; }

/* Rows of `in` (rows x N) transformed by W: out[r][j] = sum_k W[j][k] in[r][k]. */
static void transform_rows(const double *w, const double *in, double *out, int rows) {
  for (int r = 0; r < rows; r++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int k = 0; k < N; k++) s += w[j * N + k] * in[r * N + k];
      out[r * N + j] = s;
    }
}

/* x: this rank's R = N/P rows; w: the transform; out: the loss (every rank). */
void fft2(const double *x, const double *w, double *out) {
  int P = fz_size, me = fz_rank, R = N / P;
  double y[N * N], z[N * N], sb[N * N], rb[N * N], zt[N * N], u[N * N];
  for (int i = 0; i < R * N; i++) y[i] = sin(x[i]) + 0.5 * x[i] * x[i];
  transform_rows(w, y, z, R);
  /* pack: the block for rank q is columns q*R.. of every local row */
  for (int q = 0; q < P; q++)
    for (int r = 0; r < R; r++)
      for (int c = 0; c < R; c++) sb[q * R * R + r * R + c] = z[r * N + q * R + c];
  MPI_Alltoall(sb, R * R, MPI_DOUBLE, rb, R * R, MPI_DOUBLE, MPI_COMM_WORLD);
  /* unpack transposed: local row c is global column me*R + c */
  for (int p = 0; p < P; p++)
    for (int r = 0; r < R; r++)
      for (int c = 0; c < R; c++) zt[c * N + p * R + r] = rb[p * R * R + r * R + c];
  transform_rows(w, zt, u, R);
  double e = 0;
  for (int i = 0; i < R * N; i++) {
    double g = (double)(me * R * N + i);
    e += u[i] * u[i] * (1 + 0.01 * g) / (N * N);
  }
  /* irregular exchange of the first elements of u */
  int sc[4], sd[4], rc[4], rd[4];
  for (int q = 0, s = 0, t = 0; q < P; q++) {
    sc[q] = cnt(me, q), sd[q] = s, s += sc[q];
    rc[q] = cnt(q, me), rd[q] = t, t += rc[q];
  }
  double v[16];
  MPI_Alltoallv(u, sc, sd, MPI_DOUBLE, v, rc, rd, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int k = 0; k < rd[P - 1] + rc[P - 1]; k++) e += tanh(v[k]) * (k + 1 + me);
  /* one element per pair, in place */
  double b[4];
  for (int q = 0; q < P; q++) b[q] = u[q];
  MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, 1, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int p = 0; p < P; p++) e += b[p] * b[p] * (p + 1) * 0.1;
  MPI_Allreduce(&e, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* The same on the whole field, for P ranks. */
double serial(const double *x, const double *w, int P) {
  int R = N / P;
  static double y[N * N], z[N * N], zt[N * N], u[N * N];
  for (int i = 0; i < N * N; i++) y[i] = sin(x[i]) + 0.5 * x[i] * x[i];
  transform_rows(w, y, z, N);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) zt[i * N + j] = z[j * N + i];
  transform_rows(w, zt, u, N);
  double e = 0;
  for (int i = 0; i < N * N; i++) e += u[i] * u[i] * (1 + 0.01 * i) / (N * N);
  for (int me = 0; me < P; me++) {
    int k = 0;
    for (int p = 0; p < P; p++) {
      int off = 0;
      for (int q = 0; q < me; q++) off += cnt(p, q);
      for (int j = 0; j < cnt(p, me); j++, k++) e += tanh(u[p * R * N + off + j]) * (k + 1 + me);
    }
    for (int p = 0; p < P; p++) e += u[p * R * N + me] * u[p * R * N + me] * (p + 1) * 0.1;
  }
  return e;
}

static double xg[N * N], W[N * N];
static int P;
static double eval(void *ctx) {
  (void)ctx;
  return serial(xg, W, P);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  P = fz_size;
  int R = N / P;
  for (int j = 0; j < N; j++)
    for (int k = 0; k < N; k++)
      W[j * N + k] = (cos(2 * M_PI * j * k / N) + 0.3 * sin(2 * M_PI * j * k / N)) / N;
  fz_seed(29);
  fz_fill(xg, N * N, -1, 1);
  const double *x = xg + fz_rank * R * N;
  double dx[N * N], out = 0, dout = fz_rank == 0 ? 1 : 0;
  fz_zero(dx, N * N);
  __enzyme_autodiff((void *)fft2, enzyme_dup, x, dx, enzyme_const, W, enzyme_dup, &out, &dout);
  double all[N * N];
  fz_gather(dx, R * N, all);
  if (fz_rank == 0) {
    fz_check("distributed = serial", out, serial(xg, W, P), 1e-12);
    double ds[N * N];
    fz_zero(ds, N * N);
    __enzyme_autodiff((void *)serial, enzyme_dup, xg, ds, enzyme_const, W, enzyme_const, P);
    fz_check_arr("gathered gradient vs serial", all, ds, N * N, 1e-12);
    for (int k = 0; k < N * N; k += 7) {
      char name[32];
      snprintf(name, sizeof name, "serial vs fd [%d]", k);
      fz_check(name, ds[k], fz_fd_ptr(eval, 0, &xg[k]), 1e-6);
    }
  }
  double v[N * N], o2 = 0, to = 0, dot = 0, dots;
  fz_fill(v, N * N, -1, 1);
  __enzyme_fwddiff((void *)fft2, enzyme_dup, x, v, enzyme_const, W, enzyme_dup, &o2, &to);
  for (int i = 0; i < R * N; i++) dot += dx[i] * v[i];
  MPI_Allreduce(&dot, &dots, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward <J v> = <grad, v>", to, dots, 1e-10);
  return fz_mpi_finish();
}

// MPI: 2
// OPT: O2
// Handles made in the differentiated function and freed by helpers it calls that are
// not inlined (noinline, so at -O2 too; a C++ destructor at -O0 does the same:
// tests/mpi/103): `release` calls `release_type` (MPI_Type_free(&c->pair)) and
// `release_comm` (MPI_Comm_free(&c->comm)). The helpers are differentiated in split
// mode, and their reverse functions run before the caller's adjoint communication on
// those handles (an adjoint MPI_Sendrecv of the pair type, an adjoint MPI_Allreduce on
// the communicator). Until hpc46 a compile-time refusal (errors/hpc45_mpi_handle_free_
// in_callee); now the augmented helpers keep the handles and the outermost reverse exit
// frees them. Checked: the gathered gradient against the serial program (analytic sums,
// also checked against central differences), twice in a row (the first call's handles
// must not be freed twice nor leak into the second); that each call freed the
// communicator and the datatype exactly once, by the attributes' delete callbacks
// (MPI_Comm_dup and MPI_Type_dup copy the watching attribute from the world and the base
// type); forward mode against reverse by the dot-product identity. `loss_deep` does the
// same with the frees 11 calls down (`loss_deep` -> hop1 -> ... -> hop9 -> release ->
// release_comm): until quality47 the search for them followed 8 calls and missed them:
// the augmented helpers kept the handles but nothing freed them (both counts stayed at 2
// after each reverse call of `loss_deep`; the gradient was right).
#include <math.h>
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NL 4

struct ctx {
  MPI_Comm comm;
  MPI_Datatype pair;
};

static MPI_Datatype base_pair;
static int comms_freed, types_freed;

__attribute__((noinline)) static void release_type(struct ctx *c) { MPI_Type_free(&c->pair); }
__attribute__((noinline)) static void release_comm(struct ctx *c) { MPI_Comm_free(&c->comm); }
__attribute__((noinline)) static void release(struct ctx *c) {
  release_type(c);
  release_comm(c);
}

// Nine helpers that only pass the handles on, each kept (noinline).
#define HOP(n, next) \
  __attribute__((noinline)) static void hop##n(struct ctx *c) { next(c); }
HOP(9, release)
HOP(8, hop9)
HOP(7, hop8)
HOP(6, hop7)
HOP(5, hop6)
HOP(4, hop5)
HOP(3, hop4)
HOP(2, hop3)
HOP(1, hop2)

// Rank r: y = x^2 + sin(x_next); t = sum over ranks of y (Allreduce on the dup); the
// pairs of w = t_i * x_i travel one rank around the ring; loss = sum w_recv_i (1 + i/10).
static inline void loss_with(const double *x, double *out, void (*free_all)(struct ctx *)) {
  struct ctx c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c.comm);
  MPI_Type_dup(base_pair, &c.pair);
  int rank, np;
  MPI_Comm_rank(c.comm, &rank);
  MPI_Comm_size(c.comm, &np);
  double y[NL], t[NL], w[NL], r[NL];
  for (int i = 0; i < NL; i++) y[i] = x[i] * x[i] + sin(x[(i + 1) % NL]);
  MPI_Allreduce(y, t, NL, MPI_DOUBLE, MPI_SUM, c.comm);
  for (int i = 0; i < NL; i++) w[i] = t[i] * x[i];
  MPI_Sendrecv(w, NL / 2, c.pair, (rank + 1) % np, 3, r, NL / 2, c.pair, (rank + np - 1) % np,
               3, c.comm, MPI_STATUS_IGNORE);
  double s = 0;
  for (int i = 0; i < NL; i++) s += r[i] * (1 + 0.1 * i);
  free_all(&c);
  *out = s;
}
void loss(const double *x, double *out) { loss_with(x, out, release); }
void loss_deep(const double *x, double *out) { loss_with(x, out, hop1); }

// The same on the whole data, summed over ranks.
double serial(const double *xall, int np) {
  double t[NL] = {0}, s = 0;
  for (int p = 0; p < np; p++)
    for (int i = 0; i < NL; i++)
      t[i] += xall[p * NL + i] * xall[p * NL + i] + sin(xall[p * NL + (i + 1) % NL]);
  for (int p = 0; p < np; p++)
    for (int i = 0; i < NL; i++) s += t[i] * xall[p * NL + i] * (1 + 0.1 * i);
  return s;
}

// d serial / d x[p][k]: 2 x_k T_k + cos(x_k) T_{k-1}, T_i = (1 + i/10) sum_p x[p][i],
// plus t_k (1 + k/10).
static void serial_grad(const double *xall, int np, double *g) {
  double t[NL] = {0}, big[NL] = {0};
  for (int p = 0; p < np; p++)
    for (int i = 0; i < NL; i++) {
      t[i] += xall[p * NL + i] * xall[p * NL + i] + sin(xall[p * NL + (i + 1) % NL]);
      big[i] += xall[p * NL + i] * (1 + 0.1 * i);
    }
  for (int p = 0; p < np; p++)
    for (int k = 0; k < NL; k++) {
      double xk = xall[p * NL + k];
      g[p * NL + k] =
          2 * xk * big[k] + cos(xk) * big[(k + NL - 1) % NL] + t[k] * (1 + 0.1 * k);
    }
}

static int count_comm(MPI_Comm c, int key, void *attr, void *extra) {
  (void)c, (void)key, (void)attr, (void)extra;
  comms_freed++;
  return MPI_SUCCESS;
}
static int count_type(MPI_Datatype t, int key, void *attr, void *extra) {
  (void)t, (void)key, (void)attr, (void)extra;
  types_freed++;
  return MPI_SUCCESS;
}

static double xall[2 * NL];
static double eval(void *u) {
  (void)u;
  return serial(xall, fz_size);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int ck, tk;
  MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_comm, &ck, 0);
  MPI_Comm_set_attr(MPI_COMM_WORLD, ck, 0);
  MPI_Type_contiguous(2, MPI_DOUBLE, &base_pair);
  MPI_Type_commit(&base_pair);
  MPI_Type_create_keyval(MPI_TYPE_DUP_FN, count_type, &tk, 0);
  MPI_Type_set_attr(base_pair, tk, 0);
  int n = fz_size * NL;
  fz_seed(104);
  fz_fill(xall, n, -1, 1);
  double *x = xall + fz_rank * NL;
  double dx[NL], gx[2 * NL], want[2 * NL], l = 0, dl;
  serial_grad(xall, fz_size, want);
  for (int deep = 0; deep < 2; deep++)
    for (int round = 1; round <= 2; round++) {
      for (int i = 0; i < NL; i++) dx[i] = 0;
      dl = 1;
      if (deep)
        __enzyme_autodiff((void *)loss_deep, enzyme_dup, x, dx, enzyme_dup, &l, &dl);
      else
        __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_dup, &l, &dl);
      fz_check("communicators freed, once per call", comms_freed, 2 * deep + round, 0);
      fz_check("datatypes freed, once per call", types_freed, 2 * deep + round, 0);
      double tot = 0;
      MPI_Allreduce(&l, &tot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      fz_gather(dx, NL, gx);
      if (fz_rank == 0) {
        fz_check("loss vs serial", tot, serial(xall, fz_size), 1e-12);
        fz_check_vs_serial("d/dx vs serial", gx, want, n, eval, 0, xall, 1);
      }
    }
  double tx[NL], tl = 0, mine = 0, sum = 0, tsum = 0;
  for (int i = 0; i < NL; i++) tx[i] = 0.05 * ((i + fz_rank) % 3) - 0.04;
  for (int i = 0; i < NL; i++) mine += tx[i] * dx[i];
  MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  __enzyme_fwddiff((void *)loss, enzyme_dup, x, tx, enzyme_dup, &l, &tl);
  MPI_Allreduce(&tl, &tsum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward . v = reverse . v", tsum, sum, 1e-10);
  tl = tsum = 0;
  __enzyme_fwddiff((void *)loss_deep, enzyme_dup, x, tx, enzyme_dup, &l, &tl);
  MPI_Allreduce(&tl, &tsum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward . v = reverse . v (frees 11 calls down)", tsum, sum, 1e-10);
  fz_check("forward mode freed them too", comms_freed + types_freed, 12, 0);
  MPI_Type_free(&base_pair);
  return fz_mpi_finish();
}

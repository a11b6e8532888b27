// OPT: O0 O2
// Split mode with many tapes alive at once, freed in non-LIFO orders.
// f calls a recursive divide-and-conquer helper with loops (a summing loop
// at each leaf, a loop over the whole range at each inner node), so every
// __enzyme_augmentfwd of f makes one tape for f and one per call of rec
// (the per-thread tape arena). Each round: (1) six tapes augmented, then
// reversed FIFO (first augmented, first reversed); (2) an interleaved
// schedule (aug A, aug B, rev A, aug C, rev C, aug D, aug E, rev B, ...);
// (3) a pseudo-random schedule with up to 8 tapes alive, while one tape
// stays alive for the whole round. Sizes n vary from 4 to 300 so some
// tapes span several 64 KiB arena chunks; 12 rounds reuse the memory.
// Every reverse is compared with a hand-written recursive adjoint (dret
// times the gradient w.r.t. x and k), itself checked against FD of the
// primal; the primal from __enzyme_augmentfwd_ret is compared with f.
#include "fz_test.h"
#include "fz_modes.h"

#define NMAX 300
#define LEAF 3
#define SLOTS 9
#define ROUNDS 12

double rec(const double *x, int lo, int hi, double k) {
  if (hi - lo <= LEAF) {
    double s = 0.0;
    for (int i = lo; i < hi; i++) s += sin(k * x[i]) * x[i];
    return s;
  }
  int mid = (lo + hi) / 2;
  double a = rec(x, lo, mid, k);
  double b = rec(x, mid, hi, k);
  double c = 0.0;
  for (int i = lo; i < hi; i++) c += x[i] * x[i];
  return a * cos(0.3 * b) + sin(b) * (1.0 + 0.5 * c / (double)(hi - lo));
}

double f(const double *x, double k, int n) {
  double s = 0.0;
  for (int r = 0; r < 3; r++) s += (1.0 + 0.5 * r) * rec(x, r, n, k + 0.1 * r);
  return s;
}

/* ---- oracle: hand-written reverse sweep of rec / f ----------------------- */
static void rec_adj(const double *x, int lo, int hi, double k, double vb, double *gx,
                    double *gk) {
  if (hi - lo <= LEAF) {
    for (int i = lo; i < hi; i++) {
      double s = sin(k * x[i]), c = cos(k * x[i]);
      gx[i] += vb * (k * c * x[i] + s);
      *gk += vb * c * x[i] * x[i];
    }
    return;
  }
  int mid = (lo + hi) / 2;
  double a = rec(x, lo, mid, k), b = rec(x, mid, hi, k), c = 0.0, len = (double)(hi - lo);
  for (int i = lo; i < hi; i++) c += x[i] * x[i];
  double da = cos(0.3 * b);
  double db = -0.3 * a * sin(0.3 * b) + cos(b) * (1.0 + 0.5 * c / len);
  double dc = 0.5 * sin(b) / len;
  for (int i = lo; i < hi; i++) gx[i] += vb * dc * 2.0 * x[i];
  rec_adj(x, lo, mid, k, vb * da, gx, gk);
  rec_adj(x, mid, hi, k, vb * db, gx, gk);
}

/* gx = dret * df/dx (overwritten), returns dret * df/dk */
static double f_adj(const double *x, double k, int n, double dret, double *gx) {
  double gk = 0.0;
  fz_zero(gx, n);
  for (int r = 0; r < 3; r++) rec_adj(x, r, n, k + 0.1 * r, dret * (1.0 + 0.5 * r), gx, &gk);
  return gk;
}

/* One line per array: the element with the largest relative error. */
static void check_worst(const char *what, const double *got, const double *want, int n,
                        double tol) {
  int wi = 0;
  double we = -1.0;
  for (int i = 0; i < n; i++) {
    double e = fabs(got[i] - want[i]) / fz_max3(1.0, fabs(got[i]), fabs(want[i]));
    if (e != e) e = INFINITY;
    if (e > we) we = e, wi = i;
  }
  char buf[200];
  snprintf(buf, sizeof buf, "%s (worst of %d, index %d)", what, n, wi);
  fz_check(buf, got[wi], want[wi], tol);
}

/* ---- the tapes ---------------------------------------------------------- */
struct slot {
  int alive, n, id;
  double k, dret, primal;
  void *tape;
  double x[NMAX], dx[NMAX];
};
static struct slot S[SLOTS];
static int next_id = 0, max_alive = 0, n_alive = 0;

static int pick_n(void) {
  static const int sizes[] = {4, 9, 17, 40, 77, 128, 190, 255, 300};
  return sizes[fz_rand_u64() % (sizeof sizes / sizeof sizes[0])];
}

static void aug(int s) {
  struct slot *p = &S[s];
  if (p->alive) { printf("internal error: slot %d busy\n", s); exit(2); }
  p->n = pick_n();
  p->id = next_id++;
  fz_fill(p->x, p->n, -1.0, 1.0);
  fz_zero(p->dx, p->n);
  p->k = fz_uniform(0.5, 1.5);
  p->dret = fz_uniform(0.5, 2.0);
  fz_aug a = __enzyme_augmentfwd_ret((void *)f, enzyme_dup, p->x, p->dx, enzyme_out, p->k,
                                     enzyme_const, p->n);
  p->tape = a.tape;
  p->primal = a.ret;
  p->alive = 1;
  if (++n_alive > max_alive) max_alive = n_alive;
}

static void rev(int s) {
  struct slot *p = &S[s];
  if (!p->alive) { printf("internal error: slot %d empty\n", s); exit(2); }
  double dk = __enzyme_reverse((void *)f, enzyme_dup, p->x, p->dx, enzyme_out, p->k,
                               enzyme_const, p->n, p->dret, p->tape);
  p->alive = 0;
  n_alive--;
  double gx[NMAX];
  double gk = f_adj(p->x, p->k, p->n, p->dret, gx);
  char buf[120];
  snprintf(buf, sizeof buf, "tape #%d (n=%d) primal", p->id, p->n);
  fz_mcheck(buf, p->primal, f(p->x, p->k, p->n), 1e-14);
  snprintf(buf, sizeof buf, "tape #%d (n=%d) dret*df/dx", p->id, p->n);
  if (FZ_MODE_RESULTS) check_worst(buf, p->dx, gx, p->n, 1e-10);
  snprintf(buf, sizeof buf, "tape #%d (n=%d) dret*df/dk", p->id, p->n);
  fz_mcheck(buf, dk, gk, 1e-10);
}

/* ---- oracle validation: hand-written adjoint vs FD of the primal --------- */
static double *EX, EK;
static int EN;
static double e_f(void *c) { (void)c; return f(EX, EK, EN); }

static void validate_oracle(int n) {
  double x[NMAX], gx[NMAX], fd[NMAX];
  fz_fill(x, n, -1.0, 1.0);
  EX = x, EK = fz_uniform(0.5, 1.5), EN = n;
  double gk = f_adj(x, EK, n, 1.0, gx);
  fz_fd_grad(e_f, NULL, x, n, fd);
  char buf[80];
  snprintf(buf, sizeof buf, "oracle df/dx vs fd (n=%d)", n);
  check_worst(buf, gx, fd, n, 1e-6);
  snprintf(buf, sizeof buf, "oracle df/dk vs fd (n=%d)", n);
  fz_check(buf, gk, fz_fd_ptr(e_f, NULL, &EK), 1e-6);
}

int main(void) {
  fz_seed(246);
  validate_oracle(4);
  validate_oracle(37);
  validate_oracle(300);
  printf("augmentsize f = %zu\n",
         __enzyme_augmentsize((void *)f, enzyme_dup, enzyme_out, enzyme_const));
  for (int round = 0; round < ROUNDS; round++) {
    /* a tape that stays alive during the whole round */
    aug(8);
    /* (1) FIFO: six alive, first augmented is reversed first */
    for (int s = 0; s < 6; s++) aug(s);
    for (int s = 0; s < 6; s++) rev(s);
    /* (2) interleaved: A B a C c D E b F e d f  (upper: augment, lower: reverse) */
    aug(0); aug(1); rev(0); aug(2); rev(2); aug(3); aug(4); rev(1);
    aug(5); rev(4); rev(3); rev(5);
    /* (3) pseudo-random schedule over slots 0..7, 24 steps, then drain FIFO by slot */
    for (int step = 0; step < 24; step++) {
      int s = (int)(fz_rand_u64() % 8);
      if (S[s].alive) rev(s); else aug(s);
    }
    for (int s = 0; s < 8; s++)
      if (S[s].alive) rev(s);
    /* the long-lived tape last (every other tape of this round is already freed) */
    rev(8);
  }
  printf("info: %d tapes, at most %d alive at once\n", next_id, max_alive);
  fz_check("at least 7 tapes alive at once", max_alive >= 7 ? 1.0 : 0.0, 1.0, 0.0);
  return fz_finish();
}

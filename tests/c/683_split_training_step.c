// OPT: O0 O1 O2 O3
// A user's training step in Enzyme's split mode, the way a framework drives it: the
// forward pass (`__enzyme_augmentfwd`) of a two-layer model for a mini-batch, the loss
// used by the caller, then the reverse pass (`__enzyme_reverse`) with the tape, the
// seed and `enzyme_allocated` tapes sized by `__enzyme_augmentsize` (several batches in
// flight, reversed in any order), a pool allocator registered with
// `__enzyme_allocation_like`, a logging helper registered with `__enzyme_inactivefn`, a
// pure helper registered with `__enzyme_shouldrecompute` (a hint: recompute instead of
// caching) and one with `__enzyme_inactivenoblockfn`. Oracles: finite differences of the
// primal and the combined-mode gradient (`__enzyme_autodiff`).
#include "fz_test.h"

extern int enzyme_allocated, enzyme_tape;
extern void *__enzyme_augmentfwd(void *, ...);
extern double __enzyme_augmentfwd_d(void *, ...);
extern void __enzyme_reverse(void *, ...);
extern size_t __enzyme_augmentsize(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);

#define IN 3
#define HID 4
#define B 5

static long pool_used;
static char pool_mem[1 << 16];
__attribute__((noinline)) void *arena_alloc(size_t bytes, int align) {
  long a = align;
  pool_used = (pool_used + a - 1) / a * a;
  void *p = pool_mem + pool_used;
  pool_used += bytes;
  return p;
}
__attribute__((noinline)) void arena_free(void *p) { (void)p; }

static int logged;
__attribute__((noinline)) void log_value(const char *what, double v) {
  if (v != v) fprintf(stderr, "%s is NaN\n", what);
  logged++;
}
static int noblock_calls;
__attribute__((noinline)) void count_batch(int b) { noblock_calls += b; }

__attribute__((noinline)) double softplus(double z) {
  return z > 30 ? z : log1p(exp(z));
}

void *__enzyme_allocation_like[4] = {(void *)arena_alloc, (void *)0, (void *)"-1",
                                     (void *)arena_free};
void *__enzyme_inactivefn[] = {(void *)log_value};
void *__enzyme_inactivenoblockfn[] = {(void *)count_batch};
void *__enzyme_shouldrecompute[] = {(void *)softplus};

/* params: W1[HID][IN], b1[HID], w2[HID]; data: X[B][IN], y[B] */
double batch_loss(const double *p, const double *X, const double *y, int b) {
  const double *W1 = p, *b1 = p + HID * IN, *w2 = b1 + HID;
  double *h = arena_alloc(sizeof(double) * HID * b, 8);
  count_batch(b);
  for (int s = 0; s < b; s++)
    for (int j = 0; j < HID; j++) {
      double z = b1[j];
      for (int i = 0; i < IN; i++) z += W1[j * IN + i] * X[s * IN + i];
      h[s * HID + j] = softplus(z);
    }
  double loss = 0;
  for (int s = 0; s < b; s++) {
    double o = 0;
    for (int j = 0; j < HID; j++) o += w2[j] * h[s * HID + j];
    double r = o - y[s];
    loss += r * r;
  }
  log_value("loss", loss);
  arena_free(h);
  return loss / b;
}

#define NP (HID * IN + 2 * HID)
static double gp[NP], gX[3][B * IN], gy[3][B];
static int gk;
static double eval(void *c) { (void)c; pool_used = 0; return batch_loss(gp, gX[gk], gy[gk], B); }

int main(void) {
  fz_seed(683);
  fz_fill(gp, NP, -0.8, 0.8);
  for (int k = 0; k < 3; k++) {
    fz_fill(gX[k], B * IN, -1.0, 1.0);
    fz_fill(gy[k], B, -0.5, 0.5);
  }

  /* combined mode for reference */
  double gref[3][NP];
  for (int k = 0; k < 3; k++) {
    fz_zero(gref[k], NP);
    pool_used = 0;
    __enzyme_autodiff_v((void *)batch_loss, enzyme_dup, gp, gref[k], enzyme_const, gX[k],
                        enzyme_const, gy[k], enzyme_const, B);
    gk = k;
    for (int i = 0; i < NP; i++)
      fz_check("combined gradient vs finite differences", gref[k][i],
               fz_fd_ptr(eval, 0, &gp[i]), 1e-6);
  }

  /* split mode, one batch: tape returned */
  double dp[NP];
  fz_zero(dp, NP);
  pool_used = 0;
  void *tape = __enzyme_augmentfwd((void *)batch_loss, enzyme_dup, gp, dp, enzyme_const, gX[0],
                                   enzyme_const, gy[0], enzyme_const, B);
  __enzyme_reverse((void *)batch_loss, enzyme_dup, gp, dp, enzyme_const, gX[0], enzyme_const,
                   gy[0], enzyme_const, B, 1.0, tape);
  for (int i = 0; i < NP; i++) fz_check("split gradient (one batch)", dp[i], gref[0][i], 1e-12);

  /* three batches in flight in caller-owned tapes, reversed 1, 0, 2; gradients summed */
  size_t need = __enzyme_augmentsize((void *)batch_loss, enzyme_dup, enzyme_const, enzyme_const,
                                     enzyme_const);
  unsigned char *tapes = malloc(3 * (need + 64));
  fz_zero(dp, NP);
  pool_used = 0;
  double losses[3];
  for (int k = 0; k < 3; k++)
    losses[k] = __enzyme_augmentfwd_d((void *)batch_loss, enzyme_allocated, need, enzyme_tape,
                                      tapes + k * (need + 64), enzyme_dup, gp, dp, enzyme_const,
                                      gX[k], enzyme_const, gy[k], enzyme_const, B);
  for (int k = 0; k < 3; k++) {
    gk = k;
    fz_check("split primal loss", losses[k], eval(0), 1e-12);
  }
  int order[3] = {1, 0, 2};
  for (int t = 0; t < 3; t++) {
    int k = order[t];
    __enzyme_reverse((void *)batch_loss, enzyme_allocated, need, enzyme_tape,
                     tapes + k * (need + 64), enzyme_dup, gp, dp, enzyme_const, gX[k],
                     enzyme_const, gy[k], enzyme_const, B, 0.5 + k);
  }
  for (int i = 0; i < NP; i++) {
    double want = 0.5 * gref[0][i] + 1.5 * gref[1][i] + 2.5 * gref[2][i];
    fz_check("allocated tapes, weighted sum of three batches", dp[i], want, 1e-11);
  }
  free(tapes);
  fz_check("logger ran", logged > 0, 1, 0);
  fz_check("noblock counter ran", noblock_calls > 0, 1, 0);
  return fz_finish();
}

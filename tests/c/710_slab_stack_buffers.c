// OPT: O0 O2 O3
// ARGS: -lpthread
// The tape stacks' small buffers from the per-thread slab (runtime pool.ll, bench/README
// "fft14"): every call of a recursive function reserves one buffer for its counted loop
// (8 bytes a step, 16 B to 48 KiB: the biggest over the slab's 32 KiB limit go to
// malloc) and grows another for a while loop without a sure bound (starts in the slab,
// outgrows it into malloc). About 1 MiB of buffers per gradient at n = 6000, so chunks
// fill, retire and are recycled. Checked: (1) gradients at n = 5, 37, 300 against finite
// differences of every input, n = 6000 against a directional finite difference, 12 times
// (the chunks come back); (2) split mode with 20 tapes alive at once (more than the 16
// spare chunks a thread keeps), reversed first-in-first-out and then in a shuffled
// order; (3) tapes augmented by a thread that exits before the main thread reverses them
// (the buffers' chunks outlive their thread's state), and tapes of the main thread
// reversed by another thread; (4) 4 threads computing gradients at once. Oracles: finite
// differences of the primal (central, directional for the large n, and in k).
#include "fz_test.h"
#include "fz_modes.h"
#include <pthread.h>

#define NBIG 6000
#define SLOTS 20

double rec(const double *x, int lo, int hi, double k) {
  int n = hi - lo;
  if (n <= 2) return sin(k * x[lo]) * x[hi - 1];
  int mid = lo + n / 2;
  double a = rec(x, lo, mid, k);
  double b = rec(x, mid, hi, k);
  double w = 0.5, s = 0.0;
  for (int i = lo; i < hi; i++) {
    w = sin(w + k * x[i]);
    s += w;
  }
  double u = x[mid];
  for (int m = 0; m * m < 8 * n; m++) u = u - 0.05 * sin(u + 0.01 * m);
  return a * cos(0.1 * b) + 0.5 * b + s / n + 0.3 * u;
}

double f(const double *x, double k, int n) { return rec(x, 0, n, k); }

extern double __enzyme_autodiff(void *, ...);

/* Directional derivative of f at (x, k) along (v, vk), central difference. */
static double fd_dir(const double *x, double k, int n, const double *v, double vk) {
  double *xp = malloc(n * sizeof *xp), *xm = malloc(n * sizeof *xm);
  const double h = 1e-6;
  for (int i = 0; i < n; i++) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  double d = (f(xp, k + h * vk, n) - f(xm, k - h * vk, n)) / (2.0 * h);
  free(xp);
  free(xm);
  return d;
}

static double dot(const double *a, const double *b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

/* (1) small n: every input by FD; NBIG: directional. */
static void check_autodiff(int n, int reps) {
  double *x = malloc(n * sizeof *x), *dx = malloc(n * sizeof *dx), *v = malloc(n * sizeof *v);
  char buf[120];
  for (int r = 0; r < reps; r++) {
    fz_fill(x, n, -1.0, 1.0);
    fz_fill(v, n, -1.0, 1.0);
    double k = fz_uniform(0.5, 1.5);
    fz_zero(dx, n);
    double dk = __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_out, k, enzyme_const, n);
    if (n <= 300) {
      double worst = 0.0, *e = calloc(n, sizeof *e);
      int wi = 0;
      for (int i = 0; i < n; i++) {
        e[i] = 1.0;
        double want = fd_dir(x, k, n, e, 0.0);
        e[i] = 0.0;
        double err = fabs(dx[i] - want) / fz_max3(1.0, fabs(dx[i]), fabs(want));
        if (!(err <= worst)) {
          worst = err;
          wi = i;
        }
      }
      free(e);
      snprintf(buf, sizeof buf, "n=%d rep %d: worst relative error of df/dx (at %d) <= 1e-6", n, r, wi);
      fz_check(buf, worst, 0.0, 1e-6);
    } else {
      snprintf(buf, sizeof buf, "n=%d rep %d: df/dx . v", n, r);
      fz_check(buf, dot(dx, v, n), fd_dir(x, k, n, v, 0.0), 1e-6);
    }
    snprintf(buf, sizeof buf, "n=%d rep %d: df/dk", n, r);
    fz_check(buf, dk, fd_dir(x, k, n, v, 1.0) - fd_dir(x, k, n, v, 0.0), 1e-5);
  }
  free(x);
  free(dx);
  free(v);
}

/* (2)-(3) split mode */
struct slot {
  double x[NBIG], dx[NBIG], v[NBIG];
  double k, dret, primal, dk;
  int n;
  void *tape;
};
static struct slot S[SLOTS];

static void aug(struct slot *p, int n) {
  p->n = n;
  fz_fill(p->x, n, -1.0, 1.0);
  fz_fill(p->v, n, -1.0, 1.0);
  fz_zero(p->dx, n);
  p->k = fz_uniform(0.5, 1.5);
  p->dret = fz_uniform(0.5, 2.0);
  fz_aug a = __enzyme_augmentfwd_ret((void *)f, enzyme_dup, p->x, p->dx, enzyme_out, p->k,
                                     enzyme_const, n);
  p->tape = a.tape;
  p->primal = a.ret;
}

static void rev(struct slot *p) {
  p->dk = __enzyme_reverse((void *)f, enzyme_dup, p->x, p->dx, enzyme_out, p->k, enzyme_const,
                           p->n, p->dret, p->tape);
}

static void check_slot(const char *what, int s) {
  struct slot *p = &S[s];
  char buf[120];
  if (!FZ_MODE_RESULTS) return;
  snprintf(buf, sizeof buf, "%s tape %d (n=%d) primal", what, s, p->n);
  fz_check(buf, p->primal, f(p->x, p->k, p->n), 1e-14);
  double d0 = fd_dir(p->x, p->k, p->n, p->v, 0.0);
  snprintf(buf, sizeof buf, "%s tape %d (n=%d) dret*df/dx . v", what, s, p->n);
  fz_check(buf, dot(p->dx, p->v, p->n), p->dret * d0, 1e-6);
  snprintf(buf, sizeof buf, "%s tape %d (n=%d) dret*df/dk", what, s, p->n);
  fz_check(buf, p->dk, p->dret * (fd_dir(p->x, p->k, p->n, p->v, 1.0) - d0), 1e-5);
}

static void *aug_three(void *arg) {
  (void)arg;
  for (int s = 0; s < 3; s++) aug(&S[s], NBIG - 700 * s);
  return NULL;
}

static void *rev_three(void *arg) {
  (void)arg;
  for (int s = 5; s >= 3; s--) rev(&S[s]);
  return NULL;
}

/* (4) threads at once: each computes its gradients and directional FDs (primal only). */
struct job {
  uint64_t seed;
  double worst;
};

static void *grads(void *arg) {
  struct job *j = arg;
  double *x = malloc(3 * NBIG * sizeof *x), *dx = x + NBIG, *v = dx + NBIG;
  uint64_t st = j->seed;
  j->worst = 0.0;
  for (int c = 0; c < 6; c++) {
    int n = 500 + (int)((st >> 33) % 5000);
    st = st * 6364136223846793005ull + 1442695040888963407ull;
    for (int i = 0; i < n; i++) {
      st = st * 6364136223846793005ull + 1442695040888963407ull;
      x[i] = (double)(st >> 11) / 9007199254740992.0 * 2.0 - 1.0;
      v[i] = cos(3.0 * i + c);
      dx[i] = 0.0;
    }
    double k = 0.7 + 0.1 * c;
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, k, enzyme_const, n);
    double got = dot(dx, v, n), want = fd_dir(x, k, n, v, 0.0);
    double err = fabs(got - want) / fz_max3(1.0, fabs(got), fabs(want));
    if (!(err <= j->worst)) j->worst = err;
  }
  free(x);
  return NULL;
}

int main(void) {
  fz_seed(710);
  check_autodiff(5, 2);
  check_autodiff(37, 2);
  check_autodiff(300, 2);
  check_autodiff(NBIG, 12);

  /* (2) 20 tapes alive, FIFO, then a shuffled order */
  for (int round = 0; round < 2; round++) {
    for (int s = 0; s < SLOTS; s++) aug(&S[s], NBIG - 97 * s);
    int order[SLOTS];
    for (int s = 0; s < SLOTS; s++) order[s] = s;
    if (round == 1)
      for (int s = SLOTS - 1; s > 0; s--) {
        int t = (int)(fz_rand_u64() % (uint64_t)(s + 1)), tmp = order[s];
        order[s] = order[t];
        order[t] = tmp;
      }
    for (int s = 0; s < SLOTS; s++) rev(&S[order[s]]);
    for (int s = 0; s < SLOTS; s += 7) check_slot(round ? "shuffled" : "fifo", s);
  }

  /* (3) a thread augments and exits; the main thread reverses. Then the other way. */
  pthread_t th;
  if (pthread_create(&th, NULL, aug_three, NULL) != 0) return 2;
  pthread_join(th, NULL);
  for (int s = 0; s < 3; s++) rev(&S[s]);
  for (int s = 0; s < 3; s++) check_slot("augmented by an exited thread", s);
  for (int s = 3; s < 6; s++) aug(&S[s], 4000 + 300 * s);
  if (pthread_create(&th, NULL, rev_three, NULL) != 0) return 2;
  pthread_join(th, NULL);
  for (int s = 3; s < 6; s++) check_slot("reversed by another thread", s);

  /* (4) */
  pthread_t ts[4];
  struct job jobs[4];
  for (int t = 0; t < 4; t++) {
    jobs[t].seed = 0x9E3779B97F4A7C15ull * (uint64_t)(t + 1);
    if (pthread_create(&ts[t], NULL, grads, &jobs[t]) != 0) return 2;
  }
  for (int t = 0; t < 4; t++) {
    pthread_join(ts[t], NULL);
    char buf[80];
    snprintf(buf, sizeof buf, "thread %d: worst relative error of df/dx . v <= 1e-6", t);
    fz_check(buf, jobs[t].worst, 0.0, 1e-6);
  }
  return fz_finish();
}

// OPT: O0 O2 O3
// ARGS: -lpthread
// The split tapes' arena keeps its empty 64 KiB chunks per thread for the next gradient
// (runtime arena.ll, bench/README "fft33"): a recursive function over n = 2^16 points
// makes 131,071 calls per gradient, each with its own tape block, megabytes of arena
// chunks (the recursive FFT's pattern; the loop per call is linear, as the FFT's
// butterflies, so the tape is the arena's blocks). Before, the reverse sweep freed every chunk to
// malloc, glibc trimmed them off the top of the heap, and every gradient faulted all of
// them in again. Checked: (1) gradients at n = 2^16 (directional finite difference),
// n = 37 (every input by finite differences), 2^16 again, 3000, 2^16 with another k:
// sizes alternate, so spare chunks are taken by gradients of other sizes; after each
// gradient the tape bytes held are what they were before it; (2) five more gradients at
// n = 2^16, each checked, each after `malloc_trim(0)` (which gives every free page of
// malloc's heap back to the system, as glibc's own trimming did to the freed chunks):
// each faults in fewer pages than a quarter of the arena's (glibc builds only: a
// sanitizer's allocator maps memory its own way); (3) 4 threads computing gradients of different sizes at once, each checked by a
// directional finite difference, then exiting (their spare chunks are freed with the
// thread's state: leak checkers see nothing). Oracles: finite differences of the primal.
#include "fz_test.h"
#include <pthread.h>
#include <sys/resource.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#define NBIG (1 << 16)

double rec(const double *x, int lo, int hi, double k) {
  int n = hi - lo;
  if (n == 1) return sin(k * x[lo]);
  int mid = lo + n / 2;
  double a = rec(x, lo, mid, k);
  double b = rec(x, mid, hi, k);
  double s = 0.0;
  for (int i = lo; i < hi; i++) s += x[i] * (1.0 + 0.001 * i);
  return 0.6 * a + 0.4 * sin(b) + 0.05 * s / n;
}

double f(const double *x, double k, int n) { return rec(x, 0, n, k); }

extern long long __ferrozyme_tape_stats[2] __attribute__((weak));

static long long tape_held(void) { return __ferrozyme_tape_stats ? __ferrozyme_tape_stats[0] : 0; }

/* Directional derivative of f at (x, k) along (v, vk), central difference. */
static double fd_dir(const double *x, double k, int n, const double *v, double vk, double *tmp) {
  const double h = 1e-6;
  for (int i = 0; i < n; i++) tmp[i] = x[i] + h * v[i];
  double fp = f(tmp, k + h * vk, n);
  for (int i = 0; i < n; i++) tmp[i] = x[i] - h * v[i];
  double fm = f(tmp, k - h * vk, n);
  return (fp - fm) / (2.0 * h);
}

static double dot(const double *a, const double *b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

static double *X, *DX, *V, *TMP;

/* One gradient at size n, checked: every input by FD when n is small, else a direction. */
static void check_grad(int n, double k, const char *tag) {
  char buf[128];
  fz_fill(X, n, -1.0, 1.0);
  fz_fill(V, n, -1.0, 1.0);
  fz_zero(DX, n);
  long long held = tape_held();
  double dk = __enzyme_autodiff((void *)f, enzyme_dup, X, DX, enzyme_out, k, enzyme_const, n);
  snprintf(buf, sizeof buf, "%s n=%d: tape bytes held after the gradient", tag, n);
  fz_check(buf, (double)tape_held(), (double)held, 0.0);
  if (n <= 64) {
    for (int i = 0; i < n; i++) {
      fz_zero(V, n);
      V[i] = 1.0;
      snprintf(buf, sizeof buf, "%s n=%d: df/dx[%d]", tag, n, i);
      fz_check(buf, DX[i], fd_dir(X, k, n, V, 0.0, TMP), 1e-6);
    }
    fz_zero(V, n);
  } else {
    snprintf(buf, sizeof buf, "%s n=%d: df/dx . v", tag, n);
    fz_check(buf, dot(DX, V, n), fd_dir(X, k, n, V, 0.0, TMP), 1e-6);
  }
  fz_zero(V, n);
  snprintf(buf, sizeof buf, "%s n=%d: df/dk", tag, n);
  fz_check(buf, dk, fd_dir(X, k, n, V, 1.0, TMP), 1e-6);
}

static long minor_faults(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_minflt;
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FZ_OWN_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define FZ_OWN_ALLOCATOR 1
#endif
#endif

/* (3) a thread's gradients, each checked along a direction. */
struct job {
  int n0;
  double worst;
};

static void *grads(void *arg) {
  struct job *j = arg;
  int cap = j->n0 + 3 * 1000;
  double *x = malloc(4 * (size_t)cap * sizeof *x), *dx = x + cap, *v = dx + cap, *tmp = v + cap;
  j->worst = 0.0;
  for (int c = 0; c < 4; c++) {
    int n = j->n0 + 1000 * (c % 3);
    for (int i = 0; i < n; i++) {
      x[i] = sin(0.37 * i + j->n0 + c);
      v[i] = cos(3.0 * i + c);
      dx[i] = 0.0;
    }
    double k = 0.7 + 0.1 * c;
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, k, enzyme_const, n);
    double got = dot(dx, v, n), want = fd_dir(x, k, n, v, 0.0, tmp);
    double err = fabs(got - want) / fz_max3(1.0, fabs(got), fabs(want));
    if (!(err <= j->worst)) j->worst = err;
  }
  free(x);
  return NULL;
}

int main(void) {
  fz_seed(1333);
  X = malloc(NBIG * sizeof *X);
  DX = malloc(NBIG * sizeof *DX);
  V = malloc(NBIG * sizeof *V);
  TMP = malloc(NBIG * sizeof *TMP);

  /* (1) sizes alternating */
  check_grad(NBIG, 0.9, "first");
  check_grad(37, 1.1, "small");
  check_grad(NBIG, 0.8, "again");
  check_grad(3000, 1.2, "middle");
  check_grad(NBIG, 1.3, "other k");

  /* (2) repeated gradients at the largest size: the chunks stay mapped */
  long faults = 0;
  for (int r = 0; r < 5; r++) {
    fz_fill(X, NBIG, -1.0, 1.0);
    fz_zero(DX, NBIG);
#ifdef __GLIBC__
    malloc_trim(0);
#endif
    long f0 = minor_faults();
    double dk = __enzyme_autodiff((void *)f, enzyme_dup, X, DX, enzyme_out, 1.0, enzyme_const, NBIG);
    faults += minor_faults() - f0;
    fz_fill(V, NBIG, -1.0, 1.0);
    char buf[96];
    snprintf(buf, sizeof buf, "repeat %d: df/dx . v", r);
    fz_check(buf, dot(DX, V, NBIG), fd_dir(X, 1.0, NBIG, V, 0.0, TMP), 1e-6);
    fz_zero(V, NBIG);
    snprintf(buf, sizeof buf, "repeat %d: df/dk", r);
    fz_check(buf, dk, fd_dir(X, 1.0, NBIG, V, 1.0, TMP), 1e-6);
  }
  /* The arena's chunks: the largest tape bytes held at once, in 4 KiB pages. */
  long arena_pages = __ferrozyme_tape_stats ? (long)(__ferrozyme_tape_stats[1] / 4096) : 0;
  printf("minor page faults per repeated gradient: %ld (peak tape: %ld pages)\n", faults / 5,
         arena_pages);
#if defined(__GLIBC__) && !defined(FZ_OWN_ALLOCATOR)
  fz_check("page faults per repeated gradient under a quarter of the tape's pages",
           faults / 5 < arena_pages / 4, 1.0, 0.0);
#endif

  /* (3) 4 threads at once */
  pthread_t th[4];
  struct job jobs[4];
  for (int t = 0; t < 4; t++) {
    jobs[t].n0 = 2000 + 7000 * t;
    pthread_create(&th[t], NULL, grads, &jobs[t]);
  }
  for (int t = 0; t < 4; t++) {
    pthread_join(th[t], NULL);
    char buf[96];
    snprintf(buf, sizeof buf, "thread %d: worst relative error of df/dx . v <= 1e-6", t);
    fz_check(buf, jobs[t].worst, 0.0, 1e-6);
  }
  free(X);
  free(DX);
  free(V);
  free(TMP);
  return fz_finish();
}

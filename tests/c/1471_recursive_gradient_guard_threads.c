// OPT: O0 O2
// ARGS: -lpthread
// err36: what the stack-overflow guard of recursive derivatives (1470) must leave alone.
// The program's own SIGSEGV handler, installed before the first gradient, still receives
// a fault of the program's own code after it (the guard's handler puts the program's
// action back and lets the fault happen again); four threads differentiate the recursion
// at once (each gets its own alternate signal stack, freed at its exit) and agree with
// the derivative computed by hand.
#include "fz_test.h"
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>

__attribute__((noinline)) double f(double x, int n) {
  if (n == 0)
    return x;
  return sin(f(x, n - 1)) * 0.5 + x;
}

static double df_by_hand(double x, int n) {
  double v = x, d = 1.0;
  for (int k = 1; k <= n; k++) {
    d = cos(v) * 0.5 * d + 1.0;
    v = sin(v) * 0.5 + x;
  }
  return d;
}

static sigjmp_buf recover;
static volatile sig_atomic_t caught = 0;
static void on_segv(int sig) {
  (void)sig;
  caught = 1;
  siglongjmp(recover, 1);
}

static int *volatile nowhere = 0;

struct job {
  double x, d;
  int n;
};

static void *worker(void *arg) {
  struct job *j = arg;
  for (int r = 0; r < 20; r++)
    j->d = __enzyme_autodiff((void *)f, j->x, j->n);
  return NULL;
}

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_segv;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, NULL);

  double d = __enzyme_autodiff((void *)f, 0.7, 200);
  fz_check("df/dx at depth 200", d, df_by_hand(0.7, 200), 1e-12);

  if (sigsetjmp(recover, 1) == 0)
    *nowhere = 1; /* the program's own fault, after a gradient */
  fz_check("the program's SIGSEGV handler ran", caught, 1, 0);

  pthread_t t[4];
  struct job jobs[4];
  for (int i = 0; i < 4; i++) {
    jobs[i] = (struct job){0.1 + 0.2 * i, 0.0, 100 + 50 * i};
    pthread_create(&t[i], NULL, worker, &jobs[i]);
  }
  for (int i = 0; i < 4; i++) {
    pthread_join(t[i], NULL);
    fz_check("thread df/dx", jobs[i].d, df_by_hand(jobs[i].x, jobs[i].n), 1e-12);
  }
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// ARGS: -lpthread
// A lookup table initialized lazily with `pthread_once` inside the differentiated
// function (the C way to build a cache once, thread-safely): the init routine fills a
// static table of Chebyshev-node cosines; the function reads it (constant data) and
// combines it with active inputs. The once-routine runs in the augmented pass only once;
// the derivative sees the table as constant. Called from two threads afterwards too.
// Oracle: analytic derivatives.
#include <pthread.h>
#include "fz_test.h"

enum { T = 16 };
static double table[T];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int init_count = 0;

static void init_table(void) {
  for (int i = 0; i < T; i++) table[i] = cos(M_PI * (i + 0.5) / T);
  init_count++;
}

double project(const double *x, int n) {
  pthread_once(&once, init_table);
  double s = 0;
  for (int i = 0; i < n; i++) s += table[i % T] * x[i] * x[i] + table[(3 * i) % T] * x[i];
  return s;
}

typedef struct {
  double x[20], dx[20];
} job;

static void *worker(void *arg) {
  job *j = arg;
  memset(j->dx, 0, sizeof j->dx);
  __enzyme_autodiff((void *)project, enzyme_dup, j->x, j->dx, enzyme_const, 20);
  return NULL;
}

int main(void) {
  double x[20], dx[20] = {0};
  for (int i = 0; i < 20; i++) x[i] = 0.1 * i - 0.7;
  __enzyme_autodiff((void *)project, enzyme_dup, x, dx, enzyme_const, 20);
  char nm[32];
  for (int i = 0; i < 20; i++) {
    double ci = cos(M_PI * (i % T + 0.5) / T), c3 = cos(M_PI * ((3 * i) % T + 0.5) / T);
    snprintf(nm, sizeof nm, "dx[%d]", i);
    fz_check(nm, dx[i], 2 * ci * x[i] + c3, 1e-14);
  }
  job jobs[2];
  pthread_t th[2];
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < 20; i++) jobs[k].x[i] = x[i] * (k + 1);
    pthread_create(&th[k], NULL, worker, &jobs[k]);
  }
  for (int k = 0; k < 2; k++) pthread_join(th[k], NULL);
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < 20; i++) {
      double ci = cos(M_PI * (i % T + 0.5) / T), c3 = cos(M_PI * ((3 * i) % T + 0.5) / T);
      snprintf(nm, sizeof nm, "thread %d dx[%d]", k, i);
      fz_check(nm, jobs[k].dx[i], 2 * ci * jobs[k].x[i] + c3, 1e-14);
    }
  fz_check("table initialized once", init_count, 1, 0);
  return fz_finish();
}

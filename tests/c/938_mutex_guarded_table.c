// OPT: O0 O1 O2 O3
// ARGS: -lpthread
// A lazily built lookup table guarded by a `pthread_mutex_t` inside the differentiated
// function (sweep23), as thread-safe library code writes it (C++'s `std::mutex` lowers to
// the same calls through libstdc++'s `__gthread_mutex_*`): the first call locks, fills a
// table of Chebyshev nodes and a `static` flag, and unlocks; every call locks around a
// hit counter. The mutex holds only integer state: the calls carry no derivative. The
// model interpolates an active function sampled at the nodes (barycentric weights) and
// squares the result. Four threads then take gradients at once. Oracles: the analytic
// gradient (the interpolant is linear in the samples: d/dy_j = 2 p(t) l_j(t)), central
// finite differences, the serial gradient for each thread's.
#include <pthread.h>
#include "fz_test.h"

#define M 8
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double nodes[M], bw[M];
static int built;
static long hits;

static void build_table(void) {
  for (int j = 0; j < M; j++) {
    nodes[j] = cos(M_PI * (2 * j + 1) / (2.0 * M));
    bw[j] = (j % 2 ? -1.0 : 1.0) * sin(M_PI * (2 * j + 1) / (2.0 * M));
  }
}

double interp_sq(const double *y, double t) {
  pthread_mutex_lock(&lock);
  if (!built) {
    build_table();
    built = 1;
  }
  hits++;
  pthread_mutex_unlock(&lock);
  double num = 0, den = 0;
  for (int j = 0; j < M; j++) {
    double w = bw[j] / (t - nodes[j]);
    num += w * y[j];
    den += w;
  }
  double p = num / den;
  return p * p;
}

static double Y[M];
static double ev(void *c) { return interp_sq(Y, *(double *)c); }

typedef struct { double t, g[M]; } job;
static void *worker(void *arg) {
  job *j = arg;
  for (int k = 0; k < M; k++) j->g[k] = 0;
  for (int r = 0; r < 50; r++) {
    double g[M] = {0};
    __enzyme_autodiff((void *)interp_sq, enzyme_dup, Y, g, enzyme_const, j->t);
    if (r == 0)
      for (int k = 0; k < M; k++) j->g[k] = g[k];
  }
  return NULL;
}

int main(void) {
  fz_seed(938);
  fz_fill(Y, M, -1, 1);
  double t = 0.3141, g[M] = {0};
  __enzyme_autodiff((void *)interp_sq, enzyme_dup, Y, g, enzyme_const, t);
  double l[M], den = 0, p = 0;
  for (int j = 0; j < M; j++) den += bw[j] / (t - nodes[j]);
  for (int j = 0; j < M; j++) {
    l[j] = bw[j] / (t - nodes[j]) / den;
    p += l[j] * Y[j];
  }
  double want[M], fd[M];
  for (int j = 0; j < M; j++) want[j] = 2 * p * l[j];
  fz_check_arr("analytic", g, want, M, 1e-10);
  fz_fd_grad(ev, &t, Y, M, fd);
  fz_check_arr("finite differences", g, fd, M, 1e-6);
  pthread_t th[4];
  job jobs[4];
  for (int k = 0; k < 4; k++) {
    jobs[k].t = -0.7 + 0.45 * k;
    pthread_create(&th[k], NULL, worker, &jobs[k]);
  }
  for (int k = 0; k < 4; k++) pthread_join(th[k], NULL);
  for (int k = 0; k < 4; k++) {
    double s[M] = {0};
    __enzyme_autodiff((void *)interp_sq, enzyme_dup, Y, s, enzyme_const, jobs[k].t);
    char buf[48];
    snprintf(buf, sizeof buf, "thread %d vs serial", k);
    fz_check_arr(buf, jobs[k].g, s, M, 0);
  }
  fz_check("hit counter (every primal and derivative call)", (double)hits,
           1 + 2 * M + 4 * 50 + 4, 0);
  return fz_finish();
}

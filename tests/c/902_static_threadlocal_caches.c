// OPT: O0 O1 O2 O3
// ARGS: -lpthread
// State kept between calls, as C users keep it (sweep22): a function-local `static`
// table of Chebyshev nodes filled on the first call (inactive: computed from constants,
// guarded by a `static int ready`), a `_Thread_local` call counter, a `_Thread_local` scratch
// buffer that holds the program's active intermediate values within a call, and a
// `_Thread_local double` accumulator that each call resets before summing into it (active
// within the call). The gradient is taken first, before any primal call, so the first
// call's initialization runs inside the derivative. Oracles: closed form of the
// Chebyshev-weighted loss, finite differences, forward vs reverse; then four threads take
// gradients at once at their own points (each thread's scratch has its own adjoint),
// each compared with the same gradient taken serially.
#include <pthread.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 8

static _Thread_local int calls;

static const double *nodes(void) {
  static double t[N];
  static int ready;
  if (!ready) {
    for (int k = 0; k < N; k++) t[k] = cos(M_PI * (k + 0.5) / N);
    ready = 1;
  }
  return t;
}

static _Thread_local double scratch[N];
static _Thread_local double acc;

double cheb_loss(const double *c, double s) {
  calls++;
  const double *t = nodes();
  for (int k = 0; k < N; k++) {
    // p(t_k) = sum_j c_j T_j(t_k), by the three-term recurrence.
    double tm = 1.0, tc = t[k], p = c[0] + c[1] * tc;
    for (int j = 2; j < N; j++) {
      double tn = 2.0 * t[k] * tc - tm;
      p += c[j] * tn;
      tm = tc;
      tc = tn;
    }
    scratch[k] = p;
  }
  acc = 0.0;
  for (int k = 0; k < N; k++) {
    double r = scratch[k] - s * exp(t[k]);
    acc += r * r;
  }
  return acc / N;
}

static double C[N], S;
static double ev(void *ctx) { (void)ctx; return cheb_loss(C, S); }

#define NT 4
typedef struct {
  double c[N], dc[N], s, ds;
} job;

static void *worker(void *arg) {
  job *j = arg;
  for (int rep = 0; rep < 200; rep++) {
    for (int k = 0; k < N; k++) j->dc[k] = 0;
    j->ds = __enzyme_autodiff((void *)cheb_loss, enzyme_dup, j->c, j->dc, enzyme_out, j->s);
  }
  return NULL;
}

int main(void) {
  for (int j = 0; j < N; j++) C[j] = 0.3 / (j + 1) - 0.05 * j;
  S = 0.8;
  double dc[N] = {0};
  double ds = __enzyme_autodiff((void *)cheb_loss, enzyme_dup, C, dc, enzyme_out, S);
  fz_check("static table filled inside the gradient", nodes()[0], cos(M_PI * 0.5 / N), 0);

  // Closed form: T_j(cos th) = cos(j th).
  double gc[N] = {0}, gs = 0;
  for (int k = 0; k < N; k++) {
    double th = M_PI * (k + 0.5) / N, tk = cos(th), p = 0;
    for (int j = 0; j < N; j++) p += C[j] * cos(j * th);
    double r = p - S * exp(tk);
    for (int j = 0; j < N; j++) gc[j] += 2.0 * r * cos(j * th) / N;
    gs += -2.0 * r * exp(tk) / N;
  }
  fz_check_arr("d/dc closed form", dc, gc, N, 1e-10);
  fz_check("d/ds closed form", ds, gs, 1e-10);

  double fc[N];
  fz_fd_grad(ev, NULL, C, N, fc);
  fz_check_arr("d/dc finite differences", dc, fc, N, 1e-6);
  fz_check("d/ds finite differences", ds, fz_fd_ptr(ev, NULL, &S), 1e-6);

  double tc[N], dot = 0.3 * ds;
  for (int j = 0; j < N; j++) tc[j] = 0.2 - 0.07 * j, dot += tc[j] * dc[j];
  double jt = __enzyme_fwddiff((void *)cheb_loss, enzyme_dup, C, tc, 0.3 * 0 + S, 0.3);
  fz_check("forward . t vs reverse", jt, dot, 1e-10);
  fz_check("value still right after the derivatives", cheb_loss(C, S), ev(NULL), 0);
  printf("calls on the main thread=%d\n", calls);

  job jobs[NT], serial[NT];
  for (int t = 0; t < NT; t++) {
    for (int k = 0; k < N; k++) jobs[t].c[k] = 0.1 * (t + 1) * cos(k + t);
    jobs[t].s = 0.5 + 0.3 * t;
    serial[t] = jobs[t];
    worker(&serial[t]);
  }
  pthread_t th[NT];
  for (int t = 0; t < NT; t++) pthread_create(&th[t], NULL, worker, &jobs[t]);
  for (int t = 0; t < NT; t++) pthread_join(th[t], NULL);
  for (int t = 0; t < NT; t++) {
    char buf[64];
    snprintf(buf, sizeof buf, "thread %d d/dc vs serial", t);
    fz_check_arr(buf, jobs[t].dc, serial[t].dc, N, 0);
    snprintf(buf, sizeof buf, "thread %d d/ds vs serial", t);
    fz_check(buf, jobs[t].ds, serial[t].ds, 0);
  }
  return fz_finish();
}

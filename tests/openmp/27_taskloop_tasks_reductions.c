// OMP_THREADS: 1 2 4
// OPT: O0 O2
// Task parallelism as OpenMP codes write it: `taskloop` with grainsize, firstprivate and
// lastprivate (from `single`), `taskloop num_tasks collapse(2)` (from `master`), tasks
// over disjoint blocks with `taskwait`, a dependence chain (`depend(out)`/`depend(in)`),
// a recursive task tree summing partial results into shared variables (a task-parallel
// reduction), a task with an `if` clause taken and not taken, and task reductions:
// `taskloop reduction(+:s)`, a `taskgroup task_reduction(+:s) task_reduction(*:p)` with
// `in_reduction` tasks, a `parallel reduction(task, +:s)` region. They were a
// missing-derivative error naming `__kmpc_omp_task_alloc`; the derivative now runs every
// task in place, in creation order, each combining its reduction straight into the item
// (parallel/tasks.rs). Each loss is checked against
// the same computation written serially (value), central finite differences of that
// serial program (every entry), and forward mode against reverse (dot product).
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 24
#define M 6

static double weight(int i) { return 0.5 + 0.1 * (i % 5); }

double taskloop_lastprivate(const double *x) {
  double y[N], last = 0, scale = 1.5;
#pragma omp parallel shared(y, last)
#pragma omp single
#pragma omp taskloop grainsize(5) firstprivate(scale) lastprivate(last)
  for (int i = 0; i < N; i++) {
    y[i] = scale * x[i] * x[i] + sin(x[i]);
    last = y[i] * x[i];
  }
  double s = last;
  for (int i = 0; i < N; i++) s += weight(i) * y[i];
  return s;
}

double serial_lastprivate(const double *x) {
  double y[N], last = 0;
  for (int i = 0; i < N; i++) {
    y[i] = 1.5 * x[i] * x[i] + sin(x[i]);
    last = y[i] * x[i];
  }
  double s = last;
  for (int i = 0; i < N; i++) s += weight(i) * y[i];
  return s;
}

double taskloop_collapse(const double *x) {
  double z[M][M];
#pragma omp parallel shared(z)
#pragma omp master
#pragma omp taskloop num_tasks(3) collapse(2)
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) z[i][j] = x[i] * cos(x[M + j]) + x[2 * M + ((i + j) % M)];
  double s = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) s += z[i][j] * z[i][j] * (1 + 0.1 * i);
  return s;
}

double serial_collapse(const double *x) {
  double s = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) {
      double z = x[i] * cos(x[M + j]) + x[2 * M + ((i + j) % M)];
      s += z * z * (1 + 0.1 * i);
    }
  return s;
}

double block_tasks(const double *x) {
  double y[N], s = 0;
#pragma omp parallel shared(y, s)
  {
#pragma omp single
    {
      for (int b = 0; b < N; b += 5) {
#pragma omp task firstprivate(b) shared(y)
        for (int i = b; i < b + 5 && i < N; i++) y[i] = exp(0.3 * x[i]) * x[(i + 1) % N];
      }
#pragma omp taskwait
      for (int i = 0; i < N; i++) s += y[i] * y[i];
    }
  }
  return s;
}

double serial_blocks(const double *x) {
  double s = 0;
  for (int i = 0; i < N; i++) {
    double y = exp(0.3 * x[i]) * x[(i + 1) % N];
    s += y * y;
  }
  return s;
}

double dependence_chain(const double *x) {
  double u = 0, v = 0, w = 0;
#pragma omp parallel shared(u, v, w)
#pragma omp single
  {
#pragma omp task depend(out : u) shared(u)
    for (int i = 0; i < N / 2; i++) u += x[i] * x[i];
#pragma omp task depend(out : v) shared(v)
    for (int i = N / 2; i < N; i++) v += sin(x[i]);
#pragma omp task depend(in : u, v) depend(out : w) shared(u, v, w)
    w = u * v + u;
#pragma omp task depend(inout : w) shared(w)
    w = w * w;
  }
  return w;
}

double serial_chain(const double *x) {
  double u = 0, v = 0;
  for (int i = 0; i < N / 2; i++) u += x[i] * x[i];
  for (int i = N / 2; i < N; i++) v += sin(x[i]);
  double w = u * v + u;
  return w * w;
}

static double tree(const double *x, int lo, int hi) {
  if (hi - lo <= 4) {
    double s = 0;
    for (int i = lo; i < hi; i++) s += cos(x[i]) * x[i];
    return s;
  }
  int mid = (lo + hi) / 2;
  double a = 0, b = 0;
#pragma omp task shared(a) firstprivate(lo, mid)
  a = tree(x, lo, mid);
#pragma omp task shared(b) firstprivate(mid, hi)
  b = tree(x, mid, hi);
#pragma omp taskwait
  return a + b + 0.01 * a * b;
}

double task_tree(const double *x) {
  double r = 0;
#pragma omp parallel shared(r)
#pragma omp single
  r = tree(x, 0, N);
  return r;
}

static double serial_tree_rec(const double *x, int lo, int hi) {
  if (hi - lo <= 4) {
    double s = 0;
    for (int i = lo; i < hi; i++) s += cos(x[i]) * x[i];
    return s;
  }
  int mid = (lo + hi) / 2;
  double a = serial_tree_rec(x, lo, mid), b = serial_tree_rec(x, mid, hi);
  return a + b + 0.01 * a * b;
}
double serial_tree(const double *x) { return serial_tree_rec(x, 0, N); }

static int defer;
double if_clause(const double *x) {
  double y[N], s = 0;
#pragma omp parallel shared(y)
#pragma omp single
  for (int b = 0; b < N; b += 6) {
#pragma omp task if (defer) firstprivate(b) shared(y)
    for (int i = b; i < b + 6; i++) y[i] = x[i] * x[(i + 7) % N];
  }
  for (int i = 0; i < N; i++) s += weight(i) * y[i] * y[i];
  return s;
}

double serial_if(const double *x) {
  double s = 0;
  for (int i = 0; i < N; i++) {
    double y = x[i] * x[(i + 7) % N];
    s += weight(i) * y * y;
  }
  return s;
}

double taskloop_reduction(const double *x) {
  double s = 0;
#pragma omp parallel shared(s)
#pragma omp single
#pragma omp taskloop reduction(+ : s) grainsize(3)
  for (int i = 0; i < N; i++) s += x[i] * x[i] * weight(i);
  return s * s;
}

double serial_taskloop_reduction(const double *x) {
  double s = 0;
  for (int i = 0; i < N; i++) s += x[i] * x[i] * weight(i);
  return s * s;
}

double in_reduction(const double *x) {
  double s = 0, p = 1;
#pragma omp parallel shared(s, p)
#pragma omp single
#pragma omp taskgroup task_reduction(+ : s) task_reduction(* : p)
  for (int b = 0; b < N; b += 4) {
#pragma omp task in_reduction(+ : s) in_reduction(* : p) firstprivate(b)
    for (int i = b; i < b + 4; i++) {
      s += sin(x[i]);
      p *= 1 + 0.1 * x[i];
    }
  }
  return s * p;
}

double serial_in_reduction(const double *x) {
  double s = 0, p = 1;
  for (int i = 0; i < N; i++) {
    s += sin(x[i]);
    p *= 1 + 0.1 * x[i];
  }
  return s * p;
}

double task_modifier(const double *x) {
  double s = 0;
#pragma omp parallel reduction(task, + : s)
  {
#pragma omp single
    for (int b = 0; b < N; b += 4) {
#pragma omp task in_reduction(+ : s) firstprivate(b)
      for (int i = b; i < b + 4; i++) s += x[i] * x[i] * x[(i + 3) % N];
    }
  }
  return s;
}

double serial_task_modifier(const double *x) {
  double s = 0;
  for (int i = 0; i < N; i++) s += x[i] * x[i] * x[(i + 3) % N];
  return s;
}

typedef double (*loss_fn)(const double *);
static double X[N];
static loss_fn serial_now;
static double eval(void *ctx) {
  (void)ctx;
  return serial_now(X);
}

/* Checks the reverse gradients `dx` (five repetitions) and the forward derivative
 * `jvp` along `v` of `name` against the serial program `ser`. */
static void check_one(const char *name, loss_fn par, loss_fn ser, double dx[5][N],
                      const double *v, double jvp) {
  char what[96];
  double fd[N], dot = 0;
  serial_now = ser;
  snprintf(what, sizeof what, "%s value", name);
  fz_check(what, par(X), ser(X), 1e-12);
  for (int i = 0; i < N; i++) fd[i] = fz_fd_ptr(eval, 0, &X[i]);
  snprintf(what, sizeof what, "d %s vs fd", name);
  for (int rep = 0; rep < 5; rep++) fz_check_arr(what, dx[rep], fd, N, 1e-6);
  for (int i = 0; i < N; i++) dot += dx[0][i] * v[i];
  snprintf(what, sizeof what, "%s forward <J v> = <grad, v>", name);
  fz_check(what, jvp, dot, 1e-10);
}

#define CHECK(par, ser)                                                  \
  do {                                                                   \
    double dx[5][N], v[N];                                               \
    for (int rep = 0; rep < 5; rep++) {                                  \
      fz_zero(dx[rep], N);                                               \
      __enzyme_autodiff((void *)par, enzyme_dup, X, dx[rep]);           \
    }                                                                    \
    fz_fill(v, N, -1, 1);                                                \
    double jvp = __enzyme_fwddiff((void *)par, enzyme_dup, X, v);       \
    check_one(#par, par, ser, dx, v, jvp);                               \
  } while (0)

int main(void) {
  fz_seed(27);
  fz_fill(X, N, -1, 1);
  CHECK(taskloop_lastprivate, serial_lastprivate);
  CHECK(taskloop_collapse, serial_collapse);
  CHECK(block_tasks, serial_blocks);
  CHECK(dependence_chain, serial_chain);
  CHECK(task_tree, serial_tree);
  for (defer = 0; defer < 2; defer++) CHECK(if_clause, serial_if);
  CHECK(taskloop_reduction, serial_taskloop_reduction);
  CHECK(in_reduction, serial_in_reduction);
  CHECK(task_modifier, serial_task_modifier);
  return fz_finish();
}

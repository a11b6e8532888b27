// OPT: O0 O1 O2 O3
// A fixed-capacity queue of records `{int id; double v; double *ref;}` (an int, an
// active double and a pointer to active data) shifted in place by constant-size
// overlapping `memmove`s, to the right to insert at the front and to the left to drop the
// head, as event queues and history buffers are written. The pointer's shadow must move
// with it (a shadow copy of the non-float bytes, itself overlapping), the doubles' adjoints
// must follow them back. Oracle: analytic gradient and central finite differences.
#include "fz_test.h"

typedef struct { int id; double v; double *ref; } rec;

#define CAP 5

double queue_score(double *w, const double *x) {
  rec q[CAP];
  for (int i = 0; i < CAP; i++) {
    q[i].id = i;
    q[i].v = x[i];
    q[i].ref = &w[i];
  }
  /* insert at the front: shift records 0..3 right by one (overlapping) */
  memmove(&q[1], &q[0], 4 * sizeof(rec));
  q[0].id = 9;
  q[0].v = x[5];
  q[0].ref = &w[5];
  double s = 0;
  for (int i = 0; i < CAP; i++) s += (q[i].id + 1) * q[i].v * *q[i].ref;
  /* drop the head: shift records 1..4 left by one (overlapping) */
  memmove(&q[0], &q[1], 4 * sizeof(rec));
  for (int i = 0; i < CAP - 1; i++) s += q[i].v * q[i].v * *q[i].ref * (double)q[i].id;
  return s;
}

#define N 6
static double W[N], X[N];
static double eval(void *ctx) { (void)ctx; return queue_score(W, X); }

int main(void) {
  fz_seed(753);
  fz_fill(W, N, 0.5, 1.5);
  fz_fill(X, N, -1, 1);
  double dW[N] = {0}, dX[N] = {0}, fd[N];
  __enzyme_autodiff((void *)queue_score, enzyme_dup, W, dW, enzyme_dup, X, dX);
  fz_fd_grad(eval, NULL, W, N, fd);
  fz_check_arr("d/dw (fd)", dW, fd, N, 1e-6);
  fz_fd_grad(eval, NULL, X, N, fd);
  fz_check_arr("d/dx (fd)", dX, fd, N, 1e-6);
  /* after the insert: slot 0 = (9, x5, w5), slot i = (i-1, x[i-1], w[i-1]) for i = 1..4;
   * after the drop: slot i = (i, x[i], w[i]) for i = 0..3 */
  double want_w5 = 10 * X[5];
  fz_check("d/dw5 (analytic)", dW[5], want_w5, 1e-12);
  double want_x2 = 3 * W[2] + 2 * X[2] * W[2] * 2;
  fz_check("d/dx2 (analytic)", dX[2], want_x2, 1e-12);
  return fz_finish();
}

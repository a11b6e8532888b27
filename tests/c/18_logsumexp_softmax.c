// OPT: O0 O1 O2 O3
// log-sum-exp (gradient = softmax) and a void softmax writing its output
// through a pointer (seeded with weights w: dx = J^T w).
#include "fz_test.h"

double logsumexp(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++) m = x[i] > m ? x[i] : m;
  double s = 0.0;
  for (int i = 0; i < n; i++) s += exp(x[i] - m);
  return m + log(s);
}

void softmax(const double *x, double *out, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > m) m = x[i];
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    out[i] = exp(x[i] - m);
    s += out[i];
  }
  for (int i = 0; i < n; i++) out[i] /= s;
}

#define N 24
struct ctx { double *x; double *w; };
static double eval_lse(void *c) { return logsumexp(((struct ctx *)c)->x, N); }
static double eval_wsm(void *c) {
  struct ctx *k = c;
  double o[N];
  softmax(k->x, o, N);
  double r = 0;
  for (int i = 0; i < N; i++) r += k->w[i] * o[i];
  return r;
}

int main(void) {
  fz_seed(18);
  double x[N], dx[N], sm[N], fd[N], w[N], out[N], dout[N], want[N];
  fz_fill(x, N, -3, 3);
  fz_fill(w, N, -1, 1);
  double m = x[0], s = 0;
  for (int i = 0; i < N; i++) m = x[i] > m ? x[i] : m;
  for (int i = 0; i < N; i++) s += exp(x[i] - m);
  for (int i = 0; i < N; i++) sm[i] = exp(x[i] - m) / s;

  fz_zero(dx, N);
  __enzyme_autodiff((void *)logsumexp, enzyme_dup, x, dx, enzyme_const, N);
  fz_check_arr("dlse = softmax", dx, sm, N, 1e-10);
  struct ctx c = {x, w};
  fz_fd_grad(eval_lse, &c, x, N, fd);
  fz_check_arr("dlse fd", dx, fd, N, 1e-6);

  fz_zero(dx, N);
  fz_zero(out, N);
  memcpy(dout, w, sizeof dout);
  __enzyme_autodiff((void *)softmax, enzyme_dup, x, dx, enzyme_dup, out, dout, enzyme_const, N);
  double sw = 0;
  for (int i = 0; i < N; i++) sw += sm[i] * w[i];
  for (int i = 0; i < N; i++) want[i] = sm[i] * (w[i] - sw);
  fz_check_arr("softmax primal", out, sm, N, 1e-10);
  fz_check_arr("dx = J^T w", dx, want, N, 1e-10);
  fz_fd_grad(eval_wsm, &c, x, N, fd);
  fz_check_arr("dx fd", dx, fd, N, 1e-6);
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// Cumulative max with fmax written into an output array, running max with a
// branch, and an fmax-based ReLU chain. Derivatives route to the argmax.
#include "fz_test.h"

#define N 12

void cummax(const double *x, double *out, int n) {
  double m = x[0];
  out[0] = m;
  for (int i = 1; i < n; i++) {
    m = fmax(m, x[i]);
    out[i] = m;
  }
}

double runmax_branch(const double *x, int n) {
  double m = -1e300, s = 0.0;
  for (int i = 0; i < n; i++) {
    if (x[i] > m) m = x[i];
    s += m * m;
  }
  return s;
}

double relu_chain(const double *x, int n) {
  double h = 0.3;
  for (int i = 0; i < n; i++) h = fmax(0.0, h * x[i] + 0.1) + fmin(h, x[i]) * 0.5;
  return h;
}

struct ctx { double *x; };
static double eval_relu(void *p) { return relu_chain(((struct ctx *)p)->x, N); }

int main(void) {
  fz_seed(114);
  double x[N], dx[N], out[N], dout[N], w[N], want[N];
  fz_fill(x, N, -1, 1);
  fz_fill(w, N, 0.5, 1.5);
  for (int i = 0; i < N; i++) dout[i] = w[i];
  fz_zero(dx, N);
  __enzyme_autodiff((void *)cummax, enzyme_dup, x, dx, enzyme_dupnoneed, out, dout,
                    enzyme_const, N);
  /* oracle: out[i] = x[argmax_{j<=i}] (first max for ties; none here) */
  fz_zero(want, N);
  for (int i = 0; i < N; i++) {
    int a = 0;
    for (int j = 1; j <= i; j++)
      if (x[j] > x[a]) a = j;
    want[a] += w[i];
  }
  fz_check_arr("dcummax", dx, want, N, 1e-12);
  for (int i = 0; i < N; i++) fz_check("dout zeroed", dout[i], 0.0, 0.0);

  fz_zero(dx, N);
  __enzyme_autodiff((void *)runmax_branch, enzyme_dup, x, dx, enzyme_const, N);
  fz_zero(want, N);
  for (int i = 0; i < N; i++) {
    int a = 0;
    for (int j = 1; j <= i; j++)
      if (x[j] > x[a]) a = j;
    want[a] += 2.0 * x[a];
  }
  fz_check_arr("drunmax", dx, want, N, 1e-12);

  double fd[N];
  fz_zero(dx, N);
  __enzyme_autodiff((void *)relu_chain, enzyme_dup, x, dx, enzyme_const, N);
  struct ctx c = {x};
  fz_fd_grad(eval_relu, &c, x, N, fd);
  fz_check_arr("drelu_chain", dx, fd, N, 1e-6);
  return fz_finish();
}

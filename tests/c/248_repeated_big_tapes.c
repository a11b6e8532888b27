// OPT: O0 O2
// Repeated reverse-mode gradients whose tapes alternate between tiny and
// very large: three loops in one function (three tape stacks at once, the
// third a nested loop with a varying inner trip count), each with its own
// length, going through a schedule such as (10,10,10), (100000,3,50),
// (50,300000,5), (1000,1000,1000), (2,2,90000), ... twice, so large stack
// buffers are kept in the per-thread pool, taken again by stacks of other
// sizes, grown, and given back. Every call is compared with a hand-written
// 4-direction tangent propagation (d/dx0, d/dx1, d/dx2, d/dp), which is
// itself validated against FD of the primal at several sizes.
#include "fz_test.h"

double big(const double *x, double p, int n1, int n2, int n3) {
  double u = x[0], v = x[1], w = x[2], s = 0.0;
  double h1 = 1.0 / (double)n1, h2 = 1.0 / (double)n2, h3 = 1.0 / (double)n3;
  for (int i = 0; i < n1; i++) u = u + h1 * (sin(p * u) - 0.5 * u);
  for (int i = 0; i < n2; i++) {
    v = v + h2 * (cos(u * v) + 0.3 * exp(-v * v) - 0.2 * v);
    s += h2 * v * v;
  }
  for (int i = 0; i < n3; i++)
    for (int j = 0; j <= i % 3; j++) w = w + h3 * (tanh(w * v + 0.1 * j) - 0.5 * w);
  return u * v + s + 0.5 * w * w + sin(w);
}

/* ---- oracle: forward tangents along x0, x1, x2, p ------------------------ */
static void big_tangent(const double *x, double p, int n1, int n2, int n3, double g[4]) {
  double u = x[0], v = x[1], w = x[2];
  double du[4] = {1, 0, 0, 0}, dv[4] = {0, 1, 0, 0}, dw[4] = {0, 0, 1, 0}, ds[4] = {0};
  double h1 = 1.0 / (double)n1, h2 = 1.0 / (double)n2, h3 = 1.0 / (double)n3;
  for (int i = 0; i < n1; i++) {
    double c = cos(p * u);
    double fu = 1.0 + h1 * (p * c - 0.5), fp = h1 * u * c;
    for (int k = 0; k < 4; k++) du[k] = fu * du[k] + (k == 3 ? fp : 0.0);
    u = u + h1 * (sin(p * u) - 0.5 * u);
  }
  for (int i = 0; i < n2; i++) {
    double sn = sin(u * v), e = exp(-v * v);
    double fv = 1.0 + h2 * (-u * sn - 0.6 * v * e - 0.2), fu = -h2 * v * sn;
    for (int k = 0; k < 4; k++) dv[k] = fv * dv[k] + fu * du[k];
    v = v + h2 * (cos(u * v) + 0.3 * e - 0.2 * v);
    for (int k = 0; k < 4; k++) ds[k] += 2.0 * h2 * v * dv[k];
  }
  for (int i = 0; i < n3; i++)
    for (int j = 0; j <= i % 3; j++) {
      double t = tanh(w * v + 0.1 * j), sech2 = 1.0 - t * t;
      double fw = 1.0 + h3 * (sech2 * v - 0.5), fv = h3 * sech2 * w;
      for (int k = 0; k < 4; k++) dw[k] = fw * dw[k] + fv * dv[k];
      w = w + h3 * (t - 0.5 * w);
    }
  for (int k = 0; k < 4; k++) g[k] = v * du[k] + u * dv[k] + ds[k] + (w + cos(w)) * dw[k];
}

static double X[3], P;
static int N1, N2, N3;
static double e_big(void *c) { (void)c; return big(X, P, N1, N2, N3); }

static void validate_oracle(int n1, int n2, int n3) {
  double g[4], fd[4];
  fz_fill(X, 3, -1, 1);
  P = fz_uniform(0.5, 2.0), N1 = n1, N2 = n2, N3 = n3;
  big_tangent(X, P, n1, n2, n3, g);
  for (int k = 0; k < 3; k++) fd[k] = fz_fd5_ptr(e_big, NULL, &X[k]);
  fd[3] = fz_fd5_ptr(e_big, NULL, &P);
  char buf[100];
  snprintf(buf, sizeof buf, "oracle vs fd (%d,%d,%d) d/d(x0,x1,x2,p)", n1, n2, n3);
  fz_check_arr(buf, g, fd, 4, 1e-8);
}

int main(void) {
  fz_seed(248);
  validate_oracle(10, 7, 5);
  validate_oracle(1000, 3, 40);
  validate_oracle(5000, 8000, 3000);

  static const int sched[][3] = {
      {10, 10, 10},      {100000, 3, 50},     {50, 300000, 5},   {1000, 1000, 1000},
      {2, 2, 90000},     {300000, 1, 7},      {7, 100000, 20},   {1, 1, 1},
      {60000, 400, 100000}, {400, 60000, 20}, {3, 250000, 3},    {150000, 20, 30000},
      {10, 50, 10},
  };
  const int ns = (int)(sizeof sched / sizeof sched[0]);
  long steps = 0;
  double t0 = fz_now_ns();
  for (int rep = 0; rep < 2; rep++)
    for (int c = 0; c < ns; c++) {
      int n1 = sched[c][0], n2 = sched[c][1], n3 = sched[c][2];
      double x[3], dx[3] = {0, 0, 0}, g[4], got[4];
      fz_fill(x, 3, -1, 1);
      double p = fz_uniform(0.5, 2.0);
      double dp = __enzyme_autodiff((void *)big, enzyme_dup, x, dx, p, enzyme_const, n1,
                                    enzyme_const, n2, enzyme_const, n3);
      big_tangent(x, p, n1, n2, n3, g);
      memcpy(got, dx, sizeof dx);
      got[3] = dp;
      char buf[100];
      snprintf(buf, sizeof buf, "rep %d (%d,%d,%d) d/d(x0,x1,x2,p)", rep, n1, n2, n3);
      fz_check_arr(buf, got, g, 4, 1e-9);
      steps += n1 + n2 + 2L * n3;
    }
  printf("info: %ld loop steps differentiated in %.1f ms (with oracles)\n", steps,
         (fz_now_ns() - t0) / 1e6);
  return fz_finish();
}

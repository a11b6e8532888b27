// OPT: O0 O2
// enzyme_const on pointers whose memory the differentiated function writes, the ways C
// programs pass scratch and log buffers: (a) a trace buffer written with active values
// (the iterates of a fixed-point loop) and never read back by the function: the gradient
// ignores it and the primal values land there; (b) a const integer workspace (a
// histogram of bins) written and read back to choose branches: only control flow; (c) a
// const double workspace written with data that does not depend on the active inputs
// (a table of weights computed from an int) and read back: inactive, correct; (d) a
// const output array next to an active one, the function returning a scalar: reverse
// mode with the const output's values checked. Forward mode for each.
// (Active values written to an enzyme_const buffer and read back are refused:
// tests/errors/audit_const_store_readback.c, const_scratch_read_back_O0.c.)
// Oracle: analytic derivatives, central differences, dot-product identity.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { N = 6, IT = 5, NB = 4 };

// (a) damped fixed point z <- cos(a z) + b, trace[k] = z_k.
double fixed_point(double a, double b, double *trace) {
  double z = 0.5;
  for (int k = 0; k < IT; k++) {
    z = 0.5 * z + 0.5 * (cos(a * z) + b);
    trace[k] = z;
  }
  return z * z;
}

// (b)+(c): bins of x counted in a const int workspace, weights from a const double
// workspace computed from the bin counts, read back.
double binned(const double *x, int *hist, double *wts, int n) {
  for (int b = 0; b < NB; b++) hist[b] = 0;
  for (int i = 0; i < n; i++) {
    int b = (int)((x[i] + 1) * NB / 2);
    hist[b < 0 ? 0 : b >= NB ? NB - 1 : b]++;
  }
  for (int b = 0; b < NB; b++) wts[b] = 1.0 / (1 + hist[b]);
  double s = 0;
  for (int i = 0; i < n; i++) {
    int b = (int)((x[i] + 1) * NB / 2);
    b = b < 0 ? 0 : b >= NB ? NB - 1 : b;
    s += hist[b] > 1 ? wts[b] * x[i] * x[i] : wts[b] * sin(x[i]);
  }
  return s;
}

// (d) y_act = x^2 (active, dup), y_log = exp(x) (const), returns sum y_act * c.
double two_outputs(const double *x, double *y_act, double *y_log, double c, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    y_act[i] = x[i] * x[i];
    y_log[i] = exp(x[i]);
    s += c * y_act[i];
  }
  return s;
}

static double A = 0.9, B = 0.3, Xs[N];
static double eval_fp(void *c) { (void)c; double t[IT]; return fixed_point(A, B, t); }
static double eval_bin(void *c) {
  (void)c;
  int h[NB];
  double w[NB];
  return binned(Xs, h, w, N);
}

int main(void) {
  fz_seed(1287);
  char nm[48];
  // (a)
  double trace[IT] = {0};
  fz_grad2 g = __enzyme_autodiff2((void *)fixed_point, A, B, enzyme_const, trace);
  double want_tr[IT], z = 0.5;
  for (int k = 0; k < IT; k++) want_tr[k] = z = 0.5 * z + 0.5 * (cos(A * z) + B);
  fz_check_arr("(a) const trace holds the iterates", trace, want_tr, IT, 1e-15);
  fz_check("(a) d a", g.d0, fz_fd_ptr(eval_fp, 0, &A), 1e-6);
  fz_check("(a) d b", g.d1, fz_fd_ptr(eval_fp, 0, &B), 1e-6);
  double t = __enzyme_fwddiff((void *)fixed_point, A, 0.4, B, -1.1, enzyme_const, trace);
  fz_check("(a) forward = reverse", t, 0.4 * g.d0 - 1.1 * g.d1, 1e-12);
  // (b)+(c): inputs away from the bin edges (multiples of 0.5 in [-1, 1])
  for (int i = 0; i < N; i++) Xs[i] = -1 + 0.5 * (int)fz_uniform(0, 3.99) + fz_uniform(0.1, 0.4);
  Xs[1] = Xs[0] + 0.01; // two in one bin: the x^2 branch
  int hist[NB];
  double wts[NB], dx[N] = {0};
  __enzyme_autodiff((void *)binned, enzyme_dup, Xs, dx, enzyme_const, hist, enzyme_const, wts,
                    enzyme_const, N);
  int hsum = 0;
  for (int b = 0; b < NB; b++) hsum += hist[b];
  fz_check("(b) const histogram filled", hsum, N, 0);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "(b,c) d x[%d]", i);
    fz_check(nm, dx[i], fz_fd_ptr(eval_bin, 0, &Xs[i]), 1e-6);
  }
  double vx[N];
  fz_fill(vx, N, -1, 1);
  double jv = __enzyme_fwddiff((void *)binned, enzyme_dup, Xs, vx, enzyme_const, hist,
                               enzyme_const, wts, enzyme_const, N);
  double vj = 0;
  for (int i = 0; i < N; i++) vj += vx[i] * dx[i];
  fz_check("(b,c) forward = reverse", jv, vj, 1e-12);
  // (d)
  double ya[N], dya[N] = {0}, ylog[N], dxx[N] = {0}, c = 1.7;
  double dc = __enzyme_autodiff((void *)two_outputs, enzyme_dup, Xs, dxx, enzyme_dup, ya, dya,
                                enzyme_const, ylog, c, enzyme_const, N);
  double sq = 0;
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "(d) d x[%d]", i);
    fz_check(nm, dxx[i], 2 * c * Xs[i], 1e-12);
    snprintf(nm, sizeof nm, "(d) const y_log[%d]", i);
    fz_check(nm, ylog[i], exp(Xs[i]), 1e-15);
    sq += Xs[i] * Xs[i];
  }
  fz_check("(d) d c", dc, sq, 1e-12);
  double tya[N] = {0};
  jv = __enzyme_fwddiff((void *)two_outputs, enzyme_dup, Xs, vx, enzyme_dup, ya, tya,
                        enzyme_const, ylog, c, 0.5, enzyme_const, N);
  vj = 0.5 * dc;
  for (int i = 0; i < N; i++) vj += vx[i] * dxx[i];
  fz_check("(d) forward = reverse", jv, vj, 1e-12);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "(d) forward d y_act[%d]", i);
    fz_check(nm, tya[i], 2 * Xs[i] * vx[i], 1e-12);
  }
  return fz_finish();
}

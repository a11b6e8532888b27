// OPT: O0 O1 O2 O3
// Reverse mode of functions returning a struct through their own `sret` pointer, called
// in Enzyme's order (usr38, from Enzyme's handling of such calls; the program is ours):
// `__enzyme_autodiff((void *)f, &seed, args...)` -- the first operand is the shadow of the
// result, holding the seed of each of its floats, and the result's primal is not passed.
// Also the order with the `sret` argument written out (`enzyme_dup, &out, &seed`), an
// active scalar argument whose adjoint the hook returns, a struct of five doubles, and a
// struct with an int member. Before usr38 Enzyme's order was "missing shadow pointer for
// argument 2". Oracles: central finite differences of <seed, f(x)> and forward mode (the
// dot-product identity <seed, J v> = <J^T seed, v>).
#include "fz_test.h"

typedef struct {
  double x, y, z;
} V3;
typedef struct {
  double m[5];
} S5;
typedef struct {
  double val;
  int iters;
  double err;
} Fit;

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_void(void *, ...);
extern V3 __enzyme_fwddiff_v3(void *, ...);

// Rotation of p about the z axis by angle t, scaled by q[0], shifted by q[1].
V3 spin(const double *p, const double *q, double t) {
  V3 r;
  r.x = q[0] * (cos(t) * p[0] - sin(t) * p[1]) + q[1];
  r.y = q[0] * (sin(t) * p[0] + cos(t) * p[1]);
  r.z = q[0] * p[2] * p[2];
  return r;
}

S5 moments(const double *x, int n) {
  S5 s = {{0, 0, 0, 0, 0}};
  for (int i = 0; i < n; i++) {
    double p = 1;
    for (int k = 0; k < 5; k++) {
      p *= x[i];
      s.m[k] += p / n;
    }
  }
  return s;
}

Fit newton_sqrt(double a) {
  Fit f = {a, 0, 0};
  for (int i = 0; i < 6; i++) {
    f.val = 0.5 * (f.val + a / f.val);
    f.iters++;
  }
  f.err = f.val * f.val - a;
  return f;
}

static double p0[3], q0[2], t0;
static V3 w3;
static double spin_dot(void *unused) {
  (void)unused;
  V3 r = spin(p0, q0, t0);
  return w3.x * r.x + w3.y * r.y + w3.z * r.z;
}

int main(void) {
  fz_seed(1460);
  fz_fill(p0, 3, -1, 1);
  q0[0] = fz_uniform(0.5, 1.5);
  q0[1] = fz_uniform(-1, 1);
  t0 = fz_uniform(-1, 1);
  w3 = (V3){fz_uniform(-1, 1), fz_uniform(-1, 1), fz_uniform(-1, 1)};

  // Enzyme's order: the seed first.
  V3 seed = w3;
  double dp[3] = {0}, dq[2] = {0};
  double dt = __enzyme_autodiff((void *)spin, &seed, p0, dp, q0, dq, t0);
  for (int i = 0; i < 3; i++) fz_check("seed first: dp", dp[i], fz_fd_ptr(spin_dot, NULL, &p0[i]), 1e-6);
  for (int i = 0; i < 2; i++) fz_check("seed first: dq", dq[i], fz_fd_ptr(spin_dot, NULL, &q0[i]), 1e-6);
  fz_check("seed first: dt", dt, fz_fd_ptr(spin_dot, NULL, &t0), 1e-6);

  // The same with the sret argument written out.
  V3 out, seed2 = w3;
  double dp2[3] = {0}, dq2[2] = {0};
  double dt2 = __enzyme_autodiff((void *)spin, enzyme_dup, &out, &seed2, enzyme_dup, p0, dp2,
                                 enzyme_dup, q0, dq2, enzyme_out, t0);
  fz_check_arr("written out: dp", dp2, dp, 3, 1e-14);
  fz_check("written out: dt", dt2, dt, 1e-14);
  V3 want = spin(p0, q0, t0);
  fz_check("written out: primal", out.z, want.z, 1e-15);

  // Dot-product identity with forward mode: <w, J v> == <J^T w, v> over (p, q, t).
  double vp[3], vq[2], vt = fz_uniform(-1, 1);
  fz_fill(vp, 3, -1, 1);
  fz_fill(vq, 2, -1, 1);
  V3 jv = __enzyme_fwddiff_v3((void *)spin, enzyme_dup, p0, vp, enzyme_dup, q0, vq, t0, vt);
  double lhs = w3.x * jv.x + w3.y * jv.y + w3.z * jv.z;
  double rhs = dt * vt;
  for (int i = 0; i < 3; i++) rhs += dp[i] * vp[i];
  for (int i = 0; i < 2; i++) rhs += dq[i] * vq[i];
  fz_check("dot-product identity", lhs, rhs, 1e-12);

  // Five moments: d/dx_i sum_k w_k mean(x^(k+1)) = sum_k w_k (k+1) x_i^k / n.
  enum { N = 7 };
  double x[N], dx[N] = {0};
  fz_fill(x, N, -1, 1);
  S5 w5 = {{0.3, -1.0, 0.5, 2.0, -0.25}};
  __enzyme_autodiff_void((void *)moments, &w5, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double g = 0, p = 1;
    for (int k = 0; k < 5; k++) {
      g += (0.3 * (k == 0) - 1.0 * (k == 1) + 0.5 * (k == 2) + 2.0 * (k == 3) - 0.25 * (k == 4)) *
           (k + 1) * p / N;
      p *= x[i];
    }
    fz_check("moments", dx[i], g, 1e-12);
  }

  // A struct with an int member: only its doubles carry seeds.
  double a = fz_uniform(1, 4);
  Fit fs = {1.0, 7, 0.5};
  double da = __enzyme_autodiff((void *)newton_sqrt, &fs, a);
  // val -> sqrt(a) (d = 1/(2 sqrt a)) and err = val^2 - a (d = 2 val dval - 1), after six steps.
  Fit f = newton_sqrt(a);
  double h = 1e-6 * a;
  Fit fp = newton_sqrt(a + h), fm = newton_sqrt(a - h);
  double fd = ((fp.val - fm.val) + 0.5 * (fp.err - fm.err)) / (2 * h);
  fz_check("struct with an int member", da, fd, 1e-6);
  fz_check("its value", f.val, sqrt(a), 1e-12);
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// Two decisions of the reverse sweep of straight-line code (issue 14, BA):
// (1) float chains computed in a block that runs once per call but does not dominate
//     the return (one side of an if) get a tape slot instead of being recomputed from
//     their cached leaves (reverse/recompute.rs): Rodrigues' rotation with sqrt, 1/theta,
//     sin, cos and cross products under `if (theta != 0)`, both branches; a value of such
//     a block used by a loop inside the same branch; the same chain inside a loop (the
//     rule does not apply there: values of a cycle keep their stack);
// (2) partials dividing by a value the primal already inverted reuse the reciprocal
//     (reverse/reciprocals.rs): r = 1/y (partial -r*r), h = 2/y, q = sqrt(z) next to
//     1/q (0.5/q becomes 0.5*(1/q)), 0.5/q, x/y next to 1/y; 3/x (not a power of two)
//     must keep its own division; the same in float, and in a loop (same block);
// (3) a load repeated under an if reads as the dominating load of the same address
//     (reverse/reload.rs), both sides of the if.
// Oracles: analytic derivatives (recips, recipsf) and five-point finite differences.
#include "fz_test.h"

static double sqsum3(const double *x) { return x[0] * x[0] + x[1] * x[1] + x[2] * x[2]; }

/* BA's projection of a point by an angle-axis camera, then a scalar of the residuals. */
double reproj(const double *cam, const double *X) {
  const double *rot = cam;
  double pt[3], out[3];
  for (int i = 0; i < 3; i++) pt[i] = X[i] - cam[3 + i];
  double sqtheta = sqsum3(rot);
  if (sqtheta != 0.0) {
    double theta = sqrt(sqtheta);
    double c = cos(theta), s = sin(theta);
    double inv = 1.0 / theta;
    double w[3] = {rot[0] * inv, rot[1] * inv, rot[2] * inv};
    double wx[3] = {w[1] * pt[2] - w[2] * pt[1], w[2] * pt[0] - w[0] * pt[2],
                    w[0] * pt[1] - w[1] * pt[0]};
    double tmp = (w[0] * pt[0] + w[1] * pt[1] + w[2] * pt[2]) * (1.0 - c);
    for (int i = 0; i < 3; i++) out[i] = pt[i] * c + wx[i] * s + w[i] * tmp;
  } else {
    double rx[3] = {rot[1] * pt[2] - rot[2] * pt[1], rot[2] * pt[0] - rot[0] * pt[2],
                    rot[0] * pt[1] - rot[1] * pt[0]};
    for (int i = 0; i < 3; i++) out[i] = pt[i] + rx[i];
  }
  double p0 = out[0] / out[2], p1 = out[1] / out[2];
  double rsq = p0 * p0 + p1 * p1;
  double L = 1.0 + cam[6] * rsq + cam[7] * rsq * rsq;
  double e0 = p0 * L - 0.3, e1 = p1 * L + 0.2;
  return e0 * e0 + sin(e1);
}

/* A chain of the branch used by a loop inside the branch (each reverse iteration reads it). */
double branch_loop(const double *a, const double *x, int n) {
  double s = 0;
  if (a[0] > 0) {
    double th = sqrt(a[0] * a[0] + a[1] * a[1]);
    double k = (a[1] / th) * cos(th) * a[2] + sin(th) * a[0] * a[2];
    for (int i = 0; i < n; i++) s += sin(k * x[i]) * x[i];
  } else {
    s = a[1] * a[2];
  }
  return s;
}

/* The same chain per iteration of a loop (stacks, not slots). */
double loop_chain(const double *a, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] > 0) {
      double th = sqrt(a[0] * a[0] + x[i] * x[i]);
      double inv = 1.0 / th;
      s += (a[1] * inv) * (x[i] * inv) * cos(th) + sin(th) * a[1] * inv;
    }
  }
  return s;
}

/* Reciprocals the primal computes. */
double recips(const double *v) {
  double x = v[0], y = v[1], z = v[2];
  double r = 1.0 / y;
  double h = 2.0 / y;
  double q = sqrt(z);
  double iq = 1.0 / q;
  double t = 3.0 / x;
  double u = x / y;
  return r * x + h * h + q * x + iq * y + t * z + u * u + 0.5 / q;
}

float recipsf(const float *v) {
  float x = v[0], y = v[1], z = v[2];
  float r = 1.0f / y;
  float h = 2.0f / y;
  float q = sqrtf(z);
  float iq = 1.0f / q;
  float t = 3.0f / x;
  float u = x / y;
  return r * x + h * h + q * x + iq * y + t * z + u * u + 0.5f / q;
}

/* Reciprocals per iteration (same block): 1/x[i] next to x[i]/... and sqrt. */
double loop_recips(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double r = 1.0 / x[i];
    double q = sqrt(x[i]);
    double iq = 4.0 / q;
    s += r * r * x[(i + 1) % n] + iq * q * r + sin(iq);
  }
  return s;
}

/* A load repeated under an if (clang -O0 keeps both loads; at O2 the clone's unrolling of
 * the loop makes the second), `out` written after it and `x` read again: the reverse sweep
 * uses the first load for the second (reverse/reload.rs). */
void reload(const double *x, double *out) {
  double s = x[0] * x[0] + x[1] * x[1];
  double r = s;
  if (s > 0.5) {
    double w[2];
    for (int i = 0; i < 2; i++) w[i] = x[i] * s;
    r = sin(w[0]) * cos(w[1]);
  }
  out[0] = r;
  out[1] = x[0] * r;
}

enum { N = 5 };
static double CAM[8], PX[3], A[3], XS[N], V[3], RX[2];
static int which;

static double eval(void *unused) {
  (void)unused;
  switch (which) {
  case 0: return reproj(CAM, PX);
  case 1: return branch_loop(A, XS, N);
  case 2: return loop_chain(A, XS, N);
  case 3: return recips(V);
  case 5: {
    double out[2];
    reload(RX, out);
    return out[0] + 0.3 * out[1];
  }
  default: return loop_recips(XS, N);
  }
}

static void check_fd(const char *name, double *x, const double *g, int n, double tol) {
  char buf[96];
  for (int i = 0; i < n; i++) {
    snprintf(buf, sizeof buf, "%s[%d] vs fd", name, i);
    fz_check(buf, g[i], fz_fd5_ptr(eval, NULL, &x[i]), tol);
  }
}

static void test_reproj(const double *rot) {
  double dcam[8] = {0}, dX[3] = {0};
  for (int i = 0; i < 3; i++) CAM[i] = rot[i];
  CAM[3] = 0.1, CAM[4] = -0.2, CAM[5] = -3.0, CAM[6] = 0.05, CAM[7] = -0.01;
  PX[0] = 0.4, PX[1] = 0.7, PX[2] = 1.5;
  __enzyme_autodiff((void *)reproj, enzyme_dup, CAM, dcam, enzyme_dup, PX, dX);
  which = 0;
  const char *tag = rot[0] == 0.0 && rot[1] == 0.0 && rot[2] == 0.0 ? "reproj0.cam" : "reproj.cam";
  check_fd(tag, CAM, dcam, 8, 1e-6);
  check_fd(tag[6] == '0' ? "reproj0.X" : "reproj.X", PX, dX, 3, 1e-6);
}

static void want_recips(double x, double y, double z, double *g) {
  double sz = sqrt(z);
  g[0] = 1.0 / y + sz - 3.0 * z / (x * x) + 2.0 * x / (y * y);
  g[1] = -x / (y * y) - 8.0 / (y * y * y) + 1.0 / sz - 2.0 * x * x / (y * y * y);
  g[2] = x / (2.0 * sz) - y / (2.0 * z * sz) + 3.0 / x - 0.25 / (z * sz);
}

int main(void) {
  fz_seed(621);
  const double rot[3] = {0.3, -0.5, 0.8}, rot0[3] = {0, 0, 0};
  test_reproj(rot);
  test_reproj(rot0);

  for (int i = 0; i < N; i++) XS[i] = fz_uniform(0.2, 1.2);
  XS[2] = -0.4; /* one iteration skips loop_chain's branch */
  {
    double dA[3] = {0}, dX[N] = {0};
    A[0] = 0.7, A[1] = -0.4, A[2] = 0.9;
    __enzyme_autodiff((void *)branch_loop, enzyme_dup, A, dA, enzyme_dup, XS, dX,
                      enzyme_const, N);
    which = 1;
    check_fd("branch_loop.a", A, dA, 3, 1e-6);
    check_fd("branch_loop.x", XS, dX, N, 1e-6);
    double dA2[3] = {0}, dX2[N] = {0};
    A[0] = -0.7; /* the other branch */
    __enzyme_autodiff((void *)branch_loop, enzyme_dup, A, dA2, enzyme_dup, XS, dX2,
                      enzyme_const, N);
    fz_check("branch_loop.else.a1", dA2[1], A[2], 1e-12);
    fz_check("branch_loop.else.a2", dA2[2], A[1], 1e-12);
    fz_check("branch_loop.else.a0", dA2[0], 0.0, 1e-12);
  }
  {
    double dA[3] = {0}, dX[N] = {0};
    A[0] = 0.6, A[1] = 1.3, A[2] = 0.0;
    __enzyme_autodiff((void *)loop_chain, enzyme_dup, A, dA, enzyme_dup, XS, dX,
                      enzyme_const, N);
    which = 2;
    check_fd("loop_chain.a", A, dA, 2, 1e-6);
    check_fd("loop_chain.x", XS, dX, N, 1e-6);
  }
  {
    double dV[3] = {0}, want[3];
    V[0] = 0.8, V[1] = -1.7, V[2] = 2.3;
    __enzyme_autodiff((void *)recips, enzyme_dup, V, dV);
    want_recips(V[0], V[1], V[2], want);
    fz_check("recips.x", dV[0], want[0], 1e-12);
    fz_check("recips.y", dV[1], want[1], 1e-12);
    fz_check("recips.z", dV[2], want[2], 1e-12);
    which = 3;
    check_fd("recips", V, dV, 3, 1e-6);
    float vf[3] = {0.8f, -1.7f, 2.3f}, dvf[3] = {0};
    __enzyme_autodiff((void *)recipsf, enzyme_dup, vf, dvf);
    want_recips(vf[0], vf[1], vf[2], want);
    fz_check("recipsf.x", dvf[0], want[0], 1e-5);
    fz_check("recipsf.y", dvf[1], want[1], 1e-5);
    fz_check("recipsf.z", dvf[2], want[2], 1e-5);
  }
  {
    double dX[N] = {0};
    for (int i = 0; i < N; i++) XS[i] = fz_uniform(0.3, 1.5);
    __enzyme_autodiff((void *)loop_recips, enzyme_dup, XS, dX, enzyme_const, N);
    which = 4;
    check_fd("loop_recips", XS, dX, N, 1e-6);
  }
  for (int k = 0; k < 2; k++) {
    double dRX[2] = {0}, out[2], dout[2] = {1.0, 0.3};
    RX[0] = k ? 0.2 : 0.9, RX[1] = k ? -0.3 : -0.7; /* both sides of the if */
    __enzyme_autodiff((void *)reload, enzyme_dup, RX, dRX, enzyme_dupnoneed, out, dout);
    which = 5;
    check_fd(k ? "reload.else" : "reload.then", RX, dRX, 2, 1e-6);
  }
  return fz_finish();
}

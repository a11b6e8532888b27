// OPT: O0 O2
// Batch mode as Enzyme's BatchMode tests use it, over derivative code: `__enzyme_batch`
// of a void function that computes a gradient with `__enzyme_autodiff` into a per-lane
// output array (enzyme_vector of pointers: each lane its own parameters and its own
// gradient buffer, enzyme_scalar for the shared data and its length), a batch of a
// function returning a Hessian-vector product by forward over reverse, and a batch of
// the loss itself returning a struct of lane values.
// Oracles: the same functions called lane by lane, analytic gradients of a logistic
// regression loss, central differences of the gradient for the HVP.
#include "fz_test.h"

extern int enzyme_width, enzyme_scalar, enzyme_vector;
extern double __enzyme_fwddiff(void *, ...);
typedef struct { double l[3]; } lanes3;
extern lanes3 __enzyme_batch(void *, ...);
extern void __enzyme_batch_void(void *, ...);

#define D 4
#define NS 10
// mean logistic loss of weights w on samples (rows of X, labels y in {0, 1}) plus ridge
double logloss(const double *w, const double *X, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double z = 0;
    for (int j = 0; j < D; j++) z += X[i * D + j] * w[j];
    // log(1 + e^z) - y z, written stably
    s += (z > 0 ? z + log1p(exp(-z)) : log1p(exp(z))) - y[i] * z;
  }
  double r = 0;
  for (int j = 0; j < D; j++) r += w[j] * w[j];
  return s / n + 0.05 * r;
}

void grad_lane(const double *w, double *gw, const double *X, const double *y, int n) {
  for (int j = 0; j < D; j++) gw[j] = 0;
  __enzyme_autodiff((void *)logloss, enzyme_dup, w, gw, enzyme_const, X, enzyme_const, y,
                    enzyme_const, n);
}

// H v by forward over reverse: the tangent of grad_lane along v
void hvp_lane(const double *w, const double *v, double *hv, const double *X, const double *y,
              int n) {
  double gw[D], dgw[D];
  __enzyme_fwddiff((void *)grad_lane, enzyme_dup, w, v, enzyme_dup, gw, dgw, enzyme_const, X,
                   enzyme_const, y, enzyme_const, n);
  for (int j = 0; j < D; j++) hv[j] = dgw[j];
}

static double X[NS * D], Y[NS];
static int ns = NS;

static void grad_ref(const double *w, double *g) {
  for (int j = 0; j < D; j++) g[j] = 0.1 * w[j];
  for (int i = 0; i < NS; i++) {
    double z = 0;
    for (int j = 0; j < D; j++) z += X[i * D + j] * w[j];
    double p = 1 / (1 + exp(-z));
    for (int j = 0; j < D; j++) g[j] += (p - Y[i]) * X[i * D + j] / NS;
  }
}

int main(void) {
  fz_seed(1315);
  fz_fill(X, NS * D, -1.5, 1.5);
  for (int i = 0; i < NS; i++) Y[i] = fz_uniform(0, 1) > 0.5;
  double w[3][D], g[3][D], v[3][D], hv[3][D];
  for (int k = 0; k < 3; k++) fz_fill(w[k], D, -1, 1), fz_fill(v[k], D, -1, 1);

  lanes3 L = __enzyme_batch((void *)logloss, enzyme_width, 3, enzyme_vector, w[0], w[1], w[2],
                            enzyme_scalar, X, enzyme_scalar, Y, enzyme_scalar, ns);
  for (int k = 0; k < 3; k++) fz_check("batched loss", L.l[k], logloss(w[k], X, Y, ns), 1e-15);

  __enzyme_batch_void((void *)grad_lane, enzyme_width, 3, enzyme_vector, w[0], w[1], w[2],
                      enzyme_vector, g[0], g[1], g[2], enzyme_scalar, X, enzyme_scalar, Y,
                      enzyme_scalar, ns);
  for (int k = 0; k < 3; k++) {
    double want[D];
    grad_ref(w[k], want);
    fz_check_arr("batched gradient", g[k], want, D, 1e-12);
  }

  __enzyme_batch_void((void *)hvp_lane, enzyme_width, 3, enzyme_vector, w[0], w[1], w[2],
                      enzyme_vector, v[0], v[1], v[2], enzyme_vector, hv[0], hv[1], hv[2],
                      enzyme_scalar, X, enzyme_scalar, Y, enzyme_scalar, ns);
  for (int k = 0; k < 3; k++) {
    // central differences of the reference gradient along v
    double h = 1e-6, wp[D], wm[D], gp[D], gm[D], want[D];
    for (int j = 0; j < D; j++) wp[j] = w[k][j] + h * v[k][j], wm[j] = w[k][j] - h * v[k][j];
    grad_ref(wp, gp);
    grad_ref(wm, gm);
    for (int j = 0; j < D; j++) want[j] = (gp[j] - gm[j]) / (2 * h);
    fz_check_arr("batched hvp fd", hv[k], want, D, 1e-7);
    double one[D];
    hvp_lane(w[k], v[k], one, X, Y, ns);
    fz_check_arr("batched hvp = one lane", hv[k], one, D, 0);
  }
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// CFLAGS: -ffast-math
// BA's Jacobian the way ADBench's and Enzyme's harnesses assemble it (issue 14, ba9):
// per observation two reverse sweeps of the two-output reprojection error with seeds
// (1,0) and (0,1), each into a row the caller has just zeroed with memset, `err` passed
// as enzyme_dupnoneed; then one sweep per observation of the weight error. What BA's
// gradient time relies on in this shape (one sin and one cos per sweep, read back by the
// reverse sweep; no read of the zeroed row after inlining) is pinned by
// tests/filetests/harness_rows_one_sincos_per_sweep.ll; this program checks the values.
// Cameras with and without rotation (both sides of `if (sqtheta != 0)`), a point shared
// by two observations, a camera shared by three.
// Oracles: analytic partials for f, (u0, v0), k1, k2, w, X = -C, the weight error, and
// five-point finite differences of the primal for all 15 entries of both rows.
#include "fz_test.h"
#include <string.h>

#define NCAM 11 /* r(3) C(3) f u0 v0 k1 k2 */

static void rodrigues(const double *rot, const double *pt, double *out) {
  double sq = rot[0] * rot[0] + rot[1] * rot[1] + rot[2] * rot[2];
  if (sq != 0.0) {
    double theta = sqrt(sq);
    double c = cos(theta), s = sin(theta), inv = 1.0 / theta;
    double w[3];
    for (int i = 0; i < 3; i++) w[i] = rot[i] * inv;
    double wx[3] = {w[1] * pt[2] - w[2] * pt[1], w[2] * pt[0] - w[0] * pt[2],
                    w[0] * pt[1] - w[1] * pt[0]};
    double tmp = (w[0] * pt[0] + w[1] * pt[1] + w[2] * pt[2]) * (1.0 - c);
    for (int i = 0; i < 3; i++) out[i] = pt[i] * c + wx[i] * s + w[i] * tmp;
  } else {
    double rx[3] = {rot[1] * pt[2] - rot[2] * pt[1], rot[2] * pt[0] - rot[0] * pt[2],
                    rot[0] * pt[1] - rot[1] * pt[0]};
    for (int i = 0; i < 3; i++) out[i] = pt[i] + rx[i];
  }
}

/* Differentiated: the two residuals of one observation (bench/src/ba.c's shape). */
void reproj_error(const double *cam, const double *X, const double *w, const double *feat,
                  double *err) {
  double Y[3], Z[3];
  for (int i = 0; i < 3; i++) Y[i] = X[i] - cam[3 + i];
  rodrigues(cam, Y, Z);
  double p0 = Z[0] / Z[2], p1 = Z[1] / Z[2];
  double rsq = p0 * p0 + p1 * p1;
  double L = 1.0 + cam[9] * rsq + cam[10] * rsq * rsq;
  err[0] = (*w) * (p0 * L * cam[6] + cam[7] - feat[0]);
  err[1] = (*w) * (p1 * L * cam[6] + cam[8] - feat[1]);
}

/* Differentiated: the weight residual. */
void weight_error(const double *w, double *err) { *err = 1.0 - (*w) * (*w); }

enum { NC = 2, NP = 3, NO = 4 };
static double cams[NC * NCAM], Xs[NP * 3], ws[NO], feats[NO * 2];
static const int obs[NO * 2] = {0, 0, 1, 1, 0, 2, 0, 1}; /* (camera, point) */
static double vals[NO * 30], wvals[NO];

/* The harness's assembly: rows [dcam(11), dX(3), dw] per residual. */
static void jacobian(void) {
  for (int i = 0; i < NO; i++) {
    const double *cam = &cams[obs[2 * i] * NCAM], *X = &Xs[obs[2 * i + 1] * 3];
    for (int r = 0; r < 2; r++) {
      double *row = &vals[30 * i + 15 * r];
      double err[2], derr[2] = {r == 0, r == 1};
      memset(row, 0, sizeof(double) * 15);
      __enzyme_autodiff((void *)reproj_error, enzyme_dup, cam, row, enzyme_dup, X,
                        row + NCAM, enzyme_dup, &ws[i], row + 14, enzyme_const,
                        &feats[2 * i], enzyme_dupnoneed, err, derr);
    }
  }
  for (int i = 0; i < NO; i++) {
    double err, derr = 1.0, dw = 0.0;
    __enzyme_autodiff((void *)weight_error, enzyme_dup, &ws[i], &dw, enzyme_dupnoneed, &err,
                      &derr);
    wvals[i] = dw;
  }
}

/* Finite differences: residual `which_r` of observation `which_o` as a function of one of
 * its inputs (fz_fd5_ptr perturbs the input in place). */
static int which_o, which_r;
static double eval(void *unused) {
  (void)unused;
  double err[2];
  int i = which_o;
  reproj_error(&cams[obs[2 * i] * NCAM], &Xs[obs[2 * i + 1] * 3], &ws[i], &feats[2 * i], err);
  return err[which_r];
}

/* The projection before focal length and offset, q = L p (for the analytic partials). */
static void undistorted(const double *cam, const double *X, double *p, double *rsq,
                        double *L) {
  double Y[3], Z[3];
  for (int k = 0; k < 3; k++) Y[k] = X[k] - cam[3 + k];
  rodrigues(cam, Y, Z);
  p[0] = Z[0] / Z[2], p[1] = Z[1] / Z[2];
  *rsq = p[0] * p[0] + p[1] * p[1];
  *L = 1.0 + cam[9] * *rsq + cam[10] * *rsq * *rsq;
}

int main(void) {
  fz_seed(623);
  const double cam0[NCAM] = {0.3, -0.5, 0.8, 0.1, -0.2, -3.0, 1.4, 0.05, -0.03, 0.05, -0.01};
  const double cam1[NCAM] = {0.0, 0.0, 0.0, -0.1, 0.3, -2.5, 0.9, -0.02, 0.04, -0.04, 0.02};
  memcpy(cams, cam0, sizeof cam0);
  memcpy(cams + NCAM, cam1, sizeof cam1);
  for (int k = 0; k < NP * 3; k++) Xs[k] = fz_uniform(-0.8, 0.8);
  for (int i = 0; i < NO; i++) ws[i] = fz_uniform(0.5, 1.5);
  for (int k = 0; k < NO * 2; k++) feats[k] = fz_uniform(-0.3, 0.3);
  jacobian();

  char buf[96];
  for (int i = 0; i < NO; i++) {
    double *cam = &cams[obs[2 * i] * NCAM], *X = &Xs[obs[2 * i + 1] * 3];
    double p[2], rsq, L;
    undistorted(cam, X, p, &rsq, &L);
    double w = ws[i], f = cam[6];
    for (int r = 0; r < 2; r++) {
      const double *row = &vals[30 * i + 15 * r];
      double proj = p[r] * L * f + cam[7 + r];
      snprintf(buf, sizeof buf, "obs%d.r%d d/df", i, r);
      fz_check(buf, row[6], w * p[r] * L, 1e-10);
      snprintf(buf, sizeof buf, "obs%d.r%d d/du0", i, r);
      fz_check(buf, row[7], r == 0 ? w : 0.0, 1e-12);
      snprintf(buf, sizeof buf, "obs%d.r%d d/dv0", i, r);
      fz_check(buf, row[8], r == 1 ? w : 0.0, 1e-12);
      snprintf(buf, sizeof buf, "obs%d.r%d d/dk1", i, r);
      fz_check(buf, row[9], w * f * p[r] * rsq, 1e-10);
      snprintf(buf, sizeof buf, "obs%d.r%d d/dk2", i, r);
      fz_check(buf, row[10], w * f * p[r] * rsq * rsq, 1e-10);
      snprintf(buf, sizeof buf, "obs%d.r%d d/dw", i, r);
      fz_check(buf, row[14], proj - feats[2 * i + r], 1e-10);
      for (int k = 0; k < 3; k++) {
        snprintf(buf, sizeof buf, "obs%d.r%d dX%d = -dC%d", i, r, k, k);
        fz_check(buf, row[NCAM + k], -row[3 + k], 1e-12);
      }
      which_o = i, which_r = r;
      for (int k = 0; k < NCAM; k++) {
        snprintf(buf, sizeof buf, "obs%d.r%d dcam[%d] vs fd", i, r, k);
        fz_check(buf, row[k], fz_fd5_ptr(eval, NULL, &cam[k]), 1e-7);
      }
      for (int k = 0; k < 3; k++) {
        snprintf(buf, sizeof buf, "obs%d.r%d dX[%d] vs fd", i, r, k);
        fz_check(buf, row[NCAM + k], fz_fd5_ptr(eval, NULL, &X[k]), 1e-7);
      }
      snprintf(buf, sizeof buf, "obs%d.r%d dw vs fd", i, r);
      fz_check(buf, row[14], fz_fd5_ptr(eval, NULL, &ws[i]), 1e-7);
    }
    snprintf(buf, sizeof buf, "obs%d d(1-w^2)/dw", i);
    fz_check(buf, wvals[i], -2.0 * ws[i], 1e-12);
  }
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// CFLAGS: -ffast-math
// BA's reprojection error differentiated from several straight-line call sites in one
// function (issue 14, ba11): what users' flags make of the harness's two-seed loop once it
// is unrolled. A gradient that user code calls from 2 to 4 places is inlined into its
// callers (`entry_inline.rs`, pinned by tests/filetests/gradient_called_twice_inlined.ll),
// where the caller's zeroed rows and constant seeds fold into it. This program checks that
// every inlined copy keeps the call's semantics:
// * two sites, seeds (1,0) and (0,1), each into a row just zeroed (the harness);
// * three sites into one row that is NOT zeroed between them (adjoints accumulate onto
//   random values), seeds (1,0), (0,1), (0.5,-2), the output `enzyme_dup` (its primal
//   value must be written) and its shadow zeroed by each call (read back after each);
// * five sites (above the rule's limit: the gradient stays a call), five seeds.
// Each caller differentiates its own wrapper of the kernel (a gradient function is shared
// by all its call sites in the module, and the rule counts them all). Cameras with and
// without rotation (both sides of Rodrigues' `if (theta^2 != 0)`).
// Oracles: five-point finite differences of the primal for all 2 x 15 partials (camera
// 11, point 3, weight 1), and the seeds' combinations of them for the other callers.
#include "fz_test.h"
#include <string.h>

#define NCAM 11 /* r(3) C(3) f u0 v0 k1 k2 */
#define NIN 15  /* cam(11) X(3) w */

/* Always inlined, so that each differentiated wrapper holds the whole kernel (as
 * bench/src/ba.c's compute_reproj_error does after clang's inliner). */
#define KERNEL static inline __attribute__((always_inline))

KERNEL void rodrigues(const double *rot, const double *pt, double *out) {
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

/* bench/src/ba.c's reprojection error: rotation, perspective division, radial
 * distortion, focal length and offset, weight. */
KERNEL void reproj(const double *cam, const double *X, const double *w, const double *feat,
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

/* One differentiated function per caller (see the header); the callers stay apart (each
 * within the rule's cap on what one caller grows by). */
#define NOINLINE static __attribute__((noinline))

void reproj_two(const double *cam, const double *X, const double *w, const double *feat,
                double *err) {
  reproj(cam, X, w, feat, err);
}
void reproj_three(const double *cam, const double *X, const double *w, const double *feat,
                  double *err) {
  reproj(cam, X, w, feat, err);
}
void reproj_five(const double *cam, const double *X, const double *w, const double *feat,
                 double *err) {
  reproj(cam, X, w, feat, err);
}

#define SITE(fn, row, derr, act, err)                                                    \
  __enzyme_autodiff((void *)fn, enzyme_dup, cam, row, enzyme_dup, X, (row) + NCAM,        \
                    enzyme_dup, w, (row) + 14, enzyme_const, feat, act, err, derr)

/* The harness, unrolled: two seeds, each row zeroed just before its sweep. */
NOINLINE void two_sites(const double *cam, const double *X, const double *w, const double *feat,
                      double *rows) {
  double err[2], derr[2] = {1.0, 0.0};
  memset(rows, 0, NIN * sizeof(double));
  SITE(reproj_two, rows, derr, enzyme_dupnoneed, err);
  derr[0] = 0.0, derr[1] = 1.0;
  memset(rows + NIN, 0, NIN * sizeof(double));
  SITE(reproj_two, rows + NIN, derr, enzyme_dupnoneed, err);
}

/* Three sweeps accumulating into one row; err and derr read back after each. */
NOINLINE void three_sites(const double *cam, const double *X, const double *w, const double *feat,
                        double *row, double *errs, double *derrs) {
  double err[2], derr[2];
  derr[0] = 1.0, derr[1] = 0.0;
  SITE(reproj_three, row, derr, enzyme_dup, err);
  memcpy(errs, err, sizeof err), memcpy(derrs, derr, sizeof derr);
  derr[0] = 0.0, derr[1] = 1.0;
  SITE(reproj_three, row, derr, enzyme_dup, err);
  memcpy(errs + 2, err, sizeof err), memcpy(derrs + 2, derr, sizeof derr);
  derr[0] = 0.5, derr[1] = -2.0;
  SITE(reproj_three, row, derr, enzyme_dup, err);
  memcpy(errs + 4, err, sizeof err), memcpy(derrs + 4, derr, sizeof derr);
}

static const double SEEDS5[5][2] = {{1, 0}, {0, 1}, {1, 1}, {2, 0}, {0, 3}};

/* Five sites: above the rule's limit, the gradient stays one function. */
NOINLINE void five_sites(const double *cam, const double *X, const double *w, const double *feat,
                       double *rows) {
  double err[2], derr[2];
  memset(rows, 0, 5 * NIN * sizeof(double));
  derr[0] = SEEDS5[0][0], derr[1] = SEEDS5[0][1];
  SITE(reproj_five, rows, derr, enzyme_dupnoneed, err);
  derr[0] = SEEDS5[1][0], derr[1] = SEEDS5[1][1];
  SITE(reproj_five, rows + NIN, derr, enzyme_dupnoneed, err);
  derr[0] = SEEDS5[2][0], derr[1] = SEEDS5[2][1];
  SITE(reproj_five, rows + 2 * NIN, derr, enzyme_dupnoneed, err);
  derr[0] = SEEDS5[3][0], derr[1] = SEEDS5[3][1];
  SITE(reproj_five, rows + 3 * NIN, derr, enzyme_dupnoneed, err);
  derr[0] = SEEDS5[4][0], derr[1] = SEEDS5[4][1];
  SITE(reproj_five, rows + 4 * NIN, derr, enzyme_dupnoneed, err);
}

/* Finite differences: residual `which_r` as a function of one input (fz_fd5_ptr perturbs
 * it in place). */
static double g_cam[NCAM], g_X[3], g_w, g_feat[2];
static int which_r;
static double eval(void *unused) {
  (void)unused;
  double err[2];
  reproj(g_cam, g_X, &g_w, g_feat, err);
  return err[which_r];
}

static double *input(int k) { return k < NCAM ? &g_cam[k] : k < NCAM + 3 ? &g_X[k - NCAM] : &g_w; }

static void check_case(const char *name, const double *cam) {
  char buf[128];
  memcpy(g_cam, cam, sizeof g_cam);
  for (int k = 0; k < 3; k++) g_X[k] = fz_uniform(-0.8, 0.8);
  g_w = fz_uniform(0.5, 1.5);
  for (int k = 0; k < 2; k++) g_feat[k] = fz_uniform(-0.3, 0.3);

  double J[2][NIN], primal[2];
  reproj(g_cam, g_X, &g_w, g_feat, primal);
  for (int r = 0; r < 2; r++) {
    which_r = r;
    for (int k = 0; k < NIN; k++) J[r][k] = fz_fd5_ptr(eval, NULL, input(k));
  }

  double rows2[2 * NIN];
  two_sites(g_cam, g_X, &g_w, g_feat, rows2);
  for (int r = 0; r < 2; r++)
    for (int k = 0; k < NIN; k++) {
      snprintf(buf, sizeof buf, "%s two sites row %d [%d] vs fd", name, r, k);
      fz_check(buf, rows2[r * NIN + k], J[r][k], 1e-7);
    }

  double row3[NIN], start[NIN], errs[6], derrs[6];
  fz_fill(start, NIN, -1.0, 1.0);
  memcpy(row3, start, sizeof row3);
  three_sites(g_cam, g_X, &g_w, g_feat, row3, errs, derrs);
  /* seeds (1,0) + (0,1) + (0.5,-2) = (1.5, -1) */
  for (int k = 0; k < NIN; k++) {
    snprintf(buf, sizeof buf, "%s three sites accumulated [%d] vs fd", name, k);
    fz_check(buf, row3[k], start[k] + 1.5 * J[0][k] - 1.0 * J[1][k], 1e-7);
  }
  for (int s = 0; s < 3; s++)
    for (int r = 0; r < 2; r++) {
      snprintf(buf, sizeof buf, "%s three sites call %d err[%d] = primal", name, s, r);
      fz_check(buf, errs[2 * s + r], primal[r], 1e-12);
      snprintf(buf, sizeof buf, "%s three sites call %d derr[%d] consumed", name, s, r);
      fz_check(buf, derrs[2 * s + r], 0.0, 0.0);
    }

  double rows5[5 * NIN];
  five_sites(g_cam, g_X, &g_w, g_feat, rows5);
  for (int s = 0; s < 5; s++)
    for (int k = 0; k < NIN; k++) {
      snprintf(buf, sizeof buf, "%s five sites seed %d [%d] vs fd", name, s, k);
      fz_check(buf, rows5[s * NIN + k], SEEDS5[s][0] * J[0][k] + SEEDS5[s][1] * J[1][k], 1e-7);
    }
}

int main(void) {
  fz_seed(666);
  const double rotated[NCAM] = {0.3, -0.5, 0.8, 0.1, -0.2, -3.0, 1.4, 0.05, -0.03, 0.05, -0.01};
  const double plain[NCAM] = {0.0, 0.0, 0.0, -0.1, 0.3, -2.5, 0.9, -0.02, 0.04, -0.04, 0.02};
  check_case("rotated", rotated);
  check_case("no rotation", plain);
  return fz_finish();
}

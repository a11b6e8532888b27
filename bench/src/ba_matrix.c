/* BA, second formulation: the same residuals, Jacobian assembly (two reverse sweeps
 * per observation), checks and timing as ba.c, with the reprojection written the
 * way many camera models do it: the rotation matrix R = cos(t) I + sin(t) [a]x +
 * (1 - cos(t)) a a^T (a = r / t, t = |r|; I + [r]x at r = 0) built explicitly from
 * the angle-axis vector, then Z = R (X - C), the perspective division, radial
 * distortion and focal length, all in one function with scalars and small arrays. */
#define BA_REPROJ_ELSEWHERE
#include "ba.c"

void compute_reproj_error(const double *cam, const double *X, const double *w,
                          const double *feat, double *err) {
  const double *r = &cam[ROT];
  double R[3][3];
  double t2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  if (t2 != 0.0) {
    double t = sqrt(t2), c = cos(t), s = sin(t), k = 1.0 - c;
    double a[3] = {r[0] / t, r[1] / t, r[2] / t};
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) R[i][j] = k * a[i] * a[j] + (i == j ? c : 0.0);
    R[0][1] -= s * a[2];
    R[0][2] += s * a[1];
    R[1][0] += s * a[2];
    R[1][2] -= s * a[0];
    R[2][0] -= s * a[1];
    R[2][1] += s * a[0];
  } else {
    R[0][0] = R[1][1] = R[2][2] = 1.0;
    R[0][1] = -r[2];
    R[0][2] = r[1];
    R[1][0] = r[2];
    R[1][2] = -r[0];
    R[2][0] = -r[1];
    R[2][1] = r[0];
  }
  double Y[3], Z[3];
  for (int i = 0; i < 3; i++) Y[i] = X[i] - cam[CENTER + i];
  for (int i = 0; i < 3; i++) Z[i] = R[i][0] * Y[0] + R[i][1] * Y[1] + R[i][2] * Y[2];
  double px = Z[0] / Z[2], py = Z[1] / Z[2];
  double rsq = px * px + py * py;
  double L = 1.0 + cam[RAD] * rsq + cam[RAD + 1] * rsq * rsq;
  err[0] = (*w) * (cam[FOCAL] * L * px + cam[X0] - feat[0]);
  err[1] = (*w) * (cam[FOCAL] * L * py + cam[X0 + 1] - feat[1]);
}

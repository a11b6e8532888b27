/* BA: ADBench's bundle-adjustment residuals (BENCHMARKS.md section 3) and
 * their sparse Jacobian, assembled as ADBench's and Enzyme's harnesses do:
 * per observation two reverse sweeps of the 2-output reprojection error
 * (seeds (1,0) and (0,1)) and one reverse sweep of the weight error, written
 * into a CSR matrix (rows = 3p, cols = 11n + 3m + p, 31p non-zeros).  The
 * hand-written variant fills the same CSR from an analytic 2x15 block.
 */
#include "bench.h"

#define NCAM 11 /* r(3) C(3) f u0 v0 k1 k2 */
#define ROT 0
#define CENTER 3
#define FOCAL 6
#define X0 7
#define RAD 9

static double sqsum3(const double *x) { return x[0] * x[0] + x[1] * x[1] + x[2] * x[2]; }

static void cross(const double *a, const double *b, double *out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Rodrigues rotation of pt by the angle-axis vector rot. */
static void rodrigues_rotate_point(const double *rot, const double *pt, double *out) {
  double sqtheta = sqsum3(rot);
  if (sqtheta != 0.0) {
    double theta = sqrt(sqtheta);
    double costheta = cos(theta), sintheta = sin(theta);
    double theta_inverse = 1.0 / theta;
    double w[3], w_cross_pt[3];
    for (int i = 0; i < 3; i++) w[i] = rot[i] * theta_inverse;
    cross(w, pt, w_cross_pt);
    double tmp = (w[0] * pt[0] + w[1] * pt[1] + w[2] * pt[2]) * (1.0 - costheta);
    for (int i = 0; i < 3; i++) out[i] = pt[i] * costheta + w_cross_pt[i] * sintheta + w[i] * tmp;
  } else {
    double rot_cross_pt[3];
    cross(rot, pt, rot_cross_pt);
    for (int i = 0; i < 3; i++) out[i] = pt[i] + rot_cross_pt[i];
  }
}

static void radial_distort(const double *rad_params, double *proj) {
  double rsq = proj[0] * proj[0] + proj[1] * proj[1];
  double L = 1.0 + rad_params[0] * rsq + rad_params[1] * rsq * rsq;
  proj[0] *= L;
  proj[1] *= L;
}

static void project(const double *cam, const double *X, double *proj) {
  double Xo[3], Xcam[3];
  for (int i = 0; i < 3; i++) Xo[i] = X[i] - cam[CENTER + i];
  rodrigues_rotate_point(&cam[ROT], Xo, Xcam);
  proj[0] = Xcam[0] / Xcam[2];
  proj[1] = Xcam[1] / Xcam[2];
  radial_distort(&cam[RAD], proj);
  proj[0] = proj[0] * cam[FOCAL] + cam[X0];
  proj[1] = proj[1] * cam[FOCAL] + cam[X0 + 1];
}

/* Differentiated: the two reprojection residuals of one observation. A file defining
 * BA_REPROJ_ELSEWHERE before including this one (ba_matrix.c) brings its own
 * formulation and reuses the rest (Jacobian assembly, hand block, checks, timing). */
#ifdef BA_REPROJ_ELSEWHERE
void compute_reproj_error(const double *cam, const double *X, const double *w,
                          const double *feat, double *err);
#else
void compute_reproj_error(const double *cam, const double *X, const double *w,
                          const double *feat, double *err) {
  double proj[2];
  project(cam, X, proj);
  err[0] = (*w) * (proj[0] - feat[0]);
  err[1] = (*w) * (proj[1] - feat[1]);
}
#endif

/* Differentiated: the weight residual of one observation. */
void compute_zach_weight_error(const double *w, double *err) { *err = 1.0 - (*w) * (*w); }

/* The objective: all 3p residuals. */
void ba_objective(int n, int m, int p, const double *cams, const double *X, const double *w,
                  const int *obs, const double *feats, double *reproj_err, double *w_err) {
  for (int i = 0; i < p; i++)
    compute_reproj_error(&cams[obs[2 * i] * NCAM], &X[obs[2 * i + 1] * 3], &w[i],
                         &feats[2 * i], &reproj_err[2 * i]);
  for (int i = 0; i < p; i++) compute_zach_weight_error(&w[i], &w_err[i]);
  (void)n;
  (void)m;
}

/* ---- sparse Jacobian ---------------------------------------------------- */
typedef struct {
  int n, m, p;
  double *cams, *X, *w, *feats;
  int *obs;
  double *reproj_err, *w_err;
  /* CSR: rows (3p+1), cols (31p), vals (31p) */
  int *rows, *cols;
  double *vals;
} ba_ctx;

/* Writes the two rows of observation i: 15 column indices each, in ADBench's
 * order (camera, point, weight); returns the first value slot. */
static long put_block_cols(ba_ctx *c, int i) {
  long at = 30L * i;
  int cam = c->obs[2 * i], pt = c->obs[2 * i + 1];
  for (int r = 0; r < 2; r++) {
    int *cl = &c->cols[at + 15 * r];
    for (int j = 0; j < NCAM; j++) cl[j] = NCAM * cam + j;
    for (int j = 0; j < 3; j++) cl[NCAM + j] = NCAM * c->n + 3 * pt + j;
    cl[14] = NCAM * c->n + 3 * c->m + i;
    c->rows[2 * i + r + 1] = (int)(at + 15 * (r + 1));
  }
  return at;
}

static void put_weight_row(ba_ctx *c, int i, double v) {
  long at = 30L * c->p + i;
  c->cols[at] = NCAM * c->n + 3 * c->m + i;
  c->vals[at] = v;
  c->rows[2 * c->p + i + 1] = (int)(at + 1);
}

/* Jacobian by reverse-mode AD. */
static void ba_jacobian_ad(ba_ctx *c) {
  c->rows[0] = 0;
  for (int i = 0; i < c->p; i++) {
    long at = put_block_cols(c, i);
    const double *cam = &c->cams[c->obs[2 * i] * NCAM];
    const double *X = &c->X[c->obs[2 * i + 1] * 3];
    for (int r = 0; r < 2; r++) {
      double *row = &c->vals[at + 15 * r]; /* [dcam(11), dX(3), dw] */
      double err[2], derr[2] = {r == 0, r == 1};
      memset(row, 0, sizeof(double) * 15);
      __enzyme_autodiff((void *)compute_reproj_error, enzyme_dup, cam, row, enzyme_dup, X,
                        row + NCAM, enzyme_dup, &c->w[i], row + 14, enzyme_const,
                        &c->feats[2 * i], enzyme_dupnoneed, err, derr);
    }
  }
  for (int i = 0; i < c->p; i++) {
    double err, derr = 1.0, dw = 0.0;
    __enzyme_autodiff((void *)compute_zach_weight_error, enzyme_dup, &c->w[i], &dw,
                      enzyme_dupnoneed, &err, &derr);
    put_weight_row(c, i, dw);
  }
}

/* Hand-written 2x15 block (row-major) of d err / d [cam, X, w]:
 * Y = X - C, Z = R(r) Y, p = Z[0:2]/Z2, q = L(|p|^2) p, proj = f q + (u0, v0),
 * err = w (proj - feat).  With theta = |r|, a = r/theta, c = cos, s = sin:
 *   dZ/dY = R = c I + s [a]x + (1-c) a a^T,
 *   dZ/dr = v a^T + (-s [Y]x + (1-c)((a.Y) I + a Y^T)) (I - a a^T)/theta,
 *           v = dZ/dtheta = -s Y + c (a x Y) + s (a.Y) a;
 * at r = 0 (first-order branch) dZ/dY = I + [r]x and dZ/dr = -[Y]x. */
static void ba_hand_block(const double *cam, const double *X, double w, const double *feat,
                          double *J) {
  double Y[3], Z[3], R[3][3], dZr[3][3];
  for (int i = 0; i < 3; i++) Y[i] = X[i] - cam[CENTER + i];
  const double *r = &cam[ROT];
  double th2 = sqsum3(r);
  if (th2 != 0.0) {
    double th = sqrt(th2), cs = cos(th), sn = sin(th), a[3], axY[3];
    for (int i = 0; i < 3; i++) a[i] = r[i] / th;
    cross(a, Y, axY);
    double aY = a[0] * Y[0] + a[1] * Y[1] + a[2] * Y[2];
    double ax[3][3] = {{0, -a[2], a[1]}, {a[2], 0, -a[0]}, {-a[1], a[0], 0}};
    double Yx[3][3] = {{0, -Y[2], Y[1]}, {Y[2], 0, -Y[0]}, {-Y[1], Y[0], 0}};
    double v[3], M[3][3], P[3][3];
    for (int i = 0; i < 3; i++) {
      Z[i] = cs * Y[i] + sn * axY[i] + (1.0 - cs) * aY * a[i];
      v[i] = -sn * Y[i] + cs * axY[i] + sn * aY * a[i];
      for (int j = 0; j < 3; j++) {
        double id = i == j ? 1.0 : 0.0;
        R[i][j] = cs * id + sn * ax[i][j] + (1.0 - cs) * a[i] * a[j];
        M[i][j] = -sn * Yx[i][j] + (1.0 - cs) * (aY * id + a[i] * Y[j]);
        P[i][j] = (id - a[i] * a[j]) / th;
      }
    }
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        double s = v[i] * a[j];
        for (int k = 0; k < 3; k++) s += M[i][k] * P[k][j];
        dZr[i][j] = s;
      }
  } else {
    double rxY[3];
    cross(r, Y, rxY);
    double rx[3][3] = {{0, -r[2], r[1]}, {r[2], 0, -r[0]}, {-r[1], r[0], 0}};
    double Yx[3][3] = {{0, -Y[2], Y[1]}, {Y[2], 0, -Y[0]}, {-Y[1], Y[0], 0}};
    for (int i = 0; i < 3; i++) {
      Z[i] = Y[i] + rxY[i];
      for (int j = 0; j < 3; j++) {
        R[i][j] = (i == j ? 1.0 : 0.0) + rx[i][j];
        dZr[i][j] = -Yx[i][j];
      }
    }
  }
  double iz = 1.0 / Z[2];
  double p[2] = {Z[0] * iz, Z[1] * iz};
  double dpdZ[2][3] = {{iz, 0, -p[0] * iz}, {0, iz, -p[1] * iz}};
  double k1 = cam[RAD], k2 = cam[RAD + 1], f = cam[FOCAL];
  double s = p[0] * p[0] + p[1] * p[1];
  double L = 1.0 + k1 * s + k2 * s * s, dL = 2.0 * (k1 + 2.0 * k2 * s);
  double q[2] = {L * p[0], L * p[1]};
  double dqdp[2][2] = {{L + dL * p[0] * p[0], dL * p[0] * p[1]},
                       {dL * p[1] * p[0], L + dL * p[1] * p[1]}};
  for (int i = 0; i < 2; i++) {
    double A[3]; /* w f dq/dZ, row i */
    for (int j = 0; j < 3; j++)
      A[j] = w * f * (dqdp[i][0] * dpdZ[0][j] + dqdp[i][1] * dpdZ[1][j]);
    double *row = &J[15 * i];
    for (int j = 0; j < 3; j++) {
      double dr = 0, dy = 0;
      for (int k = 0; k < 3; k++) dr += A[k] * dZr[k][j], dy += A[k] * R[k][j];
      row[ROT + j] = dr;
      row[CENTER + j] = -dy;
      row[NCAM + j] = dy;
    }
    row[FOCAL] = w * q[i];
    row[X0] = i == 0 ? w : 0.0;
    row[X0 + 1] = i == 1 ? w : 0.0;
    row[RAD] = w * f * s * p[i];
    row[RAD + 1] = w * f * s * s * p[i];
    row[14] = f * q[i] + cam[X0 + i] - feat[i];
  }
}

static void ba_jacobian_hand(ba_ctx *c) {
  c->rows[0] = 0;
  for (int i = 0; i < c->p; i++) {
    long at = put_block_cols(c, i);
    ba_hand_block(&c->cams[c->obs[2 * i] * NCAM], &c->X[c->obs[2 * i + 1] * 3], c->w[i],
                  &c->feats[2 * i], &c->vals[at]);
  }
  for (int i = 0; i < c->p; i++) put_weight_row(c, i, -2.0 * c->w[i]);
}

/* ---- harness ------------------------------------------------------------ */
static void run_primal(void *p) {
  ba_ctx *c = p;
  ba_objective(c->n, c->m, c->p, c->cams, c->X, c->w, c->obs, c->feats, c->reproj_err,
               c->w_err);
  bench_sink = c->reproj_err[0];
}
static void run_grad(void *p) {
  ba_jacobian_ad(p);
  bench_sink = ((ba_ctx *)p)->vals[0];
}
static void run_hand(void *p) {
  ba_jacobian_hand(p);
  bench_sink = ((ba_ctx *)p)->vals[0];
}

/* FD of residual `fd_out` of observation 0 w.r.t. the parameter at fd_x. */
static ba_ctx *fd_c;
static int fd_out;
static double eval_obs0(void *unused) {
  (void)unused;
  double err[2];
  ba_ctx *c = fd_c;
  compute_reproj_error(&c->cams[c->obs[0] * NCAM], &c->X[c->obs[1] * 3], &c->w[0], &c->feats[0],
                       err);
  return err[fd_out];
}

static void check_jacobian(ba_ctx *c, const char *who, const char *json, const char *key,
                           const double *test_vals, int ntest) {
  char what[256];
  double tol = 1e-6;
  long p = c->p, nnz = 31L * p;
  /* sparsity: every row, every column index */
  long bad_cols = 0;
  for (long i = 0; i < p; i++) {
    int cam = c->obs[2 * i], pt = c->obs[2 * i + 1];
    for (int r = 0; r < 2; r++) {
      if (c->rows[2 * i + r + 1] != 30 * i + 15 * (r + 1)) bad_cols++;
      const int *cl = &c->cols[30 * i + 15 * r];
      for (int j = 0; j < 15; j++) {
        int want = j < NCAM ? NCAM * cam + j
                   : j < 14 ? NCAM * c->n + 3 * pt + (j - NCAM)
                            : NCAM * c->n + 3 * c->m + (int)i;
        if (cl[j] != want) bad_cols++;
      }
    }
    if (c->cols[30 * p + i] != NCAM * c->n + 3 * c->m + i) bad_cols++;
    if (c->rows[2 * p + i + 1] != 30 * p + i + 1) bad_cols++;
  }
  snprintf(what, sizeof what, "%s CSR structure (%ld rows, nnz %ld): wrong entries", who,
           3 * p, nnz);
  bench_check(what, (double)bad_cols, 0.0, 0.0);
  /* values: block 0 against the reference, every block against the formula's
   * consequence for replicated inputs (all blocks are equal) */
  double ref[15];
  if (json && key) {
    if (bench_json_nums(json, key, "J_block_row0", ref, 15) == 15) {
      snprintf(what, sizeof what, "%s block row 0 vs reference", who);
      bench_check_arr(what, &c->vals[0], ref, 15, tol);
    }
    if (bench_json_nums(json, key, "J_block_row1", ref, 15) == 15) {
      snprintf(what, sizeof what, "%s block row 1 vs reference", who);
      bench_check_arr(what, &c->vals[15], ref, 15, tol);
    }
    if (bench_json_nums(json, key, "dwerr_dw", ref, 1) == 1) {
      snprintf(what, sizeof what, "%s d w_err / d w vs reference", who);
      bench_check(what, c->vals[30 * p], ref[0], tol);
    }
  }
  if (test_vals) {
    snprintf(what, sizeof what, "%s CSR values vs ADBench test", who);
    if (ntest != nnz)
      bench_fail("ADBench test expectation has the wrong length");
    else
      bench_check_arr(what, c->vals, test_vals, nnz, tol);
  }
  /* finite differences: a few columns of observation 0's block */
  static const int picks[4] = {0, 4, 9, 12}; /* r1, C2, k1, X2 */
  fd_c = c;
  for (int r = 0; r < 2; r++) {
    fd_out = r;
    for (int q = 0; q < 4; q++) {
      int j = picks[q];
      double *x = j < NCAM ? &c->cams[c->obs[0] * NCAM + j] : &c->X[c->obs[1] * 3 + j - NCAM];
      double fd = bench_fd(eval_obs0, NULL, x, 1e-5);
      snprintf(what, sizeof what, "%s J[%d][%d] vs finite differences", who, r, j);
      bench_check(what, c->vals[15 * r + j], fd, 1e-6);
    }
    double fd = bench_fd(eval_obs0, NULL, &c->w[0], 1e-5);
    snprintf(what, sizeof what, "%s J[%d][w] vs finite differences", who, r);
    bench_check(what, c->vals[15 * r + 14], fd, 1e-6);
  }
  /* for replicated inputs every observation's block and weight entry agree with
   * observation 0's: a cheap full scan that catches per-observation mistakes */
  if (key) {
    long bad = 0;
    for (long i = 1; i < p; i++) {
      for (int j = 0; j < 30; j++)
        if (!bench_close(c->vals[30 * i + j], c->vals[j], 1e-12)) bad++;
      if (!bench_close(c->vals[30 * p + i], c->vals[30 * p], 1e-12)) bad++;
    }
    snprintf(what, sizeof what, "%s blocks of all %ld observations equal (replicated input)", who,
             p);
    bench_check(what, (double)bad, 0.0, 0.0);
  }
}

int main(int argc, char **argv) {
  bench_opts o = bench_parse(argc, argv);
  bench_reader r = bench_open(o.input);
  ba_ctx c = {0};
  c.n = (int)bench_num(&r);
  c.m = (int)bench_num(&r);
  c.p = (int)bench_num(&r);
  int n = c.n, m = c.m, p = c.p;
  double cam[NCAM], X[3], w, feat[2];
  for (int i = 0; i < NCAM; i++) cam[i] = bench_num(&r);
  for (int i = 0; i < 3; i++) X[i] = bench_num(&r);
  w = bench_num(&r);
  feat[0] = bench_num(&r);
  feat[1] = bench_num(&r);
  free(r.buf);
  /* ADBench's reader replicates the one camera/point/weight/feature */
  c.cams = malloc(sizeof(double) * NCAM * n);
  c.X = malloc(sizeof(double) * 3 * (long)m);
  c.w = malloc(sizeof(double) * p);
  c.feats = malloc(sizeof(double) * 2 * (long)p);
  c.obs = malloc(sizeof(int) * 2 * (long)p);
  for (int i = 0; i < n; i++) memcpy(&c.cams[i * NCAM], cam, sizeof cam);
  for (int i = 0; i < m; i++) memcpy(&c.X[3 * (long)i], X, sizeof X);
  for (int i = 0; i < p; i++) {
    c.w[i] = w;
    c.feats[2 * (long)i] = feat[0];
    c.feats[2 * (long)i + 1] = feat[1];
    c.obs[2 * (long)i] = i % n;
    c.obs[2 * (long)i + 1] = i % m;
  }
  c.reproj_err = malloc(sizeof(double) * 2 * (long)p);
  c.w_err = malloc(sizeof(double) * p);
  c.rows = calloc(3 * (size_t)p + 1, sizeof(int));
  c.cols = calloc(31 * (size_t)p, sizeof(int));
  c.vals = calloc(31 * (size_t)p, sizeof(double));
  printf("INFO ba n=%d m=%d p=%d jacobian %ld x %ld nnz %ld\n", n, m, p, 3L * p,
         11L * n + 3L * m + p, 31L * p);

  char path[1024];
  snprintf(path, sizeof path, "%s/reference/ba_reference.json", o.data);
  char *json = bench_slurp(path);
  const char *key = strstr(o.input, "ba/ba");
  if (json && key && !strstr(json, key)) key = NULL;
  double *test_vals = NULL;
  int ntest = 0;
  double ref[2];
  run_primal(&c);
  if (json && key) {
    if (bench_json_nums(json, key, "reproj_err_each_obs", ref, 2) == 2) {
      bench_check("reproj_err[0] vs reference", c.reproj_err[0], ref[0], 1e-8);
      bench_check("reproj_err[1] vs reference", c.reproj_err[1], ref[1], 1e-8);
    }
    if (bench_json_nums(json, key, "w_err_each_obs", ref, 1) == 1)
      bench_check("w_err vs reference", c.w_err[p - 1], ref[0], 1e-8);
  } else if (strstr(o.input, "ba/test.txt")) {
    snprintf(path, sizeof path, "%s/reference/adbench_test_expectations.json", o.data);
    char *tj = bench_slurp(path);
    if (tj) {
      const char *sec = strstr(tj, "\"ba_test\"");
      if (sec && bench_json_nums(sec, NULL, "reproj_err_pair", ref, 2) == 2) {
        bench_check("reproj_err[0] vs ADBench test", c.reproj_err[0], ref[0], 1e-8);
        bench_check("reproj_err[1] vs ADBench test", c.reproj_err[1], ref[1], 1e-8);
      }
      test_vals = malloc(sizeof(double) * 31 * (size_t)p);
      ntest = sec ? bench_json_nums(sec, NULL, "J_vals", test_vals, 31 * p) : 0;
      free(tj);
    }
  }
  if (o.grad) {
    run_grad(&c);
    check_jacobian(&c, "autodiff", json, key, test_vals, ntest);
  }
  if (o.hand) {
    memset(c.vals, 0, sizeof(double) * 31 * (size_t)p);
    run_hand(&c);
    check_jacobian(&c, "hand-written", json, key, test_vals, ntest);
  }
  free(json);
  free(test_vals);
  if (bench_failures) return bench_finish();

  if (o.primal) bench_measure("primal", run_primal, &c, &o);
  if (o.grad) bench_measure("grad", run_grad, &c, &o);
  if (o.hand) bench_measure("hand", run_hand, &c, &o);
  return bench_finish();
}

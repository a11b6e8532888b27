// OPT: O0 O1 O2 O3
// CFLAGS: -ffast-math
// 2-D stencils whose reverse column loop, after peeling and carried streams (602), the
// loop vectorizer vectorizes with users' flags (issue 14, bruss9): the gradient's copies
// of `restrict` pointers and their shadows get `noalias` (only where a stream was
// carried and the pipeline vectorizes), and the run-time alias checks between the rows
// i - 1, i, i + 1 of one shadow stay in the loop's preheader
// (crates/ferrozyme-transform/src/streams.rs, crates/ferrozyme-cli/src/pipeline.rs).
// At the clamped boundary rows the rows coincide, the checks fail and the scalar loop
// runs: the shapes have few rows so that those are a large share. Shapes: 2-D u/v
// 5-point clamped with an odd width (a scalar remainder after the vector loop), one
// field on 5 rows (half of them boundary rows), the same with the output `dup` against
// a hand-written scatter adjoint, float, two `restrict` inputs whose shadows are the two
// halves of one buffer, and without reassoc (`float_control(precise, on)`: no streams,
// nothing added). The one-field and float shapes get their streams from affine_index.rs
// reading instcombine's `(j + 0xffffffff) & 0xffffffff` as `j - 1`. Built with
// -ffast-math at O0..O3 (vectorizers on at O2/O3).
// Oracle: central finite differences (fz_fd_ptr, fz_fd_ptrf), every coordinate, and
// the hand-written adjoint.
#include "fz_test.h"

enum { W = 33, H = 12, W1 = 20, H1 = 5 };

static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }

/* u and v in two blocks of H x W, Brusselator-like reaction */
void bru2d(double *restrict out, const double *restrict x, double a) {
  const double *u = x, *v = x + H * W;
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++) {
      int ip = clampi(i + 1, H), im = clampi(i - 1, H), jp = clampi(j + 1, W),
          jm = clampi(j - 1, W);
      double uij = u[W * i + j], vij = v[W * i + j];
      double lu = u[W * im + j] + u[W * ip + j] + u[W * i + jp] + u[W * i + jm] - 4.0 * uij;
      double lv = v[W * im + j] + v[W * ip + j] + v[W * i + jp] + v[W * i + jm] - 4.0 * vij;
      out[W * i + j] = a * lu + 1.0 + uij * uij * vij - 4.4 * uij;
      out[H * W + W * i + j] = a * lv + 3.4 * uij - uij * uij * vij;
    }
}

/* one field, 5 rows: rows 0 and 4 are boundary rows (i - 1 or i + 1 clamps onto i) */
void lap5(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < H1; i++)
    for (int j = 0; j < W1; j++) {
      int ip = clampi(i + 1, H1), im = clampi(i - 1, H1), jp = clampi(j + 1, W1),
          jm = clampi(j - 1, W1);
      double c = x[W1 * i + j];
      double l = x[W1 * im + j] + x[W1 * ip + j] + x[W1 * i + jp] + x[W1 * i + jm] - 4.0 * c;
      out[W1 * i + j] = a * l + c * c * c;
    }
}

/* lap5's adjoint written by hand in scatter form: gx += J^T lam */
static void lap5_adjoint(double *gx, const double *x, const double *lam, double a) {
  for (int i = 0; i < H1; i++)
    for (int j = 0; j < W1; j++) {
      int ip = clampi(i + 1, H1), im = clampi(i - 1, H1), jp = clampi(j + 1, W1),
          jm = clampi(j - 1, W1);
      double s = lam[W1 * i + j], c = x[W1 * i + j];
      gx[W1 * im + j] += a * s;
      gx[W1 * ip + j] += a * s;
      gx[W1 * i + jp] += a * s;
      gx[W1 * i + jm] += a * s;
      gx[W1 * i + j] += -4.0 * a * s + 3.0 * c * c * s;
    }
}

/* float, one field on H rows */
void lapf(float *restrict out, const float *restrict x, float a) {
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++) {
      int ip = clampi(i + 1, H), im = clampi(i - 1, H), jp = clampi(j + 1, W),
          jm = clampi(j - 1, W);
      float c = x[W * i + j];
      float l = x[W * im + j] + x[W * ip + j] + x[W * i + jp] + x[W * i + jm] - 4.0f * c;
      out[W * i + j] = a * l + c * c;
    }
}

/* two restrict inputs (their shadows: the two halves of one buffer) */
void two_inputs(double *restrict out, const double *restrict u, const double *restrict v,
                double a) {
  for (int i = 0; i < H1; i++)
    for (int j = 0; j < W1; j++) {
      int ip = clampi(i + 1, H1), im = clampi(i - 1, H1), jp = clampi(j + 1, W1),
          jm = clampi(j - 1, W1);
      double uij = u[W1 * i + j], vij = v[W1 * i + j];
      double lu = u[W1 * im + j] + u[W1 * ip + j] + u[W1 * i + jp] + u[W1 * i + jm] - 4.0 * uij;
      out[W1 * i + j] = a * lu * vij + uij * vij * vij;
    }
}

/* without reassoc: no streams, no noalias, the scatter in memory */
void precise2d(double *restrict out, const double *restrict x, double a) {
#pragma float_control(precise, on)
  for (int i = 0; i < H1; i++)
    for (int j = 0; j < W1; j++) {
      int ip = clampi(i + 1, H1), im = clampi(i - 1, H1), jp = clampi(j + 1, W1),
          jm = clampi(j - 1, W1);
      double c = x[W1 * i + j];
      double l = x[W1 * im + j] + x[W1 * ip + j] + x[W1 * i + jp] + x[W1 * i + jm] - 4.0 * c;
      out[W1 * i + j] = a * l + c * c;
    }
}

#include "fz_stencil.h"

/* lap5 with the output dup: its shadow carries lambda in and is zeroed */
static void check_lap5_dup(void) {
  enum { n = H1 * W1 };
  ctx_t c = setup(lap5, n);
  double dout[n], gx[n], hand[n];
  memcpy(dout, c.lam, sizeof dout);
  memset(gx, 0, sizeof gx);
  memset(hand, 0, sizeof hand);
  __enzyme_autodiff((void *)lap5, enzyme_dup, c.out, dout, enzyme_dup, c.x, gx, enzyme_const,
                    c.a);
  lap5_adjoint(hand, c.x, c.lam, c.a);
  fz_check_arr("lap5 dx vs hand-written adjoint", gx, hand, n, 1e-12);
  double left = 0;
  for (int i = 0; i < n; i++) left += fabs(dout[i]);
  fz_check("lap5 output shadow zeroed", left, 0.0, 0.0);
  check_grad("lap5 (dup)", &c, gx);
}

typedef struct {
  float *x, *out, *lam;
} fctx_t;

static float dotf(void *q) {
  fctx_t *c = q;
  lapf(c->out, c->x, 1.5f);
  float s = 0;
  for (int i = 0; i < H * W; i++) s += c->lam[i] * c->out[i];
  return s;
}

static void check_lapf(void) {
  enum { n = H * W };
  static float x[n], out[n], lam[n], dout[n], gx[n], want[n];
  for (int i = 0; i < n; i++) {
    x[i] = 0.3f + 0.5f * sinf(1.7f * i + 0.2f);
    lam[i] = 1.0f + 0.25f * cosf(0.9f * i);
  }
  memcpy(dout, lam, sizeof dout);
  __enzyme_autodiff((void *)lapf, enzyme_dupnoneed, out, dout, enzyme_dup, x, gx, enzyme_const,
                    1.5f);
  fctx_t c = {x, out, lam};
  for (int i = 0; i < n; i++) want[i] = fz_fd_ptrf(dotf, &c, &x[i]);
  fz_check_arrf("lapf dx", gx, want, n, 1e-2);
}

typedef struct {
  double *u, *v, *out, *lam;
} tctx_t;

static double dot_two(void *q) {
  tctx_t *c = q;
  two_inputs(c->out, c->u, c->v, 0.7);
  double s = 0;
  for (int i = 0; i < H1 * W1; i++) s += c->lam[i] * c->out[i];
  return s;
}

static void check_two_inputs(void) {
  enum { n = H1 * W1 };
  double u[n], v[n], out[n], lam[n], dout[n], g[2 * n], want[2 * n];
  for (int i = 0; i < n; i++) {
    u[i] = 0.4 + 0.3 * sin(0.8 * i);
    v[i] = 0.9 - 0.2 * cos(1.3 * i);
    lam[i] = 1.0 - 0.01 * i;
  }
  memcpy(dout, lam, sizeof dout);
  memset(g, 0, sizeof g);
  __enzyme_autodiff((void *)two_inputs, enzyme_dupnoneed, out, dout, enzyme_dup, u, g,
                    enzyme_dup, v, g + n, enzyme_const, 0.7);
  tctx_t c = {u, v, out, lam};
  fz_fd_grad(dot_two, &c, u, n, want);
  fz_fd_grad(dot_two, &c, v, n, want + n);
  fz_check_arr("two_inputs du, dv", g, want, 2 * n, 1e-6);
}

int main(void) {
  CHECK_SHAPE(bru2d, 2 * H * W);
  CHECK_SHAPE(lap5, H1 * W1);
  CHECK_SHAPE(precise2d, H1 * W1);
  check_lap5_dup();
  check_lapf();
  check_two_inputs();
  return fz_finish();
}

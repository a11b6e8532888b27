// OPT: O1 O2 O3
// CFLAGS: -ffast-math
// Clamped 2-D stencils compiled WITH -ffast-math (users' flags, issue 14, bruss18): the
// reverse column loop's iterations commute (every adjoint add `reassoc`, the seed's
// read-and-zero of its own cell, no tape, no impure call), so it runs upwards
// (crates/ferrozyme-transform/src/stream_upward.rs) and its carried streams rise
// (streams.rs: the cell left behind is the one below the anchor, the open cells are
// flushed on the exit edge), one element per iteration: the u/v Brusselator, a
// one-field Laplacian, a 1-D three-point stencil. `inter` (u and v of a cell
// interleaved in one array) is NOT run upwards (each iteration zeroes two seed cells of
// one object, which stream_upward.rs does not prove apart yet): it keeps the falling
// stride-2 streams, checked here under fast-math all the same. Compiled with clang's
// default x86-64 (SSE2), the shape bench/src/brusselator.c has at users' -O2
// -ffast-math; tests/c/787 is the same program with AVX2.
// Oracles: the hand-written vector-Jacobian product in gather form for the Brusselator
// (analytic, 1e-10: fast-math regroups sums), central finite differences (fz_fd_grad,
// fz_fd_ptr) of lambda . F for every coordinate and parameter of every shape.
#include "fz_test.h"

enum { H = 9, W = 13, HW = H * W };

static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }

/* the Brusselator's right-hand side (bench/src/brusselator.c), u and v blocks */
void bruss(double *restrict du, double *restrict dv, const double *restrict u,
           const double *restrict v, const double *restrict p) {
  double A = p[0], B = p[1], alpha = p[2];
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++) {
      int ip = clampi(i + 1, H), im = clampi(i - 1, H);
      int jp = clampi(j + 1, W), jm = clampi(j - 1, W);
      double uij = u[W * i + j], vij = v[W * i + j];
      double lu = u[W * im + j] + u[W * ip + j] + u[W * i + jp] + u[W * i + jm] - 4.0 * uij;
      double lv = v[W * im + j] + v[W * ip + j] + v[W * i + jp] + v[W * i + jm] - 4.0 * vij;
      du[W * i + j] = alpha * lu + B + uij * uij * vij - (A + 1.0) * uij;
      dv[W * i + j] = alpha * lv + A * uij - uij * uij * vij;
    }
}

/* one field */
void lap(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++) {
      int ip = clampi(i + 1, H), im = clampi(i - 1, H), jp = clampi(j + 1, W),
          jm = clampi(j - 1, W);
      double c = x[W * i + j];
      double l = x[W * im + j] + x[W * ip + j] + x[W * i + jp] + x[W * i + jm] - 4.0 * c;
      out[W * i + j] = a * l + c * c * c;
    }
}

/* 1-D, three points */
void line(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < HW; i++)
    out[i] = a * (x[clampi(i - 1, HW)] + x[clampi(i + 1, HW)]) - 2.0 * x[i] * x[i];
}

/* interleaved fields: u and v of a cell side by side */
#define U(i, j) (2 * (W * (i) + (j)))
#define V(i, j) (2 * (W * (i) + (j)) + 1)
void inter(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++) {
      int ip = clampi(i + 1, H), im = clampi(i - 1, H);
      int jp = clampi(j + 1, W), jm = clampi(j - 1, W);
      double uc = x[U(i, j)], vc = x[V(i, j)];
      double lu = x[U(im, j)] + x[U(ip, j)] + x[U(i, jp)] + x[U(i, jm)] - 4.0 * uc;
      double lv = x[V(im, j)] + x[V(ip, j)] + x[V(i, jp)] + x[V(i, jm)] - 4.0 * vc;
      out[U(i, j)] = a * lu + uc * uc * vc - 1.5 * uc;
      out[V(i, j)] = a * lv + 0.5 * uc - uc * uc * vc;
    }
}

#include "fz_stencil.h"

typedef struct {
  double x[2 * HW], out[2 * HW], lam[2 * HW], p[3];
} bctx_t;

static double bdot(void *q) {
  bctx_t *c = q;
  bruss(c->out, c->out + HW, c->x, c->x + HW, c->p);
  double s = 0;
  for (int i = 0; i < 2 * HW; i++) s += c->lam[i] * c->out[i];
  return s;
}

/* the hand-written VJP (gather form): the clamped neighbour sum is self-adjoint */
static void bruss_hand(const bctx_t *c, double *gx, double *gp) {
  const double *u = c->x, *v = c->x + HW, *lu = c->lam, *lv = c->lam + HW;
  double A = c->p[0], alpha = c->p[2];
  gp[0] = gp[1] = gp[2] = 0;
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++) {
      int ip = clampi(i + 1, H), im = clampi(i - 1, H), jp = clampi(j + 1, W),
          jm = clampi(j - 1, W);
      int k = W * i + j;
      double uij = u[k], vij = v[k], su = lu[k], sv = lv[k];
      double lap_u = u[W * im + j] + u[W * ip + j] + u[W * i + jp] + u[W * i + jm] - 4 * uij;
      double lap_v = v[W * im + j] + v[W * ip + j] + v[W * i + jp] + v[W * i + jm] - 4 * vij;
      double gl_u = lu[W * im + j] + lu[W * ip + j] + lu[W * i + jp] + lu[W * i + jm] - 4 * su;
      double gl_v = lv[W * im + j] + lv[W * ip + j] + lv[W * i + jp] + lv[W * i + jm] - 4 * sv;
      double uv2 = 2 * uij * vij, uu = uij * uij;
      gx[k] = alpha * gl_u + su * (uv2 - (A + 1)) + sv * (A - uv2);
      gx[HW + k] = alpha * gl_v + (su - sv) * uu;
      gp[0] += (sv - su) * uij;
      gp[1] += su;
      gp[2] += su * lap_u + sv * lap_v;
    }
}

static void check_bruss(void) {
  static bctx_t c;
  static double dout[2 * HW], gx[2 * HW], want[2 * HW], hx[2 * HW];
  double gp[3] = {0}, hp[3];
  for (int i = 0; i < 2 * HW; i++) {
    c.x[i] = 0.8 + 0.5 * sin(1.3 * i + 0.4);
    c.lam[i] = 1.0 + 0.25 * cos(0.7 * i);
  }
  c.p[0] = 3.4, c.p[1] = 1.0, c.p[2] = 10.0;
  memcpy(dout, c.lam, sizeof dout);
  __enzyme_autodiff((void *)bruss, enzyme_dupnoneed, c.out, dout, enzyme_dupnoneed,
                    c.out + HW, dout + HW, enzyme_dup, c.x, gx, enzyme_dup, c.x + HW,
                    gx + HW, enzyme_dup, c.p, gp);
  bruss_hand(&c, hx, hp);
  fz_check_arr("bruss dx (analytic)", gx, hx, 2 * HW, 1e-10);
  fz_check_arr("bruss dp (analytic)", gp, hp, 3, 1e-10);
  fz_fd_grad(bdot, &c, c.x, 2 * HW, want);
  fz_check_arr("bruss dx (fd)", gx, want, 2 * HW, 1e-6);
  for (int k = 0; k < 3; k++) {
    char what[32];
    snprintf(what, sizeof what, "bruss dp[%d] (fd)", k);
    fz_check(what, gp[k], fz_fd_ptr(bdot, &c, &c.p[k]), 1e-6);
  }
}

int main(void) {
  check_bruss();
  CHECK_SHAPE(lap, HW);
  CHECK_SHAPE(line, HW);
  CHECK_SHAPE(inter, 2 * HW);
  return fz_finish();
}

// OPT: O1 O2 O3
// CFLAGS: -ffast-math
// Clamped 2-D stencils compiled WITH -ffast-math (users' flags, issue 14, bruss18): the
// reverse column loop's iterations commute (every adjoint add `reassoc`, the seed's
// read-and-zero of its own cell, no tape, no impure call), so it runs upwards
// (crates/ferrozyme-transform/src/streams/upward.rs) and its carried streams rise
// (streams/mod.rs: the cell left behind is the one below the anchor, the open cells are
// flushed on the exit edge), one element per iteration: the u/v Brusselator, a
// one-field Laplacian, a 1-D three-point stencil. `inter` (u and v of a cell
// interleaved in one array) is NOT run upwards (each iteration zeroes two seed cells of
// one object, which streams/upward.rs does not prove apart yet): it keeps the falling
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

/* one field, the Laplacian scaled by the cell */
void lap(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++) {
      int up = clampi(i - 1, H), down = clampi(i + 1, H);
      int left = clampi(j - 1, W), right = clampi(j + 1, W);
      double c = x[W * i + j];
      double nb = x[W * up + j] + x[W * down + j] + x[W * i + left] + x[W * i + right];
      out[W * i + j] = a * c * (nb - 4.0 * c) - 0.5 * c * c;
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

#include "fz_bruss.h"

static void check_bruss(void) {
  static bctx_t c;
  static double dout[2 * HW], gx[2 * HW];
  double gp[3] = {0};
  bruss_init(&c);
  memcpy(dout, c.lam, sizeof dout);
  __enzyme_autodiff((void *)bruss, enzyme_dupnoneed, c.out, dout, enzyme_dupnoneed,
                    c.out + HW, dout + HW, enzyme_dup, c.x, gx, enzyme_dup, c.x + HW,
                    gx + HW, enzyme_dup, c.p, gp);
  bruss_check(&c, gx, gp, 1e-10);
}

int main(void) {
  check_bruss();
  CHECK_SHAPE(lap, HW);
  CHECK_SHAPE(line, HW);
  CHECK_SHAPE(inter, 2 * HW);
  return fz_finish();
}

// OPT: O1 O2 O3
// CFLAGS: -march=x86-64-v3 -ffp-contract=off
// REQUIRES: avx2 fma
// 2-D stencils with zero-flux (clamped) rows, compiled WITHOUT fast-math, whose reverse
// row loop loses its first and last rows (issue 14, bruss13;
// crates/ferrozyme-transform/src/peel_rows.rs): rows `max(i - 1, 0)` and
// `min(i + 1, H - 1)` are clamps of the outer counter that are the identity on every
// row but the boundary ones, so those two rows run as straight-line copies and the
// clamps go from the rows left; the reverse column loop then carries a value stream and
// its parameter adjoints' sums become ordinary (`reassoc`) reductions (reassoc_sums.rs,
// bruss14). Peeling and the value stream keep every operation and its order, so the
// coordinates' gradient must be bit-identical to the same function whose row count is a
// run-time argument (nothing proven about its rows: nothing peeled); the parameters'
// adjoints are summed in another grouping (the AD tool's choice, rounding only): equal
// to the twin's within 1e-13 relative. Shapes: the Brusselator (two fields, the
// parameters A, B, alpha active: their adjoints sums), a one-field Laplacian
// with the parameter constant, a stencil whose row clamp reaches two rows (`i + 2`:
// peeling refused, values only), a row loop of 3 rows (too few to peel: values only).
// Built with -ffp-contract=off: the twins' loops may be vectorized differently and
// contraction would fuse differently, both allowed, not bit-identical.
// Oracles: the twin with run-time rows (bitwise; dp within 1e-13), the hand-written vector-Jacobian
// product in gather form (analytic, 1e-12), central finite differences (fz_fd_ptr) of
// every coordinate and parameter.
#include "fz_test.h"

enum { H = 9, W = 13, HW = H * W };

static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }

/* The Brusselator's right-hand side (bench/src/brusselator.c) on an H x W grid, rows
 * `nr` (the twin: a run-time count, always H here). */
#define BRUSS(NAME, ROWS, EXTRA)                                                             \
  void NAME(double *restrict du, double *restrict dv, const double *restrict u,            \
            const double *restrict v, const double *restrict p EXTRA) {                  \
    double A = p[0], B = p[1], alpha = p[2];                                               \
    for (int i = 0; i < ROWS; i++)                                                         \
      for (int j = 0; j < W; j++) {                                                        \
        int ip = clampi(i + 1, ROWS), im = clampi(i - 1, ROWS);                            \
        int jp = clampi(j + 1, W), jm = clampi(j - 1, W);                                  \
        double uij = u[W * i + j], vij = v[W * i + j];                                     \
        double lu = u[W * im + j] + u[W * ip + j] + u[W * i + jp] + u[W * i + jm] - 4.0 * uij; \
        double lv = v[W * im + j] + v[W * ip + j] + v[W * i + jp] + v[W * i + jm] - 4.0 * vij; \
        du[W * i + j] = alpha * lu + B + uij * uij * vij - (A + 1.0) * uij;                \
        dv[W * i + j] = alpha * lv + A * uij - uij * uij * vij;                            \
      }                                                                                    \
  }
#define NR_ARG , int nr
BRUSS(bruss, H, )
BRUSS(bruss_twin, nr, NR_ARG)

/* one field, the parameter constant */
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
void lap_twin(double *restrict out, const double *restrict x, double a, int nr) {
  for (int i = 0; i < nr; i++)
    for (int j = 0; j < W; j++) {
      int ip = clampi(i + 1, nr), im = clampi(i - 1, nr), jp = clampi(j + 1, W),
          jm = clampi(j - 1, W);
      double c = x[W * i + j];
      double l = x[W * im + j] + x[W * ip + j] + x[W * i + jp] + x[W * i + jm] - 4.0 * c;
      out[W * i + j] = a * l + c * c * c;
    }
}

/* the row clamp reaches two rows: not peeled (at most one row per end) */
void far(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++) {
      int ip = clampi(i + 2, H), im = clampi(i - 1, H), jp = clampi(j + 1, W);
      double c = x[W * i + j];
      out[W * i + j] = a * x[W * im + j] * c + x[W * ip + j] * x[W * i + jp] - c * c;
    }
}

/* three rows: peeling both would leave one, fewer than the two required */
void few(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < W; j++) {
      int ip = clampi(i + 1, 3), im = clampi(i - 1, 3), jp = clampi(j + 1, W);
      double c = x[W * i + j];
      out[W * i + j] = a * (x[W * im + j] + x[W * ip + j]) * c + x[W * i + jp] * c;
    }
}

#include "fz_stencil.h"

/* ---- the Brusselator: twin, analytic, finite differences ------------------------ */
#include "fz_bruss.h"

static void check_bruss(void) {
  static bctx_t c;
  static double dout[2 * HW], gx[2 * HW], gt[2 * HW];
  double gp[3] = {0}, gq[3] = {0};
  bruss_init(&c);
  memcpy(dout, c.lam, sizeof dout);
  __enzyme_autodiff((void *)bruss, enzyme_dupnoneed, c.out, dout, enzyme_dupnoneed,
                    c.out + HW, dout + HW, enzyme_dup, c.x, gx, enzyme_dup, c.x + HW,
                    gx + HW, enzyme_dup, c.p, gp);
  memcpy(dout, c.lam, sizeof dout);
  __enzyme_autodiff((void *)bruss_twin, enzyme_dupnoneed, c.out, dout, enzyme_dupnoneed,
                    c.out + HW, dout + HW, enzyme_dup, c.x, gt, enzyme_dup, c.x + HW,
                    gt + HW, enzyme_dup, c.p, gq, enzyme_const, H);
  fz_check("bruss dx bitwise = twin", (double)memcmp(gx, gt, sizeof gx), 0.0, 0.0);
  fz_check_arr("bruss dp = twin (sums regrouped, 1e-13)", gp, gq, 3, 1e-13);
  bruss_check(&c, gx, gp, 1e-12);
}

static void check_lap(void) {
  ctx_t c = setup(lap, HW);
  double *dout = malloc(HW * sizeof(double)), *gx = calloc(HW, sizeof(double));
  double *gt = calloc(HW, sizeof(double));
  memcpy(dout, c.lam, HW * sizeof(double));
  __enzyme_autodiff((void *)lap, enzyme_dupnoneed, c.out, dout, enzyme_dup, c.x, gx,
                    enzyme_const, c.a);
  memcpy(dout, c.lam, HW * sizeof(double));
  __enzyme_autodiff((void *)lap_twin, enzyme_dupnoneed, c.out, dout, enzyme_dup, c.x, gt,
                    enzyme_const, c.a, enzyme_const, H);
  fz_check("lap dx bitwise = lap_twin", (double)memcmp(gx, gt, HW * sizeof(double)), 0.0,
           0.0);
  check_grad("lap", &c, gx);
  free(dout), free(gx), free(gt);
}

int main(void) {
  check_bruss();
  check_lap();
  CHECK_SHAPE(far, HW);
  CHECK_SHAPE(few, 3 * W);
  return fz_finish();
}

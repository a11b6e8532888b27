// OPT: O1 O2 O3
// Stencils compiled WITHOUT fast-math whose reverse column loop runs upwards while its
// neighbour updates keep their order (issue 14, perf28;
// crates/ferrozyme-transform/src/streams/rising.rs): where the pipeline vectorizes
// (O2, O3), an exact stream's loop runs upwards and carries each cell's contributions,
// added in the falling loop's order when the cell leaves the window. Every cell's sum
// must be the one of the same function without `restrict` (no stream: the scatter in
// memory, falling), bit for bit. Shapes: periodic by branches with two seed blocks of
// one output (the periodic Brusselator's shape, fz_periodic.h); a +-2 window (the
// contributions carried up to four iterations) with two adds into one neighbour per
// iteration; the same over 6 cells (its interior loop shorter than the window: the first
// iterations find no earlier contributions, the last leave cells open); a float
// stencil. Checked for values only: 3 and 2 cells (with `restrict` clang shares their
// clamped loads, so the twin sums in another order: main's binary differs from the
// twin there too), `near` (the second output block two cells
// after the first: iteration j + 2 overwrites a seed cell of iteration j, so its loop
// must keep counting down) and the parameter active (its adjoint a reduction whose
// grouping is the AD tool's, tests/c/676).
// Oracles: the twin without `restrict` (bitwise), central finite differences of
// lambda . F for every coordinate.
#include "fz_test.h"

enum { H = 5, W = 37, NB = H * W };

#define NOUNROLL _Pragma("clang loop unroll(disable)")

static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }

#include "fz_periodic.h"
FZ_PBR(pbr, restrict, H, W)
FZ_PBR(pbr_twin, , H, W)

/* +-2 window, two adds into x[i - 1]'s shadow per iteration, over n cells */
#define WIN(NAME, Q, n)                                                                     \
  void NAME(double *Q out, const double *Q x, double a) {                                   \
    NOUNROLL for (int i = 0; i < (n); i++) {                                                \
      double l2 = x[clampi(i - 2, n)], l1 = x[clampi(i - 1, n)];                            \
      double r1 = x[clampi(i + 1, n)], r2 = x[clampi(i + 2, n)];                            \
      out[i] = a * l2 * x[i] + l1 * r1 - 0.75 * l1 * l1 + r2 * 0.5 - x[i] * x[i] * x[i];    \
    }                                                                                       \
  }
WIN(win, restrict, W)
WIN(win_twin, , W)
WIN(win6, restrict, 6)
WIN(win6_twin, , 6)
WIN(win3, restrict, 3)
WIN(win3_twin, , 3)
WIN(win2, restrict, 2)
WIN(win2_twin, , 2)

#define STF(NAME, Q)                                                                        \
  void NAME(float *Q out, const float *Q x, float a) {                                      \
    NOUNROLL for (int i = 1; i < W; i++)                                                    \
      out[i] = a * x[i - 1] + x[clampi(i + 1, W)] * x[i] - x[i] * x[i] * 0.5f;               \
  }
STF(sf, restrict)
STF(sf_twin, )

/* fz_periodic.h's shape, the second block two cells after the first */
void near(double *restrict out, const double *restrict x, double a) {
  const double *u = x, *v = x + NB;
  NOUNROLL for (int i = 0; i < H; i++) {
    int ip = i == H - 1 ? 0 : i + 1, im = i == 0 ? H - 1 : i - 1;
    for (int j = 0; j < W; j++) {
      int jp = j == W - 1 ? 0 : j + 1, jm = j == 0 ? W - 1 : j - 1;
      double uc = u[W * i + j], vc = v[W * i + j];
      double lu = u[W * im + j] + u[W * ip + j] + u[W * i + jp] + u[W * i + jm] - 4.0 * uc;
      double lv = v[W * im + j] + v[W * ip + j] + v[W * i + jp] + v[W * i + jm] - 4.0 * vc;
      out[W * i + j] = a * lu + uc * uc * vc - 1.5 * uc;
      out[2 + W * i + j] = a * lv + 0.5 * uc - uc * uc * vc;
    }
  }
}

#include "fz_stencil.h"

static void check_float(void) {
  static float x[W], out[W], lam[W], dout[W], gx[W], gt[W];
  for (int i = 0; i < W; i++) {
    x[i] = 0.3f + 0.5f * sinf(1.7f * i + 0.2f);
    lam[i] = 1.0f + 0.25f * cosf(0.9f * i);
  }
  memcpy(dout, lam, sizeof dout);
  __enzyme_autodiff((void *)sf, enzyme_dupnoneed, out, dout, enzyme_dup, x, gx, enzyme_const,
                    1.5f);
  memcpy(dout, lam, sizeof dout);
  __enzyme_autodiff((void *)sf_twin, enzyme_dupnoneed, out, dout, enzyme_dup, x, gt,
                    enzyme_const, 1.5f);
  fz_check("sf bitwise = sf_twin", (double)memcmp(gx, gt, sizeof gx), 0.0, 0.0);
  for (int i = 0; i < W; i++) /* d/dx_i of lambda . F by hand */ {
    float g = 0;
    if (i >= 1) g += lam[i] * (x[clampi(i + 1, W)] - x[i]);
    if (i + 1 < W) g += lam[i + 1] * 1.5f;
    if (i >= 2) g += lam[i - 1] * x[i - 1];
    if (i == W - 1) g += lam[i] * x[i];
    fz_check("sf dx", gx[i], g, 1e-4);
  }
}

/* `a` active: dx bitwise, da against finite differences */
static void check_active(void) {
  ctx_t c = setup(pbr, 2 * NB);
  double *dout = malloc(2 * NB * sizeof(double)), *gx = calloc(2 * NB, sizeof(double));
  double *gt = calloc(2 * NB, sizeof(double));
  memcpy(dout, c.lam, 2 * NB * sizeof(double));
  double da =
      __enzyme_autodiff((void *)pbr, enzyme_dupnoneed, c.out, dout, enzyme_dup, c.x, gx, c.a);
  memcpy(dout, c.lam, 2 * NB * sizeof(double));
  double dt = __enzyme_autodiff((void *)pbr_twin, enzyme_dupnoneed, c.out, dout, enzyme_dup,
                                c.x, gt, c.a);
  fz_check("pbr dx (a active) bitwise = pbr_twin",
           (double)memcmp(gx, gt, 2 * NB * sizeof(double)), 0.0, 0.0);
  fz_check("pbr da = pbr_twin", da, dt, 1e-12);
  fz_check("pbr da", da, fz_fd_ptr(dot, &c, &c.a), 1e-6);
  check_grad("pbr (a active)", &c, gx);
  free(dout), free(gx), free(gt);
}

int main(void) {
  CHECK_EXACT(pbr, pbr_twin, 2 * NB);
  CHECK_EXACT(win, win_twin, W);
  CHECK_EXACT(win6, win6_twin, 6);
  CHECK_SHAPE(win3, 3);
  CHECK_SHAPE(win2, 2);
  check_float();
  check_active();
  CHECK_SHAPE(near, 2 * NB);
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// CFLAGS: -march=x86-64-v3 -ffp-contract=off
// REQUIRES: avx2 fma
// Stencils compiled WITHOUT fast-math whose reverse neighbour updates are carried as
// order-preserving (value) streams (issue 14, exact11;
// crates/ferrozyme-transform/src/streams/values.rs): the registers hold the cells'
// values, every add keeps its operands and order, so the gradient must be bit-identical
// to the one computed with the updates in memory. The exactness oracle is the same
// function without `restrict` (its shadows get no stream, only the scatter in memory):
// the two gradients are compared bit for bit (their loops kept rolled, see NOUNROLL),
// also with the parameter active (dx bitwise; its adjoint a reduction whose grouping is
// the AD tool's, reassoc_sums.rs: within 1e-13 of the twin's, as tests/c/676; since
// perf28 the loop runs upwards and vectorizes with it). Shapes: 1-D clamped (double, float), a
// +-2 stencil (five cells in the window), rows of a 2-D grid each a clamped 1-D stencil
// (a stream per row of the inner loop); and, checked for their values only (no stream or
// another path): a 2-D 5-point clamped stencil (rows i - 1, i + 1 of the same shadow:
// refused), periodic by `%`, in place, and a loop running down in the primal.
// Built with -ffp-contract=off: with contraction the derivative's `contract` adds may be
// fused into FMAs differently in the vectorized stream loop and the twin's scalar one,
// both allowed, not bit-identical; `s1c` keeps contraction (`#pragma clang fp
// contract(on)`) and is checked by finite differences only.
// Oracles: the twin without `restrict` (bitwise), central finite differences
// (fz_fd_ptr, fz_fd_ptrf) for every coordinate of every shape.
#include "fz_test.h"

enum { N = 37, H = 6, W = 19, NF = 29 };

static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }

/* Twins compare bit for bit only if their primal loops are the same loops: fully
 * unrolled at O3, the restrict version shares loads between iterations that the twin
 * (whose stores may alias its reads) reloads, which sums some adjoints in another
 * order. */
#define NOUNROLL _Pragma("clang loop unroll(disable)")

#define ST1(NAME, Q)                                                                        \
  void NAME(double *Q out, const double *Q x, double a) {                                   \
    NOUNROLL for (int i = 1; i < N; i++)                                                    \
      out[i] = a * x[i - 1] * x[i] + x[clampi(i + 1, N)] * x[i - 1] - 2.0 * x[i] * x[i];   \
  }
ST1(s1, restrict)
ST1(s1_twin, )

void s1c(double *restrict out, const double *restrict x, double a) {
#pragma clang fp contract(on)
  for (int i = 1; i < N; i++)
    out[i] = a * x[i - 1] * x[i] + x[clampi(i + 1, N)] * x[i - 1] - 2.0 * x[i] * x[i];
}

#define ST2(NAME, Q)                                                                        \
  void NAME(double *Q out, const double *Q x, double a) {                                   \
    NOUNROLL for (int i = 2; i < N; i++)                                                    \
      out[i] = x[i - 2] * a + x[i - 1] * x[i] + x[clampi(i + 1, N)] * x[clampi(i + 2, N)] - \
               x[i] * x[i] * 0.25;                                                          \
  }
ST2(wide, restrict)
ST2(wide_twin, )

#define ROWS(NAME, Q)                                                                       \
  void NAME(double *Q out, const double *Q x, double a) {                                   \
    NOUNROLL for (int i = 0; i < H; i++)                                                    \
      NOUNROLL for (int j = 1; j < W; j++) {                                                \
        int c = W * i + j, jp = W * i + clampi(j + 1, W);                                   \
        out[c] = a * x[c - 1] + x[jp] * x[c] - x[c] * x[c] * x[c];                          \
      }                                                                                     \
  }
ROWS(rows, restrict)
ROWS(rows_twin, )

#define STF(NAME, Q)                                                                        \
  void NAME(float *Q out, const float *Q x, float a) {                                      \
    NOUNROLL for (int i = 1; i < NF; i++)                                                   \
      out[i] = a * x[i - 1] + x[clampi(i + 1, NF)] * x[i] - x[i] * x[i] * 0.5f;             \
  }
STF(sf, restrict)
STF(sf_twin, )

/* 2-D 5-point clamped: rows i - 1, i + 1 of the same shadow (coincide with row i at the
 * boundary rows): the exact stream is refused */
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

/* periodic by % */
void per(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < N; i++)
    out[i] = a * x[(i + N - 1) % N] * x[i] + x[(i + 1) % N] - x[i] * x[i];
}

/* running down in the primal */
void down(double *restrict out, const double *restrict x, double a) {
  for (int i = N - 2; i >= 1; i--) out[i] = x[i + 1] * x[i] * a + x[i - 1] - x[i] * x[i];
}

/* in place: x[i] from the new x[i - 1], the old x[i] and x[i + 1] */
void inpl(double *restrict x, double a) {
  for (int i = 1; i < N; i++) x[i] = x[i - 1] * a * 0.25 + x[i] * x[clampi(i + 1, N)];
}

#include "fz_stencil.h"

typedef struct {
  float *x, *out, *lam;
} fctx_t;

static float dotf(void *q) {
  fctx_t *c = q;
  sf(c->out, c->x, 1.5f);
  float s = 0;
  for (int i = 0; i < NF; i++) s += c->lam[i] * c->out[i];
  return s;
}

static void check_float(void) {
  static float x[NF], out[NF], lam[NF], dout[NF], gx[NF], gt[NF], want[NF];
  for (int i = 0; i < NF; i++) {
    x[i] = 0.3f + 0.5f * sinf(1.7f * i + 0.2f);
    lam[i] = 1.0f + 0.25f * cosf(0.9f * i);
    out[i] = 0.0f;
  }
  memcpy(dout, lam, sizeof dout);
  __enzyme_autodiff((void *)sf, enzyme_dupnoneed, out, dout, enzyme_dup, x, gx, enzyme_const,
                    1.5f);
  memcpy(dout, lam, sizeof dout);
  __enzyme_autodiff((void *)sf_twin, enzyme_dupnoneed, out, dout, enzyme_dup, x, gt,
                    enzyme_const, 1.5f);
  fz_check("sf bitwise = sf_twin", (double)memcmp(gx, gt, sizeof gx), 0.0, 0.0);
  fctx_t c = {x, out, lam};
  for (int i = 0; i < NF; i++) want[i] = fz_fd_ptrf(dotf, &c, &x[i]);
  fz_check_arrf("sf dx", gx, want, NF, 1e-2);
}

/* `a` active: its adjoint is a sum over the iterations in a register, a vector
 * reduction (reassoc_sums.rs) */
static void check_active(void) {
  ctx_t c = setup(s1, N);
  double *dout = malloc(N * sizeof(double)), *gx = calloc(N, sizeof(double));
  double *gt = calloc(N, sizeof(double));
  memcpy(dout, c.lam, N * sizeof(double));
  double da = __enzyme_autodiff((void *)s1, enzyme_dupnoneed, c.out, dout, enzyme_dup, c.x, gx,
                                c.a);
  memcpy(dout, c.lam, N * sizeof(double));
  double dt = __enzyme_autodiff((void *)s1_twin, enzyme_dupnoneed, c.out, dout, enzyme_dup,
                                c.x, gt, c.a);
  fz_check("s1 da = s1_twin", da, dt, 1e-13);
  fz_check("s1 dx (a active) bitwise = s1_twin", (double)memcmp(gx, gt, N * sizeof(double)),
           0.0, 0.0);
  fz_check("s1 da", da, fz_fd_ptr(dot, &c, &c.a), 1e-6);
  check_grad("s1 (a active)", &c, gx);
  free(dout), free(gx), free(gt);
}

typedef struct {
  double *x0, *x, *lam;
} ictx_t;

static double dot_inpl(void *q) {
  ictx_t *c = q;
  memcpy(c->x, c->x0, N * sizeof(double));
  inpl(c->x, 1.5);
  double s = 0;
  for (int i = 0; i < N; i++) s += c->lam[i] * c->x[i];
  return s;
}

static void check_inpl(void) {
  double x0[N], x[N], lam[N], gx[N], want[N];
  for (int i = 0; i < N; i++) {
    x0[i] = 0.3 + 0.5 * sin(1.7 * i + 0.2);
    lam[i] = 1.0 + 0.25 * cos(0.9 * i);
  }
  memcpy(x, x0, sizeof x);
  memcpy(gx, lam, sizeof gx);
  __enzyme_autodiff((void *)inpl, enzyme_dup, x, gx, enzyme_const, 1.5);
  ictx_t c = {x0, x, lam};
  fz_fd_grad(dot_inpl, &c, x0, N, want);
  fz_check_arr("inpl dx", gx, want, N, 1e-6);
}

int main(void) {
  CHECK_EXACT(s1, s1_twin, N);
  CHECK_EXACT(wide, wide_twin, N);
  CHECK_EXACT(rows, rows_twin, H * W);
  check_active();
  check_float();
  CHECK_SHAPE(s1c, N);
  CHECK_SHAPE(lap, H * W);
  CHECK_SHAPE(per, N);
  CHECK_SHAPE(down, N);
  check_inpl();
  return fz_finish();
}

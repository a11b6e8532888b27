// OPT: O1 O2 O3
// CFLAGS: -ffast-math
// Periodic 2-D stencils whose two fields are blocks of ONE output array (the periodic
// Brusselators' shape, bench/src/brusselator_periodic{,_br}.c), compiled with fast-math
// (issue 14, brus26). The reverse column loop reads and zeroes two seed cells of one
// object per iteration (out[W i + j] and out[H W + W i + j]); with `restrict` it runs
// upwards (crates/ferrozyme-transform/src/stream_upward.rs) since no two iterations touch
// a common byte (stream_own_cells.rs). Shapes: periodic by branches (fz_periodic.h) and
// by index arithmetic (`(j + 1) % W`), each with `restrict` and without (no stream, the
// scatter in memory); and `near`, whose second block starts two cells after the first
// (iteration j + 2 overwrites a cell of iteration j: must keep its order).
// Oracles: central finite differences of lambda . F for every coordinate; the seed
// (the output's shadow) is consumed: zero everywhere after the call.
#include "fz_test.h"

enum { H = 7, W = 40, NB = H * W, N1 = 41 };

#define NOUNROLL _Pragma("clang loop unroll(disable)")

/* u = x[0 .. NB), v = x[NB .. 2 NB): periodic by branches in both directions */
#include "fz_periodic.h"
FZ_PBR(pbr, restrict, H, W)
FZ_PBR(pbr_plain, , H, W)

/* the same torus, wrapped by index arithmetic */
#define PMOD(NAME, Q)                                                                       \
  void NAME(double *Q out, const double *Q x, double a) {                                   \
    const double *u = x, *v = x + NB;                                                       \
    NOUNROLL for (int i = 0; i < H; i++) {                                                  \
      int ip = (i + 1) % H, im = (i + H - 1) % H;                                           \
      for (int j = 0; j < W; j++) {                                                         \
        int jp = (j + 1) % W, jm = (j + W - 1) % W;                                         \
        double uc = u[W * i + j], vc = v[W * i + j];                                        \
        double lu = u[W * im + j] + u[W * ip + j] + u[W * i + jp] + u[W * i + jm] - 4.0 * uc; \
        double lv = v[W * im + j] + v[W * ip + j] + v[W * i + jp] + v[W * i + jm] - 4.0 * vc; \
        out[W * i + j] = a * lu + uc * uc * vc - 1.5 * uc;                                  \
        out[NB + W * i + j] = a * lv + 0.5 * uc - uc * uc * vc;                             \
      }                                                                                     \
    }                                                                                       \
  }
PMOD(pmod, restrict)
PMOD(pmod_plain, )

/* two 1-D fields of one output array, the second block two cells after the first:
 * iteration j + 2 overwrites what iteration j wrote (the reverse must zero that seed
 * before iteration j reads it) */
static void near(double *restrict out, const double *restrict x, double a) {
  NOUNROLL for (int j = 0; j < N1 - 2; j++) {
    int jp = j == N1 - 3 ? 0 : j + 1;
    double c = x[j] * x[jp];
    out[j] = a * c + x[j] * x[j];
    out[j + 2] = c - 0.5 * x[jp];
  }
}

#include "fz_stencil.h"

/* one VJP of F against finite differences; the seed must be consumed */
#define CHECK_CONSUMED(F, NN)                                                               \
  do {                                                                                      \
    ctx_t c = setup(F, NN);                                                                 \
    double *dout = malloc((NN) * sizeof(double)), *gx = calloc(NN, sizeof(double));         \
    memcpy(dout, c.lam, (NN) * sizeof(double));                                             \
    __enzyme_autodiff((void *)F, enzyme_dupnoneed, c.out, dout, enzyme_dup, c.x, gx,        \
                      enzyme_const, c.a);                                                   \
    double left = 0;                                                                        \
    for (int k = 0; k < (NN); k++) left += fabs(dout[k]);                                   \
    fz_check(#F " seed consumed", left, 0.0, 0.0);                                          \
    check_grad(#F, &c, gx);                                                                 \
    free(dout), free(gx);                                                                   \
  } while (0)

int main(void) {
  CHECK_CONSUMED(pbr, 2 * NB);
  CHECK_CONSUMED(pbr_plain, 2 * NB);
  CHECK_CONSUMED(pmod, 2 * NB);
  CHECK_CONSUMED(pmod_plain, 2 * NB);
  CHECK_SHAPE(near, N1);
  return fz_finish();
}

// OPT: O1 O2 O3
// CFLAGS: -ffast-math
// Periodic 2-D stencils whose two fields are blocks of ONE output array (the periodic
// Brusselators' shape, bench/src/brusselator_periodic{,_br}.c), compiled with fast-math
// (issue 14, brus26). The reverse column loop reads and zeroes two seed cells of one
// object per iteration (out[W i + j] and out[H W + W i + j]); with `restrict` it runs
// upwards (crates/ferrozyme-transform/src/streams/upward.rs) since no two iterations touch
// a common byte (streams/own_cells.rs). Shapes: periodic by branches (fz_periodic.h) and
// by index arithmetic (`(j + 1) % W`), each with `restrict` and without (no stream, the
// scatter in memory); and `near`, whose second block starts two cells after the first
// (iteration j + 2 overwrites a cell of iteration j: its column loop must keep its
// order).
// Oracles: central finite differences of lambda . F for every coordinate; the seed
// (the output's shadow) is consumed: zero everywhere after the call.
#include "fz_test.h"

enum { H = 7, W = 40, NB = H * W };

#define NOUNROLL _Pragma("clang loop unroll(disable)")

/* u = x[0 .. NB), v = x[NB .. 2 NB): periodic by branches in both directions */
#include "fz_periodic.h"
FZ_PBR(pbr, restrict, H, W)
FZ_PBR(pbr_plain, , H, W)

/* a torus of H2 rows of W2 = 32 cells (a power of two, as in the benchmark), wrapped by
 * index arithmetic */
enum { H2 = 6, W2 = 32, NB2 = H2 * W2 };
#define PMOD(NAME, Q)                                                                       \
  void NAME(double *Q out, const double *Q x, double a) {                                   \
    const double *u = x, *v = x + NB2;                                                      \
    NOUNROLL for (int i = 0; i < H2; i++) {                                                 \
      int ip = (i + 1) % H2, im = (i + H2 - 1) % H2;                                        \
      for (int j = 0; j < W2; j++) {                                                        \
        int jp = (j + 1) % W2, jm = (j + W2 - 1) % W2;                                      \
        double uc = u[W2 * i + j], vc = v[W2 * i + j];                                      \
        double lu = u[W2 * im + j] + u[W2 * ip + j] + u[W2 * i + jp] + u[W2 * i + jm]      \
                    - 4.0 * uc;                                                             \
        double lv = v[W2 * im + j] + v[W2 * ip + j] + v[W2 * i + jp] + v[W2 * i + jm]      \
                    - 4.0 * vc;                                                             \
        out[W2 * i + j] = a * lu + uc * uc * vc - 1.5 * uc;                                 \
        out[NB2 + W2 * i + j] = a * lv + 0.5 * uc - uc * uc * vc;                           \
      }                                                                                     \
    }                                                                                       \
  }
PMOD(pmod, restrict)
PMOD(pmod_plain, )

/* fz_periodic.h's shape with the second output block OFF cells after the first: with
 * OFF = 2 iteration j + 2 of a row overwrites what iteration j wrote (the reverse must
 * zero that seed before iteration j reads it: the column loop keeps its order) */
#define PBR_AT(NAME, Q, OFF)                                                                \
  void NAME(double *Q out, const double *Q x, double a) {                                   \
    const double *u = x, *v = x + NB;                                                       \
    NOUNROLL for (int i = 0; i < H; i++) {                                                  \
      int ip, im;                                                                           \
      if (i == H - 1) ip = 0; else ip = i + 1;                                              \
      if (i == 0) im = H - 1; else im = i - 1;                                              \
      for (int j = 0; j < W; j++) {                                                         \
        int jp, jm;                                                                         \
        if (j == W - 1) jp = 0; else jp = j + 1;                                            \
        if (j == 0) jm = W - 1; else jm = j - 1;                                            \
        double uc = u[W * i + j], vc = v[W * i + j];                                        \
        double lu = u[W * im + j] + u[W * ip + j] + u[W * i + jp] + u[W * i + jm] - 4.0 * uc; \
        double lv = v[W * im + j] + v[W * ip + j] + v[W * i + jp] + v[W * i + jm] - 4.0 * vc; \
        out[W * i + j] = a * lu + uc * uc * vc - 1.5 * uc;                                  \
        out[(OFF) + W * i + j] = a * lv + 0.5 * uc - uc * uc * vc;                          \
      }                                                                                     \
    }                                                                                       \
  }
PBR_AT(near, restrict, 2)

#include "fz_stencil.h"

/* one VJP of F against finite differences; the seed of the WR cells F writes must be
 * consumed */
#define CHECK_CONSUMED(F, NN, WR)                                                               \
  do {                                                                                      \
    ctx_t c = setup(F, NN);                                                                 \
    double *dout = malloc((NN) * sizeof(double)), *gx = calloc(NN, sizeof(double));         \
    memcpy(dout, c.lam, (NN) * sizeof(double));                                             \
    __enzyme_autodiff((void *)F, enzyme_dupnoneed, c.out, dout, enzyme_dup, c.x, gx,        \
                      enzyme_const, c.a);                                                   \
    double left = 0;                                                                        \
    for (int k = 0; k < (WR); k++) left += fabs(dout[k]);                                   \
    fz_check(#F " seed consumed", left, 0.0, 0.0);                                          \
    check_grad(#F, &c, gx);                                                                 \
    free(dout), free(gx);                                                                   \
  } while (0)

int main(void) {
  CHECK_CONSUMED(pbr, 2 * NB, 2 * NB);
  CHECK_CONSUMED(pbr_plain, 2 * NB, 2 * NB);
  CHECK_CONSUMED(pmod, 2 * NB2, 2 * NB2);
  CHECK_CONSUMED(pmod_plain, 2 * NB2, 2 * NB2);
  CHECK_CONSUMED(near, 2 * NB, NB + 2);
  return fz_finish();
}

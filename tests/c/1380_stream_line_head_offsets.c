// OPT: O1 O2 O3
// CFLAGS: -march=x86-64-v4 -ffp-contract=off
// REQUIRES: avx512f
// Carried stream loops split into main and tail loops (bruss20) get, with AVX-512, a
// head loop that runs the first h iterations, h chosen at run time so that the main
// loop's stores start on a 64-byte line (bruss35, crates/ferrozyme-transform/src/streams/
// line.rs): h depends on where the gradient's shadow sits, so every offset 0, 8, ..., 56
// bytes past a line is tried, for the periodic-`if` stencil of tests/c/825 at widths 32
// (30 interior columns: 24 + 6, h in 0..5 or 0 when the distance is 6 or 7 cells), 25
// (16 + 7) and 19 (16 + 1: no head, the tail too short), the output shadow at another
// offset. Without fast-math the streams keep each cell's adds in order, so head, main and
// tail must continue each other exactly: the gradient is compared bit for bit with the
// same function without `restrict` (no stream, no split), and by finite differences.
#include "fz_test.h"

#define NOUNROLL _Pragma("clang loop unroll(disable)")

enum { H = 5 };

#include "fz_periodic.h"
FZ_PBR(pbr32, restrict, H, 32)
FZ_PBR(pbr32_twin, , H, 32)
FZ_PBR(pbr25, restrict, H, 25)
FZ_PBR(pbr25_twin, , H, 25)
FZ_PBR(pbr19, restrict, H, 19)
FZ_PBR(pbr19_twin, , H, 19)

#include "fz_stencil.h"

enum { MAXN = 2 * H * 32 };
static double shadow[MAXN + 8] __attribute__((aligned(64)));
static double twin[MAXN + 8] __attribute__((aligned(64)));
static double seed[MAXN + 8] __attribute__((aligned(64)));

/* the gradient of F with its shadow `off` doubles past a line, the output shadow at
 * (off + 3) % 8 */
#define CHECK_AT(F, T, NN, off)                                                             \
  do {                                                                                      \
    ctx_t c = setup(F, NN);                                                                 \
    double *gx = shadow + (off), *gt = twin + (off), *dout = seed + ((off) + 3) % 8;        \
    memset(gx, 0, (NN) * sizeof(double));                                                   \
    memset(gt, 0, (NN) * sizeof(double));                                                   \
    memcpy(dout, c.lam, (NN) * sizeof(double));                                             \
    __enzyme_autodiff((void *)F, enzyme_dupnoneed, c.out, dout, enzyme_dup, c.x, gx,        \
                      enzyme_const, c.a);                                                   \
    memcpy(dout, c.lam, (NN) * sizeof(double));                                             \
    __enzyme_autodiff((void *)T, enzyme_dupnoneed, c.out, dout, enzyme_dup, c.x, gt,        \
                      enzyme_const, c.a);                                                   \
    char what[64];                                                                          \
    snprintf(what, sizeof what, #F " bitwise = " #T " at +%d", (int)(off));                 \
    fz_check(what, (double)memcmp(gx, gt, (NN) * sizeof(double)), 0.0, 0.0);                \
    check_grad(#F, &c, gx);                                                                 \
  } while (0)

int main(void) {
  for (int off = 0; off < 8; off++) {
    CHECK_AT(pbr32, pbr32_twin, 2 * H * 32, off);
    CHECK_AT(pbr25, pbr25_twin, 2 * H * 25, off);
    CHECK_AT(pbr19, pbr19_twin, 2 * H * 19, off);
  }
  return fz_finish();
}

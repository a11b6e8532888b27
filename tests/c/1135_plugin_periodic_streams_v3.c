// OPT: O2 O3
// CFLAGS: -march=x86-64-v3 -ffp-contract=off
// REQUIRES: avx2 fma
// VARIANTS: all
// Periodic stencils written with branches (`j == W - 1 ? 0 : j + 1`), whose reverse loops
// become exact stencil streams, vectorized, their order-2 recurrences folded into one
// shuffle (issue 14, perf30). Written for the plugin trial, which every variant runs
// (VARIANTS: all): inside clang the pass runs before clang's LoopUnroll, which in
// `ferrozyme cc`'s first compile peels the wrapping column; the reverse clone now gets
// that peel first (crates/ferrozyme-transform/src/clang_unroll.rs), and the splices are
// folded after clang's vectorizer (the plugin's OptimizerLast pass). Shapes: the
// periodic-`if` Brusselator at 32 x 32 (bench/src/brusselator_periodic_br.c), the same at
// 5 x 6 (shorter rows than the vector loop's lanes plus window), and a 1-D ring of 40
// cells with a +-1 periodic window. Oracles: the twin without `restrict` (no stream: the
// scatter in memory), bit for bit; central finite differences of lambda . F for every
// coordinate. Built with -ffp-contract=off as tests/c/1133 and 1134.
#include "fz_test.h"

#define NOUNROLL _Pragma("clang loop unroll(disable)")

#include "fz_periodic.h"
FZ_PBR(pbr, restrict, 32, 32)
FZ_PBR(pbr_twin, , 32, 32)

/* a ring of n cells, neighbours by branches */
#define RING(NAME, Q, n)                                                                    \
  void NAME(double *Q out, const double *Q x, double a) {                                   \
    NOUNROLL for (int j = 0; j < (n); j++) {                                                \
      int jp, jm;                                                                           \
      if (j == (n) - 1) jp = 0; else jp = j + 1;                                            \
      if (j == 0) jm = (n) - 1; else jm = j - 1;                                            \
      out[j] = a * (x[jm] + x[jp] - 2.0 * x[j]) + x[j] * x[jp] - 0.25 * x[jm] * x[jm];      \
    }                                                                                       \
  }
RING(ring, restrict, 40)
RING(ring_twin, , 40)

#include "fz_stencil.h"

int main(void) {
  CHECK_EXACT(pbr, pbr_twin, 2 * 32 * 32);
  CHECK_EXACT(ring, ring_twin, 40);
  return fz_finish();
}

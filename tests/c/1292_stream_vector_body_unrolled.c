// OPT: O1 O2 O3
// CFLAGS: -march=x86-64-v3 -ffp-contract=off
// REQUIRES: avx2 fma
// Reverse stencil loops whose carried streams were split into a main loop and a tail loop
// (bruss20, crates/ferrozyme-transform/src/streams/split.rs) also ask, below AVX-512, for
// the main loop's vector body to be unrolled fully (bruss32: the followup property
// `llvm.loop.vectorize.followup_vectorized` = `llvm.loop.unroll.full`), up to a main loop
// of 32 iterations. The periodic-`if` stencil of bench/src/brusselator_periodic_br.c
// (fz_periodic.h) at row widths whose interior column loop (W - 2 columns) splits, with 4
// doubles per vector, as 28 + 2 (W = 32, the benchmark's; unrolled), 32 + 2 (W = 36, the
// cap; unrolled), 36 + 2 (W = 40, over the cap: the vector loop stays rolled) and 8 + 1
// (W = 11, the fewest main iterations split). The unrolled vector body must continue
// the carried windows lane for lane: the gradient is compared bit for bit with the same
// function without `restrict` (no stream, the scatter in memory), and by finite
// differences. tests/c/1293 is this program at SSE2 (2 doubles per vector: 14 and 16
// vector iterations unrolled).
// Oracles: the twin without `restrict`, bit for bit; central finite differences of
// lambda . F for every coordinate.
#include "fz_test.h"

#define NOUNROLL _Pragma("clang loop unroll(disable)")

enum { H = 4 };

#include "fz_periodic.h"
FZ_PBR(pbr32, restrict, H, 32)
FZ_PBR(pbr32_twin, , H, 32)
FZ_PBR(pbr36, restrict, H, 36)
FZ_PBR(pbr36_twin, , H, 36)
FZ_PBR(pbr40, restrict, H, 40)
FZ_PBR(pbr40_twin, , H, 40)
FZ_PBR(pbr11, restrict, H, 11)
FZ_PBR(pbr11_twin, , H, 11)

#include "fz_stencil.h"

#define CHECK(F, NN) CHECK_EXACT(F, F##_twin, NN)

int main(void) {
  CHECK(pbr32, 2 * H * 32);
  CHECK(pbr36, 2 * H * 36);
  CHECK(pbr40, 2 * H * 40);
  CHECK(pbr11, 2 * H * 11);
  return fz_finish();
}

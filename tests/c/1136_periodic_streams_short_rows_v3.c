// OPT: O2 O3
// CFLAGS: -march=x86-64-v3 -ffp-contract=off
// REQUIRES: avx2 fma
// VARIANTS: all
// IGNORE-O3: the exact stream's gradient and its twin's without `restrict` differ in the last bits (10 of 60 coordinates, e.g. -2.0156343782262471 against -2.0156343782262454; both within 1e-6 of finite differences) at -O3 -march=x86-64-v3, through `ferrozyme cc` and the plugin alike, main's binary too (found by perf30); which of the two keeps the scatter's order of adds is not known yet
// The periodic-`if` Brusselator of tests/c/1135 on a 5 x 6 grid: rows shorter than the
// vector loop's 4 lanes plus the stream's window, so the reverse column loop runs its
// tail split and the peeled column with hardly a vector iteration between (issue 14,
// perf30). Oracles: the twin without `restrict`, bit for bit; central finite differences
// of lambda . F for every coordinate.
#include "fz_test.h"

#define NOUNROLL _Pragma("clang loop unroll(disable)")

#include "fz_periodic.h"
FZ_PBR(small, restrict, 5, 6)
FZ_PBR(small_twin, , 5, 6)

#include "fz_stencil.h"

int main(void) {
  CHECK_EXACT(small, small_twin, 2 * 5 * 6);
  return fz_finish();
}

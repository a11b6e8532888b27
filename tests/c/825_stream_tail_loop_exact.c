// OPT: O1 O2 O3
// CFLAGS: -march=x86-64-v3 -ffp-contract=off
// REQUIRES: avx2 fma
// Reverse stencil loops whose carried streams (issue 14) run their last n % 8 iterations
// in a tail loop of their own, marked for the vectorizer (bruss20,
// crates/ferrozyme-transform/src/streams/split.rs): the periodic-`if` stencil of
// bench/src/brusselator_periodic_br.c (u and v blocks of one array) at several row
// widths, so that the interior column loop (W - 2 columns: clang peels the two wrap
// columns) splits as 24 + 6 (W = 32, the benchmark's), 16 + 1 (W = 19), 16 + 7 (W = 25),
// and not at all (W = 18: 16 columns; W = 13: 11, fewer than two vector iterations of
// 8); and a clamped 1-D line of 27 cells (25 interior: 24 + 1). Without fast-math the
// streams keep each cell's adds in order (value streams), so the tail loop must continue
// them exactly where the main loop left them: the gradient is compared bit for bit with
// the same function without `restrict` (no stream, the scatter in memory).
// Built with -ffp-contract=off (as tests/c/662, 705: a vectorized stream loop and the
// twin's scalar one may fuse differently under contraction). tests/c/826 is this
// program with AVX-512 (8 doubles per vector, the width the split is made for), 827
// with -ffast-math (partial-sum streams).
// Oracles: the twin without `restrict`, bit for bit (not under 827's -ffast-math);
// central finite differences of lambda . F for every coordinate.
#include "fz_test.h"

#ifndef EXACT_TWIN
#define EXACT_TWIN 1
#endif

static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }

#define NOUNROLL _Pragma("clang loop unroll(disable)")

enum { H = 5 };

/* periodic by branches in both directions, u and v blocks of one array (fz_periodic.h) */
#include "fz_periodic.h"
FZ_PBR(pbr32, restrict, H, 32)
FZ_PBR(pbr32_twin, , H, 32)
FZ_PBR(pbr19, restrict, H, 19)
FZ_PBR(pbr19_twin, , H, 19)
FZ_PBR(pbr25, restrict, H, 25)
FZ_PBR(pbr25_twin, , H, 25)
FZ_PBR(pbr18, restrict, H, 18)
FZ_PBR(pbr18_twin, , H, 18)
FZ_PBR(pbr13, restrict, H, 13)
FZ_PBR(pbr13_twin, , H, 13)

/* a clamped 1-D line of N1 cells */
enum { N1 = 27 };
#define LINE(NAME, Q)                                                                       \
  void NAME(double *Q out, const double *Q x, double a) {                                   \
    NOUNROLL for (int i = 0; i < N1; i++) {                                                 \
      double l = x[clampi(i - 1, N1)], r = x[clampi(i + 1, N1)];                            \
      out[i] = a * (l + r) * x[i] - 2.0 * x[i] * x[i] + 0.25 * l * r;                       \
    }                                                                                       \
  }
LINE(line, restrict)
LINE(line_twin, )

#include "fz_stencil.h"

#if EXACT_TWIN
#define CHECK(F, NN) CHECK_EXACT(F, F##_twin, NN)
#else
#define CHECK(F, NN) CHECK_SHAPE(F, NN)
#endif

int main(void) {
  CHECK(pbr32, 2 * H * 32);
  CHECK(pbr19, 2 * H * 19);
  CHECK(pbr25, 2 * H * 25);
  CHECK(pbr18, 2 * H * 18);
  CHECK(pbr13, 2 * H * 13);
  CHECK(line, N1);
  return fz_finish();
}

// OPT: O2 O3
// CFLAGS: -march=x86-64-v3 -ffp-contract=off
// REQUIRES: avx2 fma
// Rising exact streams whose vectorized recurrences of order 2 to 4 are read as one
// shuffle of the vectors the loop carries (issue 14, perf29;
// crates/ferrozyme-transform/src/splice_chains.rs): LoopVectorize builds a value from
// two or more iterations back as a splice of a carried splice; after the pipeline it is
// one shuffle of the last carried vector and this iteration's, the carried splice and its
// phi deleted, the first iteration's lanes moved into the remaining phi's initial vector.
// The values only move, so every cell's sum must stay the one of the same function
// without `restrict` (no stream: the scatter in memory, falling), bit for bit. Shapes:
// the benchmarks' Brusselators at their size (32 x 32, the vector body not interleaved,
// as in bench/src at -O3 -march=x86-64-v3): periodic by branches (two seed blocks of one
// output) and clamped with separate u/v arrays; a +-2 window over 64 cells (the
// contributions carried up to four iterations: a value four iterations back is the
// carried vector itself at 4 lanes) and over 7 cells (the vector loop runs at most once).
// Oracles: the twin without `restrict` (bitwise), central finite differences of
// lambda . F for every coordinate. Built with -ffp-contract=off as tests/c/1133.
#include "fz_test.h"

enum { H = 32, W = 32, NB = H * W };

#define NOUNROLL _Pragma("clang loop unroll(disable)")

static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }

#include "fz_periodic.h"
FZ_PBR(pbr, restrict, H, W)
FZ_PBR(pbr_twin, , H, W)

/* bench/src/brusselator.c's shape (clamped neighbours, u and v separate arrays), the
 * parameters constants; out = (du, dv), x = (u, v) */
#define CLB(NAME, Q)                                                                        \
  static void NAME##_rhs(double *Q du, double *Q dv, const double *Q u, const double *Q v,  \
                         double a) {                                                        \
    NOUNROLL for (int i = 0; i < H; i++) {                                                  \
      for (int j = 0; j < W; j++) {                                                         \
        int ip = clampi(i + 1, H), im = clampi(i - 1, H);                                   \
        int jp = clampi(j + 1, W), jm = clampi(j - 1, W);                                   \
        double uc = u[W * i + j], vc = v[W * i + j];                                        \
        double lu = u[W * im + j] + u[W * ip + j] + u[W * i + jp] + u[W * i + jm] - 4.0 * uc; \
        double lv = v[W * im + j] + v[W * ip + j] + v[W * i + jp] + v[W * i + jm] - 4.0 * vc; \
        du[W * i + j] = a * lu + 1.0 + uc * uc * vc - 4.4 * uc;                             \
        dv[W * i + j] = a * lv + 3.4 * uc - uc * uc * vc;                                   \
      }                                                                                     \
    }                                                                                       \
  }                                                                                         \
  void NAME(double *Q out, const double *Q x, double a) {                                   \
    NAME##_rhs(out, out + NB, x, x + NB, a);                                                \
  }
CLB(clb, restrict)
CLB(clb_twin, )

/* +-2 window over n cells */
#define WIN(NAME, Q, n)                                                                     \
  void NAME(double *Q out, const double *Q x, double a) {                                   \
    NOUNROLL for (int i = 0; i < (n); i++) {                                                \
      double l2 = x[clampi(i - 2, n)], l1 = x[clampi(i - 1, n)];                            \
      double r1 = x[clampi(i + 1, n)], r2 = x[clampi(i + 2, n)];                            \
      out[i] = a * l2 * x[i] + l1 * r1 - 0.75 * l1 * l1 + r2 * 0.5 - x[i] * x[i] * x[i];    \
    }                                                                                       \
  }
WIN(win64, restrict, 64)
WIN(win64_twin, , 64)
WIN(win7, restrict, 7)
WIN(win7_twin, , 7)

#include "fz_stencil.h"

int main(void) {
  CHECK_EXACT(pbr, pbr_twin, 2 * NB);
  CHECK_EXACT(clb, clb_twin, 2 * NB);
  CHECK_EXACT(win64, win64_twin, 64);
  CHECK_EXACT(win7, win7_twin, 7);
  return fz_finish();
}

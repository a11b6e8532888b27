// OPT: O1 O2 O3
// CFLAGS: -march=x86-64-v3 -ffp-contract=off
// REQUIRES: avx2 fma
// Periodic 2-D stencils written with branches whose two fields are blocks of ONE array
// (bench/src/brusselator_periodic_br.c's shape; issue 14, bruss15), compiled without
// fast-math. The reverse pass peels the first and last rows (`i == 0`, `i == H - 1`
// tests of the row counter, crates/ferrozyme-transform/src/peel_rows.rs), reads
// clang's rows `W * (i +- 1)` exactly (wrap_index.rs) and carries order-preserving
// (value) streams for both fields although they share one shadow object: each stream
// and each far add (rows i +- 1) is proven apart from the other field's stream in bytes
// from the object (streams/far.rs). Fields that overlap (`two_near`: the second block
// starts two cells after the first, so both windows hold the same cells) must not get
// two value streams: each would store its own value of a shared cell (before bruss15
// both were carried: at O1 38 of its 82 coordinates were wrong). Its oracle is finite
// differences alone: with `restrict`, clang shares the loads of u[i + 1] and v[i - 1]
// (one address), so its adjoints are summed in another order than the twin's.
// Built with -ffp-contract=off (as tests/c/662: a vectorized stream loop and the twin's
// scalar one may fuse differently under contraction).
// Oracles: the same function without `restrict` (no stream: the scatter in memory),
// compared bit for bit; central finite differences of lambda . F for every coordinate.
#include "fz_test.h"

enum { H = 7, W = 40, NB = H * W, N1 = 41 };

static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }

#define NOUNROLL _Pragma("clang loop unroll(disable)")

/* u = x[0 .. NB), v = x[NB .. 2 NB): periodic by branches in both directions (fz_periodic.h) */
#include "fz_periodic.h"
FZ_PBR(pbr, restrict, H, W)
FZ_PBR(pbr_twin, , H, W)

/* two clamped 1-D fields of one array, the second starting two cells after the first */
#define NEAR(NAME, Q)                                                                       \
  void NAME(double *Q out, const double *Q x, double a) {                                   \
    const double *u = x, *v = x + 2;                                                        \
    NOUNROLL for (int i = 1; i < N1 - 2; i++) {                                             \
      int ip = clampi(i + 1, N1 - 2);                                                       \
      out[i] = a * u[i - 1] * u[i] + u[ip] * u[i - 1] - u[i] * u[i];                        \
      out[N1 + i] = a * v[i - 1] + v[ip] * v[i] - 0.5 * v[i] * v[i - 1];                    \
    }                                                                                       \
  }
NEAR(two_near, restrict)

#include "fz_stencil.h"

int main(void) {
  CHECK_EXACT(pbr, pbr_twin, 2 * NB);
  CHECK_SHAPE(two_near, 2 * N1);
  return fz_finish();
}

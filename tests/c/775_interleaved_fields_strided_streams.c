// OPT: O1 O2 O3
// CFLAGS: -march=x86-64-v3 -ffp-contract=off
// REQUIRES: avx2 fma
// Clamped 2-D stencils whose two fields are interleaved in ONE array (u and v of a cell
// side by side: x[2 (W i + j)], x[2 (W i + j) + 1]; bench/src/brusselator_interleaved.c's
// shape; issue 14, bruss16), compiled without fast-math. The reverse pass peels the
// clamped first and last rows (peel_rows.rs, stride-2 rows since bruss16), reads
// clang's `int` row index `trunc(W i) - 1` exactly (wrap_index.rs: the add and trunc get
// `nsw` from the counters' ranges), anchors rows i +- 1 to the centre (one row's bytes
// away) and carries one order-preserving (value) stream per field: the cells of each
// lane (u: even elements, v: odd) move two elements per iteration (streams/mod.rs `stride`,
// `lane`); the rows' adds stay plain adds proven apart from both streams (streams/far.rs:
// the other lane never shares a cell; the far rows lie beyond the window). `three`
// reads a third interleaved field at stride 3 (more than streams/mod.rs carries: left as
// plain adds) and `mixed` adds into the u lane of the left neighbour from the v update
// (a lane's stream with adds of both fields' values). Its oracle is finite differences
// alone: with `restrict`, clang shares the loads of x[U(i, jm)] (one address), so its
// adjoints are summed in another order than the twin's (the stop-28 binary differs from
// the twin as well).
// (W = 32: with W = 24 the stop-28 binary and bruss16's gave identical code, no stream;
// not investigated.)
// Oracles: the same function without `restrict` (no stream: the scatter in memory),
// compared bit for bit; central finite differences of lambda . F for every coordinate.
#include "fz_test.h"

enum { H = 8, W = 32, NC = H * W };

static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }

#define NOUNROLL _Pragma("clang loop unroll(disable)")
#define U(i, j) (2 * (W * (i) + (j)))
#define V(i, j) (2 * (W * (i) + (j)) + 1)

/* a clamped stencil over the interleaved cells: the statements after the neighbours */
#define CLAMPED(NAME, Q, ...)                                                               \
  void NAME(double *Q out, const double *Q x, double a) {                                   \
    NOUNROLL for (int i = 0; i < H; i++) {                                                  \
      for (int j = 0; j < W; j++) {                                                         \
        int ip = clampi(i + 1, H), im = clampi(i - 1, H);                                   \
        int jp = clampi(j + 1, W), jm = clampi(j - 1, W);                                   \
        double uc = x[U(i, j)], vc = x[V(i, j)];                                            \
        double lu = x[U(im, j)] + x[U(ip, j)] + x[U(i, jp)] + x[U(i, jm)] - 4.0 * uc;       \
        __VA_ARGS__                                                                         \
      }                                                                                     \
    }                                                                                       \
  }

/* the interleaved Brusselator's stencil */
#define INTER(NAME, Q)                                                                      \
  CLAMPED(NAME, Q,                                                                          \
          double lv = x[V(im, j)] + x[V(ip, j)] + x[V(i, jp)] + x[V(i, jm)] - 4.0 * vc;     \
          out[U(i, j)] = a * lu + uc * uc * vc - 1.5 * uc;                                  \
          out[V(i, j)] = a * lv + 0.5 * uc - uc * uc * vc;)
INTER(inter, restrict)
INTER(inter_twin, )

/* the v update reads the left neighbour's u as well (adds of both fields into the u lane) */
CLAMPED(mixed, restrict, out[U(i, j)] = a * lu + uc * vc;
        out[V(i, j)] = a * x[V(i, jp)] * x[U(i, jm)] - vc * vc + x[V(i, jm)];)

/* three fields per cell: stride 3 */
#define THREE(NAME, Q)                                                                      \
  void NAME(double *Q out, const double *Q x, double a) {                                   \
    NOUNROLL for (int i = 0; i < H; i++) {                                                  \
      for (int j = 0; j < W; j++) {                                                         \
        int jp = clampi(j + 1, W), jm = clampi(j - 1, W);                                   \
        int ip = clampi(i + 1, H), im = clampi(i - 1, H);                                   \
        int c = 3 * (W * i + j);                                                            \
        double p = x[c], q = x[c + 1], r = x[c + 2];                                        \
        out[c] = a * (x[3 * (W * i + jp)] + x[3 * (W * i + jm)] - 2.0 * p) + q * r;         \
        out[c + 1] = a * (x[3 * (W * ip + j) + 1] + x[3 * (W * im + j) + 1]) - p * q;      \
        out[c + 2] = x[3 * (W * i + jp) + 2] * x[3 * (W * i + jm) + 2] - r;                \
      }                                                                                     \
    }                                                                                       \
  }
THREE(three, restrict)
THREE(three_twin, )

#include "fz_stencil.h"

int main(void) {
  CHECK_EXACT(inter, inter_twin, 2 * NC);
  CHECK_SHAPE(mixed, 2 * NC);
  CHECK_EXACT(three, three_twin, 3 * NC);
  return fz_finish();
}

/* Shared by tests/c/705 and 825 (bench/src/brusselator_periodic_br.c's shape): a periodic
 * 2-D stencil written with branches, H rows of W cells, its two fields u and v blocks of
 * ONE array (u = x[0 .. H W), v = x[H W .. 2 H W)). FZ_PBR(NAME, Q, H, W) defines
 * `void NAME(double *Q out, const double *Q x, double a)`; Q is `restrict` or empty (the
 * twin without streams). Needs NOUNROLL (a loop pragma or nothing). */
#ifndef FZ_PERIODIC_H
#define FZ_PERIODIC_H

#define FZ_PBR(NAME, Q, H, W)                                                               \
  void NAME(double *Q out, const double *Q x, double a) {                                   \
    const double *u = x, *v = x + (H) * (W);                                                \
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
        out[(H) * (W) + W * i + j] = a * lv + 0.5 * uc - uc * uc * vc;                      \
      }                                                                                     \
    }                                                                                       \
  }

#endif

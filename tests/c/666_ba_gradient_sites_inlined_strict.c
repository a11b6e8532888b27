// OPT: O0 O2 O3
// 666_ba_gradient_sites_inlined.c without -ffast-math (the harness's two-seed loop is
// unrolled at -O2 without -fno-unroll-loops whatever the float flags; without them the
// kernel keeps its divisions and IEEE semantics). Same program, same oracles.
#include "666_ba_gradient_sites_inlined.c"

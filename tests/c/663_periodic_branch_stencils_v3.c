// OPT: O0 O1 O2 O3
// CFLAGS: -march=x86-64-v3
// REQUIRES: avx2 fma
// The periodic-by-branches stencils of 663_periodic_branch_stencils.c built as users
// build for their CPU (`-march`, AVX2 and FMA) without fast-math: the wrapped
// neighbours are still anchored (wrap_index.rs), no stream is carried (no `reassoc`),
// and the reverse sweep keeps the program's order of additions.
#include "663_periodic_branch_stencils.c"

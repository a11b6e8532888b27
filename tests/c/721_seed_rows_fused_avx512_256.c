// OPT: O0 O1 O2 O3
// CFLAGS: -march=skylake-avx512
// REQUIRES: avx512f
// The seed-row fusions of 679_seed_rows_fused.c built for an AVX-512 CPU tuned for
// 256-bit vectors (BA's `-O3 -march=native` row on Intel, ba14/ba15): the fused width-2
// gradients carry "min-legal-vector-width" (target_attrs.rs), so once inlined into
// their callers those keep clang's value and the back end its 256-bit preference
// (before: <8 x double> SLP bundles in zmm registers). Same oracles as 679 (five-point
// finite differences, unfused twins).
#include "679_seed_rows_fused.c"

// OPT: O0 O1 O2 O3
// CFLAGS: -march=native
// REQUIRES: avx512f
// The seed-row fusions of 679_seed_rows_fused.c built for an AVX-512 CPU (the BA
// benchmark's `-O3 -march=native` row, ba14): the fused width-2 gradients carry
// clang's "min-legal-vector-width" (target_attrs.rs), so once inlined into the callers
// the SLP vectorizer and code generation keep to the CPU's preferred 256-bit vectors.
// Same oracles as 679 (five-point finite differences, unfused twins).
#include "679_seed_rows_fused.c"

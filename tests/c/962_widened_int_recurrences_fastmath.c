// OPT: O1 O2 O3
// CFLAGS: -ffast-math
// 961 at users' flags (`-ffast-math`, with the vectorizers and unrolling on): the shapes
// gmm24's widened recurrences and offset counters see in GMM at `-O2 -ffast-math`.
// Oracle: central finite differences (961's checks).
#include "961_widened_int_recurrences.c"

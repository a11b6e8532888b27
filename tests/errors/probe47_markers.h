// The markers of tests/errors/probe47_static_markers_in_header.c, defined `static` in a
// header (each file that includes it gets its own, which nothing stores to).
static int enzyme_dup;
static int enzyme_const;

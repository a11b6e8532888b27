// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: the loop annotated for checkpointing
// EXPECT-ERROR: writes through the index
// A loop annotated for checkpointing whose state is written through a pointer at
// positions read from memory (u[perm[k]]): how far the pointer reaches is unknown, so a
// snapshot could not hold the state and recomputed steps would start from the wrong one.
// Refused at compile time at the loop (checkpoint/marked.rs), never a wrong gradient;
// __enzyme_ptr_size_hint(u, bytes, 0) before the loop is the remedy the help names.
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

static int perm[3] = {2, 0, 1};

double f(double *u, long m, long n) {
  [[enzyme::checkpoint("revolve", 2)]] for (long i = 0; i < n; i++) {
    for (long k = 0; k < m; k++)
      u[perm[k]] = 0.9 * u[perm[k]] + 0.1 * u[k] * u[k];
  }
  return u[0];
}

int main(void) {
  double u[3] = {1, 2, 3}, du[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, u, du, enzyme_const, 3L, enzyme_const, 10L);
  return 0;
}

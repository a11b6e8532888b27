// EXPECT-ERROR: unknown checkpointing schedule "fancy"
// EXPECT-ERROR: "periodic", "revolve", "store_all", "binomial"
// An annotation naming a schedule Enzyme does not have is a clang error (the clang
// plugin, crates/ferrozyme-clang) listing the accepted names, never a silently plain loop.
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

double f(double *u, long n) {
  [[enzyme::checkpoint("fancy", 2)]] for (long i = 0; i < n; i++) u[0] = 0.5 * u[0] * u[0];
  return u[0];
}

int main(void) {
  double u = 1, du = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &u, &du, enzyme_const, 10L);
  return 0;
}

// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: cannot differentiate `indirectbr`
// EXPECT-ERROR: in function `run_goto`
// EXPECT-ERROR: computed_goto.c:
// A bytecode interpreter dispatching with GCC's labels-as-values (`goto *table[op]`, an
// indirectbr). The clone of such a function jumped to the original's block addresses,
// which the canonicalising passes turned into `unreachable`: the gradient crashed at run
// time without a word at compile time. It is now rejected, at the `goto`'s line.
extern int enzyme_dup;
extern double __enzyme_autodiff(void *, ...);
double sin(double);

static const int prog[] = {0, 0, 0, 1, 3, 1, 2};

double run_goto(const double *x) {
  static void *table[] = {&&l_pushx, &&l_halt, &&l_sin, &&l_mul};
  double st[8];
  int sp = 0, pc = 0;
  goto *table[prog[pc++]];
l_pushx: st[sp++] = x[prog[pc++]]; goto *table[prog[pc++]];
l_mul: sp--; st[sp - 1] *= st[sp]; goto *table[prog[pc++]];
l_sin: st[sp - 1] = sin(st[sp - 1]); goto *table[prog[pc++]];
l_halt: return st[sp - 1];
}

int main(void) {
  double x[2] = {0.4, -0.8}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)run_goto, enzyme_dup, x, dx);
  return dx[0] != 0.0;
}

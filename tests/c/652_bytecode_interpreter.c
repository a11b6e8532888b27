// OPT: O0 O1 O2 O3
// A bytecode interpreter (a `switch` in a `for (;;)` loop) evaluating a stack program on
// active inputs: dispatch is inactive (opcodes come from a constant table), the value
// stack holds active doubles in a local array indexed by a run-time stack pointer. The
// same interpreter written with labels-as-values (`goto *table[op]`) is rejected with an
// error (tests/errors/computed_goto.c; it used to compile into a gradient that crashed).
// Oracle: central finite differences, and forward mode against reverse mode.
#include "fz_test.h"

enum { PUSHX, PUSHC, ADD, MUL, SIN, EXP, DIV, HALT };
static const int prog[] = {PUSHX, 0, PUSHX, 1, MUL, PUSHC, 3, ADD, SIN, PUSHX, 2, EXP,
                           MUL, PUSHX, 0, PUSHC, 2, ADD, DIV, PUSHX, 1, ADD, HALT};
static const double consts[4] = {0.5, 1.5, 2.0, 0.25};

double run_switch(const double *x) {
  double st[16];
  int sp = 0, pc = 0;
  for (;;) {
    switch (prog[pc++]) {
    case PUSHX: st[sp++] = x[prog[pc++]]; break;
    case PUSHC: st[sp++] = consts[prog[pc++]]; break;
    case ADD: sp--; st[sp - 1] += st[sp]; break;
    case MUL: sp--; st[sp - 1] *= st[sp]; break;
    case SIN: st[sp - 1] = sin(st[sp - 1]); break;
    case EXP: st[sp - 1] = exp(st[sp - 1]); break;
    case DIV: sp--; st[sp - 1] /= st[sp]; break;
    default: return st[sp - 1];
    }
  }
}

static double eval(void *c) { return run_switch((double *)c); }
extern double __enzyme_fwddiff(void *, ...);

int main(void) {
  double x[3] = {0.4, -0.8, 0.3};
  double ds[3] = {0}, fd[3];
  __enzyme_autodiff((void *)run_switch, enzyme_dup, x, ds);
  fz_fd_grad(eval, x, x, 3, fd);
  fz_check_arr("switch vs fd", ds, fd, 3, 1e-6);
  for (int i = 0; i < 3; i++) {
    double v[3] = {0, 0, 0};
    v[i] = 1.0;
    double t = __enzyme_fwddiff((void *)run_switch, enzyme_dup, x, v);
    fz_check("forward vs reverse", t, ds[i], 1e-12);
  }
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// A bytecode-style interpreter: switch on an opcode array inside a loop,
// with fallthrough cases and a stack of doubles indexed by an int sp.
#include "fz_test.h"

enum { PUSHX, MUL, ADD, SIN, DUP, SQR_ADD };

double interp(const int *code, int ncode, const double *x) {
  double st[16];
  int sp = 0, xi = 0;
  for (int pc = 0; pc < ncode; pc++) {
    switch (code[pc]) {
    case PUSHX: st[sp++] = x[xi++]; break;
    case MUL: sp--; st[sp - 1] *= st[sp]; break;
    case SQR_ADD: st[sp - 1] *= st[sp - 1]; /* fallthrough */
    case ADD: sp--; st[sp - 1] += st[sp]; break;
    case SIN: st[sp - 1] = sin(st[sp - 1]); break;
    case DUP: st[sp] = st[sp - 1]; sp++; break;
    }
  }
  return st[sp - 1];
}

#define NX 4
struct ctx { const int *code; int n; double *x; };
static double eval(void *p) { struct ctx *c = p; return interp(c->code, c->n, c->x); }

int main(void) {
  /* ((x0*x1) + sin(x2))^... program: x0 x1 MUL x2 SIN ADD DUP MUL x3 SQR_ADD */
  static const int code[] = {PUSHX, PUSHX, MUL, PUSHX, SIN, ADD, DUP, MUL, PUSHX, SQR_ADD};
  int n = (int)(sizeof code / sizeof code[0]);
  fz_seed(134);
  double x[NX], dx[NX], fd[NX];
  fz_fill(x, NX, -1, 1);
  fz_zero(dx, NX);
  __enzyme_autodiff((void *)interp, enzyme_const, code, enzyme_const, n, enzyme_dup, x, dx);
  struct ctx c = {code, n, x};
  fz_fd_grad(eval, &c, x, NX, fd);
  fz_check_arr("dinterp", dx, fd, NX, 1e-6);
  /* analytic: (x0 x1 + sin x2)^2 + x3^2? no: SQR_ADD squares top (x3) then adds */
  double u = x[0] * x[1] + sin(x[2]);
  double want[NX] = {2 * u * x[1], 2 * u * x[0], 2 * u * cos(x[2]), 2 * x[3]};
  fz_check_arr("dinterp analytic", dx, want, NX, 1e-12);
  return fz_finish();
}

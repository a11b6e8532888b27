// OPT: O0 O1 O2 O3
// A small stack-machine interpreter differentiated through its bytecode: a `switch` on
// each opcode in a loop, an operand stack indexed by a run-time stack pointer, jumps
// (a counted loop in bytecode), a table of unary functions selected by an operand, and
// registers in an array. Three programs (a polynomial by Horner, a loop summing
// sin(k x)/k, a product of exp/log/sqrt calls through the table). Reverse and forward
// mode. Oracle: analytic derivatives and central finite differences.
#include "fz_test.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

enum { PUSHC, PUSHX, LOADR, STORER, ADD, MUL, SUB, DIV, CALL, JNZDEC, RET };

static double fn_sin(double v) { return sin(v); }
static double fn_exp(double v) { return exp(v); }
static double fn_log(double v) { return log(v); }
static double fn_sqrt(double v) { return sqrt(v); }
static double (*const table[4])(double) = {fn_sin, fn_exp, fn_log, fn_sqrt};

typedef struct {
  int op;
  int arg;
  double c;
} insn;

double run(const insn *code, const double *x) {
  double stack[16], reg[4] = {0, 0, 0, 0};
  int sp = 0, pc = 0;
  for (;;) {
    const insn *in = &code[pc++];
    switch (in->op) {
    case PUSHC: stack[sp++] = in->c; break;
    case PUSHX: stack[sp++] = x[in->arg]; break;
    case LOADR: stack[sp++] = reg[in->arg]; break;
    case STORER: reg[in->arg] = stack[--sp]; break;
    case ADD: sp--; stack[sp - 1] += stack[sp]; break;
    case SUB: sp--; stack[sp - 1] -= stack[sp]; break;
    case MUL: sp--; stack[sp - 1] *= stack[sp]; break;
    case DIV: sp--; stack[sp - 1] /= stack[sp]; break;
    case CALL: stack[sp - 1] = table[in->arg](stack[sp - 1]); break;
    case JNZDEC: /* reg[arg] -= 1; if it is still positive jump to c */
      reg[in->arg] -= 1.0;
      if (reg[in->arg] > 0.5) pc = (int)in->c;
      break;
    case RET: return stack[sp - 1];
    }
  }
}

/* p(x0) = ((2 x0 + 3) x0 - 1) x0 + 0.5 */
static const insn horner[] = {{PUSHC, 0, 2}, {PUSHX, 0, 0}, {MUL}, {PUSHC, 0, 3}, {ADD},
                              {PUSHX, 0, 0}, {MUL},         {PUSHC, 0, 1}, {SUB}, {PUSHX, 0, 0},
                              {MUL},         {PUSHC, 0, 0.5}, {ADD},       {RET}};
/* sum_{k=1..5} sin(k x0) / k, k counted down in reg[1], the sum in reg[0] */
static const insn sines[] = {
    {PUSHC, 0, 5}, {STORER, 1}, /* 2: loop */ {LOADR, 1},   {PUSHX, 0, 0}, {MUL},
    {CALL, 0},     {LOADR, 1},  {DIV},                      {LOADR, 0},    {ADD},
    {STORER, 0},   {JNZDEC, 1, 2}, {LOADR, 0},              {RET}};
/* exp(x0) * log(x1) + sqrt(x0 * x1) */
static const insn calls[] = {{PUSHX, 0, 0}, {CALL, 1}, {PUSHX, 1, 0}, {CALL, 2}, {MUL},
                             {PUSHX, 0, 0}, {PUSHX, 1, 0}, {MUL},     {CALL, 3}, {ADD},
                             {RET}};

static const insn *cur;
static double eval(void *p) { return run(cur, (const double *)p); }

int main(void) {
  const insn *progs[3] = {horner, sines, calls};
  const char *names[3] = {"horner", "sines", "calls"};
  double x[2] = {0.7, 1.9};
  double a0 = x[0], a1 = x[1];
  double want[3][2] = {
      {6 * a0 * a0 + 6 * a0 - 1, 0},
      {cos(a0) + cos(2 * a0) + cos(3 * a0) + cos(4 * a0) + cos(5 * a0), 0},
      {exp(a0) * log(a1) + 0.5 * a1 / sqrt(a0 * a1), exp(a0) / a1 + 0.5 * a0 / sqrt(a0 * a1)}};
  for (int p = 0; p < 3; p++) {
    char b[64];
    double dx[2] = {0, 0}, g[2], xx[2] = {x[0], x[1]};
    __enzyme_autodiff((void *)run, enzyme_const, progs[p], enzyme_dup, x, dx);
    cur = progs[p];
    fz_fd_grad(eval, xx, xx, 2, g);
    for (int i = 0; i < 2; i++) {
      snprintf(b, sizeof b, "%s rev dx[%d]", names[p], i);
      fz_check(b, dx[i], want[p][i], 1e-12);
      snprintf(b, sizeof b, "%s rev dx[%d] (fd)", names[p], i);
      fz_check(b, dx[i], g[i], 1e-6);
    }
    double tx[2] = {0.3, -0.6};
    double t = __enzyme_fwddiff((void *)run, enzyme_const, progs[p], enzyme_dup, x, tx);
    snprintf(b, sizeof b, "%s fwd", names[p]);
    fz_check(b, t, 0.3 * want[p][0] - 0.6 * want[p][1], 1e-12);
  }
  return fz_finish();
}

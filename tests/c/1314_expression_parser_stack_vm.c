// OPT: O0 O2
// Interpreters inside the differentiated function:
//  a) a recursive-descent parser evaluating an expression text over variables x0..x3
//     (`expr := term (('+'|'-') term)*`, `term := factor (('*'|'/') factor)*`,
//     `factor := number | 'x' digit | name '(' expr ')' | '(' expr ')' | '-' factor`),
//     with numbers read by hand, a cursor passed by pointer and an early return on a
//     syntax error (result NAN, never reached with these texts);
//  b) a stack machine running bytecode (an int program: push variable, push constant,
//     add, mul, sin, exp, dup, swap ...) on a local stack of doubles indexed by a
//     data-dependent stack pointer.
// Oracles: the same expressions written in C (analytic derivatives), central differences,
// forward = reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

typedef struct {
  const char *s;
  int pos;
  int err;
  const double *x;
} parser;

static double expr(parser *p);

static void skip(parser *p) {
  while (p->s[p->pos] == ' ') p->pos++;
}

static double number(parser *p) {
  double v = 0, scale = 1;
  int frac = 0;
  for (;;) {
    char c = p->s[p->pos];
    if (c >= '0' && c <= '9') {
      if (frac) scale *= 0.1;
      v = frac ? v + (c - '0') * scale : 10 * v + (c - '0');
      p->pos++;
    } else if (c == '.' && !frac) {
      frac = 1;
      p->pos++;
    } else
      break;
  }
  return v;
}

static double factor(parser *p) {
  skip(p);
  char c = p->s[p->pos];
  if (c == '-') {
    p->pos++;
    return -factor(p);
  }
  if (c == '(') {
    p->pos++;
    double v = expr(p);
    skip(p);
    if (p->s[p->pos] != ')') {
      p->err = 1;
      return NAN;
    }
    p->pos++;
    return v;
  }
  if (c == 'x') {
    int k = p->s[p->pos + 1] - '0';
    p->pos += 2;
    return p->x[k];
  }
  if ((c >= '0' && c <= '9') || c == '.') return number(p);
  // functions: sin, cos, exp, log, sqrt
  const char *names[] = {"sin(", "cos(", "exp(", "log(", "sqrt("};
  for (int f = 0; f < 5; f++) {
    size_t len = strlen(names[f]);
    if (strncmp(p->s + p->pos, names[f], len) == 0) {
      p->pos += (int)len;
      double a = expr(p);
      skip(p);
      if (p->s[p->pos] != ')') {
        p->err = 1;
        return NAN;
      }
      p->pos++;
      switch (f) {
      case 0: return sin(a);
      case 1: return cos(a);
      case 2: return exp(a);
      case 3: return log(a);
      default: return sqrt(a);
      }
    }
  }
  p->err = 1;
  return NAN;
}

static double term(parser *p) {
  double v = factor(p);
  for (;;) {
    if (p->err) return NAN;
    skip(p);
    char c = p->s[p->pos];
    if (c == '*') {
      p->pos++;
      v *= factor(p);
    } else if (c == '/') {
      p->pos++;
      v /= factor(p);
    } else
      return v;
  }
}

static double expr(parser *p) {
  double v = term(p);
  for (;;) {
    if (p->err) return NAN;
    skip(p);
    char c = p->s[p->pos];
    if (c == '+') {
      p->pos++;
      v += term(p);
    } else if (c == '-') {
      p->pos++;
      v -= term(p);
    } else
      return v;
  }
}

double eval_text(const char *text, const double *x) {
  parser p = {text, 0, 0, x};
  double v = expr(&p);
  return p.err ? NAN : v;
}

enum { PUSHX, PUSHC, ADD, SUB, MUL, DIV, SIN, EXP, DUP, SWAP, END };

double run_vm(const int *code, const double *consts, const double *x) {
  double st[16];
  int sp = 0;
  for (int pc = 0;; pc++) {
    switch (code[pc]) {
    case PUSHX: st[sp++] = x[code[++pc]]; break;
    case PUSHC: st[sp++] = consts[code[++pc]]; break;
    case ADD: sp--; st[sp - 1] += st[sp]; break;
    case SUB: sp--; st[sp - 1] -= st[sp]; break;
    case MUL: sp--; st[sp - 1] *= st[sp]; break;
    case DIV: sp--; st[sp - 1] /= st[sp]; break;
    case SIN: st[sp - 1] = sin(st[sp - 1]); break;
    case EXP: st[sp - 1] = exp(st[sp - 1]); break;
    case DUP: st[sp] = st[sp - 1]; sp++; break;
    case SWAP: { double t = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = t; } break;
    default: return st[sp - 1];
    }
  }
}

static const char *TEXT = "x0 * sin(x1 + 0.5) - exp(-x2 * x2) / (1.25 + x3 * x3) + sqrt(x0 * x0 + 2) * log(3 + x1)";
static double ref_f(const double *x) {
  return x[0] * sin(x[1] + 0.5) - exp(-x[2] * x[2]) / (1.25 + x[3] * x[3]) +
         sqrt(x[0] * x[0] + 2) * log(3 + x[1]);
}
static void ref_g(const double *x, double *g) {
  double e = exp(-x[2] * x[2]), d = 1.25 + x[3] * x[3], r = sqrt(x[0] * x[0] + 2);
  g[0] = sin(x[1] + 0.5) + x[0] / r * log(3 + x[1]);
  g[1] = x[0] * cos(x[1] + 0.5) + r / (3 + x[1]);
  g[2] = 2 * x[2] * e / d;
  g[3] = e * 2 * x[3] / (d * d);
}

// (x0 + c0) * sin(x1 * x2) - exp(x3) / (x0 * x0)  ; stack program
static const int CODE[] = {PUSHX, 0, PUSHC, 0, ADD, PUSHX, 1, PUSHX, 2, MUL, SIN, MUL,
                           PUSHX, 3, EXP, PUSHX, 0, DUP, MUL, DIV, SUB, END};
static double CONSTS[1] = {0.75};

static double X[4] = {0.8, 0.3, -0.6, 0.4};
static double ftext(void *p) { return eval_text(TEXT, p); }
static double fvm(void *p) { return run_vm(CODE, CONSTS, p); }

int main(void) {
  double dx[4] = {0}, g[4], want[4];
  fz_check("parser value", eval_text(TEXT, X), ref_f(X), 1e-14);
  __enzyme_autodiff((void *)eval_text, enzyme_const, TEXT, enzyme_dup, X, dx);
  ref_g(X, want);
  fz_check_arr("parser analytic", dx, want, 4, 1e-12);
  fz_fd_grad(ftext, X, X, 4, g);
  fz_check_arr("parser fd", dx, g, 4, 1e-6);
  {
    double v[4] = {0.3, -0.7, 0.2, 0.9}, t[4];
    memcpy(t, v, sizeof t);
    double tan = __enzyme_fwddiff((void *)eval_text, enzyme_const, TEXT, enzyme_dup, X, t);
    fz_check("parser forward = reverse . v", tan,
             dx[0] * v[0] + dx[1] * v[1] + dx[2] * v[2] + dx[3] * v[3], 1e-12);
  }

  double dv[4] = {0}, dc[1] = {0};
  __enzyme_autodiff((void *)run_vm, enzyme_const, CODE, enzyme_dup, CONSTS, dc, enzyme_dup, X, dv);
  {
    double a = X[0] + CONSTS[0], s = sin(X[1] * X[2]), c = cos(X[1] * X[2]), e = exp(X[3]);
    double x02 = X[0] * X[0];
    fz_check("vm value", run_vm(CODE, CONSTS, X), a * s - e / x02, 1e-14);
    want[0] = s + 2 * e / (x02 * X[0]);
    want[1] = a * c * X[2];
    want[2] = a * c * X[1];
    want[3] = -e / x02;
    fz_check_arr("vm analytic", dv, want, 4, 1e-12);
    fz_check("vm dconst", dc[0], s, 1e-12);
  }
  fz_fd_grad(fvm, X, X, 4, g);
  fz_check_arr("vm fd", dv, g, 4, 1e-6);
  {
    double v[4] = {0.3, -0.7, 0.2, 0.9}, t[4], tc[1] = {0.5};
    memcpy(t, v, sizeof t);
    double tan = __enzyme_fwddiff((void *)run_vm, enzyme_const, CODE, enzyme_dup, CONSTS, tc,
                                  enzyme_dup, X, t);
    fz_check("vm forward = reverse . v", tan,
             dv[0] * v[0] + dv[1] * v[1] + dv[2] * v[2] + dv[3] * v[3] + dc[0] * 0.5, 1e-12);
  }
  return fz_finish();
}

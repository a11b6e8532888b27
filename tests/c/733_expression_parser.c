// OPT: O0 O1 O2 O3
// A recursive-descent expression evaluator inside the differentiated function, the way
// users fit formulas typed in a config file: the text ("a*sin(x0)+..." with numbers,
// variables x0..x3, + - * / ^, parentheses, unary minus, sin/exp/log/sqrt) is walked by
// mutually recursive functions through a `const char **` cursor; numbers come from
// `strtod`, names are compared with `strncmp`, variables index an active array. Oracle:
// finite differences of the primal and an analytic gradient of the same formula.
#include "fz_test.h"
#include <ctype.h>

typedef struct { const char *p; const double *vars; int err; } parser;

static double expr(parser *ps);

static void skip(parser *ps) { while (*ps->p == ' ') ps->p++; }

static double primary(parser *ps) {
  skip(ps);
  const char *p = ps->p;
  if (*p == '(') {
    ps->p++;
    double v = expr(ps);
    skip(ps);
    if (*ps->p == ')') ps->p++; else ps->err = 1;
    return v;
  }
  if (*p == '-') { ps->p++; return -primary(ps); }
  if (isdigit((unsigned char)*p) || *p == '.') {
    char *end;
    double v = strtod(p, &end);
    ps->p = end;
    return v;
  }
  if (p[0] == 'x' && isdigit((unsigned char)p[1])) {
    ps->p += 2;
    return ps->vars[p[1] - '0'];
  }
  static const char *fns[] = {"sin", "exp", "log", "sqrt"};
  for (int k = 0; k < 4; k++) {
    size_t len = strlen(fns[k]);
    if (strncmp(p, fns[k], len) == 0 && p[len] == '(') {
      ps->p += len;
      double a = primary(ps);
      switch (k) {
      case 0: return sin(a);
      case 1: return exp(a);
      case 2: return log(a);
      default: return sqrt(a);
      }
    }
  }
  ps->err = 1;
  return 0.0;
}

static double power(parser *ps) {
  double b = primary(ps);
  skip(ps);
  if (*ps->p == '^') {
    ps->p++;
    double e = power(ps); /* right associative */
    return pow(b, e);
  }
  return b;
}

static double term(parser *ps) {
  double v = power(ps);
  for (;;) {
    skip(ps);
    char c = *ps->p;
    if (c != '*' && c != '/') return v;
    ps->p++;
    double r = power(ps);
    v = c == '*' ? v * r : v / r;
  }
}

static double expr(parser *ps) {
  double v = term(ps);
  for (;;) {
    skip(ps);
    char c = *ps->p;
    if (c != '+' && c != '-') return v;
    ps->p++;
    double r = term(ps);
    v = c == '+' ? v + r : v - r;
  }
}

double eval_formula(const char *text, const double *x) {
  parser ps = {text, x, 0};
  double v = expr(&ps);
  return ps.err ? NAN : v;
}

static const char *TEXT = "2.5*sin(x0)*x1 + exp(-x2^2/2) - log(1 + x3*x3) / (x0 - -3) + sqrt(x1)^3";
static double X[4] = {0.7, 1.3, -0.4, 2.2};
static double eval(void *ctx) { (void)ctx; return eval_formula(TEXT, X); }

int main(void) {
  double dx[4] = {0}, fd[4], want[4];
  __enzyme_autodiff((void *)eval_formula, enzyme_const, TEXT, enzyme_dup, X, dx);
  double x0 = X[0], x1 = X[1], x2 = X[2], x3 = X[3], L = log(1 + x3 * x3);
  want[0] = 2.5 * cos(x0) * x1 + L / ((x0 + 3) * (x0 + 3));
  want[1] = 2.5 * sin(x0) + 1.5 * sqrt(x1);
  want[2] = x2 * exp(x2 * x2 / 2); /* unary minus binds tighter than ^ here: (-x2)^2 */
  want[3] = -2 * x3 / (1 + x3 * x3) / (x0 + 3);
  fz_fd_grad(eval, NULL, X, 4, fd);
  fz_check_arr("dformula analytic", dx, want, 4, 1e-12);
  fz_check_arr("dformula fd", dx, fd, 4, 1e-6);
  return fz_finish();
}

// OPT: O0 O2
// A function-pointer table chosen by an int, as interpreters and plug-in code dispatch:
// `ops[code[i]](x[i], p)` over an opcode array (a const table, and a mutable table whose
// entries the program fills at run time, one of them replaced between gradients), an
// accumulator updated by a binary op chosen per step from a second table, and a
// struct of function pointers selected by index. Reverse and forward mode.
// Regression: the stage table is a mutable global holding function pointers and a
// `double w`; its shadow global was never zeroed before a top-level derivative (it
// holds pointers), so at -O0 the adjoint of w that a reverse call left there was read
// as w's tangent by the next forward call: a silently wrong JVP (contexts.rs now zeroes
// the float fields of such shadows, keeping the pointers).
// Oracle: the same computation with the calls written out by a switch (no pointers),
// analytic derivatives of each op, central differences, and the dot-product identity.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

typedef double (*unop)(double, double);
typedef double (*binop)(double, double);

static double op_sq(double x, double p) { return p * x * x; }
static double op_sin(double x, double p) { return sin(p * x); }
static double op_soft(double x, double p) { return log1p(exp(p * x)); }
static double op_recip(double x, double p) { return p / (1 + x * x); }
static double b_add(double a, double b) { return a + b; }
static double b_mul(double a, double b) { return a * b; }
static double b_hyp(double a, double b) { return sqrt(a * a + b * b); }

static const unop ops_const[4] = {op_sq, op_sin, op_soft, op_recip};
static unop ops_mut[4];
static const binop bins[3] = {b_add, b_mul, b_hyp};

typedef struct { unop f; binop g; double w; } stage;
static stage stages[2];

enum { N = 8 };
static int code[N], bcode[N];

double run_const(const double *x, double p, int n) {
  double acc = 1.0;
  for (int i = 0; i < n; i++) acc = bins[bcode[i]](acc, ops_const[code[i]](x[i], p));
  return acc;
}
double run_mut(const double *x, double p, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += ops_mut[code[i]](x[i], p);
  for (int k = 0; k < 2; k++) s = stages[k].g(s, stages[k].w * stages[k].f(s, p));
  return s;
}

static double ref_op(int c, double x, double p) {
  switch (c) {
  case 0: return p * x * x;
  case 1: return sin(p * x);
  case 2: return log1p(exp(p * x));
  default: return p / (1 + x * x);
  }
}
static double ref_bin(int c, double a, double b) {
  return c == 0 ? a + b : c == 1 ? a * b : sqrt(a * a + b * b);
}
static double X[N], P = 0.8;
static int g_mut_code[4];
static double eval_const(void *c) {
  (void)c;
  double acc = 1.0;
  for (int i = 0; i < N; i++) acc = ref_bin(bcode[i], acc, ref_op(code[i], X[i], P));
  return acc;
}
static int stage_code[2][2];
static double eval_mut(void *c) {
  (void)c;
  double s = 0;
  for (int i = 0; i < N; i++) s += ref_op(g_mut_code[code[i]], X[i], P);
  for (int k = 0; k < 2; k++)
    s = ref_bin(stage_code[k][1], s, stages[k].w * ref_op(stage_code[k][0], s, P));
  return s;
}

static void check_fn(const char *tag, double (*f)(const double *, double, int),
                     double (*ref)(void *), double *dx, double dp, double jv, double *vx,
                     double vp) {
  char nm[64];
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "%s: d x[%d] (op %d)", tag, i, code[i]);
    fz_check(nm, dx[i], fz_fd_ptr(ref, 0, &X[i]), 1e-6);
  }
  snprintf(nm, sizeof nm, "%s: d p", tag);
  fz_check(nm, dp, fz_fd_ptr(ref, 0, &P), 1e-6);
  snprintf(nm, sizeof nm, "%s: primal = switch", tag);
  fz_check(nm, f(X, P, N), ref(0), 1e-13);
  double vj = vp * dp;
  for (int i = 0; i < N; i++) vj += vx[i] * dx[i];
  snprintf(nm, sizeof nm, "%s: <J v, 1> = <v, J^T 1>", tag);
  fz_check(nm, jv, vj, 1e-11);
}

int main(void) {
  fz_seed(1286);
  fz_fill(X, N, -1, 1);
  for (int i = 0; i < N; i++) code[i] = (int)(fz_rand_u64() % 4), bcode[i] = (int)(fz_rand_u64() % 3);
  code[0] = 0, code[1] = 1, code[2] = 2, code[3] = 3; // every op at least once
  bcode[0] = 0, bcode[1] = 1, bcode[2] = 2;
  double vx[N];
  fz_fill(vx, N, -1, 1);
  double dx[N] = {0};
  double dp = __enzyme_autodiff((void *)run_const, enzyme_dup, X, dx, P, enzyme_const, N);
  double jv = __enzyme_fwddiff((void *)run_const, enzyme_dup, X, vx, P, 0.3, enzyme_const, N);
  check_fn("const table", run_const, eval_const, dx, dp, jv, vx, 0.3);
  // the mutable table, filled at run time (a permutation), then one entry replaced
  const int perm[4] = {2, 0, 3, 1};
  for (int k = 0; k < 4; k++) ops_mut[k] = ops_const[perm[k]], g_mut_code[k] = perm[k];
  stages[0] = (stage){op_sin, b_add, 0.5};
  stages[1] = (stage){op_sq, b_hyp, 1.2};
  stage_code[0][0] = 1, stage_code[0][1] = 0, stage_code[1][0] = 0, stage_code[1][1] = 2;
  for (int round = 0; round < 2; round++) {
    if (round == 1) ops_mut[1] = op_recip, g_mut_code[1] = 3, stages[0].f = op_soft,
                    stage_code[0][0] = 2;
    double d[N] = {0};
    double dpm = __enzyme_autodiff((void *)run_mut, enzyme_dup, X, d, P, enzyme_const, N);
    double jvm = __enzyme_fwddiff((void *)run_mut, enzyme_dup, X, vx, P, 0.3, enzyme_const, N);
    check_fn(round ? "mutable table, entry replaced" : "mutable table", run_mut, eval_mut, d,
             dpm, jvm, vx, 0.3);
  }
  return fz_finish();
}

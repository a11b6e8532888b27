// OPT: O0 O1 O2 O3
// Issue 14, reverse over reverse of loops with tapes, the other kinds of tape records:
// (a) a loop with a data-dependent branch and a data-dependent exit (integer path tags
// pushed beside the floats of each iteration; the exit makes the trip count unknown when
// the inner derivative is generated), (b) Hessian rows of a function of an array whose
// loop is taped (the inner gradient writes a shadow array: enzyme_dup at both levels),
// (c) a first derivative computed in split mode (__enzyme_augmentfwd + __enzyme_reverse:
// the loop's stack lives in a heap tape handed from the augmented function to the
// reverse one), (d) a walk along a linked list (the exit is the end of the list; pointers
// on the tape), (e) a loop on floats (4-byte records), (f) first derivatives of (a)
// summed in a loop of the outer function (the outer derivative's own stacks hold the
// inner calls' values). Oracles: hand-written second-order forward sweeps (hyper-dual numbers:
// exact second derivatives), finite differences of their first derivatives, and forward
// over reverse of the same first derivatives (the oracle).
#include "fz_test.h"
#include "fz_modes.h"

#ifndef FZ_ORACLES_ONLY
extern double __enzyme_autodiff_outer(void *, ...);
#else
#define __enzyme_autodiff_outer(...) 0.0
#endif

/* ---- hyper-dual numbers: value, d/da, d/db, d2/dadb (the exact oracle) ---- */
typedef struct { double v, a, b, ab; } hd;
static hd hc(double c) { return (hd){c, 0, 0, 0}; }
static hd hadd(hd x, hd y) { return (hd){x.v + y.v, x.a + y.a, x.b + y.b, x.ab + y.ab}; }
static hd hscale(hd x, double c) { return (hd){x.v * c, x.a * c, x.b * c, x.ab * c}; }
static hd hmul(hd x, hd y) {
  return (hd){x.v * y.v, x.a * y.v + x.v * y.a, x.b * y.v + x.v * y.b,
              x.ab * y.v + x.a * y.b + x.b * y.a + x.v * y.ab};
}
static hd hsin(hd x) {
  double s = sin(x.v), c = cos(x.v);
  return (hd){s, c * x.a, c * x.b, c * x.ab - s * x.a * x.b};
}
static hd hcos(hd x) {
  double s = sin(x.v), c = cos(x.v);
  return (hd){c, -s * x.a, -s * x.b, -s * x.ab - c * x.a * x.b};
}
static hd hvar(double v) { return (hd){v, 1, 1, 0}; } /* the one input, both directions */

/* (a) a branch per iteration, leaving early when t grows large */
double branchy(double x, int n) {
  double t = x, s = 0;
  int i = 0;
  while (i < n && fabs(t) < 3.0) {
    if (t > 0.1)
      t = t * t * 0.8 + sin(x);
    else
      t = cos(t) * x - 0.2;
    s += t * (i + 1);
    i++;
  }
  return s;
}
static hd branchy_h(hd x, int n) {
  hd t = x, s = hc(0);
  int i = 0;
  while (i < n && fabs(t.v) < 3.0) {
    if (t.v > 0.1)
      t = hadd(hscale(hmul(t, t), 0.8), hsin(x));
    else
      t = hadd(hmul(hcos(t), x), hc(-0.2));
    s = hadd(s, hscale(t, i + 1));
    i++;
  }
  return s;
}
double d_branchy(double x, int n) { return __enzyme_autodiff((void *)branchy, x, enzyme_const, n); }

/* (b) q(x) over an array: a taped recurrence through every element */
#define N 5
double q(const double *x, int n) {
  double s = 0, t = 1;
  for (int i = 0; i < n; i++) {
    t = t * sin(x[i]) + 0.5 * x[(i + 1) % n] * t;
    s += t * x[i];
  }
  return s;
}
static hd q_h(const hd *x, int n) {
  hd s = hc(0), t = hc(1);
  for (int i = 0; i < n; i++) {
    t = hadd(hmul(t, hsin(x[i])), hscale(hmul(x[(i + 1) % n], t), 0.5));
    s = hadd(s, hmul(t, x[i]));
  }
  return s;
}
/* the i-th gradient entry: its gradient is the Hessian's row i */
double gi(const double *x, int i, int n) {
  double g[N] = {0};
  __enzyme_autodiff((void *)q, enzyme_dup, x, g, enzyme_const, n);
  return g[i];
}

/* (c) the first derivative in split mode */
double recur(double x, int n) {
  double t = x, s = 0;
  for (int i = 0; i < n; i++) {
    t = sin(t) * cos(x) + 0.2 * t;
    s += t;
  }
  return s;
}
static hd recur_h(hd x, int n) {
  hd t = x, s = hc(0);
  for (int i = 0; i < n; i++) {
    t = hadd(hmul(hsin(t), hcos(x)), hscale(t, 0.2));
    s = hadd(s, t);
  }
  return s;
}
double d_recur_split(double x, int n) {
  void *tape = __enzyme_augmentfwd((void *)recur, x, enzyme_const, n);
  return __enzyme_reverse((void *)recur, x, enzyme_const, n, 1.0, tape);
}

/* (d) along a linked list */
typedef struct node { double w; struct node *next; } node;
double walk(double x, const node *p) {
  double t = x, s = 0;
  while (p) {
    t = sin(t * p->w) + x;
    s += t;
    p = p->next;
  }
  return s;
}
static hd walk_h(hd x, const node *p) {
  hd t = x, s = hc(0);
  while (p) {
    t = hadd(hsin(hscale(t, p->w)), x);
    s = hadd(s, t);
    p = p->next;
  }
  return s;
}
double d_walk(double x, const node *p) { return __enzyme_autodiff((void *)walk, x, enzyme_const, p); }

/* (e) floats */
#ifndef FZ_ORACLES_ONLY
extern float __enzyme_autodiff_f(void *, ...);
extern float __enzyme_autodiff_outer_f(void *, ...);
#else
#define __enzyme_autodiff_f(...) 0.0f
#define __enzyme_autodiff_outer_f(...) 0.0f
#endif
float fser(float x, int n) {
  float t = x;
  for (int i = 0; i < n; i++) t = sinf(t) * 0.9f + 0.1f * x;
  return t;
}
static hd fser_h(hd x, int n) {
  hd t = x;
  for (int i = 0; i < n; i++) t = hadd(hscale(hsin(t), 0.9), hscale(x, 0.1));
  return t;
}
float d_fser(float x, int n) { return __enzyme_autodiff_f((void *)fser, x, enzyme_const, n); }

/* (f) first derivatives of (a) summed in a loop */
double sum_d(double x, int n) { /* sum over k of k f'(k x / 4) */
  double s = 0;
  for (int k = 1; k <= 4; k++) s += d_branchy(x * k * 0.25, n) * k;
  return s;
}
static hd sum_d_exact(double x, int n) { /* .a: sum_d, .ab: its derivative */
  hd r = hc(0);
  for (int k = 1; k <= 4; k++) {
    hd e = branchy_h(hvar(x * k * 0.25), n);
    r.a += e.a * k;
    r.ab += e.ab * 0.25 * k * k;
  }
  return r;
}

/* first derivatives from the oracle, for finite differences */
static int NC, IC, JC;
static double XC[N];
static double branchy_first(double x) { return branchy_h(hvar(x), NC).a; }
static double recur_first(double x) { return recur_h(hvar(x), NC).a; }
static double sum_d_first(double x) { return sum_d_exact(x, NC).a; }
static const node *LIST;
static double walk_first(double x) { return walk_h(hvar(x), LIST).a; }
static double q_grad_i(double xj) { /* d q / d x_i with x_j = xj */
  hd X[N];
  for (int k = 0; k < N; k++) X[k] = hc(XC[k]);
  X[JC].v = xj;
  X[IC].a = 1;
  return q_h(X, N).a;
}

static void scalar_case(const char *name, double (*d)(double, int), double (*rr)(double, int),
                        double (*fr)(double, int), hd (*h)(hd, int), double (*first)(double),
                        double x, int n) {
  char what[160];
  NC = n;
  hd e = h(hvar(x), n);
  double fd = fz_fd1(first, x);
  snprintf(what, sizeof what, "%s n=%d x=%.3f: f'", name, n, x);
  /* a mode result (split mode's hooks are stubs in the oracle-only build) */
  fz_mcheck(what, d(x, n), e.a, 1e-10 * (fabs(e.a) > 1 ? fabs(e.a) : 1));
  snprintf(what, sizeof what, "%s n=%d x=%.3f: f''", name, n, x);
  fz_mcheck_d2(what, rr(x, n), fr(x, n), e.ab, fd);
}
static double rr_branchy(double x, int n) {
  return __enzyme_autodiff_outer((void *)d_branchy, x, enzyme_const, n);
}
static double fr_branchy(double x, int n) {
  return __enzyme_fwddiff((void *)d_branchy, x, 1.0, enzyme_const, n);
}
static double rr_split(double x, int n) {
  return __enzyme_autodiff_outer((void *)d_recur_split, x, enzyme_const, n);
}
static double fr_split(double x, int n) {
  return __enzyme_fwddiff((void *)d_recur_split, x, 1.0, enzyme_const, n);
}

int main(void) {
  fz_seed(268);
  const int ns[] = {0, 1, 4, 30, 200};
  for (int k = 0; k < 5; k++) {
    double x = fz_uniform(-1.0, 1.0);
    scalar_case("branchy", d_branchy, rr_branchy, fr_branchy, branchy_h, branchy_first, x, ns[k]);
    scalar_case("split recurrence", d_recur_split, rr_split, fr_split, recur_h, recur_first, x,
                ns[k]);
  }
  for (int n = 0; n <= 90; n = 3 * n + 2) {
    double x = fz_uniform(-1.0, 1.0);
    NC = n;
    hd e = sum_d_exact(x, n);
    fz_check("sum of f' in a loop", sum_d(x, n), e.a, 1e-10 * (fabs(e.a) > 1 ? fabs(e.a) : 1));
    fz_mcheck_d2("sum of f' in a loop: derivative",
                 __enzyme_autodiff_outer((void *)sum_d, x, enzyme_const, n),
                 __enzyme_fwddiff((void *)sum_d, x, 1.0, enzyme_const, n), e.ab,
                 fz_fd1(sum_d_first, x));
  }
  node nodes[300];
  for (int len = 1; len <= 300; len *= 3) {
    for (int i = 0; i < len; i++) {
      nodes[i].w = fz_uniform(0.2, 1.1);
      nodes[i].next = i + 1 < len ? &nodes[i + 1] : NULL;
    }
    double x = fz_uniform(-1.0, 1.0);
    LIST = nodes;
    hd e = walk_h(hvar(x), nodes);
    fz_check("walk: f'", d_walk(x, nodes), e.a, 1e-10 * (fabs(e.a) > 1 ? fabs(e.a) : 1));
    fz_mcheck_d2("walk: f''", __enzyme_autodiff_outer((void *)d_walk, x, enzyme_const, nodes),
                 __enzyme_fwddiff((void *)d_walk, x, 1.0, enzyme_const, nodes), e.ab,
                 fz_fd1(walk_first, x));
  }
  for (int n = 0; n <= 200; n = 2 * n + 1) {
    float x = (float)fz_uniform(-1.0, 1.0);
    hd e = fser_h(hvar(x), n);
    double sc = fabs(e.ab) > 1 ? fabs(e.ab) : 1;
    /* single precision: the jet is exact in double, the derivatives round in float */
    fz_mcheck("float: f'", d_fser(x, n), e.a, 1e-4 * (fabs(e.a) > 1 ? fabs(e.a) : 1));
    fz_mcheck("float: f'' reverse over reverse",
              __enzyme_autodiff_outer_f((void *)d_fser, x, enzyme_const, n), e.ab, 1e-4 * sc);
  }
  for (int t = 0; t < 3; t++) {
    fz_fill(XC, N, -1.2, 1.2);
    for (int i = 0; i < N; i++) {
      double row[N] = {0}, exact[N], fd[N], fwd[N];
      __enzyme_autodiff_outer((void *)gi, enzyme_dup, XC, row, enzyme_const, i, enzyme_const, N);
      for (int j = 0; j < N; j++) {
        hd X[N];
        for (int k = 0; k < N; k++) X[k] = hc(XC[k]);
        X[i].a = 1;
        X[j].b = 1;
        exact[j] = q_h(X, N).ab;
        IC = i;
        JC = j;
        fd[j] = fz_fd1(q_grad_i, XC[j]);
        double dir[N] = {0}, xc[N];
        dir[j] = 1;
        memcpy(xc, XC, sizeof xc);
        fwd[j] = __enzyme_fwddiff((void *)gi, enzyme_dup, xc, dir, enzyme_const, i, enzyme_const, N);
      }
      char what[120];
      snprintf(what, sizeof what, "Hessian row %d (reverse over reverse)", i);
      fz_mcheck2_arr(what, row, exact, 1e-9, fd, 1e-6, N);
      snprintf(what, sizeof what, "Hessian row %d (forward over reverse)", i);
      fz_mcheck2_arr(what, fwd, exact, 1e-9, fd, 1e-6, N);
    }
  }
  return fz_finish();
}

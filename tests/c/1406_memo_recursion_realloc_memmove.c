// OPT: O0 O2
// Memory patterns of hand-written numerical C: a recursion memoized into a static array
// of doubles (cleared at entry; a value computed once and read back many times, so its
// adjoint gathers every reader's), a buffer grown with `realloc` inside a loop (its
// contents moved by realloc carry their adjoints) and a node freed and re-`malloc`ed
// each iteration, and `memmove` of overlapping active ranges (a delay line shifted by
// one both ways). Oracles: central differences, forward = reverse per input, and the
// memoized recursion's derivative against its closed form.
#include "fz_test.h"
#include "fz_modes.h"

#define K 12
static double memo[K + 1];
static int known[K + 1];

/* t(k) = a t(k-1) + b t(k-2), t(0) = 1, t(1) = a; called as a tree, memoized */
static double t(int k, double a, double b) {
  if (known[k]) return memo[k];
  double r = k == 0 ? 1 : k == 1 ? a : a * t(k - 1, a, b) + b * t(k - 2, a, b);
  memo[k] = r;
  known[k] = 1;
  return r;
}
double memo_rec(double a, double b) {
  for (int k = 0; k <= K; k++) known[k] = 0;
  return t(K, a, b) + 0.5 * t(K - 3, a, b);
}

double grow(const double *x, int n) {
  int cap = 1, len = 0;
  double *buf = malloc(cap * sizeof *buf), s = 0;
  for (int i = 0; i < n; i++) {
    if (len == cap) {
      cap *= 2;
      buf = realloc(buf, cap * sizeof *buf);
    }
    buf[len++] = x[i] * x[(i + 1) % n];
    double *node = malloc(2 * sizeof *node);
    node[0] = buf[len / 2];
    node[1] = sin(node[0]) + buf[len - 1];
    s += node[1] * node[0];
    free(node);
  }
  for (int i = 0; i < len; i++) s += buf[i] * buf[len - 1 - i];
  free(buf);
  return s;
}

#define D 7
double delay(const double *x, double c) {
  double line[D];
  for (int i = 0; i < D; i++) line[i] = x[i];
  double s = 0;
  for (int step = 0; step < 4; step++) {
    memmove(line + 1, line, (D - 1) * sizeof *line); /* shift right, overlapping */
    line[0] = c * line[1] + x[step];
    s += line[D - 1] * line[0];
    memmove(line, line + 2, (D - 2) * sizeof *line); /* shift left by two */
    line[D - 1] = line[D - 2] * c;
    line[D - 2] = 0.5 * line[3];
  }
  for (int i = 0; i < D; i++) s += (i + 1) * line[i] * line[i];
  return s;
}

double all(const double *x, double a, double b) {
  return memo_rec(a, b) + grow(x, D) + delay(x, a);
}

static double Z[D + 2];
static double eval(void *c) {
  (void)c;
  return all(Z, Z[D], Z[D + 1]);
}

int main(void) {
  fz_seed(1406);
  fz_fill(Z, D, -0.8, 0.8);
  Z[D] = 0.7, Z[D + 1] = 0.2;
  double gx[D] = {0};
  fz_grad2 g = __enzyme_autodiff2((void *)all, enzyme_dup, Z, gx, enzyme_out, Z[D], enzyme_out, Z[D + 1]);
  for (int i = 0; i < D + 2; i++) {
    double got = i < D ? gx[i] : i == D ? g.d0 : g.d1;
    char b[48];
    snprintf(b, sizeof b, "d/dz[%d]", i);
    fz_check(b, got, fz_fd_ptr(eval, NULL, &Z[i]), 1e-6);
    double tx[D] = {0};
    if (i < D) tx[i] = 1;
    double fw = __enzyme_fwddiff((void *)all, enzyme_dup, Z, tx, Z[D], (double)(i == D), Z[D + 1],
                                 (double)(i == D + 1));
    snprintf(b, sizeof b, "forward = reverse [%d]", i);
    fz_mcheck(b, fw, got, 1e-12);
  }
  /* t(k) for t(k) = a t(k-1) + b t(k-2): the roots r1, r2 of r^2 = a r + b,
     t(k) = (r1^(k+1) - r2^(k+1)) / (r1 - r2); derivatives by the chain rule through r */
  double a = Z[D], b = Z[D + 1];
  double disc = sqrt(a * a + 4 * b), r1 = (a + disc) / 2, r2 = (a - disc) / 2;
  double dr1a = 0.5 + a / (2 * disc), dr2a = 0.5 - a / (2 * disc);
  double dr1b = 1 / disc, dr2b = -1 / disc;
  double wa = 0, wb = 0;
  int ks[2] = {K, K - 3};
  double ws[2] = {1, 0.5};
  for (int j = 0; j < 2; j++) {
    int k = ks[j];
    double num = pow(r1, k + 1) - pow(r2, k + 1), den = r1 - r2;
    double dn1 = (k + 1) * pow(r1, k), dn2 = -(k + 1) * pow(r2, k);
    /* d(num/den) = (dnum den - num dden) / den^2, dden = dr1 - dr2 */
    double da = ((dn1 * dr1a + dn2 * dr2a) * den - num * (dr1a - dr2a)) / (den * den);
    double db = ((dn1 * dr1b + dn2 * dr2b) * den - num * (dr1b - dr2b)) / (den * den);
    wa += ws[j] * da, wb += ws[j] * db;
  }
  fz_grad2 m = __enzyme_autodiff2((void *)memo_rec, a, b);
  fz_check("memoized recursion d/da (closed form)", m.d0, wa, 1e-10);
  fz_check("memoized recursion d/db (closed form)", m.d1, wb, 1e-10);
  return fz_finish();
}

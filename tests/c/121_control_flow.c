// OPT: O0 O1 O2 O3
// Tricky control flow: a 12-case switch in a loop, a loop with several
// latches (continue from different places), an irreducible loop made with
// goto, and a callee with early return from nested loops called in a loop.
#include "fz_test.h"

#define N 10
int ops[40];

double f_switch(double *x, int m) {
  double acc = x[0];
  for (int t = 0; t < m; t++) {
    double v = x[t % N];
    switch (ops[t]) {
      case 0: acc += v * v; break;
      case 1: acc *= 1.0 + 0.1 * v; break;
      case 2: acc = sin(acc) + v; break;
      case 3: acc -= exp(0.1 * v); break;
      case 4: acc = acc * acc * 0.1 + v; break;
      case 5: x[(t + 1) % N] = acc * 0.5; break;
      case 6: acc += x[(t + 3) % N] * v; /* fallthrough */
      case 7: acc *= 0.9; break;
      case 8: acc = cos(acc) * v; break;
      case 9: acc += 1.0 / (1.5 + v); break;
      case 10: x[t % N] = v * v * 0.5; break;
      default: acc += 0.3 * v; break;
    }
  }
  return acc;
}

double f_latches(const double *x, int n) {
  double s = 0;
  int i = 0;
  while (i < n) {
    double v = x[i];
    i++;
    if (v > 0.5) { s += v * v; continue; }
    if (v < -0.5) { s -= sin(v); continue; }
    s = s * 0.5 + v * 3.0;
    if (i % 3 == 0) { s += exp(v); continue; }
    s *= 1.1;
  }
  return s;
}

double f_irreducible(const double *x, int n, int start_mid) {
  double s = 1.0;
  int i = 0;
  if (start_mid) goto mid;
top:
  if (i >= n) return s;
  s = s * 0.9 + x[i] * x[i];
  i++;
mid:
  if (i >= n) return s;
  s = s + sin(x[i] * s);
  i++;
  if (x[i - 1] > 0) goto top;
  goto mid;
}

__attribute__((noinline)) double find(const double *a, int r, int c, double thr) {
  double s = 0;
  for (int i = 0; i < r; i++)
    for (int j = 0; j < c; j++) {
      double v = a[i * c + j];
      s += v * v;
      if (s > thr) return s * v;
    }
  return -s;
}
double f_early(const double *a, int m) {
  double tot = 0;
  for (int k = 0; k < m; k++) tot += find(a, 3, 3, 0.5 + 0.7 * k) * (k + 1);
  return tot;
}

struct ctx { int which; double *x; int m; };
static double eval(void *p) {
  struct ctx *c = p;
  double t[N];
  memcpy(t, c->x, sizeof t);
  switch (c->which) {
    case 0: return f_switch(t, c->m);
    case 1: return f_latches(t, N);
    case 2: return f_irreducible(t, N, 0);
    case 3: return f_irreducible(t, N, 1);
    default: return f_early(t, c->m);
  }
}

int main(void) {
  fz_seed(224);
  for (int t = 0; t < 40; t++) ops[t] = (int)(fz_rand_u64() % 13);
  double x0[N], x[N], dx[N], fd[N];
  fz_fill(x0, N, -1, 1);
  const char *names[5] = {"switch", "latches", "irred0", "irred1", "early"};
  for (int w = 0; w < 5; w++) {
    memcpy(x, x0, sizeof x);
    fz_zero(dx, N);
    switch (w) {
      case 0: __enzyme_autodiff((void *)f_switch, enzyme_dup, x, dx, enzyme_const, 40); break;
      case 1: __enzyme_autodiff((void *)f_latches, enzyme_dup, x, dx, enzyme_const, N); break;
      case 2: __enzyme_autodiff((void *)f_irreducible, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, 0); break;
      case 3: __enzyme_autodiff((void *)f_irreducible, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, 1); break;
      default: __enzyme_autodiff((void *)f_early, enzyme_dup, x, dx, enzyme_const, 5); break;
    }
    struct ctx c = {w, x0, w == 0 ? 40 : 5};
    fz_fd_grad(eval, &c, x0, N, fd);
    fz_check_arr(names[w], dx, fd, N, 1e-6);
  }
  return fz_finish();
}

// OPT: O0 O2 O3
// An array of structs {double x, y; int id; double m;} with a pairwise energy.
#include "fz_test.h"

typedef struct {
  double x, y;
  int id;
  double m;
} P;

double energy(const P *p, int n) {
  double e = 0.0;
  for (int i = 0; i < n; i++) {
    e += 0.5 * p[i].m * (p[i].x * p[i].x + p[i].y * p[i].y) * (double)(p[i].id % 3 + 1);
    for (int j = i + 1; j < n; j++) {
      double dx = p[i].x - p[j].x, dy = p[i].y - p[j].y;
      e += p[i].m * p[j].m / sqrt(dx * dx + dy * dy + 0.1);
    }
  }
  return e;
}

#define N 7
struct ctx { P *p; };
static double eval(void *c) { return energy(((struct ctx *)c)->p, N); }

int main(void) {
  fz_seed(24);
  P p[N], dp[N];
  for (int i = 0; i < N; i++) {
    p[i].x = fz_uniform(-1, 1);
    p[i].y = fz_uniform(-1, 1);
    p[i].id = i * 7;
    p[i].m = fz_uniform(0.5, 2);
  }
  memset(dp, 0, sizeof dp);
  __enzyme_autodiff((void *)energy, enzyme_dup, p, dp, enzyme_const, N);
  struct ctx c = {p};
  for (int i = 0; i < N; i++) {
    char what[48];
    snprintf(what, sizeof what, "dp[%d].x", i);
    fz_check(what, dp[i].x, fz_fd_ptr(eval, &c, &p[i].x), 1e-6);
    snprintf(what, sizeof what, "dp[%d].y", i);
    fz_check(what, dp[i].y, fz_fd_ptr(eval, &c, &p[i].y), 1e-6);
    snprintf(what, sizeof what, "dp[%d].m", i);
    fz_check(what, dp[i].m, fz_fd_ptr(eval, &c, &p[i].m), 1e-6);
    snprintf(what, sizeof what, "dp[%d].id stays 0", i);
    fz_check(what, (double)dp[i].id, 0.0, 0.0);
  }
  return fz_finish();
}

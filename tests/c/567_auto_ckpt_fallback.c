// OPT: O0 O2
// Loops automatic checkpointing (checkpoint/auto.rs) must leave fully taped, with or
// without FERROZYME_TAPE_BUDGET: a time loop whose state is reached through a pointer
// loaded from a structure (what it writes cannot be identified before the loop), one
// that carries a scalar in a register from step to step, and one reading an argument
// passed as enzyme_const. The remarks saying why are checked by
// crates/ferrozyme-cli/tests/auto_checkpoint.rs; here the gradients under a 1-byte budget
// must equal the unbudgeted ones and central finite differences.
#include "fz_test.h"
#include <stdlib.h>

#define M 8

struct state {
  double *x;
  int m;
};

__attribute__((noinline)) double through_struct(struct state *s, double k, long n) {
  for (long t = 0; t < n; t++)
    for (int i = 0; i < s->m; i++)
      s->x[i] = s->x[i] + 0.05 * sin(k * s->x[(i + 1) % s->m]);
  double r = 0;
  for (int i = 0; i < s->m; i++)
    r += s->x[i] * s->x[i];
  return r;
}

__attribute__((noinline)) double carried(double *x, int m, double k, long n) {
  double acc = 0;
  for (long t = 0; t < n; t++) {
    for (int i = 0; i < m; i++)
      x[i] = x[i] + 0.05 * cos(k * x[(i + 1) % m]) + 0.01 * acc;
    acc += x[0] * x[0];
  }
  return acc;
}

__attribute__((noinline)) double const_coef(double *x, const double *coef, int m, long n) {
  for (long t = 0; t < n; t++)
    for (int i = 0; i < m; i++)
      x[i] = x[i] + 0.05 * coef[i] * sin(x[(i + 1) % m]);
  double r = 0;
  for (int i = 0; i < m; i++)
    r += x[i] * x[i];
  return r;
}

static void init(double *x) {
  for (int i = 0; i < M; i++)
    x[i] = 0.2 + 0.5 * sin(1.1 * i);
}

struct ctx {
  double x[M], k;
  int which;
};
static const long N = 20;
static double coef[M];

static double eval(void *p) {
  struct ctx *c = p;
  double x[M];
  for (int i = 0; i < M; i++)
    x[i] = c->x[i];
  struct state s = {x, M};
  switch (c->which) {
  case 0:
    return through_struct(&s, c->k, N);
  case 1:
    return carried(x, M, c->k, N);
  default:
    return const_coef(x, coef, M, N);
  }
}

/* dk (0 for const_coef) and dx of function `which`, under `budget` (NULL: unset). */
static double grad(int which, const char *budget, double k, double *dx) {
  double x[M], dk = 0;
  init(x);
  for (int i = 0; i < M; i++)
    dx[i] = 0;
  if (budget)
    setenv("FERROZYME_TAPE_BUDGET", budget, 1);
  else
    unsetenv("FERROZYME_TAPE_BUDGET");
  if (which == 0) {
    struct state s = {x, M}, ds = {dx, 0};
    dk = __enzyme_autodiff((void *)through_struct, enzyme_dup, &s, &ds, enzyme_out, k,
                           enzyme_const, N);
  } else if (which == 1) {
    dk = __enzyme_autodiff((void *)carried, enzyme_dup, x, dx, enzyme_const, M, enzyme_out,
                           k, enzyme_const, N);
  } else {
    __enzyme_autodiff((void *)const_coef, enzyme_dup, x, dx, enzyme_const, coef,
                      enzyme_const, M, enzyme_const, N);
  }
  unsetenv("FERROZYME_TAPE_BUDGET");
  return dk;
}

int main(void) {
  const char *names[] = {"through a structure", "carried scalar", "const argument"};
  for (int i = 0; i < M; i++)
    coef[i] = 1 + 0.2 * i;
  for (int w = 0; w < 3; w++) {
    char what[96];
    double dx0[M], dx[M];
    double dk0 = grad(w, NULL, 0.9, dx0);
    double dk = grad(w, "1", 0.9, dx);
    snprintf(what, sizeof what, "%s: budgeted d/dk against unbudgeted", names[w]);
    fz_check(what, dk, dk0, 1e-12);
    snprintf(what, sizeof what, "%s: budgeted d/dx against unbudgeted", names[w]);
    fz_check_arr(what, dx, dx0, M, 1e-12);
    struct ctx c;
    init(c.x);
    c.k = 0.9;
    c.which = w;
    if (w < 2) {
      snprintf(what, sizeof what, "%s: d/dk against finite differences", names[w]);
      fz_check(what, dk, fz_fd_ptr(eval, &c, &c.k), 1e-6);
    }
    for (int i = 0; i < M; i += 3) {
      snprintf(what, sizeof what, "%s: d/dx[%d] against finite differences", names[w], i);
      fz_check(what, dx[i], fz_fd_ptr(eval, &c, &c.x[i]), 1e-6);
    }
  }
  return fz_finish();
}

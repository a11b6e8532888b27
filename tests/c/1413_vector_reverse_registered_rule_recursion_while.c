// OPT: O0 O2
// Vector reverse mode (`enzyme_width, 2`) through a registered gradient whose augmented
// function mallocs its tape, called in a recursion (depth 4 and 3) and in a `while` loop
// whose trip count depends on the active values: each call's lanes' tapes are packed into
// one block that travels on the caller's tape (a stack for the loop and the recursion)
// and is unpacked and freed in the reverse sweep. Oracles: the rule's live-tape counter
// back at zero, central differences of each lane's seeded output sum.
#include "fz_test.h"
#include "fz_modes.h"

static int live;
__attribute__((noinline)) double softclip(double x) { return x / sqrt(1 + x * x); }
typedef struct { void *tape; double r; } aug_sc;
aug_sc softclip_aug(double x) {
  live++;
  double *t = malloc(sizeof *t);
  *t = 1 + x * x;
  aug_sc a = {t, x / sqrt(*t)};
  return a;
}
double softclip_rev(double x, double dr, void *tape) {
  (void)x;
  live--;
  double s = *(double *)tape;
  free(tape);
  return dr / (s * sqrt(s));
}
void *__enzyme_register_gradient_softclip[] = {(void *)softclip, (void *)softclip_aug,
                                               (void *)softclip_rev};

double rec(double x, int d) {
  if (d == 0) return softclip(x);
  return softclip(x + 0.3 * rec(x * 0.8, d - 1));
}

void f(const double *x, double *out, int n) {
  double s = 0;
  int it = 0;
  while (s < 2.5 && it < 40) {
    s += fabs(softclip(x[it % n] + 0.1 * it)) + 0.05;
    it++;
  }
  out[0] = s * rec(x[0], 4);
  out[1] = rec(x[1] * s, 3);
}

static double X[3], SEED[2];
static double eval(void *c) {
  (void)c;
  double o[2];
  f(X, o, 3);
  return o[0] * SEED[0] + o[1] * SEED[1];
}

int main(void) {
  X[0] = 0.4, X[1] = -0.7, X[2] = 0.9;
  double o[2], s0[2] = {1, 0}, s1[2] = {0.5, 1}, g0[3] = {0}, g1[3] = {0};
  __enzyme_autodiff_w((void *)f, enzyme_width, 2, enzyme_dup, X, g0, g1, enzyme_dup, o, s0, s1, 3);
  fz_check("every tape freed", live, 0, 0);
  double *g[2] = {g0, g1}, ss[2][2] = {{1, 0}, {0.5, 1}};
  for (int l = 0; l < 2; l++) {
    SEED[0] = ss[l][0], SEED[1] = ss[l][1];
    for (int i = 0; i < 3; i++) {
      char b[48];
      snprintf(b, sizeof b, "lane %d d/dx[%d]", l, i);
      fz_mcheck(b, g[l][i], fz_fd_ptr(eval, 0, &X[i]), 1e-6);
    }
  }
  return fz_finish();
}

// OPT: O0 O2
// Vector reverse mode (`enzyme_width, 3`: three output seeds, one shadow per lane for
// every pointer) through what needs a tape: a linked list built with malloc in the
// function and walked twice, a recursive evaluation of a continued fraction, a Newton
// iteration with a tolerance exit per element, fmax/fmin picking sides, a struct of
// parameters passed by pointer (its shadows per lane), and outputs overwritten in a
// second pass. Oracles: each lane against a scalar `__enzyme_autodiff` with that lane's
// seed, the dot-product identity against `__enzyme_fwddiff` (vector forward, width 2),
// central differences of a weighted output sum.
#include "fz_test.h"

extern int enzyme_width;
extern void __enzyme_autodiff_w3(void *, ...);
typedef struct { double d[2]; } v2;
extern void __enzyme_fwddiff_w2(void *, ...);
extern void __enzyme_fwddiff_void(void *, ...);

#define N 5
#define M 4

typedef struct node { double v; struct node *next; } node;
typedef struct { double a, b, k; } prm;

static double cfrac(double x, const prm *p, int depth) {
  if (depth == 0) return p->b;
  return p->b + x / (p->a + cfrac(x * 0.9, p, depth - 1));
}

static double cubert(double r) {
  double y = r > 1 ? r / 3 : 1.0;
  for (int it = 0; it < 60; it++) {
    double s = (y * y * y - r) / (3 * y * y);
    y -= s;
    if (fabs(s) < 1e-15 * y) break;
  }
  return y;
}

void kernel(const double *x, const prm *p, double *out) {
  node *head = NULL;
  for (int i = N - 1; i >= 0; i--) {
    node *n = malloc(sizeof *n);
    n->v = x[i] * p->k + fmax(x[i], 0.1 * p->a);
    n->next = head;
    head = n;
  }
  int j = 0;
  for (node *n = head; n; n = n->next, j++) out[j % M] = (j < M ? 0 : out[j % M]) + cfrac(n->v, p, 3);
  double run = 0;
  for (node *n = head; n; n = n->next) {
    run = fmin(run + cubert(1 + n->v * n->v), 40.0);
    n->v = run;
  }
  for (j = 0; j < M; j++) out[j] = out[j] * 0.5 + head->v * (j + 1) - head->next->v;
  while (head) {
    node *t = head->next;
    free(head);
    head = t;
  }
}

typedef struct { double x[N]; prm p; double w[M]; } ctx;
static double ev(void *v) {
  ctx *c = v;
  double o[M], s = 0;
  kernel(c->x, &c->p, o);
  for (int j = 0; j < M; j++) s += c->w[j] * o[j];
  return s;
}

int main(void) {
  ctx c = {{0.6, -0.2, 1.1, 0.35, -0.7}, {1.3, 0.4, 0.8}, {0}};
  double seeds[3][M], gx[3][N] = {{0}}, o[M];
  prm gp[3] = {{0}};
  for (int l = 0; l < 3; l++)
    for (int j = 0; j < M; j++) seeds[l][j] = cos(1.1 * l + 0.6 * j);
  double s0[M], s1[M], s2[M];
  memcpy(s0, seeds[0], sizeof s0), memcpy(s1, seeds[1], sizeof s1), memcpy(s2, seeds[2], sizeof s2);
  __enzyme_autodiff_w3((void *)kernel, enzyme_width, 3, enzyme_dup, c.x, gx[0], gx[1], gx[2],
                       enzyme_dup, &c.p, &gp[0], &gp[1], &gp[2], enzyme_dup, o, s0, s1, s2);
  char w[64];
  for (int l = 0; l < 3; l++) {
    double g1[N] = {0}, sd[M];
    prm p1 = {0};
    memcpy(sd, seeds[l], sizeof sd);
    __enzyme_autodiff((void *)kernel, enzyme_dup, c.x, g1, enzyme_dup, &c.p, &p1, enzyme_dup, o, sd);
    snprintf(w, sizeof w, "width 3 lane %d d/dx = scalar", l);
    fz_check_arr(w, gx[l], g1, N, 1e-13);
    snprintf(w, sizeof w, "width 3 lane %d d/d(a,b,k) = scalar", l);
    double a3[3] = {gp[l].a, gp[l].b, gp[l].k}, b3[3] = {p1.a, p1.b, p1.k};
    fz_check_arr(w, a3, b3, 3, 1e-13);
    /* FD of the seeded sum */
    memcpy(c.w, seeds[l], sizeof c.w);
    double fd[N];
    fz_fd_grad(ev, &c, c.x, N, fd);
    snprintf(w, sizeof w, "width 3 lane %d d/dx vs FD", l);
    fz_check_arr(w, gx[l], fd, N, 1e-6);
    snprintf(w, sizeof w, "width 3 lane %d d/dk vs FD", l);
    fz_check(w, gp[l].k, fz_fd_ptr(ev, &c, &c.p.k), 1e-6);
  }
  /* vector forward, width 2: <J v, w> = <v, J^T w> */
  double v[2][N], tp[2][M];
  prm pv[2] = {{0.1, -0.2, 0.3}, {0, 0.5, -0.1}};
  for (int m = 0; m < 2; m++)
    for (int i = 0; i < N; i++) v[m][i] = sin(0.7 * i + m);
  __enzyme_fwddiff_w2((void *)kernel, enzyme_width, 2, enzyme_dup, c.x, v[0], v[1], enzyme_dup,
                      &c.p, &pv[0], &pv[1], enzyme_dup, o, tp[0], tp[1]);
  for (int m = 0; m < 2; m++) {
    double ts[M];
    __enzyme_fwddiff_void((void *)kernel, c.x, v[m], &c.p, &pv[m], o, ts);
    snprintf(w, sizeof w, "forward width 2 lane %d = scalar", m);
    fz_check_arr(w, tp[m], ts, M, 1e-13);
    for (int l = 0; l < 3; l++) {
      double lhs = 0, rhs = pv[m].a * gp[l].a + pv[m].b * gp[l].b + pv[m].k * gp[l].k;
      for (int j = 0; j < M; j++) lhs += tp[m][j] * seeds[l][j];
      for (int i = 0; i < N; i++) rhs += v[m][i] * gx[l][i];
      snprintf(w, sizeof w, "<J v%d, w%d> = <v%d, J^T w%d>", m, l, m, l);
      fz_check(w, lhs, rhs, 1e-12);
    }
  }
  return fz_finish();
}

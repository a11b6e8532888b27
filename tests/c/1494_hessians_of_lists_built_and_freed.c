// OPT: O0 O1 O2 O3
// probe41: forward over reverse (Hessian columns, scalar and enzyme_width 2) of a model
// that builds a linked list with malloc, copies and shifts its inputs with memcpy and
// memmove, runs a while loop with a data-dependent exit, prints, and frees the list.
// The gradient releases each node's shadow through the runtime's table of shadows
// (`__fz_shadow_dealloc`, which calls the shadow's own deallocator through a pointer);
// differentiating that code again was refused ("cannot differentiate this call through
// a function pointer"). Oracles: central differences of the gradient, the Hessian's
// symmetry.
#include "fz_test.h"
#include "fz_modes.h"
struct node { double v; struct node *next; };
__attribute__((noinline)) double model(const double *x, int n) {
  struct node *head = 0;
  for (int i = 0; i < n; i++) {
    struct node *p = malloc(sizeof *p);
    p->v = x[i] * x[(i + 1) % n];
    p->next = head;
    head = p;
  }
  double buf[8];
  memcpy(buf, x, n * sizeof(double));
  memmove(buf + 1, buf, (n - 1) * sizeof(double));
  double s = 0;
  int k = 0;
  while (head) {
    s += head->v * buf[k++];
    struct node *q = head->next;
    free(head);
    head = q;
  }
  double t = s;
  int it = 0;
  while (t > 0.01 && it < 100) { t *= 0.5 + 0.1 * x[0]; it++; }
  printf("model: s=%g steps=%d\n", s, it);
  return s + t;
}
void grad(const double *x, double *g, int n) {
  __enzyme_autodiff((void *)model, enzyme_dup, x, g, enzyme_const, n);
}
#define N 4
static void gr(const double *x, double *g) {
  for (int i = 0; i < N; i++) g[i] = 0;
  grad(x, g, N);
}
int main(void) {
  double x[N] = {0.5, 0.7, -0.3, 0.9}, H[N][N];
  for (int r = 0; r < N; r++) {
    double v[N] = {0}, g[N] = {0}, xp[N], xm[N], gp[N], gm[N];
    v[r] = 1;
    __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, g, H[r], enzyme_const, N);
    memcpy(xp, x, sizeof x); memcpy(xm, x, sizeof x);
    xp[r] += 1e-6; xm[r] -= 1e-6;
    gr(xp, gp); gr(xm, gm);
    for (int k = 0; k < N; k++) fz_check("H column vs FD", H[r][k], (gp[k] - gm[k]) / 2e-6, 1e-5);
  }
  for (int r = 0; r < N; r++)
    for (int k = 0; k < r; k++) fz_check("H symmetric", H[r][k], H[k][r], 1e-10);
  double v0[N] = {1, 0, 0, 0}, v1[N] = {0.5, -1, 0.25, 2}, g[N] = {0}, h0[N] = {0}, h1[N] = {0};
  __enzyme_fwddiff((void *)grad, enzyme_width, 2, enzyme_dup, x, v0, v1, enzyme_dup, g, h0, h1, enzyme_const, N);
  for (int k = 0; k < N; k++) {
    double want1 = 0;
    for (int r = 0; r < N; r++) want1 += v1[r] * H[r][k];
    fz_check("width2 lane0", h0[k], H[0][k], 1e-10);
    fz_check("width2 lane1", h1[k], want1, 1e-10);
  }
  return fz_finish();
}

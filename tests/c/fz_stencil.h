/* Shared by tests/c/580, 602, 662 and 705 (stencil shapes): one vector-Jacobian product per
 * shape `F(out, x, a)`, lambda . F(x) checked coordinate by coordinate against central
 * finite differences of the same dot product. Include after fz_test.h. */
#ifndef FZ_STENCIL_H
#define FZ_STENCIL_H

typedef void (*fn_t)(double *restrict, const double *restrict, double);
typedef struct {
  fn_t f;
  int n;
  double *x, *out, *lam;
  double a;
} ctx_t;

static double dot(void *q) {
  ctx_t *c = q;
  c->f(c->out, c->x, c->a);
  double s = 0;
  for (int i = 0; i < c->n; i++) s += c->lam[i] * c->out[i];
  return s;
}

static ctx_t setup(fn_t f, int n) {
  ctx_t c = {f, n, malloc(n * sizeof(double)), malloc(n * sizeof(double)),
             malloc(n * sizeof(double)), 2.5};
  for (int i = 0; i < n; i++) {
    c.x[i] = 0.3 + 0.5 * sin(1.7 * i + 0.2);
    c.lam[i] = 1.0 + 0.25 * cos(0.9 * i);
  }
  return c;
}

static void check_grad(const char *name, ctx_t *c, const double *gx) {
  double *want = malloc(c->n * sizeof(double));
  fz_fd_grad(dot, c, c->x, c->n, want);
  char what[64];
  snprintf(what, sizeof what, "%s dx", name);
  fz_check_arr(what, gx, want, c->n, 1e-6);
  free(want), free(c->x), free(c->out), free(c->lam);
}

/* __enzyme_autodiff needs the function itself, so the call is a macro */
#define CHECK_SHAPE(F, NN)                                                                   \
  do {                                                                                       \
    ctx_t c = setup(F, NN);                                                                  \
    double *dout = malloc((NN) * sizeof(double)), *gx = calloc(NN, sizeof(double));          \
    memcpy(dout, c.lam, (NN) * sizeof(double));                                              \
    __enzyme_autodiff((void *)F, enzyme_dupnoneed, c.out, dout, enzyme_dup, c.x, gx,         \
                      enzyme_const, c.a);                                                    \
    check_grad(#F, &c, gx);                                                                  \
    free(dout), free(gx);                                                                    \
  } while (0)

/* the restrict function F and its twin T without `restrict` (no stream, the scatter in
 * memory): the same gradient, bit for bit (tests/c/662, 705), and finite differences */
#define CHECK_EXACT(F, T, NN)                                                               \
  do {                                                                                      \
    ctx_t c = setup(F, NN);                                                                 \
    double *dout = malloc((NN) * sizeof(double)), *gx = calloc(NN, sizeof(double));         \
    double *gt = calloc(NN, sizeof(double));                                                \
    memcpy(dout, c.lam, (NN) * sizeof(double));                                             \
    __enzyme_autodiff((void *)F, enzyme_dupnoneed, c.out, dout, enzyme_dup, c.x, gx,        \
                      enzyme_const, c.a);                                                   \
    memcpy(dout, c.lam, (NN) * sizeof(double));                                             \
    __enzyme_autodiff((void *)T, enzyme_dupnoneed, c.out, dout, enzyme_dup, c.x, gt,        \
                      enzyme_const, c.a);                                                   \
    fz_check(#F " bitwise = " #T, (double)memcmp(gx, gt, (NN) * sizeof(double)), 0.0, 0.0); \
    check_grad(#F, &c, gx);                                                                 \
    free(dout), free(gx), free(gt);                                                         \
  } while (0)

#endif

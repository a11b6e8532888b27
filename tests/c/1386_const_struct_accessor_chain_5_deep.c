// OPT: O0 O1 O2 O3
// holders40: a hand-written accessor chain five calls deep returning a pointer into an
// `enzyme_const` struct (`pick` -> `net_weight` -> `weight_at` -> `layer_weights` after
// `net_layer`), the pointer it returns either that or a fallback the caller owns (its
// shadow is the primal itself where it points into the constant: checked by the
// caller), and a cursor struct on the stack holding a pointer into the constant that
// accessors read back (`cursor_get`, a pointer read out of the caller's slot). The
// helpers are `noinline`, so the calls stay at every level. Oracles: the analytic
// gradient, central differences, forward . v against the gradient, the constant struct
// unchanged after both calls.
#include "fz_test.h"
#include <string.h>

extern double __enzyme_fwddiff(void *, ...);

typedef struct {
  double w[4];
  double bias;
} Layer;

typedef struct {
  Layer layers[2];
  int n;
} Net;

typedef struct {
  const double *p;
  int k;
} Cursor;

#define NOINLINE __attribute__((noinline))

NOINLINE static const Layer *net_layer(const Net *net, int i) { return &net->layers[i]; }
NOINLINE static const double *layer_weights(const Layer *l) { return l->w; }
NOINLINE static const double *weight_at(const Layer *l, int k) { return layer_weights(l) + k; }
NOINLINE static const double *net_weight(const Net *net, int i, int k) {
  return weight_at(net_layer(net, i), k);
}
NOINLINE static const double *pick(const Net *net, int i, int k, const double *fallback) {
  return k < net->n ? net_weight(net, i, k) : fallback;
}

NOINLINE static void cursor_init(Cursor *c, const Net *net, int i) {
  c->p = layer_weights(net_layer(net, i));
  c->k = 0;
}
NOINLINE static const double *cursor_get(const Cursor *c) { return c->p + c->k; }

// f = sum_k pick(0, k) x_k^2 (k = 3 falls back to 1.0: n = 3) + sum_k w1_k sin(x_k)
//     + bias_1 x_0 x_1
double model(const double *x, const Net *net) {
  double one = 1.0, s = 0;
  for (int k = 0; k < 4; k++) s += *pick(net, 0, k, &one) * x[k] * x[k];
  Cursor c;
  cursor_init(&c, net, 1);
  for (c.k = 0; c.k < 4; c.k++) s += *cursor_get(&c) * sin(x[c.k]);
  s += net_layer(net, 1)->bias * x[0] * x[1];
  return s;
}

extern int enzyme_dup, enzyme_const;

int main(void) {
  Net net = {{{{0.5, -1.25, 2.0, 9.0}, 0.1}, {{0.3, 0.7, -0.4, 1.1}, 1.5}}, 3};
  Net net0;
  memcpy(&net0, &net, sizeof net);
  double x[4] = {0.4, -0.7, 1.1, 0.3}, dx[4] = {0}, fd[4];
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_const, &net);
  fz_check("enzyme_const struct unchanged", memcmp(&net, &net0, sizeof net) == 0, 1, 0);
  const double *w0 = net.layers[0].w, *w1 = net.layers[1].w, b1 = net.layers[1].bias;
  double want[4] = {2 * w0[0] * x[0] + w1[0] * cos(x[0]) + b1 * x[1],
                    2 * w0[1] * x[1] + w1[1] * cos(x[1]) + b1 * x[0],
                    2 * w0[2] * x[2] + w1[2] * cos(x[2]),
                    2 * 1.0 * x[3] + w1[3] * cos(x[3])};
  for (int k = 0; k < 4; k++) fz_check("d/dx analytic", dx[k], want[k], 1e-12);
  for (int k = 0; k < 4; k++) {
    double h = 1e-6, x0 = x[k];
    x[k] = x0 + h;
    double fp = model(x, &net0);
    x[k] = x0 - h;
    double fm = model(x, &net0);
    x[k] = x0;
    fd[k] = (fp - fm) / (2 * h);
    fz_check("d/dx finite differences", dx[k], fd[k], 1e-6);
  }
  double v[4] = {0.5, -0.2, 0.3, 0.9}, dv = 0;
  for (int k = 0; k < 4; k++) dv += want[k] * v[k];
  double jv = __enzyme_fwddiff((void *)model, enzyme_dup, x, v, enzyme_const, &net);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  fz_check("enzyme_const struct unchanged (forward)", memcmp(&net, &net0, sizeof net) == 0, 1, 0);
  return fz_finish();
}

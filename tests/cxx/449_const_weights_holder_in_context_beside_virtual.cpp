// OPT: O0 O1 O2
// A small neural layer: constant weights (`enzyme_const`) kept in a `Layer` struct on the
// stack beside the active output buffer, the layer's address kept in a `Context` struct
// (a holder holding a holder) together with the activation, a polymorphic object chosen at
// run time and called through its vtable, and a noinline forward pass reading the weights
// through `ctx.layer->w`. Oracles: central differences of the inputs, forward mode against
// the gradient along a direction (dot product), the weights unchanged.
#include "fz_cxx.h"
#include <cmath>

const int N = 4;

struct Activation {
  virtual double operator()(double u) const = 0;
  virtual double scale() const = 0;
};
struct TanhAct : Activation {
  double gain;
  explicit TanhAct(double g) : gain(g) {}
  double operator()(double u) const override { return std::tanh(gain * u); }
  double scale() const override { return gain; }
};
struct SoftPlus : Activation {
  double beta;
  explicit SoftPlus(double b) : beta(b) {}
  double operator()(double u) const override { return std::log1p(std::exp(beta * u)) / beta; }
  double scale() const override { return 1.0 / beta; }
};

struct Layer {
  const double *w;  // N x N, row-major, enzyme_const
  double bias;
  double *out;
  int n;
};
struct Context {
  Layer *layer;
  const Activation *act;
  double damping;
};

__attribute__((noinline)) static void forward(const Context &ctx, const double *x) {
  const Layer &l = *ctx.layer;
  for (int i = 0; i < l.n; i++) {
    double s = l.bias;
    for (int j = 0; j < l.n; j++) s += l.w[i * l.n + j] * x[j];
    l.out[i] = (*ctx.act)(s) * ctx.damping;
  }
}

double loss(const double *x, const double *w, double *out, int kind) {
  TanhAct th(1.3 + 0.2 * x[3]);  // the activations' parameters depend on the input
  SoftPlus sp(2.0 - 0.3 * x[2]);
  const Activation &act = kind ? (const Activation &)th : (const Activation &)sp;
  Layer layer{w, 0.1, out, N};
  Context ctx{&layer, &act, 0.9};
  forward(ctx, x);
  double e = 0;
  for (int i = 0; i < N; i++) e += out[i] * out[i] * act.scale();
  return e + act(x[0]);
}

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;

static double primal(const double *x, const double *w, int kind) {
  double out[N];
  return loss(x, w, out, kind);
}

int main() {
  double w[N * N];
  for (int i = 0; i < N * N; i++) w[i] = 0.3 * std::sin(1.7 * i + 0.2);
  double w0[N * N];
  for (int i = 0; i < N * N; i++) w0[i] = w[i];
  const double x0[N] = {0.5, -0.4, 0.8, 0.1};
  for (int kind = 0; kind < 2; kind++) {
    double x[N], dx[N] = {0}, out[N], dout[N] = {0};
    for (int i = 0; i < N; i++) x[i] = x0[i];
    __enzyme_autodiff<double>((void *)loss, enzyme_dup, x, dx, enzyme_const, w, enzyme_dup, out,
                              dout, enzyme_const, kind);
    int same = 1;
    for (int i = 0; i < N * N; i++) same &= w[i] == w0[i];
    fz_check("enzyme_const weights unchanged", same, 1, 0);
    double xf[N], fd[N];  // the point central differences perturb
    for (int i = 0; i < N; i++) xf[i] = x0[i];
    fz_fd_grad_of([&] { return primal(xf, w, kind); }, xf, N, fd);
    fz_check_arr(kind ? "tanh: d/dx finite differences" : "softplus: d/dx finite differences", dx,
                 fd, N, 1e-6);
    double v[N] = {0.2, -0.5, 0.3, 0.7}, xt[N], out2[N], dout2[N] = {0};
    for (int i = 0; i < N; i++) xt[i] = x0[i];
    double tan = __enzyme_fwddiff<double>((void *)loss, enzyme_dup, xt, v, enzyme_const, w,
                                          enzyme_dup, out2, dout2, enzyme_const, kind);
    double dot = 0;
    for (int i = 0; i < N; i++) dot += dx[i] * v[i];
    fz_check("forward tangent = <gradient, direction>", tan, dot, 1e-9);
    same = 1;
    for (int i = 0; i < N * N; i++) same &= w[i] == w0[i];
    fz_check("enzyme_const weights unchanged after forward", same, 1, 0);
  }
  return fz_finish();
}

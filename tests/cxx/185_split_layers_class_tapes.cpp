// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// A mini autograd framework (sweep20): each `Layer` object owns the tape of its last
// forward call (`void *tape`, a data member) and its parameter gradient; `forward()`
// calls `__enzyme_augmentfwd` on a free function taking the layer's parameters (a
// struct), `backward()` calls `__enzyme_reverse` with the stored tape and returns the
// input's adjoint (the input is `enzyme_out`-style active scalar: its adjoint comes back
// from the reverse call). A `std::vector<Layer>` is run forward then backward, several
// epochs, tapes replaced each time. Oracles: finite differences of the whole network's
// loss and the analytic chain rule for one layer.
#include "fz_cxx.h"
#include <cmath>
#include <vector>

struct Params {
  double w, b, a;
};
// y = a * tanh(w x + b) + x  (a residual block)
double block(const Params *p, double x) { return p->a * std::tanh(p->w * x + p->b) + x; }

struct AugOut {
  void *tape;
  double y;
};
extern "C" AugOut __enzyme_augmentfwd(void *, ...);
extern "C" double __enzyme_reverse(void *, ...);  // returns d/dx (the active scalar)

struct Layer {
  Params p;
  Params g{0, 0, 0};
  void *tape = nullptr;
  double x = 0;
  double forward(double in) {
    x = in;
    AugOut o = __enzyme_augmentfwd((void *)block, enzyme_dup, &p, &g, in);
    tape = o.tape;
    return o.y;
  }
  double backward(double dy) {
    double dx = __enzyme_reverse((void *)block, enzyme_dup, &p, &g, x, dy, tape);
    tape = nullptr;
    return dx;
  }
};

static double net_loss(std::vector<Layer> &net, double in, double target) {
  double y = in;
  for (auto &l : net) y = block(&l.p, y);
  return 0.5 * (y - target) * (y - target);
}

int main() {
  std::vector<Layer> net(4);
  fz_seed(185);
  for (auto &l : net) l.p = {fz_uniform(-1, 1), fz_uniform(-0.5, 0.5), fz_uniform(0.2, 0.8)};
  const double in = 0.4, target = 1.3;
  for (int epoch = 0; epoch < 3; epoch++) {
    for (auto &l : net) l.g = {0, 0, 0};
    double y = in;
    for (auto &l : net) y = l.forward(y);
    double dy = y - target, dx_in = dy;
    for (auto it = net.rbegin(); it != net.rend(); ++it) dx_in = it->backward(dx_in);
    for (auto &l : net) {
      auto f = [&]() { return net_loss(net, in, target); };
      fz_check("dL/dw vs FD", l.g.w, fz_fd(f, l.p.w), 1e-6);
      fz_check("dL/db vs FD", l.g.b, fz_fd(f, l.p.b), 1e-6);
      fz_check("dL/da vs FD", l.g.a, fz_fd(f, l.p.a), 1e-6);
    }
    double xin = in;
    auto fin = [&]() { return net_loss(net, xin, target); };
    fz_check("dL/dinput vs FD", dx_in, fz_fd(fin, xin), 1e-6);
    // One step of gradient descent, so the next epoch sees new parameters.
    for (auto &l : net) l.p.w -= 0.1 * l.g.w, l.p.b -= 0.1 * l.g.b, l.p.a -= 0.1 * l.g.a;
  }
  // One layer alone, analytic.
  Layer one;
  one.p = {0.9, -0.2, 0.6};
  one.forward(0.5);
  double dx = one.backward(1.0);
  double t = std::tanh(0.9 * 0.5 - 0.2), s = 1 - t * t;
  fz_check("d/dx", dx, 0.6 * s * 0.9 + 1.0, 1e-14);
  fz_check("d/dw", one.g.w, 0.6 * s * 0.5, 1e-14);
  fz_check("d/da", one.g.a, t, 1e-14);
  return fz_finish();
}

// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// A class as Enzyme users differentiate it: members std::vector<double> (weights,
// biases), std::array<double, 3> (a fixed scale), std::complex<double> (a phase) and
// ints; const member functions calling private helpers and a static member; the loss
// reached through a free-function wrapper taking the object by pointer, differentiated
// with enzyme_dup of the object (the shadow object: the same shapes, zero-filled; its
// vectors' heap buffers are the shadows). Also a member function pointer called inside
// the wrapper, and forward mode with a tangent object. Oracle: central finite
// differences of the loss in every member, and the dot-product identity.
#include "fz_cxx.h"
#include <array>
#include <complex>
#include <vector>

extern int enzyme_dup, enzyme_const, enzyme_out;

class Layer {
public:
  Layer(int nin, int nout) : nin(nin), nout(nout), W(nin * nout), b(nout) {}
  std::vector<double> W, b;
  std::array<double, 3> scale{1.0, 1.0, 1.0};
  std::complex<double> phase{1.0, 0.0};
  int nin, nout;

  void forward(const double *x, double *y) const {
    for (int o = 0; o < nout; o++) {
      double s = b[o];
      for (int i = 0; i < nin; i++) s += W[o * nin + i] * x[i];
      y[o] = act(s) * scale[o % 3];
    }
  }
  double loss(const double *x, const double *t) const {
    std::vector<double> y(nout);
    forward(x, y.data());
    double l = 0;
    for (int o = 0; o < nout; o++) l += sq(y[o] - t[o]);
    std::complex<double> z = phase * std::complex<double>(y[0], y[nout - 1]);
    return l + std::norm(z) * 0.1;
  }

private:
  static double sq(double v) { return v * v; }
  double act(double s) const { return std::tanh(s); }
};

double layer_loss(const Layer *L, const double *x, const double *t) { return L->loss(x, t); }

using LossFn = double (Layer::*)(const double *, const double *) const;
double via_member_pointer(const Layer *L, const double *x, const double *t) {
  LossFn f = &Layer::loss;
  return (L->*f)(x, t);
}

static Layer make() {
  Layer L(3, 4);
  for (int k = 0; k < 12; k++) L.W[k] = 0.3 * std::sin(1.0 + k);
  for (int k = 0; k < 4; k++) L.b[k] = 0.1 * k - 0.15;
  L.scale = {1.2, 0.8, -0.5};
  L.phase = {0.6, -0.7};
  return L;
}
static Layer zeros_like(const Layer &L) {
  Layer Z(L.nin, L.nout);
  Z.scale = {0, 0, 0};
  Z.phase = {0, 0};
  return Z;
}

int main() {
  double x[3] = {0.5, -1.0, 0.25}, t[4] = {0.1, -0.2, 0.3, 0.0};
  for (int which = 0; which < 2; which++) {
    Layer L = make(), dL = zeros_like(L);
    double dx[3] = {0, 0, 0};
    if (which == 0)
      __enzyme_autodiff<void>((void *)layer_loss, enzyme_dup, &L, &dL, enzyme_dup, x, dx,
                              enzyme_const, t);
    else
      __enzyme_autodiff<void>((void *)via_member_pointer, enzyme_dup, &L, &dL, enzyme_dup, x,
                              dx, enzyme_const, t);
    const char *tag = which ? "member pointer" : "wrapper";
    auto f = [&] { return layer_loss(&L, x, t); };
    char b[80];
    for (int k = 0; k < 12; k++) {
      snprintf(b, sizeof b, "%s dW[%d]", tag, k);
      fz_check(b, dL.W[k], fz_fd(f, L.W[k]), 1e-6);
    }
    for (int k = 0; k < 4; k++) {
      snprintf(b, sizeof b, "%s db[%d]", tag, k);
      fz_check(b, dL.b[k], fz_fd(f, L.b[k]), 1e-6);
    }
    for (int k = 0; k < 3; k++) {
      snprintf(b, sizeof b, "%s dscale[%d]", tag, k);
      fz_check(b, dL.scale[k], fz_fd(f, L.scale[k]), 1e-6);
      snprintf(b, sizeof b, "%s dx[%d]", tag, k);
      fz_check(b, dx[k], fz_fd(f, x[k]), 1e-6);
    }
    double &pr = reinterpret_cast<double(&)[2]>(L.phase)[0];
    double &pi = reinterpret_cast<double(&)[2]>(L.phase)[1];
    snprintf(b, sizeof b, "%s dphase.re", tag);
    fz_check(b, dL.phase.real(), fz_fd(f, pr), 1e-6);
    snprintf(b, sizeof b, "%s dphase.im", tag);
    fz_check(b, dL.phase.imag(), fz_fd(f, pi), 1e-6);

    /* forward mode: a tangent object, checked against <grad, v> */
    if (which == 0) {
      Layer tL = zeros_like(L);
      double want = 0;
      for (int k = 0; k < 12; k++) tL.W[k] = 0.1 * (k % 5) - 0.2, want += tL.W[k] * dL.W[k];
      for (int k = 0; k < 4; k++) tL.b[k] = 0.3 - 0.1 * k, want += tL.b[k] * dL.b[k];
      tL.phase = {0.2, 0.5};
      want += 0.2 * dL.phase.real() + 0.5 * dL.phase.imag();
      double tx[3] = {0, 0, 0};
      double jv = __enzyme_fwddiff<double>((void *)layer_loss, enzyme_dup, &L, &tL, enzyme_dup,
                                           x, tx, enzyme_const, t);
      fz_check("fwd <J v> = <grad, v>", jv, want, 1e-10);
    }
  }
  return fz_finish();
}

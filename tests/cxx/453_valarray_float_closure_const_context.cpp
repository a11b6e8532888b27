// OPT: O0 O2
// A float network layer in the shape difftest C++ seed 7046 drew (features `valarray`,
// `struct`, `cxxconst`): a context struct on the stack holds the `enzyme_const` weights
// beside the active output buffer, so at -O0 run-time activity follows every pointer the
// function reads back, and the activation `h * 0.66f + sin(h) * h` builds libstdc++'s
// expression closure `{const valarray<float> *, float}` (16 bytes, its last 4 padding)
// and copies it into the `_BinBase` of the sum. Refused at -O0 until cxx38 ("mismatched
// activity: memory holding pointers is copied from a pointer that is constant or
// differentiable depending on the run": the padding counted as an unknown float slot).
// Oracles: the analytic gradient, central finite differences (in double, of the float
// primal), forward mode against the reverse gradient, the constant weights unchanged.
#include "fz_cxx.h"
#include <valarray>

#define N 6

struct Layer {
  const float *w; // enzyme_const weights
  float *act;     // active: the pre-activations are written here
  int n;
};

static float pre(const Layer *l, const float *x, int k) {
  l->act[k] = l->w[k] * x[k] + 0.1f * k;
  return l->act[k];
}

float layer_energy(float *x, const float *w, float *act, int n) {
  Layer l = {w, act, n};
  std::valarray<float> h(n);
  for (int k = 0; k < n; k++) h[k] = pre(&l, x, k);
  std::valarray<float> y = h * 0.66f + std::sin(h) * h;
  return y.sum();
}

// d/dx_k = w_k (0.66 + sin h_k + h_k cos h_k), h_k = w_k x_k + 0.1 k (act's seed is 0).
static double analytic(const float *x, const float *w, int k) {
  double h = (double)w[k] * x[k] + 0.1 * k;
  return w[k] * (0.66 + sin(h) + h * cos(h));
}

int main() {
  float x[N], w[N], w0[N], act[N], dact[N] = {0}, g[N] = {0};
  fz_seed(453);
  for (int i = 0; i < N; i++) {
    x[i] = (float)fz_uniform(-1, 1);
    w0[i] = w[i] = (float)fz_uniform(0.5, 1.5);
  }
  __enzyme_autodiff<void>((void *)layer_energy, enzyme_dup, x, g, enzyme_const, w, enzyme_dup,
                          act, dact, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    fz_check("reverse vs analytic", g[i], analytic(x, w, i), 1e-5);
    float xp[N], xm[N];
    for (int j = 0; j < N; j++) xp[j] = xm[j] = x[j];
    double h = 1e-2;
    xp[i] += (float)h;
    xm[i] -= (float)h;
    double fd = ((double)layer_energy(xp, w, act, N) - layer_energy(xm, w, act, N)) /
                ((double)xp[i] - xm[i]);
    fz_check("reverse vs fd (float primal)", g[i], fd, 2e-3);
  }
  float dx[N], tact[N] = {0};
  double dot = 0;
  for (int i = 0; i < N; i++) {
    dx[i] = (float)fz_uniform(-1, 1);
    dot += (double)g[i] * dx[i];
  }
  float tan = __enzyme_fwddiff<float>((void *)layer_energy, enzyme_dup, x, dx, enzyme_const, w,
                                      enzyme_dup, act, tact, enzyme_const, N);
  fz_check("forward tangent vs reverse . dx", tan, dot, 1e-5);
  int same = 1;
  for (int i = 0; i < N; i++) same &= w[i] == w0[i];
  fz_check("the constant weights are unchanged", same, 1, 0);
  return fz_finish();
}

// OPT: O0 O2
// A C++ aggregate mixing `int` and `float` fields passed by value to a member function
// and to a lambda, and returned by value (difftest's C++ seed 3029, reduced). The
// calling convention moves `{int k; float v; float w; int j;}` as two `i64`s; at -O0 the
// calls were refused ("floating-point data crosses this call inside integers"). The clone
// now inlines them before differentiating. Oracles: the derivative recurrence written
// out by hand (double), central differences of the primal (float), forward mode along a
// direction.
#include "fz_cxx.h"
#include <cmath>

struct S {
  int k;
  float v;
  float w;
  int j;
};

struct Mixer {
  float half;
  S step(S s, float t) const {
    s.v = s.v * half + t * s.w;
    s.k = (s.k + s.j) % 5;
    return s;
  }
};

// x = {v0, w0, t_0 .. t_{n-1}}: f = v_n + 2 w_n + k_n
float model(const float *x, int n) {
  Mixer mx{0.5f};
  auto squash = [](S s, float t) {
    s.w = std::tanh(s.w + t);
    return s;
  };
  S st{3, x[0], x[1], 1};
  for (int i = 0; i < n; i++) st = squash(mx.step(st, x[i + 2]), x[i + 2]);
  return st.v + 2 * st.w + (float)st.k;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 4, m = n + 2;
  float x[m] = {0.3f, -0.2f, 0.4f, 0.1f, -0.35f, 0.25f}, dx[m] = {0};
  double v = x[0], w = x[1], dv[m] = {0}, dw[m] = {0};
  dv[0] = 1, dw[1] = 1;
  for (int i = 0; i < n; i++) {
    double t = x[i + 2], th = std::tanh(w + t), s = 1 - th * th;
    for (int j = 0; j < m; j++) {
      double dt = j == i + 2;
      double nv = 0.5 * dv[j] + dt * w + t * dw[j];
      dw[j] = s * (dw[j] + dt);
      dv[j] = nv;
    }
    v = 0.5 * v + t * w;
    w = th;
  }
  double exact[m], got[m], fd[m];
  for (int j = 0; j < m; j++) exact[j] = dv[j] + 2 * dw[j];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  for (int j = 0; j < m; j++) got[j] = dx[j];
  fz_check_arr("gradient vs the hand-written recurrence", got, exact, m, 1e-5);
  for (int j = 0; j < m; j++) {
    float x0 = x[j];
    double h = fz_step(x0, 1e-2), f[4];
    const double off[4] = {-2.0, -1.0, 1.0, 2.0};
    for (int k = 0; k < 4; k++) {
      x[j] = (float)(x0 + off[k] * h);
      f[k] = model(x, n);
    }
    x[j] = x0;
    fd[j] = (f[0] - 8.0 * f[1] + 8.0 * f[2] - f[3]) / (12.0 * h);
  }
  fz_check_arr("gradient vs central differences", got, fd, m, 2e-3);
  float dir[m] = {0.5f, -0.25f, 0.3f, 0.1f, -0.2f, 0.4f};
  double want = 0;
  for (int j = 0; j < m; j++) want += dir[j] * exact[j];
  float tan = __enzyme_fwddiff<float>((void *)model, enzyme_dup, x, dir, enzyme_const, n);
  fz_check("forward mode along a direction", tan, want, 1e-5);
  return fz_finish();
}

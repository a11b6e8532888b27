// OPT: O0 O2
// A struct mixing `int` and `float` fields, `{int k; float v; float w; int j;}`, passed to
// and returned from a static helper by value in a loop (difftest's C++ seed 3029,
// reduced, in C). The x86-64 calling convention moves it in two `i64` registers; at -O0
// the helper is not inlined and the call was refused ("floating-point data crosses this
// call inside integers"). The clone now inlines such a call before differentiating, and
// the integer lane `k` (incremented, folded modulo 5, added to the result) is told apart
// from the float lanes by type analysis. Oracles: the derivative recurrence written out
// by hand (double), central differences of the primal (float), forward mode along a
// direction.
#include "fz_test.h"

struct S { int k; float v; float w; int j; };

static struct S smix(struct S s, float t) {
  s.v = s.v * 0.5f + t * s.w;
  s.k = (s.k + 1) % 5;
  s.w = tanhf(s.w + t);
  return s;
}

// x = {v0, w0, t_0 .. t_{n-1}}: f = v_n + 2 w_n + k_n
float model(const float *x, int n) {
  struct S st = {3, x[0], x[1], 1};
  for (int i = 0; i < n; i++) st = smix(st, x[i + 2]);
  return st.v + 2 * st.w + (float)st.k;
}

enum { N = 4, M = N + 2 };
static float P[M];
static float eval(void *ctx) {
  (void)ctx;
  return model(P, N);
}

extern int enzyme_dup, enzyme_const;
extern float __enzyme_fwddiff(void *, ...);

int main(void) {
  float x[M] = {0.3f, -0.2f, 0.4f, 0.1f, -0.35f, 0.25f}, dx[M] = {0};
  // d(v, w)/dx_j propagated through the recurrence by hand, in double.
  double v = x[0], w = x[1], dv[M] = {0}, dw[M] = {0};
  dv[0] = 1, dw[1] = 1;
  for (int i = 0; i < N; i++) {
    double t = x[i + 2], th = tanh(w + t), s = 1 - th * th;
    for (int j = 0; j < M; j++) {
      double dt = j == i + 2;
      double nv = 0.5 * dv[j] + dt * w + t * dw[j];
      dw[j] = s * (dw[j] + dt);
      dv[j] = nv;
    }
    v = 0.5 * v + t * w;
    w = th;
  }
  double exact[M], got[M], fd[M];
  for (int j = 0; j < M; j++) exact[j] = dv[j] + 2 * dw[j];
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_const, N);
  for (int j = 0; j < M; j++) got[j] = dx[j];
  fz_check_arr("gradient vs the hand-written recurrence", got, exact, M, 1e-5);
  for (int j = 0; j < M; j++) P[j] = x[j];
  for (int j = 0; j < M; j++) fd[j] = fz_fd_ptrf(eval, 0, &P[j]);
  fz_check_arr("gradient vs central differences", got, fd, M, 2e-3);
  float dir[M] = {0.5f, -0.25f, 0.3f, 0.1f, -0.2f, 0.4f};
  double want = 0;
  for (int j = 0; j < M; j++) want += dir[j] * exact[j];
  float tan = __enzyme_fwddiff((void *)model, enzyme_dup, x, dir, enzyme_const, N);
  fz_check("forward mode along a direction", tan, want, 1e-5);
  return fz_finish();
}

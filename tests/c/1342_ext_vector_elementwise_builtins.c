// OPT: O0 O2
// Clang's vector builtins on `ext_vector_type(4)` doubles, as SIMD-minded C writes
// them: __builtin_elementwise_{exp,exp2,exp10,log,log2,sqrt,pow,sin,cos,tanh,atan2,fma,
// max,min,maximum,minimum,abs,copysign,floor} (the vector forms of llvm.exp.v4f64 ...)
// and __builtin_reduce_{max,min,maximum} (llvm.vector.reduce.fmax ...), with lane
// swizzles (.xyzw, .wzyx) in between. Oracles: central differences for every input,
// the same model written lane by lane with scalar libm (its gradient by hand through
// central differences too, and the values equal), forward = reverse (dot products).
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

typedef double v4 __attribute__((ext_vector_type(4)));

double model(const double *pa, const double *pb) {
  v4 a = {pa[0], pa[1], pa[2], pa[3]};
  v4 b = {pb[0], pb[1], pb[2], pb[3]};
  v4 e = __builtin_elementwise_exp(0.5 * a) + __builtin_elementwise_sqrt(b) +
         __builtin_elementwise_fma(a, b, a.wzyx) + __builtin_elementwise_pow(b, a * 0.3) +
         __builtin_elementwise_log(b + 1.0) + __builtin_elementwise_sin(a) * __builtin_elementwise_cos(b) +
         __builtin_elementwise_tanh(a * b) + __builtin_elementwise_atan2(a, b) +
         __builtin_elementwise_exp2(0.25 * b) + __builtin_elementwise_log2(b + 2.0) +
         __builtin_elementwise_exp10(0.1 * a);
  v4 m = __builtin_elementwise_max(a, b.yxwz) - __builtin_elementwise_min(a, b) +
         __builtin_elementwise_maximum(a * a, b) * __builtin_elementwise_minimum(a, 0.5 * b);
  v4 s = __builtin_elementwise_abs(a - 0.4) + __builtin_elementwise_copysign(b, a) +
         __builtin_elementwise_floor(3.0 * b) * a;
  v4 t = e * m + s;
  return t.x + 2.0 * t.y + 3.0 * t.z + 4.0 * t.w + __builtin_reduce_max(e) +
         __builtin_reduce_min(m * s) + __builtin_reduce_maximum(t.wzyx);
}

/* the same, lane by lane */
static double model_scalar(const double *a, const double *b) {
  double e[4], m[4], s[4], t[4];
  int sw[4] = {1, 0, 3, 2};
  for (int i = 0; i < 4; i++) {
    e[i] = exp(0.5 * a[i]) + sqrt(b[i]) + fma(a[i], b[i], a[3 - i]) + pow(b[i], a[i] * 0.3) +
           log(b[i] + 1.0) + sin(a[i]) * cos(b[i]) + tanh(a[i] * b[i]) + atan2(a[i], b[i]) +
           exp2(0.25 * b[i]) + log2(b[i] + 2.0) + pow(10.0, 0.1 * a[i]);
    m[i] = fmax(a[i], b[sw[i]]) - fmin(a[i], b[i]) + fmax(a[i] * a[i], b[i]) * fmin(a[i], 0.5 * b[i]);
    s[i] = fabs(a[i] - 0.4) + copysign(b[i], a[i]) + floor(3.0 * b[i]) * a[i];
    t[i] = e[i] * m[i] + s[i];
  }
  double mx = e[0], mn = m[0] * s[0], mt = t[0];
  for (int i = 1; i < 4; i++) {
    if (e[i] > mx) mx = e[i];
    if (m[i] * s[i] < mn) mn = m[i] * s[i];
    if (t[i] > mt) mt = t[i];
  }
  return t[0] + 2 * t[1] + 3 * t[2] + 4 * t[3] + mx + mn + mt;
}

typedef struct { double a[4], b[4]; } ctx;
static double ev(void *p) { ctx *c = p; return model_scalar(c->a, c->b); }

int main(void) {
  ctx c = {{0.7, -0.35, 1.2, 0.15}, {0.9, 1.45, 0.6, 2.1}};
  fz_check("vector model = lane-by-lane model", model(c.a, c.b), model_scalar(c.a, c.b), 1e-13);
  double ga[4] = {0}, gb[4] = {0}, fa[4], fb[4];
  __enzyme_autodiff((void *)model, enzyme_dup, c.a, ga, enzyme_dup, c.b, gb);
  fz_fd_grad(ev, &c, c.a, 4, fa);
  fz_fd_grad(ev, &c, c.b, 4, fb);
  fz_check_arr("d/d a vs FD", ga, fa, 4, 1e-6);
  fz_check_arr("d/d b vs FD", gb, fb, 4, 1e-6);
  double va[4] = {0.3, -1.1, 0.25, 0.8}, vb[4] = {-0.6, 0.45, 1.0, -0.2};
  double jv = __enzyme_fwddiff((void *)model, c.a, va, c.b, vb);
  double dot = 0;
  for (int i = 0; i < 4; i++) dot += va[i] * ga[i] + vb[i] * gb[i];
  fz_check("forward = reverse (dot product)", jv, dot, 1e-11);
  return fz_finish();
}

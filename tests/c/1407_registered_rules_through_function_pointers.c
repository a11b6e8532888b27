// OPT: O0 O2
// Registered derivatives (`__enzyme_register_gradient_*` and
// `__enzyme_register_derivative_*`) of activation functions called through function
// pointers: a table of activations indexed by a run-time layer kind, a pointer stored in
// a struct of the layer, and a pointer passed as an argument to a helper. The bodies
// count their runs (the derivatives must use the rules, never differentiate the bodies,
// which call an opaque counter); the rules are the exact derivatives. Reverse, forward,
// vector forward (`enzyme_width, 2`) and vector reverse (`enzyme_width, 2`, rules once per
// lane since enz35). Oracles: central differences, forward = reverse (dot-product
// identity), and the body counter.
#include "fz_test.h"
#include "fz_modes.h"

#define L 3
#define N 4
static int body_runs;
__attribute__((noinline)) static void count(void) { body_runs++; }

double softplus(double x) {
  count();
  return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x));
}
double sclamp(double x) {
  count();
  return x / sqrt(1 + x * x);
}
static double sig(double x) { return 1 / (1 + exp(-x)); }
static double dsclamp(double x) {
  double s = 1 + x * x;
  return 1 / (s * sqrt(s));
}
typedef struct { void *tape; double r; } aug_t;
aug_t softplus_aug(double x) { aug_t a = {0, x > 0 ? x + log1p(exp(-x)) : log1p(exp(x))}; return a; }
double softplus_rev(double x, double dr, void *tape) { (void)tape; return dr * sig(x); }
aug_t sclamp_aug(double x) { aug_t a = {0, x / sqrt(1 + x * x)}; return a; }
double sclamp_rev(double x, double dr, void *tape) { (void)tape; return dr * dsclamp(x); }
typedef struct { double p, t; } pair;
pair softplus_fwd(double x, double dx) {
  pair r = {x > 0 ? x + log1p(exp(-x)) : log1p(exp(x)), dx * sig(x)};
  return r;
}
pair sclamp_fwd(double x, double dx) {
  pair r = {x / sqrt(1 + x * x), dx * dsclamp(x)};
  return r;
}
void *__enzyme_register_gradient_softplus[] = {(void *)softplus, (void *)softplus_aug,
                                               (void *)softplus_rev};
void *__enzyme_register_gradient_sclamp[] = {(void *)sclamp, (void *)sclamp_aug,
                                             (void *)sclamp_rev};
void *__enzyme_register_derivative_softplus[] = {(void *)softplus, (void *)softplus_fwd};
void *__enzyme_register_derivative_sclamp[] = {(void *)sclamp, (void *)sclamp_fwd};

typedef double (*act_fn)(double);
static act_fn TABLE[2] = {softplus, sclamp};
typedef struct { act_fn act; double scale; } layer;

__attribute__((noinline)) static void apply(act_fn f, double *v, int n) {
  for (int i = 0; i < n; i++) v[i] = f(v[i]);
}

/* kinds: the layer's table index (run time) */
void net(const double *w, const double *x, double *out, const int *kinds) {
  double v[N];
  layer ls[L];
  for (int l = 0; l < L; l++) ls[l].act = TABLE[kinds[l] & 1], ls[l].scale = 0.5 + 0.25 * l;
  for (int i = 0; i < N; i++) v[i] = x[i];
  for (int l = 0; l < L; l++) {
    double u[N];
    for (int i = 0; i < N; i++) u[i] = w[l * N + i] * v[i] + ls[l].scale * v[(i + 1) % N];
    for (int i = 0; i < N; i++) v[i] = TABLE[kinds[(l + 1) % L] & 1](u[i]) + ls[l].act(u[i]);
    apply(ls[l].act, v, N);
  }
  for (int i = 0; i < 2; i++) out[i] = v[i] * v[i + 2] + v[i + 1];
}

static const int KINDS[L] = {0, 1, 1};
static double W[L * N], X[N], SEED[2];
static double seeded(void *c) {
  (void)c;
  double o[2];
  net(W, X, o, KINDS);
  return o[0] * SEED[0] + o[1] * SEED[1];
}

int main(void) {
  fz_seed(1407);
  fz_fill(W, L * N, -1.2, 1.2);
  fz_fill(X, N, -1, 1);
  double o[2], s[2] = {1, -0.5}, gw[L * N] = {0}, gx[N] = {0};
  memcpy(SEED, s, sizeof s);
  body_runs = 0;
  __enzyme_autodiff((void *)net, enzyme_dup, W, gw, enzyme_dup, X, gx, enzyme_dup, o, s,
                    enzyme_const, KINDS);
  fz_check("reverse: the bodies never run", body_runs, 0, 0);
  for (int i = 0; i < N; i++)
    fz_check("d/dx", gx[i], fz_fd_ptr(seeded, NULL, &X[i]), 1e-6);
  for (int i = 0; i < L * N; i++)
    fz_check("d/dw", gw[i], fz_fd_ptr(seeded, NULL, &W[i]), 1e-6);
  /* forward along two directions at once, and one at a time */
  double vw[2][L * N], vx[2][N], to0[2] = {0}, to1[2] = {0};
  fz_fill(vw[0], L * N, -1, 1), fz_fill(vw[1], L * N, -1, 1);
  fz_fill(vx[0], N, -1, 1), fz_fill(vx[1], N, -1, 1);
  body_runs = 0;
  __enzyme_fwddiff_void((void *)net, enzyme_width, 2, enzyme_dup, W, vw[0], vw[1], enzyme_dup, X,
                        vx[0], vx[1], enzyme_dup, o, to0, to1, enzyme_const, KINDS);
  fz_mcheck("vector forward: the bodies never run", body_runs, 0, 0);
  double *tos[2] = {to0, to1};
  for (int l = 0; l < 2; l++) {
    double t1[2] = {0};
    __enzyme_fwddiff_void((void *)net, enzyme_dup, W, vw[l], enzyme_dup, X, vx[l], enzyme_dup, o,
                          t1, enzyme_const, KINDS);
    double lhs = t1[0] * SEED[0] + t1[1] * SEED[1];
    double rhs = fz_dot(gw, vw[l], L * N) + fz_dot(gx, vx[l], N);
    fz_mcheck("forward vs reverse: <J v, s> = <v, J^T s>", lhs, rhs, 1e-12);
    fz_mcheck("vector forward lane = scalar forward (0)", tos[l][0], t1[0], 1e-13);
    fz_mcheck("vector forward lane = scalar forward (1)", tos[l][1], t1[1], 1e-13);
  }
  /* vector reverse: seeds e0 and e1 give the Jacobian's rows */
  double e0[2] = {1, 0}, e1[2] = {0, 1}, jw0[L * N] = {0}, jw1[L * N] = {0}, jx0[N] = {0},
         jx1[N] = {0};
  body_runs = 0;
  __enzyme_autodiff_w((void *)net, enzyme_width, 2, enzyme_dup, W, jw0, jw1, enzyme_dup, X, jx0,
                      jx1, enzyme_dup, o, e0, e1, enzyme_const, KINDS);
  fz_mcheck("vector reverse: the bodies never run", body_runs, 0, 0);
  for (int i = 0; i < L * N; i++)
    fz_mcheck("vector reverse rows combine to the gradient (w)", jw0[i] * SEED[0] + jw1[i] * SEED[1],
              gw[i], 1e-12);
  for (int i = 0; i < N; i++)
    fz_mcheck("vector reverse rows combine to the gradient (x)", jx0[i] * SEED[0] + jx1[i] * SEED[1],
              gx[i], 1e-12);
  return fz_finish();
}

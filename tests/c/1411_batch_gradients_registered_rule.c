// OPT: O0 O2
// `__enzyme_batch` (Enzyme's batched mode: `enzyme_vector` arguments, one pointer per
// lane) of a function that computes a gradient with `__enzyme_autodiff` through a
// registered gradient whose augmented function returns a malloc'd tape: the batched
// derivative is vector reverse mode, whose registered rules run once per lane since enz35,
// each lane with its own tape. Oracles: the function called lane by lane, the analytic
// gradient, and the augmented function's call count.
#include "fz_test.h"
#include "fz_modes.h"

extern int enzyme_scalar, enzyme_vector;
extern void __enzyme_batch_void(void *, ...);

#define N 3
#define W 3
static int aug_runs;

__attribute__((noinline)) double softclip(double x) { return x / sqrt(1 + x * x); }
typedef struct { void *tape; double r; } aug_sc;
aug_sc softclip_aug(double x) {
  aug_runs++;
  double *t = malloc(sizeof *t);
  *t = 1 + x * x;
  aug_sc a = {t, x / sqrt(*t)};
  return a;
}
double softclip_rev(double x, double dr, void *tape) {
  (void)x;
  double s = *(double *)tape;
  free(tape);
  return dr / (s * sqrt(s));
}
void *__enzyme_register_gradient_softclip[] = {(void *)softclip, (void *)softclip_aug,
                                               (void *)softclip_rev};

double energy(const double *x, double k) {
  double s = 0;
  for (int i = 0; i < N; i++) s += softclip(x[i] * x[(i + 1) % N]) + k * x[i] * x[i];
  return s;
}

void grad_lane(const double *x, double *g, double k) {
  for (int i = 0; i < N; i++) g[i] = 0;
  __enzyme_autodiff((void *)energy, enzyme_dup, x, g, enzyme_const, k);
}

int main(void) {
  double x[W][N] = {{0.3, -0.8, 1.1}, {1, 2, 3}, {-0.5, 0.1, 0.9}}, g[W][N];
  aug_runs = 0;
  __enzyme_batch_void((void *)grad_lane, enzyme_width, W, enzyme_vector, x[0], x[1], x[2],
                      enzyme_vector, g[0], g[1], g[2], enzyme_scalar, 0.25);
  fz_mcheck("augmented function once per lane and element", aug_runs, W * N, 0);
  for (int l = 0; l < W; l++) {
    double w[N], a[N];
    grad_lane(x[l], w, 0.25);
    for (int i = 0; i < N; i++) {
      /* d/dx_i: softclip'(x_i x_{i+1}) x_{i+1} + softclip'(x_{i-1} x_i) x_{i-1} + 2 k x_i */
      int n = (i + 1) % N, p = (i + N - 1) % N;
      double u = x[l][i] * x[l][n], v = x[l][p] * x[l][i];
      double su = 1 + u * u, sv = 1 + v * v;
      a[i] = x[l][n] / (su * sqrt(su)) + x[l][p] / (sv * sqrt(sv)) + 0.5 * x[l][i];
    }
    fz_check_arr("lane by lane: analytic", w, a, N, 1e-13);
    fz_mcheck_arr("batch lane = the lane's own call", g[l], w, N, 1e-14);
  }
  return fz_finish();
}

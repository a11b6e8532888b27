// OPT: O0 O2
// Vector reverse mode (`enzyme_width` in `__enzyme_autodiff`) through registered and
// built-in reverse rules, which enz35 runs once per lane (they were refused before):
// a registered gradient of a scalar function whose augmented function returns
// `{ void *tape; double r; }` with a malloc'd tape, a registered gradient of a void
// function writing an output array (tape: the norm, malloc'd; each lane's tape is its
// own, so the rule may free it), a registered gradient without a tape (a dot product),
// and the complex helpers `__muldc3`/`__divdc3` and `cexp`/`csqrt` (`double complex`
// arithmetic, built-in rules). Inside a caller (split pair: the lanes' tapes travel as one
// block) and at the top (combined function, width 3). Oracles: each lane against central
// differences of that lane's seeded output sum, against a scalar `__enzyme_autodiff` with
// that seed, and the primal outputs and the rules' call counts (the augmented functions
// run once per lane, the bodies never).
#include "fz_test.h"
#include "fz_modes.h"
#include <complex.h>

#define N 4
#define M 3

static int body_runs, aug_runs;

/* softclip(x) = x / sqrt(1 + x^2), registered */
__attribute__((noinline)) double softclip(double x) {
  body_runs++;
  return x / sqrt(1 + x * x);
}
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

/* y = x / |x|, registered, tape = |x| */
__attribute__((noinline)) void unitize(const double *x, double *y, int n) {
  body_runs++;
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  for (int i = 0; i < n; i++) y[i] = x[i] / sqrt(s);
}
void *unitize_aug(const double *x, const double *dx, double *y, double *dy, int n) {
  (void)dx, (void)dy;
  aug_runs++;
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  double *t = malloc(sizeof *t);
  *t = sqrt(s);
  for (int i = 0; i < n; i++) y[i] = x[i] / *t;
  return t;
}
void unitize_rev(const double *x, double *dx, double *y, double *dy, int n, void *tape) {
  (void)y;
  double r = *(double *)tape, xdy = 0;
  for (int i = 0; i < n; i++) xdy += x[i] * dy[i];
  for (int i = 0; i < n; i++) {
    dx[i] += dy[i] / r - x[i] * xdy / (r * r * r);
    dy[i] = 0;
  }
  free(tape);
}
void *__enzyme_register_gradient_unitize[] = {(void *)unitize, (void *)unitize_aug,
                                              (void *)unitize_rev};

/* dot product, registered, no tape */
__attribute__((noinline)) double dotp(const double *a, const double *b, int n) {
  body_runs++;
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}
void dotp_aug(const double *a, const double *da, const double *b, const double *db, int n) {
  (void)a, (void)da, (void)b, (void)db, (void)n;
  aug_runs++;
}
void dotp_rev(const double *a, double *da, const double *b, double *db, int n, double dr) {
  for (int i = 0; i < n; i++) {
    da[i] += dr * b[i];
    db[i] += dr * a[i];
  }
}
void *__enzyme_register_gradient_dotp[] = {(void *)dotp, (void *)dotp_aug, (void *)dotp_rev};

void model(const double *x, double *out) {
  double t[N], u[N];
  for (int i = 0; i < N; i++) t[i] = softclip(1.5 * x[i] - 0.2 * i);
  unitize(t, u, N);
  double complex a = x[0] + I * u[1], b = u[2] + I * x[3];
  double complex z = a * b / (1.3 + x[1] + I * t[2]);
  double complex w = cexp(0.5 * z) + csqrt(2.0 + z);
  double d = dotp(u, x, N);
  out[0] = creal(w) + d;
  out[1] = cimag(w) * u[0];
  out[2] = d * d + t[3];
}

static double X[N], SEED[M];
static double seeded(void *c) {
  (void)c;
  double o[M];
  model(X, o);
  return fz_dot(o, SEED, M);
}

int main(void) {
  fz_seed(1400);
  fz_fill(X, N, -0.8, 0.9);
  double seeds[2][M] = {{1, 0, 0}, {0.3, -1.1, 0.7}};
  double o[M], s0[M], s1[M], g0[N] = {0}, g1[N] = {0};
  memcpy(s0, seeds[0], sizeof s0);
  memcpy(s1, seeds[1], sizeof s1);
  body_runs = aug_runs = 0;
  __enzyme_autodiff_w((void *)model, enzyme_width, 2, enzyme_dup, X, g0, g1, enzyme_dup, o, s0, s1);
  double want_o[M];
  model(X, want_o);
  fz_check_arr("primal outputs after the vector call", o, want_o, M, 1e-14);
  /* the vector call ran each augmented function twice (4 softclips, unitize, dotp per
     lane) and dotp's body once (its augmented function returns void: the result comes
     from the function, once, not per lane); the plain call ran the N + 2 bodies */
  fz_mcheck("augmented functions: once per lane", aug_runs, 2 * (N + 2), 0);
  fz_check("bodies: the primal call's and dotp's result once", body_runs, N + 2 + FZ_MODE_RESULTS, 0);
  double *g[2] = {g0, g1};
  for (int l = 0; l < 2; l++) {
    memcpy(SEED, seeds[l], sizeof SEED);
    double fd[N], sc[N] = {0}, ss[M], os[M];
    fz_fd_grad(seeded, NULL, X, N, fd);
    memcpy(ss, seeds[l], sizeof ss);
    __enzyme_autodiff((void *)model, enzyme_dup, X, sc, enzyme_dup, os, ss);
    for (int i = 0; i < N; i++) {
      char what[64];
      snprintf(what, sizeof what, "lane %d d/dx[%d]", l, i);
      fz_mcheck2(what, g[l][i], sc[i], 1e-13, fd[i], 1e-6);
    }
  }

  /* top level, width 3: the combined function of a registered rule */
  double y[N], dy[3][N], dx[3][N];
  for (int l = 0; l < 3; l++)
    for (int i = 0; i < N; i++) dy[l][i] = (i == l) + 0.25 * l, dx[l][i] = 0;
  __enzyme_autodiff_w((void *)unitize, enzyme_width, 3, enzyme_dup, X, dx[0], dx[1], dx[2],
                      enzyme_dup, y, dy[0], dy[1], dy[2], N);
  double r = sqrt(fz_dot(X, X, N));
  for (int l = 0; l < 3; l++) {
    double v[N], xv = 0;
    for (int i = 0; i < N; i++) v[i] = (i == l) + 0.25 * l, xv += X[i] * v[i];
    for (int i = 0; i < N; i++) {
      char what[64];
      snprintf(what, sizeof what, "unitize lane %d d/dx[%d]", l, i);
      fz_mcheck(what, dx[l][i], v[i] / r - X[i] * xv / (r * r * r), 1e-13);
    }
  }
  /* top level, width 2, active scalar: every lane seeded 1 */
  fz_v2 ds = __enzyme_autodiff_v2((void *)softclip, enzyme_width, 2, X[1]);
  double s = 1 + X[1] * X[1];
  fz_mcheck("softclip lane 0", ds.d[0], 1 / (s * sqrt(s)), 1e-14);
  fz_mcheck("softclip lane 1", ds.d[1], 1 / (s * sqrt(s)), 1e-14);
  return fz_finish();
}

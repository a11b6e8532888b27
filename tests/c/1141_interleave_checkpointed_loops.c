// OPT: O0 O1 O2 O3
// enzyme_interleave (MFEM's argument order) on functions whose time loop runs
// checkpointed: __enzyme_checkpoint_for with a marked region, and a loop annotated
// `#pragma enzyme checkpoint("revolve", 3)`. Reverse mode (interleaved shadows of the
// state and of a coefficient array, an active dt), forward mode (interleaved tangents),
// and the same calls without the marker. Oracles: central finite differences of the
// primal, and forward = reverse by the dot-product identity <J v, w> = <v, J^T w>.
#include "fz_test.h"
#include <enzyme/checkpoint.h>

#define N 6
extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_interleave;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) static void step(int64_t i, double *u, const double *c, double dt) {
  double t[N];
  for (int k = 0; k < N; k++)
    t[k] = u[k] + dt * (c[k] * (u[(k + 1) % N] - 2 * u[k] + u[(k + N - 1) % N]) -
                        0.1 * u[k] * u[k] + 0.02 * cos(0.1 * (double)i));
  for (int k = 0; k < N; k++) u[k] = t[k];
}

static double loss(const double *u) {
  double s = 0;
  for (int k = 0; k < N; k++) s += (1.0 + 0.2 * k) * u[k] * u[k];
  return s;
}

double ckpt_for(double *u, const double *c, double dt, int64_t n) {
  __enzyme_checkpoint_for((void *)step, 0, n, enzyme_checkpoint_region, u,
                          (int64_t)(N * sizeof(double)), u, c, dt);
  return loss(u);
}

double annotated(double *u, const double *c, double dt, int64_t n) {
#pragma enzyme checkpoint("revolve", 3)
  for (int64_t i = 0; i < n; i++) step(i, u, c, dt);
  return loss(u);
}

typedef double (*model)(double *, const double *, double, int64_t);
static model cur;
static double u0[N], c0[N];
static int64_t nsteps;

/* the primal as a function of all inputs packed: u (N), c (N), dt */
static double packed(void *p) {
  const double *z = p;
  double u[N], c[N];
  for (int k = 0; k < N; k++) u[k] = z[k], c[k] = z[N + k];
  return cur(u, c, z[2 * N], nsteps);
}

/* one model's checks, with hook calls naming the function itself */
#define CHECK_MODEL(FN, NAME)                                                              \
  do {                                                                                     \
    cur = FN;                                                                              \
    double z[2 * N + 1], g[2 * N + 1];                                                     \
    for (int k = 0; k < N; k++) z[k] = u0[k], z[N + k] = c0[k];                            \
    z[2 * N] = dt;                                                                         \
    fz_fd_grad(packed, z, z, 2 * N + 1, g);                                                \
    char b[96];                                                                            \
    /* reverse, interleaved: dup u and c, dt enzyme_out, n const, then the shadows */      \
    double u[N], du[N] = {0}, dc[N] = {0};                                                 \
    for (int k = 0; k < N; k++) u[k] = u0[k];                                              \
    double ddt = __enzyme_autodiff((void *)FN, enzyme_dup, u, c0, enzyme_out, dt,          \
                                   enzyme_const, nsteps, enzyme_interleave, du, dc);       \
    for (int k = 0; k < N; k++) {                                                          \
      snprintf(b, sizeof b, "%s n=%ld rev du[%d]", NAME, (long)nsteps, k);                 \
      fz_check(b, du[k], g[k], 1e-6);                                                      \
      snprintf(b, sizeof b, "%s n=%ld rev dc[%d]", NAME, (long)nsteps, k);                 \
      fz_check(b, dc[k], g[N + k], 1e-6);                                                  \
    }                                                                                      \
    snprintf(b, sizeof b, "%s n=%ld rev ddt", NAME, (long)nsteps);                         \
    fz_check(b, ddt, g[2 * N], 1e-6);                                                      \
    /* the same without the marker */                                                     \
    double du2[N] = {0}, dc2[N] = {0};                                                     \
    for (int k = 0; k < N; k++) u[k] = u0[k];                                              \
    double ddt2 = __enzyme_autodiff((void *)FN, enzyme_dup, u, du2, enzyme_dup, c0, dc2,   \
                                    enzyme_out, dt, enzyme_const, nsteps);                 \
    snprintf(b, sizeof b, "%s n=%ld rev ddt (not interleaved)", NAME, (long)nsteps);       \
    fz_check(b, ddt2, g[2 * N], 1e-6);                                                     \
    for (int k = 0; k < N; k++) {                                                          \
      snprintf(b, sizeof b, "%s n=%ld rev dc[%d] (not interleaved)", NAME, (long)nsteps,   \
               k);                                                                         \
      fz_check(b, dc2[k], g[N + k], 1e-6);                                                 \
    }                                                                                      \
    /* forward, interleaved tangents: a direction v over (u, c, dt) */                     \
    double tu[N], tc[N], v[2 * N + 1], c[N];                                               \
    for (int k = 0; k < 2 * N + 1; k++) v[k] = 0.1 + 0.1 * ((k * 7) % 5) - 0.2;            \
    for (int k = 0; k < N; k++) u[k] = u0[k], c[k] = c0[k], tu[k] = v[k], tc[k] = v[N + k];\
    double jv = __enzyme_fwddiff((void *)FN, enzyme_dup, u, c, dt, enzyme_const, nsteps,   \
                                 enzyme_interleave, tu, tc, v[2 * N]);                     \
    double want = 0;                                                                       \
    for (int k = 0; k < 2 * N + 1; k++) want += v[k] * g[k];                               \
    snprintf(b, sizeof b, "%s n=%ld fwd <J v> = <v, grad>", NAME, (long)nsteps);           \
    fz_check(b, jv, want, 1e-6);                                                           \
  } while (0)

int main(void) {
  for (int k = 0; k < N; k++) u0[k] = 1.0 + 0.3 * sin(k), c0[k] = 0.2 + 0.05 * k;
  double dt = 0.05;
  int64_t ns[3] = {1, 5, 13};
  for (int q = 0; q < 3; q++) {
    nsteps = ns[q];
    CHECK_MODEL(ckpt_for, "checkpoint_for");
    CHECK_MODEL(annotated, "annotated");
  }
  return fz_finish();
}

/* ODE benchmark for checkpointed time loops (issue 14, "Memory"): explicit Euler steps of
 * a reaction-diffusion system on a ring of M = 1000 cells, u' = D lap(u) + u (1 - u) v,
 * v' = -u v, a 2000-double state, n steps, loss = sum u^2.
 *
 *   ode_ckpt primal  n          the loop, no derivative
 *   ode_ckpt taped   n          __enzyme_autodiff of the plain loop (tape of every step;
 *                               with FERROZYME_TAPE_BUDGET set, automatic checkpointing
 *                               runs it through Revolve when its tape would exceed it)
 *   ode_ckpt revolve n s        __enzyme_checkpoint_for with EnzymeCkptRevolve, s slots
 *   ode_ckpt default n          __enzyme_checkpoint_for without a scheme
 *                               (ceil(sqrt(n)) slots, or FERROZYME_TAPE_BUDGET bytes)
 *
 * FERROZYME_BENCH_REPS (default 3) sets the number of timed runs.
 * Prints one line: mode, n, slots, time (ms, best of 3 runs), peak tape bytes
 * (__ferrozyme_tape_stats), snapshot bytes (EnzymeCkptStats.max_bytes), the process's
 * peak resident set (VmHWM) and the checksum of the gradient (the same for every mode:
 * run.sh compares them). */
#include <enzyme/checkpoint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define M 1000
#define S (2 * M)

extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);
extern long long __ferrozyme_tape_stats[2] __attribute__((weak));

__attribute__((noinline)) static void step(int64_t i, double *x) {
  double *u = x, *v = x + M, nu[M], nv[M];
  const double dt = 1e-3, d = 0.2;
  (void)i;
  for (int k = 0; k < M; k++) {
    double lap = u[(k + 1) % M] - 2 * u[k] + u[(k + M - 1) % M];
    nu[k] = u[k] + dt * (d * lap + u[k] * (1 - u[k]) * v[k]);
    nv[k] = v[k] - dt * u[k] * v[k];
  }
  memcpy(u, nu, sizeof nu);
  memcpy(v, nv, sizeof nv);
}

static double loss(const double *x) {
  double s = 0;
  for (int k = 0; k < M; k++)
    s += x[k] * x[k];
  return s;
}

static double plain(double *x, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    step(i, x);
  return loss(x);
}

static EnzymeCkptStats stats;
static double revolve(double *x, int64_t n, int64_t slots) {
  EnzymeCkptConfig cfg = {slots, 0, NULL, 0, &stats};
  __enzyme_checkpoint_for((void *)step, 0, n, enzyme_scheme, &EnzymeCkptRevolve, &cfg,
                          enzyme_checkpoint_region, x, (int64_t)sizeof(double) * S, x);
  return loss(x);
}

static double by_default(double *x, int64_t n) {
  __enzyme_checkpoint_for((void *)step, 0, n, enzyme_checkpoint_region, x,
                          (int64_t)sizeof(double) * S, x);
  return loss(x);
}

static long long vmhwm(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long long kb = 0;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "VmHWM:", 6))
      kb = atoll(line + 6);
  if (f)
    fclose(f);
  return kb * 1024;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "revolve";
  int64_t n = argc > 2 ? atoll(argv[2]) : 10000, slots = argc > 3 ? atoll(argv[3]) : 100;
  static double x[S], dx[S];
  double best = 1e300, checksum = 0;
  const char *reps_env = getenv("FERROZYME_BENCH_REPS");
  int reps = reps_env ? atoi(reps_env) : 3;
  for (int rep = 0; rep < (reps > 0 ? reps : 1); rep++) {
    for (int k = 0; k < M; k++) {
      x[k] = 0.5 + 0.4 * __builtin_sin(0.01 * k);
      x[M + k] = 1.0 + 0.1 * __builtin_cos(0.02 * k);
    }
    memset(dx, 0, sizeof dx);
    double t0 = now_ms();
    if (!strcmp(mode, "primal"))
      checksum = plain(x, n);
    else if (!strcmp(mode, "taped"))
      __enzyme_autodiff((void *)plain, enzyme_dup, x, dx, enzyme_const, n);
    else if (!strcmp(mode, "default"))
      __enzyme_autodiff((void *)by_default, enzyme_dup, x, dx, enzyme_const, n);
    else
      __enzyme_autodiff((void *)revolve, enzyme_dup, x, dx, enzyme_const, n, enzyme_const,
                        slots);
    double t = now_ms() - t0;
    if (t < best)
      best = t;
  }
  if (strcmp(mode, "primal")) {
    checksum = 0;
    for (int k = 0; k < S; k++)
      checksum += dx[k] * (1 + 1e-3 * k);
  }
  long long tape = &__ferrozyme_tape_stats[0] ? __ferrozyme_tape_stats[1] : 0;
  printf("%s n=%lld slots=%lld time_ms=%.1f tape=%lld snapshots=%llu rss=%lld checksum=%.15g\n",
         mode, (long long)n, strcmp(mode, "revolve") ? 0LL : (long long)slots, best, tape,
         (unsigned long long)stats.max_bytes, vmhwm(), checksum);
  return 0;
}

/* ode_harness.h -- the checks and the timing `main` of the ODE benchmarks, shared
 * by the plain-C versions (euler.c, rk4.c through ode_common.h) and the boost
 * odeint versions (euler_odeint.cpp, rk4_odeint.cpp).  Valid C and C++.
 *
 * The including file defines, before or after including this header:
 *   STEPPER                 "euler" or "rk4" (a macro, before the include): the
 *                           section of misc_reference.json to compare with
 *   foobar(T, N)            the differentiated function, C linkage: x(T) of
 *                           x' = -1.2 x, x(0) = 1, integrated from 0 to T with
 *                           integrate_const and step h = T/N
 *   amp(z), amp_prime(z)    the stepper's one-step amplification factor R(z) and
 *                           dR/dz for the linear test problem, z = -1.2 h
 *
 * Checks: the step count integrate_const takes (boost's loop: while
 * (t + h) - T <= DBL_EPSILON, t = step * h, so some N take N-1 steps) against the
 * reference, x(T) and d x(T)/dT against the closed form R^S and the reference
 * table, d x(T)/dT against finite differences in T when the stencil keeps the
 * step count.  Then ADBench timing of foobar (primal) and of the gradient.
 */
#ifndef FZ_ODE_HARNESS_H
#define FZ_ODE_HARNESS_H

#include <float.h>

#include "bench.h"

#ifndef STEPPER
#error "define STEPPER (\"euler\" or \"rk4\") before including ode_harness.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif
double foobar(double T, unsigned long N);
#ifdef __cplusplus
}
#endif
static double amp(double z);       /* one-step factor R(z), z = -1.2 h */
static double amp_prime(double z); /* dR/dz */

/* ---- harness ------------------------------------------------------------ */
typedef struct {
  double T, dT;
  unsigned long N;
} ode_ctx;

static void run_primal(void *p) {
  ode_ctx *c = (ode_ctx *)p;
  bench_sink = foobar(c->T, c->N);
}

static void run_grad(void *p) {
  ode_ctx *c = (ode_ctx *)p;
  c->dT = __enzyme_autodiff_d((void *)foobar, c->T, enzyme_const, c->N);
  bench_sink = c->dT;
}

static double eval_T(void *p) {
  ode_ctx *c = (ode_ctx *)p;
  return foobar(c->T, c->N);
}

/* The step count integrate_const takes (same loop, no state). */
static long count_steps(double T, unsigned long N) {
  volatile double dt = T / (double)N, t = 0.0;
  long step = 0;
  while ((t + dt) - T <= DBL_EPSILON) {
    ++step;
    t = 0.0 + (double)step * dt;
  }
  return step;
}

int main(int argc, char **argv) {
  bench_opts o = bench_parse(argc, argv);
  ode_ctx c = {2.1, 0.0, strtoul(o.input, NULL, 10)};
  if (c.N == 0) {
    printf("CHECK FAIL input must be the number of steps N\n");
    return bench_finish();
  }
  long S = count_steps(c.T, c.N);
  printf("INFO %s N=%lu steps=%ld T=%g\n", STEPPER, c.N, S, c.T);
  double x = foobar(c.T, c.N);
  /* closed form for S steps of the stepper */
  double z = -1.2 * c.T / (double)c.N;
  double xs = pow(amp(z), (double)S);
  double dxs = (double)S * pow(amp(z), (double)(S - 1)) * amp_prime(z) * (-1.2 / (double)c.N);
  bench_check("x(T) vs closed form R^S", x, xs, 1e-8);
  /* reference table (misc_reference.json "ode" / STEPPER), when N is listed */
  char path[1024], pat[64];
  snprintf(path, sizeof path, "%s/reference/misc_reference.json", o.data);
  char *json = bench_slurp(path);
  const char *row = NULL;
  if (json) {
    snprintf(pat, sizeof pat, "\"%s\"", STEPPER);
    const char *sec = strstr(json, pat);
    snprintf(pat, sizeof pat, "\"iters\": %lu,", c.N);
    row = sec ? strstr(sec, pat) : NULL;
    if (row) {
      const char *next = strchr(row, '}');
      double v;
      if (bench_json_nums(row, NULL, "steps_taken", &v, 1) == 1 && strstr(row, "steps_taken") < next)
        bench_check("steps taken vs reference (boost)", (double)S, v, 0);
      if (bench_json_nums(row, NULL, "x_T", &v, 1) == 1)
        bench_check("x(T) vs reference", x, v, 1e-8);
    }
  }
  if (o.grad) {
    run_grad(&c);
    bench_check("dx/dT vs closed form", c.dT, dxs, 1e-8);
    double v;
    if (row && bench_json_nums(row, NULL, "dx_dT", &v, 1) == 1)
      bench_check("dx/dT vs reference", c.dT, v, 1e-8);
    /* finite differences in T, valid only when no stencil point changes the
     * step count */
    double h = 1e-5 * c.T;
    int same = 1;
    for (int k = -2; k <= 2; k++) {
      /* the compiled loop (built with -ffast-math) may round its exit test
       * differently from count_steps: also compare foobar with R^S */
      double Tk = c.T + k * h, zk = -1.2 * Tk / (double)c.N;
      double gotk = foobar(Tk, c.N), wantk = pow(amp(zk), (double)S);
      if (count_steps(Tk, c.N) != S || !bench_close(gotk, wantk, 1e-9)) same = 0;
      if (getenv("FERROZYME_BENCH_DEBUG"))
        printf("DEBUG T=%.17g steps=%ld foobar=%.17g R^S=%.17g\n", Tk, count_steps(Tk, c.N), gotk, wantk);
    }
    if (same)
      bench_check("dx/dT vs finite differences", c.dT, bench_fd(eval_T, &c, &c.T, 1e-5), 1e-8);
    else
      printf("INFO finite differences skipped: the stencil changes the step count\n");
  }
  free(json);
  if (bench_failures) return bench_finish();
  if (o.primal) bench_measure("primal", run_primal, &c, &o);
  if (o.grad) bench_measure("grad", run_grad, &c, &o);
  return bench_finish();
}

#endif /* FZ_ODE_HARNESS_H */

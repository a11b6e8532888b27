/* hpc_bench.h -- timing and checking helpers of the parallel benchmarks (bench/hpc).
 *
 * A program prints, for the runner (bench/hpc/run.py):
 *   CHECK ok|FAIL <what> got=<g> want=<w>
 *   TIME <name> <seconds per call>
 *   STATUS ok|fail
 * Timing: batches of calls doubling until one takes --min-time seconds, then more
 * batches of that size until --min-time * 5 seconds in all; the minimum per call. */
#ifndef FZ_HPC_BENCH_H
#define FZ_HPC_BENCH_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
extern void __enzyme_autodiff(void *, ...);
extern double __enzyme_autodiff_d(void *, ...);

static int hb_failures;

static double hb_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void hb_check(const char *what, double got, double want, double tol, int print) {
  double scale = fabs(want) > 1 ? fabs(want) : 1;
  int ok = fabs(got - want) <= tol * scale;
  if (!ok) hb_failures++;
  if (print || !ok)
    printf("CHECK %s %s got=%.17g want=%.17g\n", ok ? "ok" : "FAIL", what, got, want);
}

/* Seconds per call of fn(ctx), ADBench-style (minimum over batches). */
static double hb_time(void (*fn)(void *), void *ctx, double min_time) {
  long batch = 1;
  double best = 1e300, spent = 0;
  for (;;) {
    double t0 = hb_now();
    for (long k = 0; k < batch; k++) fn(ctx);
    double dt = hb_now() - t0;
    spent += dt;
    if (dt >= min_time || spent > 5 * min_time) {
      if (dt / batch < best) best = dt / batch;
      if (spent > 5 * min_time) break;
    } else {
      batch *= 2;
    }
  }
  return best;
}

static double hb_min_time(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], "--min-time")) return atof(argv[i + 1]);
  return 0.5;
}

static int hb_size(int argc, char **argv, int dflt) {
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], "--size")) return atoi(argv[i + 1]);
  return dflt;
}

#endif

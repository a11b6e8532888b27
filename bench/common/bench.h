/* bench.h -- shared harness of the Ferrozyme benchmark programs (bench/src/NAME.c, NAME.cpp).
 *
 * Every benchmark program is one C or C++ file: the objective, the `__enzyme_autodiff`
 * call that differentiates it, optionally a hand-written gradient, correctness
 * checks and a `main` built on the helpers below.  The runner (bench/run.py)
 * builds each file with several compilers and starts the binaries as
 *
 *   prog INPUT [--measure primal,grad,hand] [--min-time S] [--nruns N]
 *              [--time-limit S] [--data DIR] [--calls N] [--mem] [--dump FILE]
 *
 * and reads these lines from stdout:
 *
 *   CHECK ok|FAIL <what> got=<g> want=<w> tol=<t>
 *   TIME <name> <seconds per call>
 *   COUNTED <name> <calls>        (--calls N: no timing; N calls inside the function
 *                                  `bench_counted`, for valgrind --tool=callgrind
 *                                  --toggle-collect=bench_counted)
 *   MEM <name> base=<bytes> peak=<bytes> tape=<bytes>
 *                                 (--mem: no timing; one call of each measure; base is
 *                                  the resident set before it, peak the process's peak
 *                                  resident set after it, tape the peak bytes of tape
 *                                  buffers the Ferrozyme runtime held, 0 without it)
 *   STATUS ok|fail
 *
 * Timing follows ADBench's methodology: start with one call per batch and
 * double the batch until it takes longer than --min-time; that batch is the
 * first sample; keep taking batches until --nruns samples or --time-limit
 * seconds in all; report the minimum time per call.
 *
 * Only libc and libm are used; every helper is `static` so the file can be
 * included once per program without link conflicts.  The file is also valid
 * C++ (the odeint benchmarks include it from C++): the Enzyme declarations
 * have C linkage there and malloc results are cast.
 */
#ifndef FZ_BENCH_H
#define FZ_BENCH_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- Enzyme-compatible ABI -------------------------------------------- */
#ifdef __cplusplus /* the odeint benchmarks (bench/src/NAME_odeint.cpp) include this file */
extern "C" {
#endif
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
extern void __enzyme_autodiff(void *, ...);
extern double __enzyme_autodiff_d(void *, ...);
#ifdef __cplusplus
}
#endif

/* ---- command line ------------------------------------------------------ */
typedef struct {
  const char *input;   /* file path or size, benchmark specific */
  const char *data;    /* root of the ADBench data (reference values) */
  const char *dump;    /* --dump FILE: write the objective and gradient there (GMM) */
  int primal, grad, hand;
  double min_time, time_limit;
  int nruns;
  long calls; /* --calls N: count instead of time */
  int mem;    /* --mem: peak memory instead of time */
} bench_opts;

static void bench_usage(const char *prog) {
  fprintf(stderr,
          "usage: %s INPUT [--measure primal,grad,hand] [--min-time S] [--nruns N]\n"
          "          [--time-limit S] [--data DIR] [--calls N] [--mem] [--dump FILE]\n",
          prog);
  exit(2);
}

static bench_opts bench_parse(int argc, char **argv) {
  bench_opts o = {0};
  o.data = getenv("FERROZYME_BENCH_DATA");
  if (!o.data) o.data = "/work/shared/data/adbench";
  o.primal = o.grad = 1;
  o.hand = 0;
  o.min_time = 0.5;
  o.nruns = 10;
  o.time_limit = 10.0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(a, "--measure") && more) {
      const char *m = argv[++i];
      o.primal = strstr(m, "primal") != NULL;
      o.grad = strstr(m, "grad") != NULL;
      o.hand = strstr(m, "hand") != NULL;
    } else if (!strcmp(a, "--min-time") && more) {
      o.min_time = atof(argv[++i]);
    } else if (!strcmp(a, "--nruns") && more) {
      o.nruns = atoi(argv[++i]);
    } else if (!strcmp(a, "--time-limit") && more) {
      o.time_limit = atof(argv[++i]);
    } else if (!strcmp(a, "--data") && more) {
      o.data = argv[++i];
    } else if (!strcmp(a, "--calls") && more) {
      o.calls = atol(argv[++i]);
    } else if (!strcmp(a, "--mem")) {
      o.mem = 1;
    } else if (!strcmp(a, "--dump") && more) {
      o.dump = argv[++i];
    } else if (a[0] == '-') {
      bench_usage(argv[0]);
    } else {
      o.input = a;
    }
  }
  if (!o.input) bench_usage(argv[0]);
  return o;
}

/* ---- checks ------------------------------------------------------------ */
static int bench_failures = 0;
static int bench_checks = 0;

/* Finite by the bits: the programs are built with -ffast-math, under which
 * the compiler may fold isnan()/isfinite() and comparisons with NaN. */
static int bench_finite(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return ((u >> 52) & 0x7ff) != 0x7ff;
}

/* ADBench's element distance: |a-b| / max(1, |a|+|b|); NaN and inf never pass. */
static int bench_close(double got, double want, double tol) {
  if (!bench_finite(got) || !bench_finite(want)) return 0;
  double s = fabs(got) + fabs(want);
  if (s < 1.0) s = 1.0;
  return fabs(got - want) / s <= tol;
}

/* Prints every failure, and successes only when `verbose`. */
static int bench_check_v(const char *what, double got, double want, double tol, int verbose) {
  int ok = bench_close(got, want, tol);
  bench_checks++;
  if (!ok) bench_failures++;
  if (!ok || verbose)
    printf("CHECK %s %s got=%.17g want=%.17g tol=%.1e\n", ok ? "ok" : "FAIL", what, got,
           want, tol);
  return ok;
}

static int bench_check(const char *what, double got, double want, double tol) {
  return bench_check_v(what, got, want, tol, 1);
}

/* Compares n values; prints failures (at most 10) and one summary line. */
static int bench_check_arr(const char *what, const double *got, const double *want, long n,
                           double tol) {
  long bad = 0;
  double worst = 0.0;
  for (long i = 0; i < n; i++) {
    double s = fabs(got[i]) + fabs(want[i]);
    if (s < 1.0) s = 1.0;
    double d = fabs(got[i] - want[i]) / s;
    if (!bench_close(got[i], want[i], tol)) {
      if (bad < 10)
        printf("CHECK FAIL %s[%ld] got=%.17g want=%.17g tol=%.1e\n", what, i, got[i], want[i],
               tol);
      bad++;
      worst = 1e300;
    } else if (d > worst) {
      worst = d;
    }
  }
  bench_checks++;
  if (bad) {
    bench_failures++;
    printf("CHECK FAIL %s: %ld of %ld values differ\n", what, bad, n);
  } else {
    printf("CHECK ok %s: %ld values, worst distance %.2e (tol %.1e)\n", what, n, worst, tol);
  }
  return bad == 0;
}

static void bench_fail(const char *msg) {
  bench_checks++;
  bench_failures++;
  printf("CHECK FAIL %s\n", msg);
}

/* Prints STATUS and returns the exit code of the program. */
static int bench_finish(void) {
  if (bench_checks == 0) {
    printf("STATUS fail (no checks ran)\n");
    return 1;
  }
  printf("STATUS %s (%d checks, %d failed)\n", bench_failures ? "fail" : "ok", bench_checks,
         bench_failures);
  return bench_failures ? 1 : 0;
}

/* Central finite difference of eval(ctx) w.r.t. *xi, five-point stencil with
 * step h = rel * max(1, |x|); *xi is restored. */
static double bench_fd(double (*eval)(void *), void *ctx, double *xi, double rel) {
  double x0 = *xi;
  double h = rel * (fabs(x0) > 1.0 ? fabs(x0) : 1.0);
  volatile double xs[4] = {x0 - 2 * h, x0 - h, x0 + h, x0 + 2 * h};
  double f[4];
  for (int k = 0; k < 4; k++) {
    *xi = xs[k];
    f[k] = eval(ctx);
  }
  *xi = x0;
  return (f[0] - 8.0 * f[1] + 8.0 * f[2] - f[3]) / (12.0 * h);
}

/* ---- timing ------------------------------------------------------------ */
/* Wall-clock time by default; FERROZYME_BENCH_CLOCK=cpu measures the thread's CPU time
 * instead (on a loaded machine the time the thread waits for a core is left out). */
static double bench_now(void) {
  static int clock_id = -1;
  if (clock_id < 0) {
    const char *c = getenv("FERROZYME_BENCH_CLOCK");
    clock_id = (c && !strcmp(c, "cpu")) ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
  }
  struct timespec ts;
  clock_gettime(clock_id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A sink that keeps results alive. */
static volatile double bench_sink;

/* ADBench-style timing; returns the minimum seconds per call. */
static double bench_time(void (*fn)(void *), void *ctx, const bench_opts *o) {
  long repeats = 1;
  double total = 0.0, best;
  for (;;) {
    double t0 = bench_now();
    for (long r = 0; r < repeats; r++) fn(ctx);
    double t = bench_now() - t0;
    total += t;
    if (t > o->min_time || repeats >= (1L << 40)) {
      best = t / (double)repeats;
      break;
    }
    repeats *= 2;
  }
  for (int s = 1; s < o->nruns && total < o->time_limit; s++) {
    double t0 = bench_now();
    for (long r = 0; r < repeats; r++) fn(ctx);
    double t = bench_now() - t0;
    total += t;
    if (t / (double)repeats < best) best = t / (double)repeats;
  }
  return best;
}

static void bench_report(const char *name, double seconds) {
  printf("TIME %s %.9e\n", name, seconds);
  fflush(stdout);
}

/* Exactly n calls, inside one function that callgrind can select
 * (--toggle-collect=bench_counted): instruction counts of n calls and nothing else. */
__attribute__((noinline)) static void bench_counted(void (*fn)(void *), void *ctx, long n) {
  for (long r = 0; r < n; r++) fn(ctx);
  __asm__ volatile("" ::: "memory");
}

/* Peak bytes of tape buffers held at once, kept by Ferrozyme's tape runtime in
 * { current, peak }; absent (a null weak symbol) in programs without it. */
#ifdef __cplusplus
extern "C" {
#endif
extern long long __ferrozyme_tape_stats[2] __attribute__((weak));
#ifdef __cplusplus
}
#endif

/* A field of /proc/self/status in bytes ("VmRSS", "VmHWM"); 0 when unavailable. */
static long long bench_status_bytes(const char *field) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long long kb = 0;
  size_t n = strlen(field);
  if (!f) return 0;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, field, n) && line[n] == ':') {
      kb = atoll(line + n + 1);
      break;
    }
  fclose(f);
  return kb * 1024;
}

/* Times `fn` (TIME line), or with --calls counts it (COUNTED), or with --mem
 * measures one call's memory (MEM). */
static void bench_measure(const char *name, void (*fn)(void *), void *ctx, const bench_opts *o) {
  if (o->mem) {
    long long base = bench_status_bytes("VmRSS");
    long long tape0 = &__ferrozyme_tape_stats[0] ? __ferrozyme_tape_stats[1] : 0;
    fn(ctx);
    long long peak = bench_status_bytes("VmHWM");
    long long tape = &__ferrozyme_tape_stats[0] ? __ferrozyme_tape_stats[1] : 0;
    printf("MEM %s base=%lld peak=%lld tape=%lld\n", name, base, peak,
           tape > tape0 ? tape : tape0);
    fflush(stdout);
    return;
  }
  if (o->calls > 0) {
    fn(ctx); /* warm: the first call maps memory later calls reuse */
    bench_counted(fn, ctx, o->calls);
    printf("COUNTED %s %ld\n", name, o->calls);
    fflush(stdout);
    return;
  }
  bench_report(name, bench_time(fn, ctx, o));
}

/* ---- input ------------------------------------------------------------- */
/* Whole-file token reader (ADBench files are whitespace-separated numbers). */
typedef struct {
  char *buf, *pos;
} bench_reader;

static bench_reader bench_open(const char *path) {
  bench_reader r = {0};
  FILE *f = fopen(path, "rb");
  if (!f) {
    printf("CHECK FAIL cannot open %s\n", path);
    printf("STATUS fail\n");
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  r.buf = (char *)malloc((size_t)n + 1);
  if (fread(r.buf, 1, (size_t)n, f) != (size_t)n) {
    printf("CHECK FAIL cannot read %s\n", path);
    exit(1);
  }
  r.buf[n] = 0;
  fclose(f);
  r.pos = r.buf;
  return r;
}

static double bench_num(bench_reader *r) {
  char *end;
  double v = strtod(r->pos, &end);
  if (end == r->pos) {
    printf("CHECK FAIL input ended early or has a bad token near '%.20s'\n", r->pos);
    printf("STATUS fail\n");
    exit(1);
  }
  r->pos = end;
  return v;
}

/* Reads a file of one number per line; returns the count, *out malloc'd. */
static long bench_read_vec(const char *path, double **out) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  long cap = 1024, n = 0;
  double *v = (double *)malloc(sizeof(double) * cap), x;
  while (fscanf(f, "%lf", &x) == 1) {
    if (n == cap) v = (double *)realloc(v, sizeof(double) * (cap *= 2));
    v[n++] = x;
  }
  fclose(f);
  *out = v;
  return n;
}

/* Minimal lookup in the reference JSON files: finds the object whose key is
 * `key` (e.g. "gmm/1k/gmm_d2_K5.txt"), then `field` inside it, and reads up
 * to `max` numbers (a number or an array of numbers).  Returns how many were
 * read, 0 when absent.  Enough for the flat files in reference/. */
static char *bench_slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = (char *)malloc((size_t)n + 1);
  size_t got = fread(b, 1, (size_t)n, f);
  b[got] = 0;
  fclose(f);
  return b;
}

static int bench_json_nums(const char *json, const char *key, const char *field, double *out,
                           int max) {
  char pat[512];
  const char *p = json;
  if (key) {
    snprintf(pat, sizeof pat, "\"%s\"", key);
    p = strstr(json, pat);
    if (!p) return 0;
  }
  snprintf(pat, sizeof pat, "\"%s\"", field);
  p = strstr(p, pat);
  if (!p) return 0;
  p += strlen(pat);
  while (*p == ' ' || *p == ':') p++;
  int n = 0;
  if (*p == '[') {
    p++;
    while (n < max) {
      while (*p == ' ' || *p == ',' || *p == '\n') p++;
      if (*p == ']') break;
      char *end;
      double v = strtod(p, &end);
      if (end == p) break;
      out[n++] = v;
      p = end;
    }
  } else {
    char *end;
    double v = strtod(p, &end);
    if (end != p) out[n++] = v;
  }
  return n;
}

/* The file name part of a path ("a/b/c.txt" -> "c.txt"). */
static const char *bench_basename(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* Reference key "gmm/1k/x.txt" for an input path ".../adbench/gmm/1k/x.txt":
 * the part after "adbench/" (or the last `depth` components). */
static const char *bench_ref_key(const char *path, const char *top) {
  const char *s = strstr(path, top);
  return s ? s : bench_basename(path);
}

#endif /* FZ_BENCH_H */

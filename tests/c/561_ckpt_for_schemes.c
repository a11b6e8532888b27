// OPT: O0 O2
// __enzyme_checkpoint_for (<enzyme/checkpoint.h>): a time loop whose state lives in an
// argument (a marked region) and in a global the step writes, with an active scalar
// argument (dt, enzyme_out: its adjoint is summed over the steps). For Revolve,
// Periodic, StoreAll and the default scheme, n = 0, 1, 2, 7, 100 and 1, 2, 3, 5
// snapshots, the gradient must equal the gradient of the plain loop computed by the
// same program, and central finite differences (n = 7 and 100); the state after the
// gradient must equal the primal's; every step is taped exactly once; Revolve never uses
// more than `snapshots` slots. Each gradient runs in a child process: the global's shadow
// keeps what a gradient accumulated in it, and a child starts from a zero shadow.
#include "fz_test.h"
#include <enzyme/checkpoint.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 8


static double glob[N];

__attribute__((noinline)) static void step(int64_t i, double *u, double dt) {
  double t[N];
  for (int k = 0; k < N; k++)
    t[k] = u[k] + dt * (0.3 * (u[(k + 1) % N] - 2 * u[k] + u[(k + N - 1) % N]) +
                        0.05 * sin(glob[k] + 0.01 * (double)i));
  for (int k = 0; k < N; k++) {
    glob[k] = 0.8 * glob[k] + 0.2 * t[k] * t[k];
    u[k] = t[k];
  }
}

static double loss(const double *u) {
  double s = 0;
  for (int k = 0; k < N; k++)
    s += u[k] * u[k] * (1 + 0.1 * k) + glob[k];
  return s;
}

static double plain(double *u, double dt, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    step(i, u, dt);
  return loss(u);
}

static double ckpt(double *u, double dt, int64_t n, const EnzymeCheckpointScheme *scheme,
                   EnzymeCkptConfig *config) {
  __enzyme_checkpoint_for((void *)step, 0, n, enzyme_scheme, scheme, config,
                          enzyme_checkpoint_region, u, (int64_t)(N * sizeof(double)), u,
                          dt);
  return loss(u);
}

static double ckpt_default(double *u, double dt, int64_t n) {
  __enzyme_checkpoint_for((void *)step, 0, n, enzyme_checkpoint_region, u,
                          (int64_t)(N * sizeof(double)), u, dt);
  return loss(u);
}

static void init(double *u) {
  for (int k = 0; k < N; k++) {
    u[k] = 1.0 + 0.5 * sin((double)k);
    glob[k] = 0.25 * k;
  }
}

typedef struct {
  double du[N], ddt, u[N], glob[N];
  EnzymeCkptStats stats;
} Result;

// which: 0 plain, 1..3 schemes, 4 default.
static Result gradient(int which, int64_t n, int64_t snaps) {
  Result r;
  int fd[2];
  if (pipe(fd) != 0)
    abort();
  pid_t pid = fork();
  if (pid == 0) {
    const EnzymeCheckpointScheme *schemes[] = {NULL, &EnzymeCkptRevolve,
                                               &EnzymeCkptPeriodic, &EnzymeCkptStoreAll};
    double u[N], dt = 0.1;
    memset(&r, 0, sizeof r);
    EnzymeCkptConfig config = {snaps, 0, NULL, 0, &r.stats};
    init(u);
    if (which == 0)
      r.ddt = __enzyme_autodiff((void *)plain, enzyme_dup, u, r.du, enzyme_out, dt,
                                  enzyme_const, n);
    else if (which == 4) {
      r.ddt = __enzyme_autodiff((void *)ckpt_default, enzyme_dup, u, r.du, enzyme_out,
                                  dt, enzyme_const, n);
      r.stats.taped_steps = n; // the default scheme reports nothing
    } else
      r.ddt = __enzyme_autodiff((void *)ckpt, enzyme_dup, u, r.du, enzyme_out, dt,
                                  enzyme_const, n, enzyme_const, schemes[which],
                                  enzyme_const, &config);
    memcpy(r.u, u, sizeof u);
    memcpy(r.glob, glob, sizeof glob);
    if (write(fd[1], &r, sizeof r) != sizeof r)
      abort();
    _exit(0);
  }
  close(fd[1]);
  if (read(fd[0], &r, sizeof r) != sizeof r) {
    printf("MISMATCH child for scheme %d n=%lld died\n", which, (long long)n);
    fz_failures++;
    memset(&r, 0, sizeof r);
  }
  close(fd[0]);
  waitpid(pid, NULL, 0);
  return r;
}

typedef struct {
  int64_t n;
  double dt;
} Ctx;
static double eval_u[N];
static double eval(void *p) {
  Ctx *c = (Ctx *)p;
  double u[N];
  init(u);
  memcpy(u, eval_u, sizeof u);
  return ckpt_default(u, c->dt, c->n);
}

int main(void) {
  const char *names[] = {"plain", "revolve", "periodic", "store_all", "default"};
  int64_t steps[] = {0, 1, 2, 7, 100};
  int64_t snaps[] = {1, 2, 3, 5};
  for (unsigned ns = 0; ns < 5; ns++) {
    int64_t n = steps[ns];
    Result ref = gradient(0, n, 0);
    // Finite differences of the primal (the checkpointed call outside AD is the loop).
    if (n == 7 || n == 100) {
      Ctx c = {n, 0.1};
      double u0[N];
      init(u0);
      memcpy(eval_u, u0, sizeof u0);
      for (int k = 0; k < N; k += 3) {
        double fd = fz_fd_ptr(eval, &c, &eval_u[k]);
        fz_check("plain-loop gradient vs finite differences (du)", ref.du[k], fd, 1e-6);
      }
      fz_check("plain-loop gradient vs finite differences (ddt)", ref.ddt,
               fz_fd_ptr(eval, &c, &c.dt), 1e-6);
    }
    for (int which = 1; which <= 4; which++)
      for (unsigned c = 0; c < 4; c++) {
        if (which == 4 && c > 0)
          continue;
        Result r = gradient(which, n, snaps[c]);
        char what[128];
        snprintf(what, sizeof what, "%s n=%lld snaps=%lld", names[which], (long long)n,
                 (long long)snaps[c]);
        int bad = 0;
        for (int k = 0; k < N; k++)
          bad += !fz_close(r.du[k], ref.du[k], 1e-10);
        bad += !fz_close(r.ddt, ref.ddt, 1e-10);
        if (bad)
          printf("  %s: du[0]=%.17g want %.17g, ddt=%.17g want %.17g\n", what, r.du[0],
                 ref.du[0], r.ddt, ref.ddt);
        fz_check(what, bad, 0, 0);
        fz_check("  state after the gradient = primal's",
                 memcmp(r.u, ref.u, sizeof r.u) || memcmp(r.glob, ref.glob, sizeof r.glob),
                 0, 0);
        fz_check("  taped steps = n", (double)r.stats.taped_steps, (double)n, 0);
        if (which == 1 && n > 0)
          fz_check("  revolve slots <= snapshots", r.stats.max_slots <= snaps[c], 1, 0);
      }
  }
  return fz_finish();
}

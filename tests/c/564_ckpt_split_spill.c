// OPT: O0 O2
// A checkpointed loop inside split mode (__enzyme_augmentfwd, then __enzyme_reverse),
// with Revolve keeping its slots past config.mem_budget in files under config.spill_dir,
// and a periodic scheme with config.verbose = 1 (a summary on stderr). The configuration
// is static: in split mode the scheme's configuration must outlive the reverse call.
// Oracles: the combined gradient of the plain loop, central finite differences; the
// stats (taped steps = n, Revolve's slots <= snapshots); no spill file left behind.
#include "fz_test.h"
#include <dirent.h>
#include <unistd.h>
#include <enzyme/checkpoint.h>

extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_reverse(void *, ...);

static void st(int64_t i, double *u) {
  u[0] = sin(u[0]) + 0.1 * u[1];
  u[1] = u[1] * cos(u[0]) + 0.01 * (double)i;
}

static EnzymeCkptStats stats;
static EnzymeCkptConfig cfg = {3, 0, NULL, 16, &stats};
static const EnzymeCheckpointScheme *scheme = &EnzymeCkptRevolve;

void f(double *u, double *out, int64_t n) {
  __enzyme_checkpoint_for((void *)st, 0, n, enzyme_scheme, scheme, &cfg,
                          enzyme_checkpoint_region, u, (int64_t)(2 * sizeof(double)), u);
  *out = u[0] * u[1];
}

void g(double *u, double *out, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    st(i, u);
  *out = u[0] * u[1];
}

static int64_t cur_n;
static double ev[2];
static double eval(void *p) {
  (void)p;
  double u[2] = {ev[0], ev[1]}, o;
  g(u, &o, cur_n);
  return o;
}

static int files_in(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int n = 0;
  while (d && (e = readdir(d)))
    n += e->d_name[0] != '.';
  if (d)
    closedir(d);
  return n;
}

int main(void) {
  char dir[] = "/tmp/fzckpt564XXXXXX";
  if (!mkdtemp(dir))
    return 1;
  cfg.spill_dir = dir;
  int64_t ns[] = {1, 2, 9, 30};
  for (int s = 0; s < 2; s++) {
    if (s == 1) {
      scheme = &EnzymeCkptPeriodic;
      cfg.verbose = 1;
      cfg.spill_dir = NULL;
    }
    for (int t = 0; t < 4; t++) {
      int64_t n = ns[t];
      double u[2] = {0.5, 0.7}, du[2] = {0, 0}, o = 0, d_o = 1;
      memset(&stats, 0, sizeof stats);
      void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, u, du, enzyme_dup, &o, &d_o,
                                       enzyme_const, n);
      double after[2] = {u[0], u[1]};
      __enzyme_reverse((void *)f, enzyme_dup, u, du, enzyme_dup, &o, &d_o, enzyme_const, n,
                       tape);
      double v[2] = {0.5, 0.7}, dv[2] = {0, 0}, p = 0, dp = 1;
      __enzyme_autodiff((void *)g, enzyme_dup, v, dv, enzyme_dup, &p, &dp, enzyme_const, n);
      char what[96];
      snprintf(what, sizeof what, "%s split n=%lld: gradient = plain loop's",
               s ? "periodic" : "revolve+spill", (long long)n);
      fz_check_arr(what, du, dv, 2, 1e-12);
      fz_check("  state after the forward call = plain loop's", after[0] == v[0] && after[1] == v[1], 1, 0);
      fz_check("  taped steps = n", (double)stats.taped_steps, (double)n, 0);
      if (s == 0)
        fz_check("  revolve slots <= 3", stats.max_slots <= 3, 1, 0);
      cur_n = n;
      ev[0] = 0.5;
      ev[1] = 0.7;
      fz_check("  d/du0 vs finite differences", du[0], fz_fd_ptr(eval, NULL, &ev[0]), 1e-6);
      fz_check("  no spill file left", files_in(dir), 0, 0);
    }
  }
  rmdir(dir);
  return fz_finish();
}

/* The run-time driver of checkpointed loops (`__enzyme_checkpoint_for/_while` in
 * reverse-differentiated code). Compiled to driver.ll by scripts/gen-ckpt-runtime.sh;
 * the pass links driver.ll into modules that need it (checkpoint/mod.rs).
 *
 * The generated code hands the driver two trampolines over an `env` block holding the
 * step's arguments (each pointer followed by its shadow):
 *   int32_t step(int64_t i, void *env)   the primal step i (its result: continue?)
 *   void    grad(int64_t i, void *env)   the combined gradient of step i
 * __fz_ckpt_forward runs the scheme up to its first turn and returns a handle (the
 * tape of the call); __fz_ckpt_reverse continues it to DONE and frees the handle. */
#include <enzyme/checkpoint.h>

typedef int32_t (*fz_ckpt_step)(int64_t, void *);
typedef void (*fz_ckpt_grad)(int64_t, void *);

typedef struct fz_ckpt {
  const EnzymeCheckpointScheme *scheme;
  void *state;
  EnzymeCkptConfig own; /* the default scheme's configuration */
  int64_t start, n, turn;
  int is_while, done;
  EnzymeCkptRegion *regions;
  uint64_t nregions;
} fz_ckpt;

static void fz_save(fz_ckpt *h, int64_t slot, int64_t step, void *env) {
  if (h->scheme->save_state)
    h->scheme->save_state(h->state, slot, step, env);
  else if (h->scheme->store)
    h->scheme->store(h->state, slot, step, h->regions, h->nregions);
  else
    fzck_fail("the scheme has neither store nor save_state");
}

static void fz_load(fz_ckpt *h, int64_t slot, int64_t step, void *env) {
  if (h->scheme->load_state)
    h->scheme->load_state(h->state, slot, step, env);
  else if (h->scheme->restore)
    h->scheme->restore(h->state, slot, step, h->regions, h->nregions);
  else
    fzck_fail("the scheme has neither restore nor load_state");
}

/* Slots for the default scheme: FERROZYME_TAPE_BUDGET bytes of snapshots, or
 * ceil(sqrt(n)). */
static int64_t fz_default_slots(int64_t n, uint64_t bytes) {
  const char *b = getenv("FERROZYME_TAPE_BUDGET");
  int64_t s;
  if (b && *b) {
    unsigned long long budget = strtoull(b, NULL, 10);
    s = bytes ? (int64_t)(budget / bytes) : n;
    return s < 1 ? 1 : s;
  }
  for (s = 0; s * s < n; s++)
    ;
  return s < 1 ? 1 : s;
}

/* Loops annotated for checkpointing (`__enzyme_set_checkpointing(schedule, budget)`,
 * checkpoint/marked.rs) pass no scheme and data = {schedule, budget}. The counts of the
 * last such schedule, and how many ran: weak, one per program, so tests can see them. */
__attribute__((weak)) EnzymeCkptStats __fz_ckpt_marked_stats;
__attribute__((weak)) int64_t __fz_ckpt_marked_loops;

static const EnzymeCheckpointScheme *fz_marked(fz_ckpt *h, const int64_t *mark, int64_t n) {
  int64_t budget = mark[1];
  h->own.stats = &__fz_ckpt_marked_stats;
  __fz_ckpt_marked_loops++;
  switch (mark[0]) {
  case ENZYME_CKPT_SCHEDULE_STORE_ALL:
    h->own.snapshots = 1;
    return &EnzymeCkptStoreAll;
  case ENZYME_CKPT_SCHEDULE_REVOLVE:
  case ENZYME_CKPT_SCHEDULE_BINOMIAL:
    h->own.snapshots = enzyme_ckpt_binomial_slots(n, budget);
    return &EnzymeCkptRevolve;
  default: /* periodic: budget segments, or segments of floor(sqrt(n)) steps */
    h->own.snapshots = budget > 0 ? budget : enzyme_ckpt_periodic_segments(n, budget);
    return &EnzymeCkptPeriodic;
  }
}

void *__fz_ckpt_forward(const EnzymeCheckpointScheme *scheme, void *data, int64_t start,
                        int64_t n, const EnzymeCkptRegion *regions, uint64_t nregions,
                        fz_ckpt_step step, void *env) {
  fz_ckpt *h = (fz_ckpt *)calloc(1, sizeof(fz_ckpt));
  uint64_t bytes = 0, r;
  EnzymeCkptAction a;
  int64_t j;
  if (!h)
    fzck_fail("out of memory");
  h->is_while = n < 0;
  h->start = h->is_while ? 0 : start;
  h->n = n;
  h->nregions = nregions;
  h->regions = (EnzymeCkptRegion *)malloc((nregions ? nregions : 1) * sizeof(EnzymeCkptRegion));
  if (!h->regions)
    fzck_fail("out of memory");
  for (r = 0; r < nregions; r++) {
    h->regions[r] = regions[r];
    bytes += regions[r].bytes;
  }
  if (!scheme) {
    {
      const char *v = getenv("FERROZYME_CKPT_VERBOSE");
      h->own.verbose = v ? atoi(v) : 0;
    }
    if (data && !h->is_while) {
      scheme = fz_marked(h, (const int64_t *)data, n);
    } else {
      h->own.snapshots = h->is_while ? 1 : fz_default_slots(n, bytes);
      scheme = h->is_while ? &EnzymeCkptStoreAll : &EnzymeCkptRevolve;
    }
    data = &h->own;
  }
  if (scheme->version != ENZYME_CKPT_ABI_VERSION)
    fzck_fail("the scheme's version is not ENZYME_CKPT_ABI_VERSION");
  h->scheme = scheme;
  h->state = scheme->init(data, n, bytes);
  for (;;) {
    scheme->next_action(h->state, &a);
    switch (a.flag) {
    case ENZYME_CKPT_STORE:
      fz_save(h, a.cpnum, a.iteration, env);
      break;
    case ENZYME_CKPT_RESTORE:
      fz_load(h, a.cpnum, a.iteration, env);
      break;
    case ENZYME_CKPT_FORWARD:
      for (j = a.startiteration; j < a.iteration; j++) {
        int32_t more = step(h->start + j, env);
        if (h->is_while && h->n < 0 && !more) {
          h->n = j + 1;
          if (!scheme->set_nsteps)
            fzck_fail("a while loop needs a scheme with set_nsteps (EnzymeCkptStoreAll)");
          scheme->set_nsteps(h->state, h->n);
          break;
        }
      }
      break;
    case ENZYME_CKPT_FIRSTUTURN:
      h->turn = a.iteration;
      fz_save(h, -2, a.iteration - 1, env);
      step(h->start + a.iteration - 1, env);
      return h;
    case ENZYME_CKPT_DONE:
      h->done = 1;
      return h;
    default:
      fzck_fail("the scheme gave an action the forward sweep cannot take");
    }
  }
}

void __fz_ckpt_reverse(void *handle, fz_ckpt_step step, fz_ckpt_grad grad, void *env) {
  fz_ckpt *h = (fz_ckpt *)handle;
  EnzymeCkptAction a;
  int64_t j;
  if (!h->done) {
    fz_save(h, -1, h->n, env);
    fz_load(h, -2, h->turn - 1, env);
    grad(h->start + h->turn - 1, env);
    for (;;) {
      h->scheme->next_action(h->state, &a);
      if (a.flag == ENZYME_CKPT_DONE)
        break;
      switch (a.flag) {
      case ENZYME_CKPT_STORE:
        fz_save(h, a.cpnum, a.iteration, env);
        break;
      case ENZYME_CKPT_RESTORE:
        fz_load(h, a.cpnum, a.iteration, env);
        break;
      case ENZYME_CKPT_FORWARD:
        for (j = a.startiteration; j < a.iteration; j++)
          step(h->start + j, env);
        break;
      case ENZYME_CKPT_UTURN:
        grad(h->start + a.iteration - 1, env);
        break;
      default:
        fzck_fail("the scheme gave an action the reverse sweep cannot take");
      }
    }
    fz_load(h, -1, h->n, env);
  }
  h->scheme->finalize(h->state);
  free(h->regions);
  free(h);
}

/* Automatic checkpointing (checkpoint/auto.rs): does a loop of n steps whose tape is
 * estimated at step_tape bytes a step run checkpointed? Only when FERROZYME_TAPE_BUDGET
 * (bytes) is set and n * step_tape exceeds it. FERROZYME_CKPT_VERBOSE=1 prints the
 * decision. */
int64_t __fz_ckpt_auto_taped_loops, __fz_ckpt_auto_checkpointed_loops;
int32_t __fz_ckpt_auto_use(int64_t n, int64_t step_tape) {
  const char *b = getenv("FERROZYME_TAPE_BUDGET");
  const char *v = getenv("FERROZYME_CKPT_VERBOSE");
  double est = (double)(n > 0 ? n : 0) * (double)(step_tape > 0 ? step_tape : 8);
  int32_t use;
  if (!b || !*b)
    return 0;
  use = n > 1 && est > (double)strtoull(b, NULL, 10);
  if (use)
    __fz_ckpt_auto_checkpointed_loops++;
  if (v && atoi(v) > 0)
    fprintf(stderr,
            "ferrozyme: loop of %lld steps, estimated tape %.0f bytes (%lld a step), budget "
            "%s: %s\n",
            (long long)n, est, (long long)step_tape, b, use ? "checkpointed" : "taped");
  return use;
}

/* Called where the taped loop starts when __fz_ckpt_auto_use said no: it keeps that
 * path a block of its own (the taped loop's tape is reserved there, checkpoint/auto.rs)
 * and counts the loops taped in full, as __fz_ckpt_auto_checkpointed counts the others. */
__attribute__((noinline)) void __fz_ckpt_auto_taped(void) { __fz_ckpt_auto_taped_loops++; }

/* Fixed-point loops (`__enzyme_fixed_point`, checkpoint/fixed_point.rs): the loop runs
 * as written; its derivative is iterated at the state the loop ends in (the two-phase
 * adjoint: Christianson 1994). The regions are the listed states first, then the other
 * regions and the globals the step writes; `states` gives each listed state's shadow
 * (adjoint or tangent), its bytes and its element size. */
typedef struct fz_fp_state {
  void *shadow;
  uint64_t bytes;
  uint32_t elem; /* 4: float, 8: double */
  uint32_t flags;
} fz_fp_state;

typedef struct fz_fp {
  EnzymeCkptRegion *regions;
  uint64_t nregions;
  char *snap;
  int64_t last; /* the index of the last iteration */
} fz_fp;

typedef int32_t (*fz_fp_control)(double *cumul, double *reduction);

static uint64_t fz_fp_bytes(const EnzymeCkptRegion *r, uint64_t n) {
  uint64_t b = 0, k;
  for (k = 0; k < n; k++)
    b += r[k].bytes;
  return b;
}

static char *fz_fp_save(const EnzymeCkptRegion *r, uint64_t n) {
  uint64_t k, at = 0, b = fz_fp_bytes(r, n);
  char *s = (char *)malloc(b ? b : 1);
  if (!s)
    fzck_fail("out of memory for the fixed point's snapshot");
  for (k = 0; k < n; k++) {
    if (r[k].bytes)
      memcpy(s + at, r[k].ptr, r[k].bytes);
    at += r[k].bytes;
  }
  return s;
}

static void fz_fp_load(const EnzymeCkptRegion *r, uint64_t n, const char *s) {
  uint64_t k, at = 0;
  for (k = 0; k < n; k++) {
    if (r[k].bytes)
      memmove(r[k].ptr, s + at, r[k].bytes);
    at += r[k].bytes;
  }
}

static double fz_fp_elem(const void *p, uint64_t k, uint32_t elem) {
  return elem == 4 ? (double)((const float *)p)[k] : ((const double *)p)[k];
}

/* The squared 2-norm of the states' shadows, or of their change since `old`. */
static double fz_fp_norm(const fz_fp_state *st, uint64_t ns, const char *old) {
  double s = 0;
  uint64_t q, k, at = 0;
  for (q = 0; q < ns; q++) {
    uint64_t n = st[q].bytes / st[q].elem;
    for (k = 0; k < n; k++) {
      double d = fz_fp_elem(st[q].shadow, k, st[q].elem);
      if (old)
        d -= fz_fp_elem(old + at, k, st[q].elem);
      s += d * d;
    }
    at += st[q].bytes;
  }
  return s;
}

/* Whether to iterate again after `iters` iterations whose last update had squared norm
 * `norm` (the first `first`, the one before `prev`); with a control function, its
 * answer (Tapenade's protocol). Warns when the default test stops without reducing. */
static int fz_fp_again(fz_fp_control control, double reduction, int64_t max_iters,
                       int64_t iters, double norm, double first, double prev,
                       const char *what) {
  double red = reduction < 0 ? 1e-12 : reduction;
  int64_t max = max_iters < 0 ? 1000 : max_iters;
  if (control) {
    double cumul = norm;
    return control(&cumul, &red) != 0;
  }
  if (norm <= red * first)
    return 0;
  if ((iters > 5 && norm > prev) || (max > 0 && iters >= max) || norm != norm) {
    fprintf(stderr,
            "ferrozyme: __enzyme_fixed_point: the %s iteration stopped after %lld "
            "iterations without converging (squared norm of the update %g, first %g, "
            "reduction asked %g): the derivative is approximate\n",
            what, (long long)iters, norm, first, red);
    return 0;
  }
  return 1;
}

static int fz_fp_first(fz_fp_control control, double reduction) {
  double cumul = -1, red = reduction < 0 ? 1e-12 : reduction;
  return control ? control(&cumul, &red) != 0 : 1;
}

/* Reverse mode, forward sweep: the plain loop, then one snapshot of the regions. */
void *__fz_fp_forward(const EnzymeCkptRegion *regions, uint64_t nregions, fz_ckpt_step step,
                      void *env) {
  fz_fp *h = (fz_fp *)calloc(1, sizeof(fz_fp));
  int64_t i = 0;
  if (!h)
    fzck_fail("out of memory");
  while (step(i, env))
    i++;
  h->last = i;
  h->nregions = nregions;
  h->regions = (EnzymeCkptRegion *)malloc((nregions ? nregions : 1) * sizeof(EnzymeCkptRegion));
  if (!h->regions)
    fzck_fail("out of memory");
  memcpy(h->regions, regions, nregions * sizeof(EnzymeCkptRegion));
  h->snap = fz_fp_save(regions, nregions);
  return h;
}

/* Reverse mode, reverse sweep: the adjoint of one step at the converged state, again
 * and again. Each call of `grad` reads the states' adjoints as the adjoint of the step's
 * result and leaves there the part that flows into its input, while it adds into every
 * other shadow: the calls sum the Neumann series of (I - phi_z^T)^-1 term by term. */
void __fz_fp_reverse(void *handle, fz_ckpt_grad grad, void *env, const fz_fp_state *states,
                     uint64_t nstates, int64_t max_iters, double reduction, void *control) {
  fz_fp *h = (fz_fp *)handle;
  fz_fp_control ctl = (fz_fp_control)control;
  char *now = fz_fp_save(h->regions, h->nregions);
  double first = 0, prev = 0, norm;
  int64_t iters = 0;
  uint64_t q;
  int go = fz_fp_first(ctl, reduction);
  while (go) {
    fz_fp_load(h->regions, h->nregions, h->snap);
    grad(h->last, env);
    norm = fz_fp_norm(states, nstates, NULL);
    if (++iters == 1)
      first = norm;
    go = fz_fp_again(ctl, reduction, max_iters, iters, norm, first, prev, "adjoint");
    prev = norm;
  }
  for (q = 0; q < nstates; q++)
    memset(states[q].shadow, 0, states[q].bytes);
  fz_fp_load(h->regions, h->nregions, now);
  free(now);
  free(h->snap);
  free(h->regions);
  free(h);
}

/* Forward mode, after the plain loop ended at iteration `last`: the tangent of one step
 * iterated at that state from zero state tangents, s <- phi_z s + phi_x xdot. */
void __fz_fp_tangent(const EnzymeCkptRegion *regions, uint64_t nregions,
                     const fz_fp_state *states, uint64_t nstates, int64_t max_iters,
                     double reduction, void *control, int64_t last, fz_ckpt_grad tan,
                     void *env) {
  fz_fp_control ctl = (fz_fp_control)control;
  char *snap = fz_fp_save(regions, nregions);
  uint64_t q, at = 0, bytes = 0;
  char *old;
  double first = 0, prev = 0, norm;
  int64_t iters = 0;
  int go = fz_fp_first(ctl, reduction);
  for (q = 0; q < nstates; q++) {
    memset(states[q].shadow, 0, states[q].bytes);
    bytes += states[q].bytes;
  }
  old = (char *)malloc(bytes ? bytes : 1);
  if (!old)
    fzck_fail("out of memory");
  while (go) {
    for (q = 0, at = 0; q < nstates; q++) {
      memcpy(old + at, states[q].shadow, states[q].bytes);
      at += states[q].bytes;
    }
    fz_fp_load(regions, nregions, snap);
    tan(last, env);
    norm = fz_fp_norm(states, nstates, old);
    if (++iters == 1)
      first = norm;
    go = fz_fp_again(ctl, reduction, max_iters, iters, norm, first, prev, "tangent");
    prev = norm;
  }
  fz_fp_load(regions, nregions, snap);
  free(old);
  free(snap);
}

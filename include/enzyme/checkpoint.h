/* enzyme/checkpoint.h -- checkpointed time loops (Ferrozyme's implementation of
 * Enzyme's interface; the names, values and layouts are Enzyme's, the code is ours).
 *
 * The loop
 *
 *     for (int64_t i = start; i < start + n; i++) step(i, args...);
 *
 * is written
 *
 *     __enzyme_checkpoint_for((void *)step, start, n,
 *                             [enzyme_scheme, &scheme, &config,]
 *                             [enzyme_checkpoint_region, ptr, (int64_t)bytes,]...
 *                             args...);
 *
 * and `__enzyme_checkpoint_while((void *)step, ...)` is `int64_t i = 0; while (step(i++,
 * args...));`. Outside differentiated code both are the plain loop. Differentiated in
 * reverse mode, the loop's state is kept in snapshots (the marked regions and every
 * global the step may write) instead of a tape of every step: a scheme answers, action
 * by action, where to snapshot, which steps to recompute without taping and when to
 * differentiate a step (its own taping and adjoint at once: one step's tape at a time).
 *
 * The protocol is Revolve's (Griewank & Walther, ACM TOMS 26(1), Algorithm 799); the
 * action values are those of Checkpointing.jl. Steps are counted from 0 (step j runs with
 * i = start + j); the state "before step c" is the one step c starts from.
 *
 *   STORE      iteration = c, cpnum = k: save the state (before step c) into slot k
 *   RESTORE    iteration = c, cpnum = k: load slot k (the state before step c)
 *   FORWARD    startiteration = a, iteration = b: run steps a .. b-1, untaped
 *   FIRSTUTURN iteration = b: the state is before step b-1, the last one; the forward
 *              sweep ends here (the driver saves slot -2 and runs that step untaped)
 *   UTURN      iteration = b: the state is before step b-1: differentiate that step
 *   DONE       the schedule is over (the first action when n = 0)
 *
 * The driver's own slots, which store/restore (or save_state/load_state) must accept:
 * slot -2 = the state before the last step (saved at FIRSTUTURN, restored when the
 * reverse sweep starts), slot -1 = the state the reverse sweep starts from (restored at
 * DONE, so the primal state is left as the forward sweep left it).
 *
 * Reference schemes, used as `enzyme_scheme, &EnzymeCkptRevolve, &config`:
 *
 *   EnzymeCkptRevolve   binomial checkpointing with config.snapshots slots: every step
 *                       is recomputed at most r times, r the least with
 *                       C(snapshots + r, r) >= n (Griewank's bound)
 *   EnzymeCkptPeriodic  config.snapshots segments, their starts saved in the forward
 *                       sweep; the segment being reversed has every step saved
 *   EnzymeCkptStoreAll  a snapshot before every step (also for while loops)
 *
 * Without enzyme_scheme Ferrozyme uses Revolve with ceil(sqrt(n)) slots, or
 * FERROZYME_TAPE_BUDGET / (bytes of one snapshot) slots when that variable (bytes) is
 * set, and store-all for while loops.
 *
 * config.verbose: 1 prints a summary to stderr when the schedule ends, 2 also every
 * action. config.stats, if set, receives the counts. config.spill_dir: slots whose
 * offset (slot index times snapshot bytes) is past config.mem_budget go to files there.
 * Device memory (regions in another address space) is not supported: it aborts with a
 * message. set_paths is never called by Ferrozyme.
 */
#ifndef ENZYME_CHECKPOINT_H
#define ENZYME_CHECKPOINT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ENZYME_CKPT_ABI_VERSION 1

/* The action values (ENZYME_CKPT_NONE .. ENZYME_CKPT_DONE) and the schedule tags of
 * annotated loops. */
#include <enzyme/checkpoint_schedule.h>

typedef struct EnzymeCkptAction {
  int32_t flag;
  int64_t iteration;
  int64_t startiteration;
  int64_t cpnum;
} EnzymeCkptAction;

/* A piece of memory every snapshot holds. */
typedef struct EnzymeCkptRegion {
  void *ptr;
  uint64_t bytes;
  uint32_t addrspace;
  uint32_t flags;
} EnzymeCkptRegion;

typedef struct EnzymeCheckpointScheme {
  uint32_t version;
  /* nsteps = -1 for a while loop; snapshot_bytes = the bytes of all regions. */
  void *(*init)(void *data, int64_t nsteps, uint64_t snapshot_bytes);
  void (*next_action)(void *state, EnzymeCkptAction *out);
  void (*store)(void *state, int64_t slot, int64_t step,
                const EnzymeCkptRegion *regions, uint64_t nregions);
  void (*restore)(void *state, int64_t slot, int64_t step,
                  const EnzymeCkptRegion *regions, uint64_t nregions);
  /* While loops: the loop ended after nsteps steps. */
  void (*set_nsteps)(void *state, int64_t nsteps);
  void (*finalize)(void *state);
  /* Optional: the scheme saves/loads the state itself; env holds the step's arguments
   * after i, each pointer followed by its shadow in reverse mode. */
  void (*save_state)(void *state, int64_t slot, int64_t step, void *env);
  void (*load_state)(void *state, int64_t slot, int64_t step, void *env);
  void (*set_paths)(void *state, const int64_t *paths, uint64_t len);
} EnzymeCheckpointScheme;

extern int enzyme_scheme;
extern int enzyme_checkpoint_region;

void __enzyme_checkpoint_for(void *step, int64_t start, int64_t n, ...);
void __enzyme_checkpoint_while(void *step, ...);

typedef struct EnzymeCkptStats {
  int64_t forward_steps; /* steps run untaped */
  int64_t taped_steps;   /* steps differentiated */
  int64_t stores;
  int64_t restores;
  int64_t max_slots; /* slots that held a snapshot */
  uint64_t max_bytes;
} EnzymeCkptStats;

typedef struct EnzymeCkptConfig {
  int64_t snapshots; /* Revolve: slots; Periodic: segments */
  int verbose;
  const char *spill_dir;
  uint64_t mem_budget;
  EnzymeCkptStats *stats;
} EnzymeCkptConfig;

/* ---------------------------------------------------------------------------------- */
/* The reference schemes: one generator, two split policies.                          */
/*                                                                                    */
/* Reversing steps [a, b) whose start state is current (and, when b - a > 1, saved in */
/* slot k): one step is differentiated at once; otherwise run m steps untaped, save   */
/* the state before a + m in slot k + 1 (unless one step is left), reverse [a + m, b) */
/* with the slots above k, load slot k and reverse [a, a + m). The policy picks m.    */
/* Revolve with s slots (the start's included) and r the least repetition count with  */
/* C(s + r, r) >= b - a takes the largest right part C(s - 1 + r, r) allows, so both  */
/* parts keep the bound: the left one within r - 1 more repetitions and s slots, the  */
/* right one within r and s - 1 slots, since C(s+r, r) = C(s+r-1, r-1) + C(s-1+r, r). */
/* ---------------------------------------------------------------------------------- */

enum { FZCK_PERIODIC = 1, FZCK_REVOLVE = 2, FZCK_STOREALL = 3 };

typedef struct fzck_frame {
  int64_t a, b, s, slot, m;
  int phase;
} fzck_frame;

typedef struct fzck_state {
  int kind;
  const EnzymeCkptConfig *config;
  int64_t n, budget;
  fzck_frame *frames;
  int64_t depth, cap;
  EnzymeCkptAction queue[4];
  int queued, qpos;
  int started, turned;
  /* while loops: saving before every step until set_nsteps, then replaying. */
  int online, pending;
  int64_t pos, replay;
  /* snapshots: index slot + 2 */
  uint64_t bytes;
  void **mem;
  int64_t nmem;
  int64_t highest;
  EnzymeCkptStats stats;
} fzck_state;

static inline void fzck_fail(const char *msg) {
  fprintf(stderr, "enzyme checkpoint: %s\n", msg);
  abort();
}

/* C(s + r, r), saturated at UINT64_MAX / 4. */
static inline uint64_t fzck_binom(int64_t s, int64_t r) {
  uint64_t c = 1, cap = UINT64_MAX / 4;
  int64_t j;
  if (s < 0)
    return 0;
  for (j = 1; j <= r; j++) {
    if (c > cap / (uint64_t)(s + j))
      return cap;
    c = c * (uint64_t)(s + j) / (uint64_t)j;
  }
  return c;
}

static inline int64_t fzck_seg_start(const fzck_state *p, int64_t k) {
  return (int64_t)(((__int128)k * p->n) / p->budget);
}

/* Griewank's least number of untaped steps to reverse l steps with s slots (the start's
 * included): r l - C(s + r, r - 1), r the least with C(s + r, r) >= l. */
static inline int64_t fzck_cost(int64_t l, int64_t s) {
  int64_t r = 0;
  if (l <= 1)
    return 0;
  if (s <= 1)
    return l * (l - 1) / 2;
  while (fzck_binom(s, r) < (uint64_t)l)
    r++;
  return r * l - (int64_t)fzck_binom(s + 1, r - 1);
}

static inline int64_t fzck_split(const fzck_state *p, const fzck_frame *f) {
  int64_t l = f->b - f->a;
  if (p->kind == FZCK_REVOLVE) {
    int64_t r = 0, c[6], best = 1, bestcost = -1;
    int i;
    if (f->s <= 1)
      return l - 1;
    while (fzck_binom(f->s, r) < (uint64_t)l)
      r++;
    /* Optimal splits leave the left part within r - 1 repetitions and the right part
     * within r (the costs then add up to the optimum); the candidates are the ends of
     * those ranges and the extremes, the choice the one of least total cost. */
    c[0] = l - (int64_t)fzck_binom(f->s - 1, r);
    c[1] = r >= 2 ? (int64_t)fzck_binom(f->s, r - 2) + 1 : 1;
    c[2] = (int64_t)fzck_binom(f->s, r - 1);
    c[3] = l - (int64_t)fzck_binom(f->s - 1, r - 1) - 1;
    c[4] = 1;
    c[5] = l - 1;
    for (i = 0; i < 6; i++) {
      int64_t m = c[i] < 1 ? 1 : c[i] > l - 1 ? l - 1 : c[i];
      int64_t cost = m + fzck_cost(m, f->s) + fzck_cost(l - m, f->s - 1);
      if (bestcost < 0 || cost < bestcost) {
        bestcost = cost;
        best = m;
      }
    }
    return best;
  }
  if (p->kind == FZCK_PERIODIC) {
    /* a segment start whose range goes past its segment: the next segment start. */
    int64_t k = (int64_t)(((__int128)f->a * p->budget + p->budget - 1) / p->n);
    if (fzck_seg_start(p, k) == f->a && k + 1 <= p->budget) {
      int64_t next = fzck_seg_start(p, k + 1);
      if (f->b > next)
        return next - f->a;
    }
  }
  return 1;
}

static inline void fzck_emit(fzck_state *p, int32_t flag, int64_t it, int64_t start,
                             int64_t slot) {
  EnzymeCkptAction *a = &p->queue[p->queued++];
  a->flag = flag;
  a->iteration = it;
  a->startiteration = start;
  a->cpnum = slot;
}

static inline void fzck_push(fzck_state *p, int64_t a, int64_t b, int64_t s,
                             int64_t slot) {
  fzck_frame *f;
  if (p->depth == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 16;
    p->frames = (fzck_frame *)realloc(p->frames, (size_t)p->cap * sizeof(fzck_frame));
    if (!p->frames)
      fzck_fail("out of memory for the schedule");
  }
  f = &p->frames[p->depth++];
  f->a = a;
  f->b = b;
  f->s = s;
  f->slot = slot;
  f->m = 0;
  f->phase = 0;
}

/* Fills the queue with the next action(s). */
static inline void fzck_generate(fzck_state *p) {
  if (p->online) {
    if (p->pending)
      fzck_emit(p, ENZYME_CKPT_STORE, p->pos, p->pos, p->pos);
    else {
      fzck_emit(p, ENZYME_CKPT_FORWARD, p->pos + 1, p->pos, p->pos);
      p->pos++;
    }
    p->pending = !p->pending;
    return;
  }
  if (p->replay >= 0) {
    /* while loop after set_nsteps: every step's start is saved in its slot. */
    int64_t j = p->replay--;
    fzck_emit(p, ENZYME_CKPT_RESTORE, j, j, j);
    fzck_emit(p, p->turned ? ENZYME_CKPT_UTURN : ENZYME_CKPT_FIRSTUTURN, j + 1, j, j);
    p->turned = 1;
    return;
  }
  if (!p->started) {
    p->started = 1;
    if (p->n > 0) {
      if (p->n > 1)
        fzck_emit(p, ENZYME_CKPT_STORE, 0, 0, 0);
      fzck_push(p, 0, p->n, p->budget, 0);
    }
  }
  while (p->queued == 0) {
    fzck_frame *f;
    if (p->depth == 0) {
      fzck_emit(p, ENZYME_CKPT_DONE, 0, 0, -1);
      return;
    }
    f = &p->frames[p->depth - 1];
    if (f->phase == 1) {
      /* the right part is reversed: back to the start, then the left part. */
      fzck_emit(p, ENZYME_CKPT_RESTORE, f->a, f->a, f->slot);
      f->b = f->a + f->m;
      f->phase = 0;
      return;
    }
    if (f->b - f->a == 1) {
      fzck_emit(p, p->turned ? ENZYME_CKPT_UTURN : ENZYME_CKPT_FIRSTUTURN, f->b, f->a,
                f->slot);
      p->turned = 1;
      p->depth--;
      return;
    } else {
      int64_t m = fzck_split(p, f), a = f->a, b = f->b, s = f->s, k = f->slot;
      f->m = m;
      f->phase = 1;
      fzck_emit(p, ENZYME_CKPT_FORWARD, a + m, a, k);
      if (b - (a + m) > 1)
        fzck_emit(p, ENZYME_CKPT_STORE, a + m, a + m, k + 1);
      fzck_push(p, a + m, b, s - 1, k + 1);
      return;
    }
  }
}

static inline const char *fzck_flag_name(int32_t flag) {
  static const char *names[] = {"none",       "store", "restore", "forward",
                                "firstuturn", "uturn", "error",   "done"};
  return flag >= 0 && flag <= 7 ? names[flag] : "error";
}

static inline void fzck_next(void *state, EnzymeCkptAction *out) {
  fzck_state *p = (fzck_state *)state;
  if (p->qpos == p->queued) {
    p->queued = p->qpos = 0;
    fzck_generate(p);
  }
  *out = p->queue[p->qpos++];
  if (out->flag == ENZYME_CKPT_FORWARD)
    p->stats.forward_steps += out->iteration - out->startiteration;
  if (out->flag == ENZYME_CKPT_FIRSTUTURN || out->flag == ENZYME_CKPT_UTURN)
    p->stats.taped_steps++;
  if (p->config && p->config->verbose > 1)
    fprintf(stderr, "enzyme checkpoint: %s iteration=%lld start=%lld slot=%lld\n",
            fzck_flag_name(out->flag), (long long)out->iteration,
            (long long)out->startiteration, (long long)out->cpnum);
}

static inline fzck_state *fzck_new(int kind, const EnzymeCkptConfig *config, int64_t n,
                                   uint64_t bytes, int64_t budget) {
  fzck_state *p = (fzck_state *)calloc(1, sizeof(fzck_state));
  if (!p)
    fzck_fail("out of memory for the schedule");
  p->kind = kind;
  p->config = config;
  p->n = n;
  p->bytes = bytes;
  p->replay = -1;
  p->highest = -1;
  if (budget > n)
    budget = n;
  p->budget = budget < 1 ? 1 : budget;
  return p;
}

static inline void *fzck_revolve_init(void *data, int64_t n, uint64_t bytes) {
  const EnzymeCkptConfig *c = (const EnzymeCkptConfig *)data;
  if (n < 0)
    fzck_fail("Revolve needs the number of steps (use EnzymeCkptStoreAll for a while loop)");
  return fzck_new(FZCK_REVOLVE, c, n, bytes, c ? c->snapshots : 1);
}

static inline void *fzck_periodic_init(void *data, int64_t n, uint64_t bytes) {
  const EnzymeCkptConfig *c = (const EnzymeCkptConfig *)data;
  if (n < 0)
    fzck_fail("periodic checkpointing needs the number of steps (use EnzymeCkptStoreAll "
              "for a while loop)");
  return fzck_new(FZCK_PERIODIC, c, n, bytes, c ? c->snapshots : 1);
}

static inline void *fzck_store_all_init(void *data, int64_t n, uint64_t bytes) {
  fzck_state *p = fzck_new(FZCK_STOREALL, (const EnzymeCkptConfig *)data, n < 0 ? 0 : n,
                           bytes, 1);
  p->kind = FZCK_PERIODIC;
  if (n < 0) {
    p->n = -1;
    p->online = 1;
    p->pending = 1;
    p->started = 1;
  }
  return p;
}

static inline void fzck_set_nsteps(void *state, int64_t n) {
  fzck_state *p = (fzck_state *)state;
  if (!p->online)
    fzck_fail("set_nsteps of a schedule that knows its number of steps");
  p->online = 0;
  p->n = n;
  p->queued = p->qpos = 0;
  p->replay = n - 1;
}

/* ---- the snapshot store: slot k at index k + 2 ---- */

static inline int fzck_spilled(const fzck_state *p, int64_t idx) {
  return p->config && p->config->spill_dir &&
         (uint64_t)idx * p->bytes >= p->config->mem_budget;
}

static inline void fzck_path(const fzck_state *p, int64_t idx, char *buf, size_t len) {
  snprintf(buf, len, "%s/fzckpt_%p_%lld.bin", p->config->spill_dir, (const void *)p,
           (long long)idx);
}

static inline void fzck_check_host(const EnzymeCkptRegion *r, uint64_t n) {
  uint64_t i;
  for (i = 0; i < n; i++)
    if (r[i].addrspace != 0)
      fzck_fail("snapshots of device memory (a region in another address space) are not "
                "supported");
}

static inline void fzck_store(void *state, int64_t slot, int64_t step,
                              const EnzymeCkptRegion *regions, uint64_t nregions) {
  fzck_state *p = (fzck_state *)state;
  int64_t idx = slot + 2;
  uint64_t r, off = 0;
  (void)step;
  if (idx < 0)
    fzck_fail("store into a slot below -2");
  fzck_check_host(regions, nregions);
  if (idx >= p->nmem) {
    int64_t n = p->nmem ? p->nmem : 8, i;
    while (n <= idx)
      n *= 2;
    p->mem = (void **)realloc(p->mem, (size_t)n * sizeof(void *));
    if (!p->mem)
      fzck_fail("out of memory for snapshot slots");
    for (i = p->nmem; i < n; i++)
      p->mem[i] = NULL;
    p->nmem = n;
  }
  if (fzck_spilled(p, idx)) {
    char path[4096];
    FILE *f;
    fzck_path(p, idx, path, sizeof path);
    f = fopen(path, "wb");
    if (!f)
      fzck_fail("cannot open a spill file in config.spill_dir");
    for (r = 0; r < nregions; r++)
      if (fwrite(regions[r].ptr, 1, regions[r].bytes, f) != regions[r].bytes)
        fzck_fail("short write to a spill file");
    fclose(f);
    p->mem[idx] = (void *)1;
  } else {
    if (!p->mem[idx]) {
      p->mem[idx] = malloc(p->bytes ? p->bytes : 1);
      if (!p->mem[idx])
        fzck_fail("out of memory for a snapshot");
    }
    for (r = 0; r < nregions; r++) {
      memcpy((char *)p->mem[idx] + off, regions[r].ptr, regions[r].bytes);
      off += regions[r].bytes;
    }
  }
  if (slot < 0)
    return;
  p->stats.stores++;
  if (slot > p->highest) {
    p->highest = slot;
    p->stats.max_slots = slot + 1;
    p->stats.max_bytes = (uint64_t)(slot + 1) * p->bytes;
  }
}

static inline void fzck_restore(void *state, int64_t slot, int64_t step,
                                const EnzymeCkptRegion *regions, uint64_t nregions) {
  fzck_state *p = (fzck_state *)state;
  int64_t idx = slot + 2;
  uint64_t r, off = 0;
  (void)step;
  if (idx < 0 || idx >= p->nmem || !p->mem[idx])
    fzck_fail("restore of a slot that holds no snapshot");
  if (fzck_spilled(p, idx)) {
    char path[4096];
    FILE *f;
    fzck_path(p, idx, path, sizeof path);
    f = fopen(path, "rb");
    if (!f)
      fzck_fail("cannot open a spill file");
    for (r = 0; r < nregions; r++)
      if (fread(regions[r].ptr, 1, regions[r].bytes, f) != regions[r].bytes)
        fzck_fail("short read from a spill file");
    fclose(f);
  } else {
    for (r = 0; r < nregions; r++) {
      memcpy(regions[r].ptr, (char *)p->mem[idx] + off, regions[r].bytes);
      off += regions[r].bytes;
    }
  }
  if (slot >= 0)
    p->stats.restores++;
}

static inline void fzck_finalize(void *state) {
  fzck_state *p = (fzck_state *)state;
  int64_t i;
  if (p->config && p->config->verbose > 0)
    fprintf(stderr,
            "enzyme checkpoint: %lld forward steps, %lld taped steps, %lld stores, "
            "%lld restores, %lld slots (%llu bytes)\n",
            (long long)p->stats.forward_steps, (long long)p->stats.taped_steps,
            (long long)p->stats.stores, (long long)p->stats.restores,
            (long long)p->stats.max_slots, (unsigned long long)p->stats.max_bytes);
  if (p->config && p->config->stats)
    *p->config->stats = p->stats;
  for (i = 0; i < p->nmem; i++) {
    if (!p->mem[i])
      continue;
    if (fzck_spilled(p, i)) {
      char path[4096];
      fzck_path(p, i, path, sizeof path);
      remove(path);
    } else {
      free(p->mem[i]);
    }
  }
  free(p->mem);
  free(p->frames);
  free(p);
}

static const EnzymeCheckpointScheme EnzymeCkptRevolve = {
    ENZYME_CKPT_ABI_VERSION, fzck_revolve_init, fzck_next, fzck_store, fzck_restore,
    NULL, fzck_finalize, NULL, NULL, NULL};

static const EnzymeCheckpointScheme EnzymeCkptPeriodic = {
    ENZYME_CKPT_ABI_VERSION, fzck_periodic_init, fzck_next, fzck_store, fzck_restore,
    NULL, fzck_finalize, NULL, NULL, NULL};

static const EnzymeCheckpointScheme EnzymeCkptStoreAll = {
    ENZYME_CKPT_ABI_VERSION, fzck_store_all_init, fzck_next, fzck_store, fzck_restore,
    fzck_set_nsteps, fzck_finalize, NULL, NULL, NULL};

/* The scheme of an annotated loop: mode 2 binomial (Revolve), otherwise periodic. */
__attribute__((weak, used)) const EnzymeCheckpointScheme *
__enzyme_checkpoint_builtin(int64_t mode) {
  return mode == 2 ? &EnzymeCkptRevolve : &EnzymeCkptPeriodic;
}

/* ---------------------------------------------------------------------------------- */
/* The schedule without a driver: the caller keeps the snapshots and asks for actions  */
/* (mode 1 periodic, 2 Revolve, 3 store-all; budget <= 0: ceil-free sqrt(n), >= 1).    */
/* Defined where ENZYME_CHECKPOINT_RUNTIME is defined, as weak symbols. With           */
/* ENZYME_CKPT_VERBOSE=1 (2) in the environment a summary (every action) goes to       */
/* stderr.                                                                             */
/* ---------------------------------------------------------------------------------- */

void *__enzyme_ckpt_schedule_begin(int64_t mode, int64_t budget, int64_t nsteps);
int32_t __enzyme_ckpt_schedule_next(void *h);
int32_t __enzyme_ckpt_schedule_flag(void *h);
int64_t __enzyme_ckpt_schedule_iteration(void *h);
int64_t __enzyme_ckpt_schedule_start(void *h);
int64_t __enzyme_ckpt_schedule_slot(void *h);
int64_t __enzyme_ckpt_schedule_slots(void *h);
void __enzyme_ckpt_schedule_end(void *h);

#ifdef ENZYME_CHECKPOINT_RUNTIME

typedef struct fzck_schedule {
  fzck_state *state;
  EnzymeCkptConfig config;
  EnzymeCkptAction action;
  int64_t slots;
} fzck_schedule;

__attribute__((weak)) void *__enzyme_ckpt_schedule_begin(int64_t mode, int64_t budget,
                                                          int64_t nsteps) {
  fzck_schedule *s;
  const char *v = getenv("ENZYME_CKPT_VERBOSE");
  int64_t k, len;
  if (nsteps < 0)
    fzck_fail("a schedule needs the number of steps");
  if (budget < 1)
    for (budget = 1; (budget + 1) * (budget + 1) <= nsteps; budget++)
      ;
  s = (fzck_schedule *)calloc(1, sizeof(fzck_schedule));
  if (!s)
    fzck_fail("out of memory for the schedule");
  s->config.snapshots = budget;
  s->config.verbose = v ? atoi(v) : 0;
  if (mode == 2) {
    s->state = (fzck_state *)fzck_revolve_init(&s->config, nsteps, 0);
    s->slots = s->state->budget;
  } else if (mode == 1 || mode == 3) {
    s->state = (fzck_state *)(mode == 1 ? fzck_periodic_init(&s->config, nsteps, 0)
                                        : fzck_store_all_init(&s->config, nsteps, 0));
    k = s->state->budget;
    len = (nsteps + k - 1) / k;
    s->slots = k + (len > 1 ? len - 1 : 0);
  } else {
    fzck_fail("unknown built-in scheme (1 periodic, 2 Revolve, 3 store-all)");
  }
  return s;
}

__attribute__((weak)) int32_t __enzyme_ckpt_schedule_next(void *h) {
  fzck_schedule *s = (fzck_schedule *)h;
  fzck_next(s->state, &s->action);
  return s->action.flag;
}

__attribute__((weak)) int32_t __enzyme_ckpt_schedule_flag(void *h) {
  return ((fzck_schedule *)h)->action.flag;
}

__attribute__((weak)) int64_t __enzyme_ckpt_schedule_iteration(void *h) {
  return ((fzck_schedule *)h)->action.iteration;
}

__attribute__((weak)) int64_t __enzyme_ckpt_schedule_start(void *h) {
  return ((fzck_schedule *)h)->action.startiteration;
}

__attribute__((weak)) int64_t __enzyme_ckpt_schedule_slot(void *h) {
  return ((fzck_schedule *)h)->action.cpnum;
}

__attribute__((weak)) int64_t __enzyme_ckpt_schedule_slots(void *h) {
  return ((fzck_schedule *)h)->slots;
}

__attribute__((weak)) void __enzyme_ckpt_schedule_end(void *h) {
  fzck_schedule *s = (fzck_schedule *)h;
  fzck_finalize(s->state);
  free(s);
}

#endif /* ENZYME_CHECKPOINT_RUNTIME */

#ifdef __cplusplus
}
#endif

#endif /* ENZYME_CHECKPOINT_H */

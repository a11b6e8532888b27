// OPT: O0 O2
// The reference checkpointing schemes of <enzyme/checkpoint.h> (Revolve, Periodic,
// StoreAll) and the schedule-only API, driven by a simulator that plays the action
// protocol on a state that is just "the number of steps done": every FORWARD must start
// where the state is, every UTURN must find the state before the step it reverses, the
// steps must be reversed exactly once each from the last to the first, RESTORE must load
// a slot holding the state it names. Independent truths: the protocol itself, Griewank's
// bound (with s slots every step is run forward at most r times, r the least with
// C(s+r, r) >= n), the slot budget, and the counts the stats report against the
// simulator's own counts.
#define ENZYME_CHECKPOINT_RUNTIME
#include "fz_test.h"
#include <enzyme/checkpoint.h>

static int64_t binom(int64_t s, int64_t r) {
  double c = 1;
  for (int64_t j = 1; j <= r; j++)
    c = c * (double)(s + j) / (double)j;
  return (int64_t)(c + 0.5);
}

static int fails = 0;
#define BAD(...)                                                                       \
  do {                                                                                 \
    printf("MISMATCH " __VA_ARGS__);                                                   \
    printf("\n");                                                                      \
    fails++;                                                                           \
    goto out;                                                                          \
  } while (0)

// Plays the schedule; returns forward steps counted by the simulator.
static void play(const char *name, const EnzymeCheckpointScheme *sc, int64_t n,
                 int64_t snaps, int revolve) {
  EnzymeCkptStats st;
  memset(&st, 0, sizeof st);
  EnzymeCkptConfig cfg = {snaps, 0, NULL, 0, &st};
  int64_t pos = 0, slotval[4096], next_rev = n - 1, fwd = 0, *runs = calloc(n + 1, 8);
  for (int k = 0; k < 4096; k++)
    slotval[k] = -99;
  int64_t state_val = 0;
  EnzymeCkptRegion reg = {&state_val, sizeof state_val, 0, 0};
  void *s = sc->init(&cfg, n, sizeof state_val);
  EnzymeCkptAction a;
  int forward_sweep = 1;
  for (int guard = 0; guard < 10000000; guard++) {
    sc->next_action(s, &a);
    state_val = pos;
    switch (a.flag) {
    case ENZYME_CKPT_STORE:
      if (a.iteration != pos || a.cpnum < 0 || a.cpnum >= 4096)
        BAD("%s n=%lld s=%lld: store of %lld at %lld", name, (long long)n,
            (long long)snaps, (long long)a.iteration, (long long)pos);
      sc->store(s, a.cpnum, a.iteration, &reg, 1);
      slotval[a.cpnum] = pos;
      break;
    case ENZYME_CKPT_RESTORE:
      if (a.cpnum < 0 || a.cpnum >= 4096 || slotval[a.cpnum] != a.iteration)
        BAD("%s n=%lld s=%lld: restore slot %lld", name, (long long)n, (long long)snaps,
            (long long)a.cpnum);
      sc->restore(s, a.cpnum, a.iteration, &reg, 1);
      if (state_val != a.iteration)
        BAD("%s: restored state %lld, wanted %lld", name, (long long)state_val,
            (long long)a.iteration);
      pos = state_val;
      break;
    case ENZYME_CKPT_FORWARD:
      if (a.startiteration != pos || a.iteration <= pos || a.iteration > n)
        BAD("%s n=%lld s=%lld: forward %lld..%lld at %lld", name, (long long)n,
            (long long)snaps, (long long)a.startiteration, (long long)a.iteration,
            (long long)pos);
      for (int64_t j = a.startiteration; j < a.iteration; j++)
        runs[j]++;
      fwd += a.iteration - pos;
      pos = a.iteration;
      break;
    case ENZYME_CKPT_FIRSTUTURN:
    case ENZYME_CKPT_UTURN:
      if ((a.flag == ENZYME_CKPT_FIRSTUTURN) != forward_sweep)
        BAD("%s: firstuturn must come first and once", name);
      forward_sweep = 0;
      if (a.iteration - 1 != pos || pos != next_rev)
        BAD("%s n=%lld s=%lld: uturn %lld at %lld, expected step %lld", name,
            (long long)n, (long long)snaps, (long long)a.iteration, (long long)pos,
            (long long)next_rev);
      next_rev--;
      pos = a.iteration; // the step ran (taped)
      break;
    case ENZYME_CKPT_DONE:
      if (next_rev != -1)
        BAD("%s n=%lld: done with step %lld not reversed", name, (long long)n,
            (long long)next_rev);
      goto done;
    default:
      BAD("%s: action %d", name, a.flag);
    }
  }
  BAD("%s: no DONE", name);
done:
  sc->finalize(s);
  if (st.taped_steps != n || st.forward_steps != fwd)
    BAD("%s n=%lld s=%lld: stats taped %lld forward %lld (simulated %lld)", name,
        (long long)n, (long long)snaps, (long long)st.taped_steps,
        (long long)st.forward_steps, (long long)fwd);
  if (revolve) {
    int64_t sl = snaps < n ? snaps : n, r = 0;
    if (sl < 1)
      sl = 1;
    while (binom(sl, r) < n)
      r++;
    if (st.max_slots > snaps && n > 0)
      BAD("revolve n=%lld s=%lld: %lld slots", (long long)n, (long long)snaps,
          (long long)st.max_slots);
    // Griewank's minimal number of forward steps: r n - C(s + r, r - 1).
    if (n > 1 && st.forward_steps != r * n - binom(sl + 1, r - 1))
      BAD("revolve n=%lld s=%lld: %lld forward steps, optimum %lld", (long long)n,
          (long long)snaps, (long long)st.forward_steps,
          (long long)(r * n - binom(sl + 1, r - 1)));
    for (int64_t j = 0; j < n; j++)
      if (runs[j] > r)
        BAD("revolve n=%lld s=%lld: step %lld run %lld times forward, bound %lld",
            (long long)n, (long long)snaps, (long long)j, (long long)runs[j],
            (long long)r);
  }
  fz_checks++;
out:
  free(runs);
}

int main(void) {
  int64_t steps[] = {0, 1, 2, 3, 7, 20, 100, 1000};
  int64_t snaps[] = {1, 2, 3, 5, 10, 40};
  for (unsigned i = 0; i < sizeof steps / sizeof *steps; i++)
    for (unsigned j = 0; j < sizeof snaps / sizeof *snaps; j++) {
      play("revolve", &EnzymeCkptRevolve, steps[i], snaps[j], 1);
      play("periodic", &EnzymeCkptPeriodic, steps[i], snaps[j], 0);
      if (j == 0)
        play("store_all", &EnzymeCkptStoreAll, steps[i], snaps[j], 0);
    }
  // Revolve with 10 slots over 1000 steps recomputes far less than 1000 * 1000 / 2.
  {
    EnzymeCkptStats st;
    EnzymeCkptConfig cfg = {10, 0, NULL, 0, &st};
    void *s = EnzymeCkptRevolve.init(&cfg, 1000, 8);
    EnzymeCkptAction a;
    double x = 0;
    EnzymeCkptRegion reg = {&x, 8, 0, 0};
    do {
      EnzymeCkptRevolve.next_action(s, &a);
      if (a.flag == ENZYME_CKPT_STORE)
        EnzymeCkptRevolve.store(s, a.cpnum, a.iteration, &reg, 1);
    } while (a.flag != ENZYME_CKPT_DONE);
    EnzymeCkptRevolve.finalize(s);
    printf("revolve 1000 steps, 10 slots: %lld forward steps\n",
           (long long)st.forward_steps);
    // r = 4 (C(14, 4) = 1001 >= 1000): 4 * 1000 - C(14, 3) = 3636.
    fz_check("revolve(1000,10) forward steps = Griewank's optimum", st.forward_steps, 3636, 0);
  }
  // The schedule-only API visits every step once in reverse.
  for (int mode = 1; mode <= 3; mode++) {
    void *h = __enzyme_ckpt_schedule_begin(mode, 0, 50);
    int64_t last = 50, bad = 0, slots = __enzyme_ckpt_schedule_slots(h);
    int32_t f;
    while ((f = __enzyme_ckpt_schedule_next(h)) != ENZYME_CKPT_DONE) {
      if (f == ENZYME_CKPT_UTURN || f == ENZYME_CKPT_FIRSTUTURN) {
        bad += __enzyme_ckpt_schedule_iteration(h) != last;
        last--;
      }
      if ((f == ENZYME_CKPT_STORE || f == ENZYME_CKPT_RESTORE) &&
          (__enzyme_ckpt_schedule_slot(h) < 0 || __enzyme_ckpt_schedule_slot(h) >= slots))
        bad++;
    }
    __enzyme_ckpt_schedule_end(h);
    fz_check("schedule API reverses every step in order, slots in range",
             bad == 0 && last == 0, 1, 0);
  }
  if (fails)
    fz_failures += fails;
  return fz_finish();
}

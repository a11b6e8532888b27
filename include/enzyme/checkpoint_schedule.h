/* enzyme/checkpoint_schedule.h -- the schedules of loops annotated for checkpointing
 * (Ferrozyme's implementation of Enzyme's header; the names, values and layouts are
 * Enzyme's, the code is ours).
 *
 * A loop marked in the source,
 *
 *     [[enzyme::checkpoint("revolve", 3)]] for (...) { ... }
 *     __attribute__((enzyme_checkpoint("periodic", 4))) for (...) { ... }
 *     #pragma enzyme checkpoint("binomial")
 *     for (...) { ... }
 *
 * (also Reactant's `enzyme_checkpointing_enable("binomial" | "regular", budget)`), gets a
 * call `__enzyme_set_checkpointing(schedule, budget)` at the top of its body from the
 * clang plugin (`-fplugin=libferrozyme_clang.so`, also loaded by `ferrozyme cc`). In a
 * function a reverse-mode hook differentiates, the pass runs that loop checkpointed: one
 * iteration a step, the state (memory the loop writes) kept in snapshots. A budget <= 0
 * (or none: -1) means the default: floor(sqrt(n)) steps a segment for PERIODIC,
 * max(2, floor(sqrt(n))) slots for REVOLVE and BINOMIAL.
 *
 * The helpers below are the arithmetic of those schedules, for users who drive a
 * schedule themselves and for tests.
 */
#ifndef ENZYME_CHECKPOINT_SCHEDULE_H
#define ENZYME_CHECKPOINT_SCHEDULE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The schedule tags (the first argument of __enzyme_set_checkpointing). */
enum {
  ENZYME_CKPT_SCHEDULE_NONE = 0,
  ENZYME_CKPT_SCHEDULE_PERIODIC = 1,
  ENZYME_CKPT_SCHEDULE_REVOLVE = 2,
  ENZYME_CKPT_SCHEDULE_STORE_ALL = 3,
  ENZYME_CKPT_SCHEDULE_BINOMIAL = 4
};

/* The budget argument when the annotation gives none. */
#define ENZYME_CKPT_BUDGET_DEFAULT (-1)

/* The actions of a schedule (Revolve's protocol; enzyme/checkpoint.h describes them). */
#ifndef ENZYME_CKPT_ACTIONS_DEFINED
#define ENZYME_CKPT_ACTIONS_DEFINED
enum {
  ENZYME_CKPT_NONE = 0,
  ENZYME_CKPT_STORE = 1,
  ENZYME_CKPT_RESTORE = 2,
  ENZYME_CKPT_FORWARD = 3,
  ENZYME_CKPT_FIRSTUTURN = 4,
  ENZYME_CKPT_UTURN = 5,
  ENZYME_CKPT_ERROR = 6,
  ENZYME_CKPT_DONE = 7
};
#endif

/* What the clang plugin inserts; the pass consumes every call. */
void __enzyme_set_checkpointing(int64_t schedule, int64_t budget);

/* floor(sqrt(n)); 0 for n <= 0. */
static inline int64_t enzyme_ckpt_isqrt(int64_t n) {
  int64_t lo = 0, hi;
  if (n <= 0)
    return 0;
  hi = n < 3037000499LL ? n : 3037000499LL; /* hi * hi fits in int64_t */
  while (lo < hi) {
    int64_t mid = lo + (hi - lo + 1) / 2;
    if (mid * mid <= n)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/* Slots of a binomial (Revolve) schedule of n steps: the budget, or max(2, isqrt(n))
 * without one; never more than n. */
static inline int64_t enzyme_ckpt_binomial_slots(int64_t n, int64_t budget) {
  int64_t s = budget > 0 ? budget : enzyme_ckpt_isqrt(n);
  if (budget <= 0 && s < 2)
    s = 2;
  if (n > 0 && s > n)
    s = n;
  return s < 1 ? 1 : s;
}

/* C(a, b), saturated at INT64_MAX. */
static inline int64_t enzyme_ckpt_choose(int64_t a, int64_t b) {
  int64_t r = 1, i;
  if (b < 0 || b > a)
    return 0;
  if (b > a - b)
    b = a - b;
  for (i = 1; i <= b; i++) {
    /* r * (a - b + i) / i is exact: r = C(a - b + i - 1, i - 1). */
    if (r > INT64_MAX / (a - b + i))
      return INT64_MAX;
    r = r * (a - b + i) / i;
  }
  return r;
}

/* Griewank's optimal advance for n steps with s slots: how many steps to run before the
 * next snapshot. t is the smallest repetition count with C(s + t, t) >= n; any advance in
 * [n - C(s - 1 + t, t), C(s + t - 1, t - 1)] (clamped to [1, n - 1]) is optimal: the
 * midpoint, capped at n - (s - 1). 1 for n <= 2; n - 1 for one slot (s <= 1). */
static inline int64_t enzyme_ckpt_binomial_progress(int64_t n, int64_t s) {
  int64_t t = 0, lo, hi, m;
  if (n <= 2)
    return 1;
  if (s <= 1)
    return n - 1;
  while (enzyme_ckpt_choose(s + t, t) < n)
    t++;
  lo = n - enzyme_ckpt_choose(s - 1 + t, t);
  hi = t > 0 ? enzyme_ckpt_choose(s + t - 1, t - 1) : 1;
  if (lo < 1)
    lo = 1;
  if (hi > n - 1)
    hi = n - 1;
  if (hi < lo)
    hi = lo;
  m = lo + (hi - lo) / 2;
  if (m > n - (s - 1))
    m = n - (s - 1);
  return m < 1 ? 1 : m;
}

/* A periodic schedule of n steps: `outer` segments of `inner` steps, then `trailing`
 * steps (n = outer * inner + trailing). */
typedef struct EnzymeCkptPeriodicSplit {
  int64_t inner;
  int64_t outer;
  int64_t trailing;
} EnzymeCkptPeriodicSplit;

/* inner = ceil(n / budget) with a budget (segments), isqrt(n) without one (at least 1). */
static inline EnzymeCkptPeriodicSplit enzyme_ckpt_periodic_split(int64_t n, int64_t budget) {
  EnzymeCkptPeriodicSplit p;
  if (n < 0)
    n = 0;
  p.inner = budget > 0 ? (n + budget - 1) / budget : enzyme_ckpt_isqrt(n);
  if (p.inner < 1)
    p.inner = 1;
  p.outer = n / p.inner;
  p.trailing = n % p.inner;
  return p;
}

/* The number of segments (the trailing steps are one more). */
static inline int64_t enzyme_ckpt_periodic_segments(int64_t n, int64_t budget) {
  EnzymeCkptPeriodicSplit p = enzyme_ckpt_periodic_split(n, budget);
  return p.outer + (p.trailing > 0);
}

/* The first step of segment k. */
static inline int64_t enzyme_ckpt_periodic_start(int64_t n, int64_t budget, int64_t k) {
  return k * enzyme_ckpt_periodic_split(n, budget).inner;
}

/* The steps of segment k (0 past the end). */
static inline int64_t enzyme_ckpt_periodic_length(int64_t n, int64_t budget, int64_t k) {
  EnzymeCkptPeriodicSplit p = enzyme_ckpt_periodic_split(n, budget);
  if (k < 0 || k >= p.outer + (p.trailing > 0))
    return 0;
  return k < p.outer ? p.inner : p.trailing;
}

#ifdef __cplusplus
}
#endif

#endif /* ENZYME_CHECKPOINT_SCHEDULE_H */

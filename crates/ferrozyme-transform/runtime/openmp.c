/* The tapes of a differentiated parallel region (LLVM's OpenMP runtime, libomp).
 *
 * The forward sweep forks the augmented microtask: every thread of the team runs its
 * share of the region and produces its own tape, which it files under its thread number
 * here. The reverse sweep forks the reverse microtask with as many threads; thread t
 * reverses tape t (and t + team size, ... when the runtime granted fewer threads: each
 * tape holds its thread's iteration bounds, so any thread can reverse any tape, unless
 * the region synchronises with barriers, which need the same team).
 *
 * Compiled to IR by build.rs and linked into the module when a parallel region is
 * differentiated; the program is linked with libomp anyway (-fopenmp). */
#include <stddef.h>

void *calloc(size_t, size_t);
void free(void *);
void abort(void);
long write(int, const void *, size_t);
int omp_get_thread_num(void);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
double omp_get_wtime(void);
int sched_yield(void);

int omp_get_team_num(void);
int omp_get_num_teams(void);
int omp_get_max_teams(void);
int omp_get_num_procs(void);
int __kmpc_global_thread_num(void *);
void __kmpc_push_num_teams(void *, int, int, int);

typedef struct {
  int nthreads; /* the team size of the forward region (a teams region: its league's) */
  int cap;      /* slots allocated */
  int limit;    /* a teams region: the thread_limit clause's value, or 0 */
  void *tape[];
} fz_omp_tapes;

/* Did the forward region run with more than one thread (its tapes are those of the
 * microtask's derivative with atomic adjoint updates)? */
int __fz_omp_tapes_parallel(const fz_omp_tapes *t) { return t->nthreads > 1; }

static void fz_say(const char *s) {
  size_t n = 0;
  while (s[n]) n++;
  write(2, s, n);
}

/* Room for the team of the next parallel region: OMP_NUM_THREADS (or
 * omp_set_num_threads), or the region's num_threads clause when it asks for more. */
fz_omp_tapes *__fz_omp_tapes_new(int pushed) {
  int cap = omp_get_max_threads();
  if (pushed > cap) cap = pushed;
  if (cap < 1) cap = 1;
  fz_omp_tapes *t = (fz_omp_tapes *)calloc(1, sizeof(fz_omp_tapes) + (size_t)cap * sizeof(void *));
  if (!t) {
    fz_say("ferrozyme: out of memory for the tapes of a parallel region\n");
    abort();
  }
  t->cap = cap;
  return t;
}

/* Called by every thread of the forward region with its tape. */
void __fz_omp_tapes_put(fz_omp_tapes *t, void *tape) {
  int tid = omp_get_thread_num();
  if (tid < 0 || tid >= t->cap) {
    fz_say("ferrozyme: a parallel region ran with more threads than it was prepared for\n");
    abort();
  }
  t->tape[tid] = tape;
  if (tid == 0) t->nthreads = omp_get_num_threads();
}

int __fz_omp_tapes_count(const fz_omp_tapes *t) { return t->nthreads; }

void *__fz_omp_tapes_get(const fz_omp_tapes *t, int k) { return t->tape[k]; }

/* The reverse region must have the forward team when the region has barriers or
 * critical sections (a thread reversing two tapes would wait at a barrier for itself, or
 * for the turn of its own later critical section). */
void __fz_omp_check_team(const fz_omp_tapes *t, int same_team) {
  if (same_team && omp_get_num_threads() != t->nthreads) {
    fz_say("ferrozyme: the reverse of a parallel region with barriers or critical sections "
           "got a different number of threads than the forward region (set "
           "OMP_DYNAMIC=false and leave OMP_THREAD_LIMIT unset)\n");
    abort();
  }
}

void __fz_omp_tapes_free(fz_omp_tapes *t) { free(t); }

/* ---- host teams regions (`__kmpc_fork_teams`) -------------------------------------
 *
 * The teams' microtask runs once per team, on the team's initial thread, which is thread
 * 0 of its team: the tapes are filed by team number, and the reverse region is a league
 * of as many teams (its num_teams and thread_limit pushed again). A team's own parallel
 * regions keep their tapes by thread number inside the team's derivative. */
fz_omp_tapes *__fz_omp_teams_new(int pushed, int limit) {
  int cap = omp_get_max_teams();
  if (pushed > cap) cap = pushed;
  if (omp_get_num_procs() > cap) cap = omp_get_num_procs();
  if (omp_get_max_threads() > cap) cap = omp_get_max_threads();
  fz_omp_tapes *t = __fz_omp_tapes_new(cap);
  t->limit = limit;
  return t;
}

/* Called by every team of the forward league with its tape. */
void __fz_omp_teams_put(fz_omp_tapes *t, void *tape) {
  int team = omp_get_team_num();
  if (team < 0 || team >= t->cap) {
    fz_say("ferrozyme: a teams region ran with more teams than it was prepared for\n");
    abort();
  }
  t->tape[team] = tape;
  if (team == 0) t->nthreads = omp_get_num_teams();
}

/* Before the reverse league is forked: the forward league's size and thread limit. */
void __fz_omp_teams_push(void *loc, const fz_omp_tapes *t) {
  __kmpc_push_num_teams(loc, __kmpc_global_thread_num(loc), t->nthreads, t->limit);
}

/* Each reverse team reverses its own forward team's tape: a team's parallel regions may
 * synchronise, and its critical sections take turns, which one team reversing two tapes
 * one after the other could wait on forever. */
void __fz_omp_check_league(const fz_omp_tapes *t, int same_team) {
  (void)same_team;
  if (omp_get_num_teams() != t->nthreads) {
    fz_say("ferrozyme: the reverse of a teams region got a different number of teams than "
           "the forward region (leave OMP_NUM_TEAMS, OMP_TEAMS_THREAD_LIMIT and "
           "OMP_THREAD_LIMIT as they were for the forward call)\n");
    abort();
  }
}

/* ---- critical sections in reverse order ------------------------------------------
 *
 * A critical section's update may depend on the order threads went through it
 * (`p = p * f`, `if (f > m) m = f`): its adjoint reads and writes the shared adjoints in
 * an order that must be the exact reverse. The forward sweep takes a ticket inside each
 * section (how many sections were entered before it); the reverse of the section waits
 * until every section with a later ticket has been reversed, then gives its turn back.
 * The count is global: tickets of different sections and regions interleave in one
 * order, which each thread's reverse visits backwards, so no thread waits for one that
 * waits for it. (A reverse team smaller than its forward team, where one thread would reverse
 * two tapes and wait for itself, is stopped at the start of the reverse region by
 * __fz_omp_check_team; the derivative running concurrently in threads the program
 * created could still wait without end: that stops the program after FZ_TURN_WAIT_S.) */
/* `*p += v` for a `long double` (x86_fp80) adjoint that the threads of a reverse team
 * share: x86-64 has no atomic add of an 80-bit float (LLVM would call libatomic's 16-byte
 * compare-and-swap, which programs do not link), so these additions take one spin lock.
 * Only the reverse sweep's adjoint accumulations into `long double` memory that several
 * threads read come here (`reverse/parallel.rs`, `mem_add_atomic`). */
static char fz_fp80_lock;

void __fz_omp_add_fp80(long double *p, long double v) {
  while (__atomic_test_and_set(&fz_fp80_lock, __ATOMIC_ACQUIRE)) sched_yield();
  *p += v;
  __atomic_clear(&fz_fp80_lock, __ATOMIC_RELEASE);
}

static long fz_critical_taken;

#define FZ_TURN_WAIT_S 300.0

long __fz_omp_critical_ticket(void) {
  return __atomic_fetch_add(&fz_critical_taken, 1, __ATOMIC_ACQ_REL);
}

/* Whether this thread is inside the reverse of a section: sections nested in each other
 * (a critical section inside another, or inside an ordered region) would wait for a turn
 * the enclosing one holds, so they stop the program at once. */
static __thread int fz_in_turn;

void __fz_omp_critical_turn(long ticket) {
  if (fz_in_turn) {
    fz_say("ferrozyme: the reverse of nested OpenMP critical sections (a critical section, "
           "ordered region or lock inside another) is not supported; merge the nested "
           "sections into one\n");
    abort();
  }
  fz_in_turn = 1;
  double start = -1;
  while (__atomic_load_n(&fz_critical_taken, __ATOMIC_ACQUIRE) != ticket + 1) {
    if (start < 0) {
      start = omp_get_wtime();
    } else if (omp_get_wtime() - start > FZ_TURN_WAIT_S) {
      fz_say("ferrozyme: the reverse of an OpenMP critical section waited for its turn for "
             "300 s (the derivative runs concurrently in threads the program created, "
             "whose critical sections interleave)\n");
      abort();
    }
    sched_yield();
  }
}

void __fz_omp_critical_done(void) {
  fz_in_turn = 0;
  __atomic_fetch_sub(&fz_critical_taken, 1, __ATOMIC_RELEASE);
}

/* ---- doacross loops in reverse order ---------------------------------------------
 *
 * `for ordered(n)` with `ordered depend(sink: ...)` (__kmpc_doacross_wait, one call per
 * sink vector) and `ordered depend(source)` (__kmpc_doacross_post): an iteration runs
 * the part after its waits once the iterations it names have posted. The post takes a
 * critical-section ticket, so every iteration waited for has a smaller ticket than the
 * one that waited; the reverse of the part from the first wait to the post takes its turn
 * like a critical section (every later ticket reversed first), which reverses every
 * dependence (the adjoints the later iterations add into what they read are complete
 * before the earlier iteration's reverse reads them). The first wait of an iteration is
 * told from the others by a per-thread count of the waits since the thread's last post;
 * an iteration that waited for nothing (its post alone) gives its turn back at once. */
static __thread long fz_doacross_waits;

long __fz_omp_doacross_wait_mark(void) { return fz_doacross_waits++ == 0; }

long __fz_omp_doacross_post_ticket(void) {
  long waited = fz_doacross_waits != 0;
  fz_doacross_waits = 0;
  return 2 * __fz_omp_critical_ticket() + waited;
}

void __fz_omp_doacross_turn(long code) {
  __fz_omp_critical_turn(code >> 1);
  if (!(code & 1)) __fz_omp_critical_done();
}

void __fz_omp_doacross_unwait(long first) {
  if (first) __fz_omp_critical_done();
}

/* ---- threadprivate data ----------------------------------------------------------
 *
 * flang (and clang with -fnoopenmp-use-tls) reach a threadprivate variable through
 * __kmpc_threadprivate_cached(loc, gtid, &var, size, &cache), which gives each thread its
 * own copy (the initial thread the variable itself). The derivative reaches the shadow
 * the same way, with the shadow global in place of the variable and a cache of its own
 * (`custom/threadprivate.rs`), so every thread has its own shadow copy, made by libomp
 * under the same rules as the primal copy.
 *
 * Shadows of globals start from zero in every top-level derivative call; the top-level
 * call zeroes the shadow globals, but the other threads' copies live in libomp. So each
 * top-level call starts a new epoch (__fz_omp_tp_new_epoch), and a thread zeroes its copy
 * of a shadow the first time it reaches it in an epoch; the epochs it has seen are kept
 * per thread, by shadow variable. */
void *__kmpc_threadprivate_cached(void *loc, int gtid, void *data, size_t size, void ***cache);
void *memset(void *, int, size_t);

#define FZ_TP_VARS 256

static long fz_tp_epoch = 1;

static __thread struct {
  void *shadow;
  long epoch;
} fz_tp_seen[FZ_TP_VARS];

void __fz_omp_tp_new_epoch(void) { __atomic_fetch_add(&fz_tp_epoch, 1, __ATOMIC_RELAXED); }

/* Zeroes `copy` (a thread's shadow copy, `size` bytes) the first time the calling thread
 * reaches it, keyed by `key`, in the current epoch; returns it. */
static void *__fz_omp_tp_first_touch(void *key, char *copy, size_t size) {
  long now = __atomic_load_n(&fz_tp_epoch, __ATOMIC_RELAXED);
  for (int k = 0; k < FZ_TP_VARS; k++) {
    if (fz_tp_seen[k].shadow && fz_tp_seen[k].shadow != key) continue;
    if (fz_tp_seen[k].epoch != now) {
      memset(copy, 0, size);
      fz_tp_seen[k].shadow = key;
      fz_tp_seen[k].epoch = now;
    }
    return copy;
  }
  fz_say("ferrozyme: more than 256 threadprivate variables with derivatives in one thread\n");
  abort();
  return 0;
}

void *__fz_omp_tp_shadow(void *loc, int gtid, void *shadow, size_t size, void ***cache) {
  if (!shadow) return 0; /* a variable without a shadow (integers): no derivative */
  return __fz_omp_tp_first_touch(shadow, __kmpc_threadprivate_cached(loc, gtid, shadow, size, cache), size);
}

/* clang's default lowering of threadprivate data (and `_Thread_local` data in a module
 * with parallel regions): `dcopy` is the calling thread's copy of the thread-local shadow
 * global (`custom/threadprivate.rs`, the rule of __fz_omp_tls_copy), zeroed the first
 * time the thread reaches it in an epoch as above. */
void *__fz_omp_tls_shadow(void *dcopy, size_t size) {
  if (!dcopy) return 0;
  return __fz_omp_tp_first_touch(dcopy, dcopy, size);
}

// OPT: O0 O2
// VARIANTS: all
// audit32: the lost-store audit's holes where memory *with* a shadow (or a shadow the pass
// gives it) carries the derivative from a writing call to a later reading call. These must
// differentiate, and must not be refused by the refusals for memory without one
// (errors/lost_store_through_global_pointer.c, lost_store_through_local_struct.c,
// lost_store_indirect_reader.c, lost_store_indirect_writer.c, lost_store_external_reader.c):
//  a) a global array written by one call and read by another;
//  b) a global pointer to memory `malloc`ed by the writer;
//  c) a local struct passed by address whose pointer field holds memory allocated in the
//     differentiated function (a shadow): the writer and the reader reach it through `c.s`;
//  d) a global pointer set to a work buffer passed with enzyme_dup;
//  e) a local struct holding a constant table (enzyme_const) next to a buffer with a shadow:
//     the writer reads the table and writes active values into the buffer, the reader reads
//     the table and the buffer, and a write-only log without a shadow is never read back
//     (written by another call, given the values);
//  f) a reader called through a function pointer that reads the constants, not the caches,
//     of a tree the writer cached active values in (memory without a shadow, never read back).
// Oracle: central finite differences of the same function.
#include "fz_test.h"

// a) global array
static double g_buf[4];
__attribute__((noinline)) static void fill_a(const double *x) {
  g_buf[0] = sin(x[0]);
  g_buf[1] = x[0] * x[1];
  g_buf[2] = exp(x[1]);
}
__attribute__((noinline)) static double rd_a(void) { return g_buf[0] * g_buf[1] + g_buf[2]; }
static double loss_a(const double *x) {
  fill_a(x);
  return rd_a();
}

// b) global pointer to memory the writer allocates
static double *g_heap;
__attribute__((noinline)) static void fill_b(const double *x) {
  g_heap = malloc(4 * sizeof(double));
  g_heap[0] = cos(x[0]);
  g_heap[1] = x[0] * x[1] * x[1];
  g_heap[2] = x[1] / (1.0 + x[0] * x[0]);
}
__attribute__((noinline)) static double rd_b(void) { return g_heap[0] * g_heap[2] + g_heap[1]; }
static double loss_b(const double *x) {
  fill_b(x);
  double r = rd_b();
  free(g_heap);
  return r;
}

// c) local struct, pointer field to memory allocated here
typedef struct {
  double *s;
  double scale;
} ctx;
__attribute__((noinline)) static void fill_c(ctx *c, const double *x) {
  c->s[0] = sin(x[0]) * x[1];
  c->s[1] = exp(0.5 * x[0]);
}
__attribute__((noinline)) static double rd_c(const ctx *c) {
  return c->scale * (c->s[0] + c->s[0] * c->s[1]);
}
static double loss_c(const double *x) {
  ctx c;
  c.s = malloc(2 * sizeof(double));
  c.scale = 1.5;
  fill_c(&c, x);
  double r = rd_c(&c);
  free(c.s);
  return r;
}

// d) global pointer to an enzyme_dup work buffer
static double *g_work;
__attribute__((noinline)) static void fill_d(const double *x) {
  g_work[0] = x[0] * x[0] - x[1];
  g_work[1] = tanh(x[1]);
}
__attribute__((noinline)) static double rd_d(void) { return g_work[0] * g_work[1]; }
static double loss_d(const double *x, double *work) {
  g_work = work;
  fill_d(x);
  return rd_d();
}

// e) a struct with a constant table, a buffer with a shadow and a write-only log
typedef struct {
  const double *table; // enzyme_const
  double *buf;         // allocated here
  double *log;         // enzyme_const, only written
} ectx;
__attribute__((noinline)) static void fill_e(ectx *c, const double *x) {
  c->buf[0] = c->table[0] * sin(x[0]) + c->table[1] * x[1];
  c->buf[1] = c->table[2] * x[0] * x[1];
}
// Given the values, not reading them through the struct: a function that reads active data
// through a struct holding a constant pointer and writes active values through that pointer
// is stopped at run time (runtime activity's check, common/runtime_activity.rs), even when
// nothing reads those values back.
__attribute__((noinline)) static void log_e(ectx *c, double v0, double v1) {
  c->log[0] = v0;
  c->log[1] = v1;
}
__attribute__((noinline)) static double rd_e(const ectx *c) {
  return c->table[3] * c->buf[0] * c->buf[0] + c->buf[1];
}
static double loss_e(const double *table, const double *x, double *log) {
  ectx c;
  c.table = table;
  c.buf = malloc(2 * sizeof(double));
  c.log = log;
  fill_e(&c, x);
  log_e(&c, c.buf[0], c.buf[1]);
  double r = rd_e(&c);
  free(c.buf);
  return r;
}

// f) an indirect reader of the constants of a tree whose caches hold active values
typedef struct node {
  double c, val;
  struct node *l, *r;
} node;
__attribute__((noinline)) static node *pick(node *const *trees, int k) { return trees[k]; }
__attribute__((noinline)) static double eval_f(node *n, const double *x) {
  double v = n->l ? eval_f(n->l, x) * eval_f(n->r, x) : n->c * x[n->c > 1.0];
  n->val = v;
  return v;
}
__attribute__((noinline)) static double sum_consts(const node *n) {
  return n ? n->c + sum_consts(n->l) + sum_consts(n->r) : 0;
}
__attribute__((noinline)) static double count_nodes(const node *n) {
  return n ? 1 + count_nodes(n->l) + count_nodes(n->r) : 0;
}
typedef double (*reader_fn)(const node *);
static reader_fn readers[2] = {sum_consts, count_nodes};
static volatile int which = 0;
static double loss_f(node *const *trees, const double *x) {
  node *t = pick(trees, 1);
  double v = eval_f(t, x);
  reader_fn rd = readers[which];
  return v * rd(t);
}

static double TABLE[4] = {0.5, -1.25, 2.0, 0.75};
static double LOG[2];
static node LEAF0 = {0.5, 0, 0, 0}, LEAF1 = {2.5, 0, 0, 0};
static node ROOT = {0.0, 0, &LEAF0, &LEAF1};
static node *TREES[2] = {&LEAF0, &ROOT};
static double WORK[2];

static double fd_a(void *p) { return loss_a(p); }
static double fd_b(void *p) { return loss_b(p); }
static double fd_c(void *p) { return loss_c(p); }
static double fd_d(void *p) { return loss_d(p, WORK); }
static double fd_e(void *p) { return loss_e(TABLE, p, LOG); }
static double fd_f(void *p) { return loss_f(TREES, p); }

static void check(const char *name, double (*fd)(void *), const double *dx, const double *x0) {
  double x[2] = {x0[0], x0[1]}, g[2];
  fz_fd_grad(fd, x, x, 2, g);
  char buf[64];
  for (int i = 0; i < 2; i++) {
    snprintf(buf, sizeof buf, "%s dx[%d]", name, i);
    fz_check(buf, dx[i], g[i], 1e-6);
  }
}

int main(void) {
  const double x[2] = {0.7, -0.4};
  double xx[2], dx[2];
#define RESET() (xx[0] = x[0], xx[1] = x[1], dx[0] = dx[1] = 0)
  RESET();
  __enzyme_autodiff((void *)loss_a, enzyme_dup, xx, dx);
  check("a global array", fd_a, dx, x);
  RESET();
  __enzyme_autodiff((void *)loss_b, enzyme_dup, xx, dx);
  check("b global heap pointer", fd_b, dx, x);
  RESET();
  __enzyme_autodiff((void *)loss_c, enzyme_dup, xx, dx);
  check("c local struct", fd_c, dx, x);
  RESET();
  double dwork[2] = {0};
  __enzyme_autodiff((void *)loss_d, enzyme_dup, xx, dx, enzyme_dup, WORK, dwork);
  check("d global dup buffer", fd_d, dx, x);
  RESET();
  __enzyme_autodiff((void *)loss_e, enzyme_const, TABLE, enzyme_dup, xx, dx, enzyme_const, LOG);
  check("e const table and log", fd_e, dx, x);
  RESET();
  __enzyme_autodiff((void *)loss_f, enzyme_const, TREES, enzyme_dup, xx, dx);
  check("f indirect reader of constants", fd_f, dx, x);
  return fz_finish();
}

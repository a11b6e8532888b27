/* Run-time gradient checks for `ferrozyme cc --check-gradients`.
 *
 * ferrozyme cc compiles this file with the program and links it in; the pass surrounds
 * every checked `__enzyme_autodiff` / `__enzyme_fwddiff` call with calls to the functions
 * below. They snapshot the inputs before the derivative call, then compare the derivative
 * with central finite differences of the function along random directions (reverse mode)
 * or along the caller's tangent (forward mode), re-running the function through an
 * evaluator the pass generates, and print a warning naming the call site when they
 * disagree. Afterwards every duplicated buffer holds exactly what the derivative call left
 * there, and the function is re-run once on the original inputs so that outputs it writes
 * elsewhere are restored too.
 *
 * Environment: FERROZYME_CHECK_GRADIENTS=0 disables the checks at run time;
 * FERROZYME_CHECK_GRADIENTS=verbose also reports checks that pass; =strict exits with
 * status 86 at the first failure (for test suites).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FZ_GC_MAX = 64, FZ_GC_DIRS = 3 };

typedef struct {
  long off;  /* byte offset of the scalar in the argument block */
  int kind;  /* 1 double, 2 float, 3 long double (x86_fp80) */
  double d;  /* reverse: returned adjoint; forward: the caller's tangent */
  long double x0; /* kind 3: the value before the check, in full precision */
} fz_gc_scalar;

typedef struct {
  void *p, *s; /* primal and shadow */
  long bytes;
  int kind;    /* 1 double, 2 float */
  void *x0, *s0, *x1, *s1;
} fz_gc_mem;

/* Memory the function may change that is not differentiated (constant buffers, global
 * variables): put back before every evaluation and after the check. */
typedef struct {
  void *p;
  long bytes;
  void *k0, *k1;
} fz_gc_keep;

typedef struct {
  const char *where;
  double (*eval)(void *);
  void *args;
  int nsc, nmem, nkeep;
  fz_gc_scalar sc[FZ_GC_MAX];
  fz_gc_mem mem[FZ_GC_MAX];
  fz_gc_keep keep[FZ_GC_MAX];
  int off;        /* disabled at run time, or too many arguments */
  int overlap;    /* buffers overlap: not checkable */
} fz_gc;

static int fz_gc_mode(void) {
  const char *e = getenv("FERROZYME_CHECK_GRADIENTS");
  if (!e) return 1;
  if (!strcmp(e, "0") || !strcmp(e, "off")) return 0;
  if (!strcmp(e, "verbose")) return 2;
  if (!strcmp(e, "strict")) return 3;
  return 1;
}

void *__fz_gc_new(const char *where, double (*eval)(void *), void *args) {
  fz_gc *h = (fz_gc *)calloc(1, sizeof(fz_gc));
  if (!h) return 0;
  h->where = where;
  h->eval = eval;
  h->args = args;
  h->off = fz_gc_mode() == 0;
  return h;
}

void __fz_gc_scalar(void *hv, long off, int kind, double d) {
  fz_gc *h = (fz_gc *)hv;
  if (!h || h->nsc >= FZ_GC_MAX) {
    if (h) h->off = 1;
    return;
  }
  h->sc[h->nsc].off = off;
  h->sc[h->nsc].kind = kind;
  h->sc[h->nsc].d = d;
  h->nsc++;
}

void __fz_gc_mem(void *hv, void *p, void *s, long bytes, int kind) {
  fz_gc *h = (fz_gc *)hv;
  if (!h || h->nmem >= FZ_GC_MAX || bytes < 0) {
    if (h) h->off = 1;
    return;
  }
  fz_gc_mem *m = &h->mem[h->nmem++];
  m->p = p;
  m->s = s;
  m->bytes = bytes;
  m->kind = kind;
}

void __fz_gc_keep(void *hv, void *p, long bytes) {
  fz_gc *h = (fz_gc *)hv;
  if (!h || h->nkeep >= FZ_GC_MAX || bytes <= 0) return;
  h->keep[h->nkeep].p = p;
  h->keep[h->nkeep].bytes = bytes;
  h->nkeep++;
}

static int fz_gc_overlaps(const void *a, long na, const void *b, long nb) {
  const char *x = (const char *)a, *y = (const char *)b;
  return na > 0 && nb > 0 && x < y + nb && y < x + na;
}

static void *fz_gc_dup(const void *p, long n) {
  void *q = malloc(n > 0 ? (size_t)n : 1);
  if (q && n > 0) memcpy(q, p, (size_t)n);
  return q;
}

/* Before the derivative call: snapshot inputs and shadows. */
void __fz_gc_begin(void *hv) {
  fz_gc *h = (fz_gc *)hv;
  if (!h || h->off) return;
  /* The same memory registered twice (aliased arguments) cannot be perturbed
   * consistently: such calls are not checked. Constant buffers may overlap each other. */
  for (int a = 0; a < h->nmem; a++) {
    for (int b = 0; b < h->nmem; b++) {
      if (a != b && (fz_gc_overlaps(h->mem[a].p, h->mem[a].bytes, h->mem[b].p, h->mem[b].bytes) ||
                     fz_gc_overlaps(h->mem[a].s, h->mem[a].bytes, h->mem[b].s, h->mem[b].bytes)))
        h->overlap = 1;
    }
    for (int b = 0; b < h->nkeep; b++)
      if (fz_gc_overlaps(h->mem[a].p, h->mem[a].bytes, h->keep[b].p, h->keep[b].bytes))
        h->overlap = 1;
  }
  if (h->overlap) {
    if (fz_gc_mode() == 2)
      fprintf(stderr, "ferrozyme: gradient check skipped at %s: arguments share memory\n",
              h->where);
    h->off = 1;
    return;
  }
  for (int k = 0; k < h->nmem; k++) {
    fz_gc_mem *m = &h->mem[k];
    m->x0 = fz_gc_dup(m->p, m->bytes);
    m->s0 = fz_gc_dup(m->s, m->bytes);
  }
  for (int k = 0; k < h->nkeep; k++) h->keep[k].k0 = fz_gc_dup(h->keep[k].p, h->keep[k].bytes);
}

/* The adjoint (reverse) or tangent (forward) of scalar number k. */
void __fz_gc_set(void *hv, int k, double d) {
  fz_gc *h = (fz_gc *)hv;
  if (h && k < h->nsc) h->sc[k].d = d;
}

static long fz_gc_len(const fz_gc_mem *m) { return m->bytes / (m->kind == 2 ? 4 : 8); }

static double fz_gc_get(const void *p, int kind, long i) {
  return kind == 2 ? (double)((const float *)p)[i] : ((const double *)p)[i];
}

static void fz_gc_put(void *p, int kind, long i, double v) {
  if (kind == 2)
    ((float *)p)[i] = (float)v;
  else
    ((double *)p)[i] = v;
}

static double fz_gc_arg(fz_gc *h, int k) {
  char *a = (char *)h->args + h->sc[k].off;
  if (h->sc[k].kind == 3) return (double)*(long double *)a;
  return h->sc[k].kind == 2 ? (double)*(float *)a : *(double *)a;
}

/* Scalar k set to base + delta (base: sc0[k]; a long double's own x0, so that the
 * unperturbed runs see exactly the caller's value). */
static void fz_gc_set_arg(fz_gc *h, int k, double base, double delta) {
  char *a = (char *)h->args + h->sc[k].off;
  double v = base + delta;
  if (h->sc[k].kind == 3)
    *(long double *)a = h->sc[k].x0 + (long double)delta;
  else if (h->sc[k].kind == 2)
    *(float *)a = (float)v;
  else
    *(double *)a = v;
}

static unsigned long long fz_gc_rng = 0x2545F4914F6CDD1Dull;
static double fz_gc_uniform(void) {
  fz_gc_rng ^= fz_gc_rng << 13;
  fz_gc_rng ^= fz_gc_rng >> 7;
  fz_gc_rng ^= fz_gc_rng << 17;
  return (double)(fz_gc_rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* Sets the inputs to x0 + t*dir (scalars: base values sc0) and runs the function;
 * returns its result plus sum_k <w_k, memory_k afterwards> when w is given, and leaves
 * the memory after the run in place. */
static double fz_gc_run(fz_gc *h, const double *sc0, double t, const double *dsc,
                        double *const *dmem, double *const *w) {
  for (int k = 0; k < h->nsc; k++) fz_gc_set_arg(h, k, sc0[k], t * dsc[k]);
  for (int k = 0; k < h->nkeep; k++)
    if (h->keep[k].k0) memcpy(h->keep[k].p, h->keep[k].k0, (size_t)h->keep[k].bytes);
  for (int k = 0; k < h->nmem; k++) {
    fz_gc_mem *m = &h->mem[k];
    memcpy(m->p, m->x0, (size_t)m->bytes);
    if (dmem)
      for (long i = 0; i < fz_gc_len(m); i++)
        fz_gc_put(m->p, m->kind, i, fz_gc_get(m->x0, m->kind, i) + t * dmem[k][i]);
  }
  double r = h->eval(h->args);
  if (w)
    for (int k = 0; k < h->nmem; k++)
      for (long i = 0; i < fz_gc_len(&h->mem[k]); i++)
        if (!isnan(w[k][i])) r += w[k][i] * fz_gc_get(h->mem[k].p, h->mem[k].kind, i);
  return r;
}

static int fz_gc_is_float(const fz_gc *h) {
  for (int k = 0; k < h->nsc; k++)
    if (h->sc[k].kind == 2) return 1;
  for (int k = 0; k < h->nmem; k++)
    if (h->mem[k].kind == 2) return 1;
  return 0;
}

static double fz_gc_scale(const fz_gc *h, const double *sc0) {
  double s = 1.0;
  for (int k = 0; k < h->nsc; k++) s = fmax(s, fabs(sc0[k]));
  for (int k = 0; k < h->nmem; k++)
    for (long i = 0; i < fz_gc_len(&h->mem[k]); i++)
      s = fmax(s, fabs(fz_gc_get(h->mem[k].x0, h->mem[k].kind, i)));
  return s;
}

/* `noise`: how much two finite differences with different steps disagree (rounding in
 * float arithmetic inside the function, say); it widens the tolerance. */
static void fz_gc_report(fz_gc *h, int mode, const char *what, double ad, double fd,
                         double fd2, double tol) {
  /* fd2: the same difference with a 64 times larger step. When the two disagree the
   * function is not smooth enough at this scale (float arithmetic inside, say) and the
   * derivative passes if it is close to either. */
  if (isnan(fd) || isnan(fd2)) {
    if (mode == 2)
      fprintf(stderr, "ferrozyme: gradient check inconclusive at %s: %s: the function is not "
                      "defined (NaN) near these inputs\n", h->where, what);
    return;
  }
  double noise = fabs(fd - fd2);
  double err = fmin(fabs(ad - fd), fabs(ad - fd2)), mag = fmax(fabs(ad), fabs(fd));
  int bad = !(err <= tol * fmax(mag, 1e-6) + noise);
  if (bad)
    fprintf(stderr,
            "ferrozyme: gradient check FAILED at %s: %s: derivative %.10g, finite "
            "differences %.10g (relative error %.2g, tolerance %.1g)\n",
            h->where, what, ad, fd, err / fmax(mag, 1e-300), tol);
  if (bad && mode == 3) exit(86);
  if (!bad && mode == 2)
    fprintf(stderr, "ferrozyme: gradient check passed at %s: %s: %.10g vs %.10g\n", h->where,
            what, ad, fd);
}

static void fz_gc_finish(fz_gc *h, const double *sc0) {
  /* Re-run on the original inputs (restores outputs the function writes elsewhere),
   * then put back what the derivative call left in the duplicated buffers. */
  double zero[FZ_GC_MAX] = {0};
  fz_gc_run(h, sc0, 0.0, zero, 0, 0);
  for (int k = 0; k < h->nkeep; k++) {
    if (h->keep[k].k1) memcpy(h->keep[k].p, h->keep[k].k1, (size_t)h->keep[k].bytes);
    free(h->keep[k].k0);
    free(h->keep[k].k1);
  }
  for (int k = 0; k < h->nmem; k++) {
    fz_gc_mem *m = &h->mem[k];
    memcpy(m->p, m->x1, (size_t)m->bytes);
    memcpy(m->s, m->s1, (size_t)m->bytes);
    free(m->x0);
    free(m->s0);
    free(m->x1);
    free(m->s1);
  }
  free(h);
}

static int fz_gc_prepare(fz_gc *h, double *sc0) {
  for (int k = 0; k < h->nmem; k++) {
    fz_gc_mem *m = &h->mem[k];
    m->x1 = fz_gc_dup(m->p, m->bytes);
    m->s1 = fz_gc_dup(m->s, m->bytes);
    if (!m->x0 || !m->s0 || !m->x1 || !m->s1) return 0;
  }
  for (int k = 0; k < h->nkeep; k++) {
    h->keep[k].k1 = fz_gc_dup(h->keep[k].p, h->keep[k].bytes);
    if (!h->keep[k].k0 || !h->keep[k].k1) return 0;
  }
  for (int k = 0; k < h->nsc; k++) {
    sc0[k] = fz_gc_arg(h, k);
    if (h->sc[k].kind == 3) h->sc[k].x0 = *(long double *)((char *)h->args + h->sc[k].off);
  }
  return 1;
}

/* Whether an end hook has something to check: not when there is no state, checking
 * is off or the copies cannot be made (then `h` is released here). */
static int fz_gc_start(fz_gc *h, double *sc0) {
  if (!h) return 0;
  if (h->off) {
    free(h);
    return 0;
  }
  if (!fz_gc_prepare(h, sc0)) {
    fz_gc_finish(h, sc0);
    return 0;
  }
  return 1;
}

/* After a reverse-mode call: for random directions v, <gradient, v> against the central
 * difference of L(x) = f(x) + sum_k <seed_k, memory_k after f>, where seed_k is what the
 * shadow held before the call. */
void __fz_gc_end_reverse(void *hv) {
  fz_gc *h = (fz_gc *)hv;
  double sc0[FZ_GC_MAX], dsc[FZ_GC_MAX];
  double *dmem[FZ_GC_MAX], *w[FZ_GC_MAX];
  if (!fz_gc_start(h, sc0)) return;
  int mode = fz_gc_mode();
  int f32 = fz_gc_is_float(h);
  double step = (f32 ? 2e-3 : 1e-6) * fz_gc_scale(h, sc0), tol = f32 ? 3e-2 : 1e-4;
  for (int k = 0; k < h->nmem; k++) {
    long n = fz_gc_len(&h->mem[k]);
    dmem[k] = (double *)malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    w[k] = (double *)malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    for (long i = 0; i < n; i++) w[k][i] = fz_gc_get(h->mem[k].s0, h->mem[k].kind, i);
  }
  /* Elements that are not finite numbers (uninitialised parts of a buffer) are neither
   * perturbed nor weighted. */
  for (int k = 0; k < h->nmem; k++)
    for (long i = 0; i < fz_gc_len(&h->mem[k]); i++)
      if (!isfinite(w[k][i]) || !isfinite(fz_gc_get(h->mem[k].x0, h->mem[k].kind, i)) ||
          !isfinite(fz_gc_get(h->mem[k].s1, h->mem[k].kind, i)))
        w[k][i] = NAN; /* marks the element as skipped */
  for (int dir = 0; dir < FZ_GC_DIRS; dir++) {
    double ad = 0.0;
    for (int k = 0; k < h->nsc; k++) {
      dsc[k] = fz_gc_uniform();
      ad += dsc[k] * h->sc[k].d;
    }
    for (int k = 0; k < h->nmem; k++)
      for (long i = 0; i < fz_gc_len(&h->mem[k]); i++) {
        int skip = isnan(w[k][i]);
        dmem[k][i] = skip ? 0.0 : fz_gc_uniform();
        if (!skip) ad += dmem[k][i] * fz_gc_get(h->mem[k].s1, h->mem[k].kind, i);
      }
    if (dir == 0) {
      /* The same inputs twice must give the same result, or nothing can be checked. */
      double a = fz_gc_run(h, sc0, 0.0, dsc, dmem, w), b = fz_gc_run(h, sc0, 0.0, dsc, dmem, w);
      if (!(fabs(a - b) <= 1e-12 * fmax(fabs(a), 1.0)) && !(isnan(a) && isnan(b))) {
        fprintf(stderr,
                "ferrozyme: gradient check FAILED at %s: the function gives different results "
                "for the same inputs (%.10g, then %.10g): it has state or side effects the "
                "check cannot undo\n",
                h->where, a, b);
        break;
      }
    }
    double fp = fz_gc_run(h, sc0, step, dsc, dmem, w);
    double fm = fz_gc_run(h, sc0, -step, dsc, dmem, w);
    double fp2 = fz_gc_run(h, sc0, 64 * step, dsc, dmem, w);
    double fm2 = fz_gc_run(h, sc0, -64 * step, dsc, dmem, w);
    double fd = (fp - fm) / (2 * step), fd2 = (fp2 - fm2) / (128 * step);
    char what[64];
    snprintf(what, sizeof what, "random direction %d", dir + 1);
    fz_gc_report(h, mode, what, ad, fd, fd2, tol);
  }
  for (int k = 0; k < h->nmem; k++) {
    free(dmem[k]);
    free(w[k]);
  }
  fz_gc_finish(h, sc0);
}

/* After a forward-mode call: along the caller's tangent, the returned tangent and every
 * duplicated buffer's tangent against central differences of the result and the buffer. */
void __fz_gc_end_forward(void *hv, int has_ret, double ret_tangent) {
  fz_gc *h = (fz_gc *)hv;
  double sc0[FZ_GC_MAX], dsc[FZ_GC_MAX];
  double *dmem[FZ_GC_MAX];
  if (!fz_gc_start(h, sc0)) return;
  int mode = fz_gc_mode();
  int f32 = fz_gc_is_float(h);
  double step = (f32 ? 2e-3 : 1e-6) * fz_gc_scale(h, sc0), tol = f32 ? 3e-2 : 1e-4;
  for (int k = 0; k < h->nsc; k++) dsc[k] = h->sc[k].d;
  for (int k = 0; k < h->nmem; k++) {
    long n = fz_gc_len(&h->mem[k]);
    dmem[k] = (double *)malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    for (long i = 0; i < n; i++) dmem[k][i] = fz_gc_get(h->mem[k].s0, h->mem[k].kind, i);
  }
  /* Buffer contents after runs at x0 + t*dx, for t = h, -h, 2h, -2h. */
  double *after[4][FZ_GC_MAX], r[4];
  const double ts[4] = {step, -step, 64 * step, -64 * step};
  for (int j = 0; j < 4; j++) {
    r[j] = fz_gc_run(h, sc0, ts[j], dsc, dmem, 0);
    for (int k = 0; k < h->nmem; k++) {
      long n = fz_gc_len(&h->mem[k]);
      after[j][k] = (double *)malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
      for (long i = 0; i < n; i++) after[j][k][i] = fz_gc_get(h->mem[k].p, h->mem[k].kind, i);
    }
  }
  if (has_ret) {
    double fd = (r[0] - r[1]) / (2 * step), fd2 = (r[2] - r[3]) / (128 * step);
    fz_gc_report(h, mode, "tangent of the result", ret_tangent, fd, fd2, tol);
  }
  /* Buffers: the element with the largest error relative to tolerance decides. */
  for (int k = 0; k < h->nmem; k++) {
    long n = fz_gc_len(&h->mem[k]);
    double worst = -1.0, ad_w = 0.0, fd_w = 0.0, fd2_w = 0.0;
    for (long i = 0; i < n; i++) {
      double fd = (after[0][k][i] - after[1][k][i]) / (2 * step);
      double fd2 = (after[2][k][i] - after[3][k][i]) / (128 * step);
      double ad = fz_gc_get(h->mem[k].s1, h->mem[k].kind, i);
      double err = fmin(fabs(ad - fd), fabs(ad - fd2));
      double e = err / (tol * fmax(fmax(fabs(ad), fabs(fd)), 1e-6) + fabs(fd - fd2));
      if (e > worst || isnan(e)) {
        worst = isnan(e) ? INFINITY : e;
        ad_w = ad;
        fd_w = fd;
        fd2_w = fd2;
      }
    }
    if (n > 0) {
      char what[64];
      snprintf(what, sizeof what, "tangent of buffer argument %d (worst element)", k + 1);
      fz_gc_report(h, mode, what, ad_w, fd_w, fd2_w, tol);
    }
    for (int j = 0; j < 4; j++) free(after[j][k]);
    free(dmem[k]);
  }
  fz_gc_finish(h, sc0);
}

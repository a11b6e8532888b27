/* Differentiable implementations of flang's runtime routines (`_FortranA*`).
 *
 * flang calls its runtime library for array intrinsics and assignments it does not
 * expand inline (at -O0 nearly all of them: SUM, DOT_PRODUCT, MAXVAL, MATMUL, array
 * assignment). The library is a compiled archive without IR, so the AD pass cannot look
 * inside it. Instead, inside the functions it differentiates, the pass calls these C
 * implementations (same arguments, same results), whose IR it differentiates like any
 * other code: the derivative of SUM is the derivative of a loop that sums.
 *
 * Arrays arrive as flang descriptors (the CFI_cdesc_t layout of ISO_Fortran_binding.h:
 * base address, element size, version, rank, type code, attribute, then per dimension
 * lower bound, extent and byte stride). Elements are visited in array-element order
 * (first index fastest) through `fz_offset`, so any rank and any strides work.
 *
 * Only real(4) and real(8) data are computed here. Assignments of data that carries no
 * derivative (integers, logicals, characters) are handed to flang's own routine through
 * `__fz_f18_assign_inactive`, a declared name the pass classifies as inactive and
 * renames to `_FortranAAssign` after differentiation. Derived-type and complex data stop
 * the program with a message naming the source line (never a silently wrong result).
 *
 * Compiled to IR by build.rs (clang -O2) and linked into the module on first use. */
#include <stddef.h>

void *malloc(size_t);
void free(void *);
void abort(void);
long write(int, const void *, size_t);

/* Small helpers are inlined; the others are external (made internal when linked) so no
 * call uses a special calling convention. */
#define FZ_INLINE static inline __attribute__((always_inline))

enum { FZ_REAL4 = 27, FZ_REAL8 = 28, FZ_STRUCT = 42, FZ_ALLOCATABLE = 2 };

typedef struct {
  long lower_bound, extent, sm;
} fz_dim;

typedef struct {
  char *base;
  size_t elem_len;
  int version;
  unsigned char rank;
  signed char type;
  unsigned char attribute;
  unsigned char extra;
  fz_dim dim[15];
} fz_desc;

void __fz_f18_assign_inactive(fz_desc *to, const fz_desc *from, const char *src, int line);

FZ_INLINE size_t fz_len(const char *s) {
  size_t n = 0;
  while (s && s[n]) n++;
  return n;
}

FZ_INLINE void fz_say(const char *s) { write(2, s, fz_len(s)); }

/* Stops the program: something the differentiated code cannot do correctly. */
__attribute__((noinline, noreturn)) void __fz_f18_fail(const char *what, const char *src,
                                                       int line) {
  char num[16];
  int k = 15;
  unsigned v = line > 0 ? (unsigned)line : 0;
  num[k] = 0;
  do {
    num[--k] = (char)('0' + v % 10);
    v /= 10;
  } while (v && k > 0);
  fz_say("ferrozyme: ");
  if (src) {
    fz_say(src);
    fz_say(":");
    fz_say(num + k);
    fz_say(": ");
  }
  fz_say(what);
  fz_say("\n");
  abort();
}

FZ_INLINE long fz_elements(const fz_desc *d) {
  long n = 1;
  for (int k = 0; k < d->rank; k++) n *= d->dim[k].extent > 0 ? d->dim[k].extent : 0;
  return n;
}

/* Byte offset of element number e (array-element order). */
FZ_INLINE long fz_offset(const fz_desc *d, long e) {
  long off = 0;
  for (int k = 0; k < d->rank; k++) {
    long x = d->dim[k].extent;
    off += (e % x) * d->dim[k].sm;
    e /= x;
  }
  return off;
}

FZ_INLINE int fz_is_real(int t) { return t == FZ_REAL4 || t == FZ_REAL8; }

FZ_INLINE double fz_get(const fz_desc *d, long e) {
  const char *p = d->rank == 0 ? d->base : d->base + fz_offset(d, e);
  return d->type == FZ_REAL8 ? *(const double *)p : (double)*(const float *)p;
}

/* A LOGICAL mask element (any kind); no mask means every element counts. */
FZ_INLINE int fz_mask(const fz_desc *m, long e) {
  if (!m) return 1;
  const char *p = m->rank == 0 ? m->base : m->base + fz_offset(m, e);
  switch (m->elem_len) {
  case 1: return *(const unsigned char *)p != 0;
  case 2: return *(const unsigned short *)p != 0;
  case 4: return *(const unsigned *)p != 0;
  default: return *(const unsigned long *)p != 0;
  }
}

FZ_INLINE void fz_need_real(const fz_desc *d, const char *what, const char *src, int line) {
  if (!fz_is_real(d->type)) __fz_f18_fail(what, src, line);
}

double __fz_f18_sum_r8(const fz_desc *x, const char *src, int line, int dim,
                       const fz_desc *mask) {
  (void)dim; /* DIM=1 of a rank-1 array: the same scalar */
  fz_need_real(x, "SUM of non-real data in differentiated code", src, line);
  long n = fz_elements(x);
  double s = 0;
  for (long e = 0; e < n; e++)
    if (fz_mask(mask, e)) s += fz_get(x, e);
  return s;
}

float __fz_f18_sum_r4(const fz_desc *x, const char *src, int line, int dim,
                      const fz_desc *mask) {
  (void)dim;
  fz_need_real(x, "SUM of non-real data in differentiated code", src, line);
  long n = fz_elements(x);
  float s = 0;
  for (long e = 0; e < n; e++)
    if (fz_mask(mask, e)) s += (float)fz_get(x, e);
  return s;
}

double __fz_f18_dot_r8(const fz_desc *x, const fz_desc *y, const char *src, int line) {
  fz_need_real(x, "DOT_PRODUCT of non-real data in differentiated code", src, line);
  fz_need_real(y, "DOT_PRODUCT of non-real data in differentiated code", src, line);
  long n = fz_elements(x);
  double s = 0;
  for (long e = 0; e < n; e++) s += fz_get(x, e) * fz_get(y, e);
  return s;
}

float __fz_f18_dot_r4(const fz_desc *x, const fz_desc *y, const char *src, int line) {
  fz_need_real(x, "DOT_PRODUCT of non-real data in differentiated code", src, line);
  fz_need_real(y, "DOT_PRODUCT of non-real data in differentiated code", src, line);
  long n = fz_elements(x);
  float s = 0;
  for (long e = 0; e < n; e++) s += (float)(fz_get(x, e) * fz_get(y, e));
  return s;
}

/* MAXVAL/MINVAL: the derivative goes to the first element that wins. An empty (or
 * fully masked) array gives -HUGE/+HUGE, as in the standard. */
double __fz_f18_extremum(const fz_desc *x, const fz_desc *mask, int want_max, double huge) {
  long n = fz_elements(x);
  double m = want_max ? -huge : huge;
  for (long e = 0; e < n; e++) {
    if (!fz_mask(mask, e)) continue;
    double v = fz_get(x, e);
    if (want_max ? v > m : v < m) m = v;
  }
  return m;
}

double __fz_f18_maxval_r8(const fz_desc *x, const char *src, int line, int dim,
                          const fz_desc *mask) {
  (void)dim;
  fz_need_real(x, "MAXVAL of non-real data in differentiated code", src, line);
  return __fz_f18_extremum(x, mask, 1, 1.7976931348623157e308);
}

double __fz_f18_minval_r8(const fz_desc *x, const char *src, int line, int dim,
                          const fz_desc *mask) {
  (void)dim;
  fz_need_real(x, "MINVAL of non-real data in differentiated code", src, line);
  return __fz_f18_extremum(x, mask, 0, 1.7976931348623157e308);
}

float __fz_f18_maxval_r4(const fz_desc *x, const char *src, int line, int dim,
                         const fz_desc *mask) {
  (void)dim;
  fz_need_real(x, "MAXVAL of non-real data in differentiated code", src, line);
  return (float)__fz_f18_extremum(x, mask, 1, 3.4028234663852886e38);
}

float __fz_f18_minval_r4(const fz_desc *x, const char *src, int line, int dim,
                         const fz_desc *mask) {
  (void)dim;
  fz_need_real(x, "MINVAL of non-real data in differentiated code", src, line);
  return (float)__fz_f18_extremum(x, mask, 0, 3.4028234663852886e38);
}

/* Gives `d` a fresh contiguous allocation of the given rank and extents (lower bounds 1),
 * freeing what it had: what flang's runtime does for an allocatable result. */
void __fz_f18_allocate(fz_desc *d, int rank, const long *extent, size_t elem_len, int type) {
  if (d->base) free(d->base);
  long n = 1;
  for (int k = 0; k < rank; k++) n *= extent[k] > 0 ? extent[k] : 0;
  d->base = (char *)malloc((size_t)(n > 0 ? n : 1) * elem_len);
  d->elem_len = elem_len;
  d->rank = (unsigned char)rank;
  d->type = (signed char)type;
  long sm = (long)elem_len;
  for (int k = 0; k < rank; k++) {
    d->dim[k].lower_bound = 1;
    d->dim[k].extent = extent[k];
    d->dim[k].sm = sm;
    sm *= extent[k] > 0 ? extent[k] : 0;
  }
}

FZ_INLINE void fz_put(fz_desc *d, long e, double v) {
  char *p = d->rank == 0 ? d->base : d->base + fz_offset(d, e);
  if (d->type == FZ_REAL8)
    *(double *)p = v;
  else
    *(float *)p = (float)v;
}

FZ_INLINE const char *fz_first(const fz_desc *d) { return d->base; }

FZ_INLINE const char *fz_last(const fz_desc *d) {
  const char *p = d->base;
  long hi = 0;
  for (int k = 0; k < d->rank; k++)
    if (d->dim[k].extent > 0 && d->dim[k].sm > 0) hi += (d->dim[k].extent - 1) * d->dim[k].sm;
  return p + hi + (long)d->elem_len;
}

/* Array assignment `to = from` (what flang's Assign does for intrinsic types): an
 * allocatable `to` that is unallocated or of another shape is (re)allocated to `from`'s
 * shape, a scalar `from` is broadcast, real(4)/real(8) convert, and overlapping operands
 * are read completely before anything is written. */
void __fz_f18_assign(fz_desc *to, const fz_desc *from, const char *src, int line) {
  if (!fz_is_real(from->type) || !fz_is_real(to->type)) {
    if (from->type == FZ_STRUCT || to->type == FZ_STRUCT)
      __fz_f18_fail("assignment of derived-type data through the Fortran runtime cannot be "
              "differentiated; assign the real components one by one",
              src, line);
    if ((from->type >= 34 && from->type <= 38) || (to->type >= 34 && to->type <= 38))
      __fz_f18_fail("complex data are not differentiated", src, line);
    /* Integers, logicals, characters: no derivative. */
    __fz_f18_assign_inactive(to, from, src, line);
    return;
  }
  if (from->rank > 0 && to->attribute == FZ_ALLOCATABLE) {
    int same = to->base != 0 && to->rank == from->rank;
    for (int k = 0; same && k < from->rank; k++) same = to->dim[k].extent == from->dim[k].extent;
    if (!same) {
      long ext[15];
      for (int k = 0; k < from->rank; k++) ext[k] = from->dim[k].extent;
      __fz_f18_allocate(to, from->rank, ext, to->type == FZ_REAL8 ? 8 : 4, to->type);
    }
  }
  long n = fz_elements(to);
  int overlap = to->rank > 0 && from->rank > 0 && fz_first(to) < fz_last(from) &&
                fz_first(from) < fz_last(to);
  if (overlap) {
    double *tmp = (double *)malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    for (long e = 0; e < n; e++) tmp[e] = fz_get(from, e);
    for (long e = 0; e < n; e++) fz_put(to, e, tmp[e]);
    free(tmp);
    return;
  }
  for (long e = 0; e < n; e++) fz_put(to, e, fz_get(from, e));
}

/* MATMUL of real operands into an unallocated result: (m,k)x(k,n), (m,k)x(k) or
 * (k)x(k,n). */
void __fz_f18_matmul(fz_desc *r, const fz_desc *x, const fz_desc *y, int type,
                      const char *src, int line) {
  fz_need_real(x, "MATMUL of non-real data in differentiated code", src, line);
  fz_need_real(y, "MATMUL of non-real data in differentiated code", src, line);
  long m = x->rank == 2 ? x->dim[0].extent : 1;
  long k = x->rank == 2 ? x->dim[1].extent : x->dim[0].extent;
  long n = y->rank == 2 ? y->dim[1].extent : 1;
  if ((y->rank == 2 ? y->dim[0].extent : y->dim[0].extent) != k)
    __fz_f18_fail("MATMUL operands do not conform", src, line);
  long ext[2];
  int rank;
  if (x->rank == 2 && y->rank == 2) {
    rank = 2;
    ext[0] = m;
    ext[1] = n;
  } else {
    rank = 1;
    ext[0] = x->rank == 2 ? m : n;
  }
  r->base = 0;
  __fz_f18_allocate(r, rank, ext, type == FZ_REAL8 ? 8 : 4, type);
  r->attribute = FZ_ALLOCATABLE;
  long ysm0 = y->dim[0].sm, ysm1 = y->rank == 2 ? y->dim[1].sm : 0;
  long xsm0 = x->rank == 2 ? x->dim[0].sm : 0, xsm1 = x->rank == 2 ? x->dim[1].sm : x->dim[0].sm;
  for (long j = 0; j < n; j++)
    for (long i = 0; i < m; i++) {
      double s = 0;
      for (long l = 0; l < k; l++) {
        const char *px = x->base + i * xsm0 + l * xsm1;
        const char *py = y->base + l * ysm0 + j * ysm1;
        double a = x->type == FZ_REAL8 ? *(const double *)px : (double)*(const float *)px;
        double b = y->type == FZ_REAL8 ? *(const double *)py : (double)*(const float *)py;
        s += a * b;
      }
      fz_put(r, i + j * m, s);
    }
}

void __fz_f18_matmul_r8(fz_desc *r, const fz_desc *x, const fz_desc *y, const char *src,
                        int line) {
  __fz_f18_matmul(r, x, y, FZ_REAL8, src, line);
}

void __fz_f18_matmul_r4(fz_desc *r, const fz_desc *x, const fz_desc *y, const char *src,
                        int line) {
  __fz_f18_matmul(r, x, y, FZ_REAL4, src, line);
}

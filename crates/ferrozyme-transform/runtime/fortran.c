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
 * Real(4), real(8), complex(4) and complex(8) data are computed here. Assignments of data
 * that carries no derivative (integers, logicals, characters) go to flang's own routine through
 * `__fz_f18_assign_inactive`, a declared name the pass classifies as inactive and
 * renames to `_FortranAAssign` after differentiation. Derived-type data and other complex
 * kinds stop the program with a message naming the source line (never a silently wrong result).
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

enum {
  FZ_REAL4 = 27,
  FZ_REAL8 = 28,
  FZ_COMPLEX4 = 34,
  FZ_COMPLEX8 = 35,
  FZ_STRUCT = 42,
  FZ_ALLOCATABLE = 2
};

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

/* The fields before the dimensions. */
typedef struct {
  char *base;
  size_t elem_len;
  int version;
  unsigned char rank;
  signed char type;
  unsigned char attribute;
  unsigned char extra;
} fz_head;

void __fz_f18_assign_inactive(fz_desc *to, const fz_desc *from, const char *src, int line);
void __fz_f18_ctor_init_inactive(void *vector, fz_desc *to, _Bool use_len, const char *src,
                                 int line);
void __fz_f18_ctor_push_inactive(void *vector, const fz_desc *from);
void __fz_f18_ctor_push_scalar_inactive(void *vector, const void *from);
void __fz_f18_sum_dim_inactive(fz_desc *r, const fz_desc *x, int dim, const char *src, int line,
                               const fz_desc *mask);
void __fz_f18_maxval_dim_inactive(fz_desc *r, const fz_desc *x, int dim, const char *src,
                                  int line, const fz_desc *mask);
void __fz_f18_minval_dim_inactive(fz_desc *r, const fz_desc *x, int dim, const char *src,
                                  int line, const fz_desc *mask);
void __fz_f18_product_dim_inactive(fz_desc *r, const fz_desc *x, int dim, const char *src,
                                   int line, const fz_desc *mask);
void __fz_f18_cshift_inactive(fz_desc *r, const fz_desc *x, const fz_desc *shift, int dim,
                              const char *src, int line);
void __fz_f18_cshift_vector_inactive(fz_desc *r, const fz_desc *x, long shift, const char *src,
                                     int line);
void __fz_f18_spread_inactive(fz_desc *r, const fz_desc *x, int dim, long ncopies,
                              const char *src, int line);
void __fz_f18_pack_inactive(fz_desc *r, const fz_desc *x, const fz_desc *mask,
                            const fz_desc *vector, const char *src, int line);
void __fz_f18_unpack_inactive(fz_desc *r, const fz_desc *vector, const fz_desc *mask,
                              const fz_desc *field, const char *src, int line);
void __fz_f18_copy_and_update_descriptor_inactive(fz_desc *to, const fz_desc *from,
                                                  const void *dynamic_type,
                                                  signed char attribute, int lower);
void __fz_f18_eoshift_inactive(fz_desc *r, const fz_desc *x, const fz_desc *shift,
                               const fz_desc *boundary, int dim, const char *src, int line);
void __fz_f18_eoshift_vector_inactive(fz_desc *r, const fz_desc *x, long shift,
                                      const fz_desc *boundary, const char *src, int line);
void __fz_f18_initialize_inactive(const void *d, const char *src, int line);

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

/* A descriptor's array: its base address and type, and its shape copied out with
 * constant indices only. Type analysis must see the descriptor's fields at fixed offsets:
 * a variable index into `dim` (or into an array next to a pointer) would make the pointer
 * field look like the integers that repeat after it. So the shape, integers only, is a
 * separate object. */
typedef struct {
  int rank;
  long extent[15];
  long sm[15];
} fz_shape;

typedef struct {
  char *base;
  int type;
  fz_shape *s;
} fz_view;

#define FZ_GET_DIM(k)                                                                   \
  if (d->rank > k) {                                                                   \
    s->extent[k] = d->dim[k].extent;                                                    \
    s->sm[k] = d->dim[k].sm;                                                            \
  }

FZ_INLINE void fz_view_of(const fz_desc *d, fz_view *v, fz_shape *s) {
  v->base = d->base;
  v->type = d->type;
  v->s = s;
  s->rank = d->rank;
  FZ_GET_DIM(0) FZ_GET_DIM(1) FZ_GET_DIM(2) FZ_GET_DIM(3) FZ_GET_DIM(4) FZ_GET_DIM(5)
  FZ_GET_DIM(6) FZ_GET_DIM(7) FZ_GET_DIM(8) FZ_GET_DIM(9) FZ_GET_DIM(10) FZ_GET_DIM(11)
  FZ_GET_DIM(12) FZ_GET_DIM(13) FZ_GET_DIM(14)
}

FZ_INLINE long fz_elements(const fz_view *v) {
  const fz_shape *s = v->s;
  long n = 1;
  for (int k = 0; k < s->rank; k++) n *= s->extent[k] > 0 ? s->extent[k] : 0;
  return n;
}

/* Address of element number e (array-element order: first index fastest). */
FZ_INLINE char *fz_at(const fz_view *v, long e) {
  const fz_shape *s = v->s;
  long off = 0;
  for (int k = 0; k < s->rank; k++) {
    long x = s->extent[k];
    off += (e % x) * s->sm[k];
    e /= x;
  }
  return v->base + off;
}

FZ_INLINE int fz_is_real(int t) { return t == FZ_REAL4 || t == FZ_REAL8; }

FZ_INLINE double fz_get(const fz_view *v, long e) {
  const char *p = fz_at(v, e);
  return v->type == FZ_REAL8 ? *(const double *)p : (double)*(const float *)p;
}

FZ_INLINE void fz_put(const fz_view *v, long e, double x) {
  char *p = fz_at(v, e);
  if (v->type == FZ_REAL8)
    *(double *)p = x;
  else
    *(float *)p = (float)x;
}

/* A LOGICAL mask element (any kind); no mask means every element counts. A scalar mask
 * applies to every element. */
FZ_INLINE int fz_mask(const fz_desc *m, const fz_view *mv, long e) {
  if (!m) return 1;
  const char *p = fz_at(mv, e);
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

/* Views x (and its MASK, when there is one) and returns how many elements x has. */
FZ_INLINE long fz_view_masked(const fz_desc *x, const fz_desc *mask, fz_view *v, fz_shape *sv,
                              fz_view *mv, fz_shape *smv) {
  fz_view_of(x, v, sv);
  if (mask) fz_view_of(mask, mv, smv);
  return fz_elements(v);
}

/* Views the two operands of DOT_PRODUCT and returns x's element count. */
FZ_INLINE long fz_view_pair(const fz_desc *x, const fz_desc *y, fz_view *vx, fz_shape *sx,
                            fz_view *vy, fz_shape *sy) {
  fz_view_of(x, vx, sx);
  fz_view_of(y, vy, sy);
  return fz_elements(vx);
}

/* SUM, as a real(8) accumulation (real(4) results are rounded at the end, as the
 * runtime accumulates in higher precision too). */
double __fz_f18_sum(const fz_desc *x, const fz_desc *mask) {
  fz_view v, mv;
  fz_shape sv, smv;
  long n = fz_view_masked(x, mask, &v, &sv, &mv, &smv);
  double s = 0;
  for (long e = 0; e < n; e++)
    if (fz_mask(mask, &mv, e)) s += fz_get(&v, e);
  return s;
}

double __fz_f18_sum_r8(const fz_desc *x, const char *src, int line, int dim,
                       const fz_desc *mask) {
  (void)dim; /* DIM=1 of a rank-1 array: the same scalar */
  fz_need_real(x, "SUM of non-real data in differentiated code", src, line);
  return __fz_f18_sum(x, mask);
}

float __fz_f18_sum_r4(const fz_desc *x, const char *src, int line, int dim,
                      const fz_desc *mask) {
  (void)dim;
  fz_need_real(x, "SUM of non-real data in differentiated code", src, line);
  return (float)__fz_f18_sum(x, mask);
}

/* complex ** integer (flang's `_FortranAzpowi`/`zpowk` for complex(8), `cpowi`/`cpowk`
 * for complex(4), called for `z**k` at -O0): binary powering on the real and imaginary
 * parts in the kind's own precision (as flang's runtime computes), the reciprocal for
 * k < 0. flang passes and returns a complex(4) value as one `<2 x float>` (one xmm
 * register on x86-64), which is how clang passes a `_Complex float` too. */
#define FZ_COMPLEX_POWK(NAME, T)                                                           \
  _Complex T NAME(_Complex T z, long k) {                                                  \
    T ar = 1, ai = 0, br = __real__ z, bi = __imag__ z, t;                                 \
    unsigned long m = k < 0 ? -(unsigned long)k : (unsigned long)k;                        \
    while (m) {                                                                            \
      if (m & 1) {                                                                         \
        t = ar * br - ai * bi;                                                             \
        ai = ar * bi + ai * br;                                                            \
        ar = t;                                                                            \
      }                                                                                    \
      m >>= 1;                                                                             \
      if (m) {                                                                             \
        t = br * br - bi * bi;                                                             \
        bi = 2 * br * bi;                                                                  \
        br = t;                                                                            \
      }                                                                                    \
    }                                                                                      \
    if (k < 0) {                                                                           \
      T d = ar * ar + ai * ai;                                                             \
      ar = ar / d;                                                                         \
      ai = -ai / d;                                                                        \
    }                                                                                      \
    _Complex T r;                                                                          \
    __real__ r = ar;                                                                       \
    __imag__ r = ai;                                                                       \
    return r;                                                                              \
  }

FZ_COMPLEX_POWK(__fz_f18_zpowk, double)
FZ_COMPLEX_POWK(__fz_f18_cpowk, float)

_Complex double __fz_f18_zpowi(_Complex double z, int k) { return __fz_f18_zpowk(z, k); }
_Complex float __fz_f18_cpowi(_Complex float z, int k) { return __fz_f18_cpowk(z, k); }

double __fz_f18_dot(const fz_desc *x, const fz_desc *y, const char *src, int line) {
  fz_need_real(x, "DOT_PRODUCT of non-real data in differentiated code", src, line);
  fz_need_real(y, "DOT_PRODUCT of non-real data in differentiated code", src, line);
  fz_view vx, vy;
  fz_shape sx, sy;
  long n = fz_view_pair(x, y, &vx, &sx, &vy, &sy);
  double s = 0;
  for (long e = 0; e < n; e++) s += fz_get(&vx, e) * fz_get(&vy, e);
  return s;
}

double __fz_f18_dot_r8(const fz_desc *x, const fz_desc *y, const char *src, int line) {
  return __fz_f18_dot(x, y, src, line);
}

float __fz_f18_dot_r4(const fz_desc *x, const fz_desc *y, const char *src, int line) {
  return (float)__fz_f18_dot(x, y, src, line);
}

/* MAXVAL/MINVAL: the derivative goes to the first element that wins. An empty (or
 * fully masked) array gives -HUGE/+HUGE, as in the standard. */
double __fz_f18_extremum(const fz_desc *x, const fz_desc *mask, int want_max, double huge) {
  fz_view v, mv;
  fz_shape sv, smv;
  long n = fz_view_masked(x, mask, &v, &sv, &mv, &smv);
  double m = want_max ? -huge : huge;
  for (long e = 0; e < n; e++) {
    if (!fz_mask(mask, &mv, e)) continue;
    double t = fz_get(&v, e);
    if (want_max ? t > m : t < m) m = t;
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

#define FZ_SET_DIM(k)                                                                   \
  if (rank > k) {                                                                      \
    d->dim[k].lower_bound = 1;                                                          \
    d->dim[k].extent = extent[k];                                                       \
    d->dim[k].sm = sm;                                                                  \
    sm *= extent[k] > 0 ? extent[k] : 0;                                                \
  }

/* Gives `d` a fresh contiguous allocation of the given rank and extents (lower bounds 1),
 * freeing what it had: what flang's runtime does for an allocatable result. */
void __fz_f18_allocate(fz_desc *d, int rank, const long *extent, long elem_len, int type) {
  if (d->base) free(d->base);
  long n = 1;
  for (int k = 0; k < rank; k++) n *= extent[k] > 0 ? extent[k] : 0;
  d->base = (char *)malloc((size_t)(n > 0 ? n : 1) * (size_t)elem_len);
  d->elem_len = (size_t)elem_len;
  d->rank = (unsigned char)rank;
  d->type = (signed char)type;
  long sm = elem_len;
  FZ_SET_DIM(0) FZ_SET_DIM(1) FZ_SET_DIM(2) FZ_SET_DIM(3) FZ_SET_DIM(4) FZ_SET_DIM(5)
  FZ_SET_DIM(6) FZ_SET_DIM(7) FZ_SET_DIM(8) FZ_SET_DIM(9) FZ_SET_DIM(10) FZ_SET_DIM(11)
  FZ_SET_DIM(12) FZ_SET_DIM(13) FZ_SET_DIM(14)
}

/* The bytes an array spans: [first, last). */
FZ_INLINE const char *fz_last(const fz_view *v, long elem_len) {
  const fz_shape *s = v->s;
  long hi = 0;
  for (int k = 0; k < s->rank; k++)
    if (s->extent[k] > 0 && s->sm[k] > 0) hi += (s->extent[k] - 1) * s->sm[k];
  return v->base + hi + elem_len;
}

/* Array assignment `to = from` (what flang's Assign does for intrinsic types): an
 * allocatable `to` that is unallocated or of another shape is (re)allocated to `from`'s
 * shape, a scalar `from` is broadcast, real(4)/real(8) convert, and overlapping operands
 * are read completely before anything is written. */
static void fz_assign_complex(fz_desc *to, const fz_desc *from, const char *src, int line);

FZ_INLINE int fz_is_complex(int t) { return t == FZ_COMPLEX4 || t == FZ_COMPLEX8; }

/* Views both sides of `to = from`; an allocatable `to` that is unallocated or of another
 * shape than an array `from` is (re)allocated to from's shape with elements of
 * `elem_len` bytes of `type` first. */
FZ_INLINE void fz_assign_shape(fz_desc *to, const fz_desc *from, long elem_len, int type,
                               fz_view *vf, fz_shape *sf, fz_view *vt, fz_shape *st) {
  fz_view_of(from, vf, sf);
  fz_view_of(to, vt, st);
  if (sf->rank > 0 && to->attribute == FZ_ALLOCATABLE) {
    int same = vt->base != 0 && st->rank == sf->rank;
    for (int k = 0; same && k < sf->rank; k++) same = st->extent[k] == sf->extent[k];
    if (!same) {
      __fz_f18_allocate(to, sf->rank, sf->extent, elem_len, type);
      fz_view_of(to, vt, st);
    }
  }
}

/* Whether an array `to` shares bytes with `from` (then `from` is read completely first). */
FZ_INLINE int fz_overlap(const fz_view *vt, long to_len, const fz_view *vf, long from_len) {
  return vt->s->rank > 0 && vt->base < fz_last(vf, from_len) && vf->base < fz_last(vt, to_len);
}

/* `to = from` of reals, `from` read as data of type code `from_type` (real(4) or real(8)):
 * the source's own code in the generic assignment, a constant in the one-kind entry
 * points below, where the branches on it fold away. */
FZ_INLINE void fz_assign_reals(fz_desc *to, const fz_desc *from, int from_type) {
  fz_view vf, vt;
  fz_shape sf, st;
  fz_assign_shape(to, from, to->type == FZ_REAL8 ? 8 : 4, to->type, &vf, &sf, &vt, &st);
  vf.type = from_type;
  long n = fz_elements(&vt);
  if (sf.rank == 0) {
    double x = fz_get(&vf, 0);
    for (long e = 0; e < n; e++) fz_put(&vt, e, x);
    return;
  }
  if (fz_overlap(&vt, (long)to->elem_len, &vf, from_type == FZ_REAL8 ? 8 : 4)) {
    double *tmp = (double *)malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    for (long e = 0; e < n; e++) tmp[e] = fz_get(&vf, e);
    for (long e = 0; e < n; e++) fz_put(&vt, e, tmp[e]);
    free(tmp);
    return;
  }
  for (long e = 0; e < n; e++) fz_put(&vt, e, fz_get(&vf, e));
}

static void fz_assign(fz_desc *to, const fz_desc *from, const char *src, int line) {
  if (fz_is_complex(from->type) && fz_is_complex(to->type)) {
    fz_assign_complex(to, from, src, line);
    return;
  }
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
  fz_assign_reals(to, from, from->type);
}

/* The entry point of flang's Assign. Its descriptors are declared as their 24-byte header
 * (`[static 1]`: clang marks them dereferenceable(24)), so type analysis carries only
 * the header (and what the base address points to) across the call edge: the dimensions
 * this code reads and writes up to rank 15 (behind run-time rank tests) would otherwise
 * type the caller's bytes after a rank-1 descriptor as integers, and a descriptor that is
 * an allocatable component of a derived type is followed by the type's other components
 * (a cannot-deduce-type error where they are reals: tests/fortran/74, 76). */
void __fz_f18_assign(fz_head to[static 1], const fz_head from[static 1], const char *src,
                     int line) {
  fz_assign((fz_desc *)to, (const fz_desc *)from, src, line);
}

/* Assign of a real(8) (real(4)) source, where the IR fixes the source descriptor's type
 * code (the pass redirects such calls here: flang's temporaries, often filled by a
 * `memcpy`): the source is read as doubles (floats) only. The generic routine also reads
 * it as the other kind (behind a run-time test), which type analysis sees, so a temporary
 * both copied with `memcpy` and assigned looked like doubles and floats at once: a
 * cannot-deduce-type error at the `memcpy` (tests/fortran/74 at -O2), a run-time stop for
 * real(4) (tests/fortran/114 at -O2). */
#define FZ_ASSIGN_KIND(name, kind, what)                                                    \
  void name(fz_head to_h[static 1], const fz_head from_h[static 1], const char *src,         \
            int line) {                                                                      \
    fz_desc *to = (fz_desc *)to_h;                                                           \
    const fz_desc *from = (const fz_desc *)from_h;                                           \
    if (from->type != kind || !fz_is_real(to->type))                                         \
      __fz_f18_fail("assignment of " what " data to non-real data in differentiated code",   \
                    src, line);                                                              \
    fz_assign_reals(to, from, kind);                                                         \
  }
FZ_ASSIGN_KIND(__fz_f18_assign_r8, FZ_REAL8, "real(8)")
FZ_ASSIGN_KIND(__fz_f18_assign_r4, FZ_REAL4, "real(4)")

/* ---- elemental intrinsics flang computes in its runtime ------------------------------
 *
 * SCALE(x, i) = x * 2**i, FRACTION(x) = x * 2**-e with e the exponent that puts the
 * result in [0.5, 1) (0 stays 0), ERFC_SCALED(x) = exp(x**2) * erfc(x), the asymptotic
 * series beyond x = 26 (where exp(x**2) overflows; seven terms: relative error below
 * 1e-16 there). The powers of two are exact, so the derivatives are 2**i, 2**-e and
 * 2x * ERFC_SCALED(x) - 2/sqrt(pi), from the rules of exp and erfc. real(4) is computed
 * in real(8) and rounded. */
double exp(double);
double erfc(double);
int ilogb(double);

FZ_INLINE double fz_pow2(long i) {
  double p = 1, b = i < 0 ? 0.5 : 2.0;
  unsigned long m = i < 0 ? -(unsigned long)i : (unsigned long)i;
  while (m) {
    if (m & 1) p *= b;
    b *= b;
    m >>= 1;
  }
  return p;
}

/* x * 2**i in two steps, so 2**i itself need not be representable (subnormal x). */
FZ_INLINE double fz_scale(double x, long i) { return x * fz_pow2(i / 2) * fz_pow2(i - i / 2); }

double __fz_f18_scale8(double x, long i) { return fz_scale(x, i); }
float __fz_f18_scale4(float x, long i) { return (float)fz_scale(x, i); }

double __fz_f18_fraction8(double x) {
  if (x == 0 || x - x != 0) return x; /* zero, infinities, NaN */
  return fz_scale(x, -(long)ilogb(x) - 1);
}
float __fz_f18_fraction4(float x) { return (float)__fz_f18_fraction8(x); }

double __fz_f18_erfc_scaled8(double x) {
  if (x < 26) return exp(x * x) * erfc(x);
  double t = 1 / (2 * x * x), s = 1, term = 1;
  for (int k = 1; k <= 7; k++) {
    term *= -(2 * k - 1) * t;
    s += term;
  }
  return s / (x * 1.7724538509055160273);
}
float __fz_f18_erfc_scaled4(float x) { return (float)__fz_f18_erfc_scaled8(x); }

/* MOD and MODULO of reals (`_FortranAModReal8`, `_FortranAModuloReal4`, ...): fmod, whose
 * rule gives the derivatives 1 and -trunc(a/p); MODULO adds p where the remainder's sign
 * differs from p's (a - floor(a/p) p). fmod is exact, so real(4) is computed in real(8).
 * P = 0 stops the program, as flang's routines do. */
double fmod(double, double);

double __fz_f18_mod8(double a, double p, const char *src, int line) {
  if (p == 0) __fz_f18_fail("MOD with P = 0", src, line);
  return fmod(a, p);
}
float __fz_f18_mod4(float a, float p, const char *src, int line) {
  return (float)__fz_f18_mod8(a, p, src, line);
}

double __fz_f18_modulo8(double a, double p, const char *src, int line) {
  if (p == 0) __fz_f18_fail("MODULO with P = 0", src, line);
  double r = fmod(a, p);
  if (r != 0 && (r < 0) != (p < 0)) r += p;
  return r;
}
float __fz_f18_modulo4(float a, float p, const char *src, int line) {
  return (float)__fz_f18_modulo8(a, p, src, line);
}

/* ---- complex(4) and complex(8) arrays ---------------------------------------------
 *
 * At -O0 flang calls its runtime for assignments, SUM, DOT_PRODUCT, MATMUL and TRANSPOSE
 * of complex arrays too. Each element is two reals (real, imaginary part) of the array's
 * kind, computed on separately (in double precision, rounded when stored into complex(4),
 * as for real(4)), so the pass differentiates them like real data. Other complex kinds
 * keep failing at run time ("complex data are not differentiated"). */

/* The bytes of one complex element of type code `t`. */
FZ_INLINE long fz_zlen(int t) { return t == FZ_COMPLEX8 ? 16 : 8; }

/* Part `k` (0 real, 1 imaginary) of element e. */
FZ_INLINE double fz_zget(const fz_view *v, long e, int k) {
  const char *p = fz_at(v, e);
  return v->type == FZ_COMPLEX8 ? ((const double *)p)[k] : (double)((const float *)p)[k];
}

FZ_INLINE void fz_zput(const fz_view *v, long e, double re, double im) {
  char *p = fz_at(v, e);
  if (v->type == FZ_COMPLEX8) {
    ((double *)p)[0] = re;
    ((double *)p)[1] = im;
  } else {
    ((float *)p)[0] = (float)re;
    ((float *)p)[1] = (float)im;
  }
}

static void fz_assign_complex(fz_desc *to, const fz_desc *from, const char *src, int line) {
  (void)src, (void)line;
  fz_view vf, vt;
  fz_shape sf, st;
  long len = fz_zlen(to->type);
  fz_assign_shape(to, from, len, to->type, &vf, &sf, &vt, &st);
  long n = fz_elements(&vt);
  if (sf.rank == 0) {
    double re = fz_zget(&vf, 0, 0), im = fz_zget(&vf, 0, 1);
    for (long e = 0; e < n; e++) fz_zput(&vt, e, re, im);
    return;
  }
  if (fz_overlap(&vt, len, &vf, fz_zlen(from->type))) {
    double *tmp = (double *)malloc((size_t)(n > 0 ? 2 * n : 1) * sizeof(double));
    for (long e = 0; e < n; e++)
      tmp[2 * e] = fz_zget(&vf, e, 0), tmp[2 * e + 1] = fz_zget(&vf, e, 1);
    for (long e = 0; e < n; e++) fz_zput(&vt, e, tmp[2 * e], tmp[2 * e + 1]);
    free(tmp);
    return;
  }
  for (long e = 0; e < n; e++) fz_zput(&vt, e, fz_zget(&vf, e, 0), fz_zget(&vf, e, 1));
}

/* Data the array-moving intrinsics (RESHAPE, CSHIFT, SPREAD, PACK) differentiate: reals
 * and complex numbers (an element's parts move together). */
FZ_INLINE int fz_is_moved(int t) { return fz_is_real(t) || fz_is_complex(t); }

/* The bytes of one element of moved data of type code `t`. */
FZ_INLINE long fz_moved_len(int t) {
  return fz_is_complex(t) ? fz_zlen(t) : t == FZ_REAL8 ? 8 : 4;
}

/* to[e] = from[f], both of one kind of moved data (complex: both parts). */
FZ_INLINE void fz_move(const fz_view *to, long e, const fz_view *from, long f) {
  if (fz_is_complex(to->type))
    fz_zput(to, e, fz_zget(from, f, 0), fz_zget(from, f, 1));
  else
    fz_put(to, e, fz_get(from, f));
}

/* MAXVAL and MINVAL differentiate reals only (the standard has no complex ones): complex
 * data stop, which flang's routine (the inactive alias) would reduce without derivative. */
FZ_INLINE void fz_no_complex(const fz_desc *x, const char *src, int line) {
  if (fz_is_complex(x->type))
    __fz_f18_fail("MAXVAL or MINVAL of complex data is not differentiated", src, line);
}

/* to[e] = 0 (complex: both parts). */
FZ_INLINE void fz_clear(const fz_view *to, long e) {
  if (fz_is_complex(to->type))
    fz_zput(to, e, 0.0, 0.0);
  else
    fz_put(to, e, 0.0);
}

/* Stops unless d's data have type code `type`. */
FZ_INLINE void fz_need_type(const fz_desc *d, int type, const char *what, const char *src,
                            int line) {
  if (d->type != type) __fz_f18_fail(what, src, line);
}

/* (r, i) += (br, bi), or with `product` (r, i) *= (br, bi). */
FZ_INLINE void fz_zfold(double *r, double *i, double br, double bi, int product) {
  if (product) {
    double cr = *r * br - *i * bi;
    *i = *r * bi + *i * br;
    *r = cr;
  } else {
    *r += br;
    *i += bi;
  }
}

/* SUM (or with `product`, PRODUCT) of a complex array (whole array, optional MASK), into
 * re, im. */
FZ_INLINE void fz_fold_complex(double *re, double *im, const fz_desc *x, const fz_desc *mask,
                               int product) {
  fz_view v, mv;
  fz_shape sv, smv;
  long n = fz_view_masked(x, mask, &v, &sv, &mv, &smv);
  double r = product ? 1.0 : 0.0, i = 0;
  for (long e = 0; e < n; e++) {
    if (!fz_mask(mask, &mv, e)) continue;
    fz_zfold(&r, &i, fz_zget(&v, e, 0), fz_zget(&v, e, 1), product);
  }
  *re = r;
  *im = i;
}

/* The complex(8)/complex(4) SUM and PRODUCT entry points (flang's `CppSumComplex8` ...:
 * the result by reference, then the array, source position, DIM (0) and MASK). */
#define FZ_FOLD_COMPLEX(name, elem, kind, product, what)                                  \
  void name(elem *res, const fz_desc *x, const char *src, int line, int dim,             \
            const fz_desc *mask) {                                                       \
    (void)dim;                                                                           \
    fz_need_type(x, kind, what " of this complex data in differentiated code", src, line); \
    double re, im;                                                                       \
    fz_fold_complex(&re, &im, x, mask, product);                                         \
    res[0] = (elem)re;                                                                   \
    res[1] = (elem)im;                                                                   \
  }
FZ_FOLD_COMPLEX(__fz_f18_sum_c8, double, FZ_COMPLEX8, 0, "SUM")
FZ_FOLD_COMPLEX(__fz_f18_sum_c4, float, FZ_COMPLEX4, 0, "SUM")
FZ_FOLD_COMPLEX(__fz_f18_product_c8, double, FZ_COMPLEX8, 1, "PRODUCT")
FZ_FOLD_COMPLEX(__fz_f18_product_c4, float, FZ_COMPLEX4, 1, "PRODUCT")

/* DOT_PRODUCT of complex vectors: sum(conjg(x) * y), into re, im. */
FZ_INLINE void fz_dot_complex(double *re, double *im, const fz_desc *x, const fz_desc *y) {
  fz_view vx, vy;
  fz_shape sx, sy;
  long n = fz_view_pair(x, y, &vx, &sx, &vy, &sy);
  double r = 0, i = 0;
  for (long e = 0; e < n; e++) {
    double xr = fz_zget(&vx, e, 0), xi = fz_zget(&vx, e, 1);
    double yr = fz_zget(&vy, e, 0), yi = fz_zget(&vy, e, 1);
    r += xr * yr + xi * yi;
    i += xr * yi - xi * yr;
  }
  *re = r;
  *im = i;
}

void __fz_f18_dot_c8(double *res, const fz_desc *x, const fz_desc *y, const char *src,
                     int line) {
  fz_need_type(x, FZ_COMPLEX8, "DOT_PRODUCT of this complex data in differentiated code",
                  src, line);
  fz_need_type(y, FZ_COMPLEX8, "DOT_PRODUCT of this complex data in differentiated code",
                  src, line);
  double re, im;
  fz_dot_complex(&re, &im, x, y);
  res[0] = re;
  res[1] = im;
}

void __fz_f18_dot_c4(float *res, const fz_desc *x, const fz_desc *y, const char *src,
                     int line) {
  fz_need_type(x, FZ_COMPLEX4, "DOT_PRODUCT of this complex data in differentiated code",
                  src, line);
  fz_need_type(y, FZ_COMPLEX4, "DOT_PRODUCT of this complex data in differentiated code",
                  src, line);
  double re, im;
  fz_dot_complex(&re, &im, x, y);
  res[0] = (float)re;
  res[1] = (float)im;
}

/* MATMUL's sizes: x is (m,k) or (k), y (k,n) or (k); the byte strides step x along i
 * and l and y along l and j (0 along a dimension the operand lacks). */
typedef struct {
  long m, k, n, xs0, xs1, ys0, ys1;
} fz_matmul_dims;

/* Views MATMUL's operands, checks they conform and gives `r` a fresh result of
 * `elem_len`-byte elements of `type`: (m,n), (m) or (n), viewed in vr. */
FZ_INLINE void fz_matmul_shape(fz_desc *r, const fz_desc *x, const fz_desc *y, long elem_len,
                               int type, fz_view *vx, fz_shape *sx, fz_view *vy, fz_shape *sy,
                               fz_view *vr, fz_shape *sr, fz_matmul_dims *g, const char *src,
                               int line) {
  fz_view_of(x, vx, sx);
  fz_view_of(y, vy, sy);
  long m = sx->rank == 2 ? sx->extent[0] : 1;
  long k = sx->rank == 2 ? sx->extent[1] : sx->extent[0];
  long n = sy->rank == 2 ? sy->extent[1] : 1;
  if (sy->extent[0] != k) __fz_f18_fail("MATMUL operands do not conform", src, line);
  long ext[2];
  int rank;
  if (sx->rank == 2 && sy->rank == 2) {
    rank = 2;
    ext[0] = m;
    ext[1] = n;
  } else {
    rank = 1;
    ext[0] = sx->rank == 2 ? m : n;
  }
  r->base = 0;
  __fz_f18_allocate(r, rank, ext, elem_len, type);
  r->attribute = FZ_ALLOCATABLE;
  fz_view_of(r, vr, sr);
  g->m = m;
  g->k = k;
  g->n = n;
  g->xs0 = sx->rank == 2 ? sx->sm[0] : 0;
  g->xs1 = sx->rank == 2 ? sx->sm[1] : sx->sm[0];
  g->ys0 = sy->sm[0];
  g->ys1 = sy->rank == 2 ? sy->sm[1] : 0;
}

/* MATMUL of complex operands of one kind, shapes as for reals. */
FZ_INLINE void fz_matmul_complex(fz_desc *r, const fz_desc *x, const fz_desc *y, int type,
                                 const char *src, int line) {
  fz_need_type(x, type, "MATMUL of this complex data in differentiated code", src, line);
  fz_need_type(y, type, "MATMUL of this complex data in differentiated code", src, line);
  fz_view vx, vy, vr;
  fz_shape sx, sy, sr;
  fz_matmul_dims g;
  fz_matmul_shape(r, x, y, fz_zlen(type), type, &vx, &sx, &vy, &sy, &vr, &sr, &g, src, line);
  long m = g.m, k = g.k, n = g.n, xs0 = g.xs0, xs1 = g.xs1, ys0 = g.ys0, ys1 = g.ys1;
  for (long j = 0; j < n; j++)
    for (long i = 0; i < m; i++) {
      double re = 0, im = 0;
      for (long l = 0; l < k; l++) {
        const char *pa = vx.base + i * xs0 + l * xs1;
        const char *pb = vy.base + l * ys0 + j * ys1;
        double ar, ai, br, bi;
        if (type == FZ_COMPLEX8) {
          ar = ((const double *)pa)[0], ai = ((const double *)pa)[1];
          br = ((const double *)pb)[0], bi = ((const double *)pb)[1];
        } else {
          ar = ((const float *)pa)[0], ai = ((const float *)pa)[1];
          br = ((const float *)pb)[0], bi = ((const float *)pb)[1];
        }
        re += ar * br - ai * bi;
        im += ar * bi + ai * br;
      }
      fz_zput(&vr, i + j * m, re, im);
    }
}

void __fz_f18_matmul_c8(fz_desc *r, const fz_desc *x, const fz_desc *y, const char *src,
                        int line) {
  fz_matmul_complex(r, x, y, FZ_COMPLEX8, src, line);
}

void __fz_f18_matmul_c4(fz_desc *r, const fz_desc *x, const fz_desc *y, const char *src,
                        int line) {
  fz_matmul_complex(r, x, y, FZ_COMPLEX4, src, line);
}

/* Views TRANSPOSE's rank-2 operand and gives `r` a fresh (n,m) result of `elem_len`-byte
 * elements of `type`, viewed in vr; ext gets the result's extents. */
FZ_INLINE void fz_transpose_shape(fz_desc *r, const fz_desc *x, long elem_len, int type,
                                  fz_view *vx, fz_shape *sx, fz_view *vr, fz_shape *sr,
                                  long *ext, const char *src, int line) {
  fz_view_of(x, vx, sx);
  if (sx->rank != 2) __fz_f18_fail("TRANSPOSE of an array that is not rank 2", src, line);
  ext[0] = sx->extent[1];
  ext[1] = sx->extent[0];
  r->base = 0;
  __fz_f18_allocate(r, 2, ext, elem_len, type);
  r->attribute = FZ_ALLOCATABLE;
  fz_view_of(r, vr, sr);
}

/* TRANSPOSE of a complex matrix (either kind). */
static void fz_transpose_complex(fz_desc *r, const fz_desc *x, const char *src, int line) {
  fz_view vx, vr;
  fz_shape sx, sr;
  long ext[2];
  fz_transpose_shape(r, x, fz_zlen(x->type), x->type, &vx, &sx, &vr, &sr, ext, src, line);
  for (long j = 0; j < ext[1]; j++)
    for (long i = 0; i < ext[0]; i++) {
      const char *p = vx.base + j * sx.sm[0] + i * sx.sm[1];
      double re, im;
      if (x->type == FZ_COMPLEX8)
        re = ((const double *)p)[0], im = ((const double *)p)[1];
      else
        re = ((const float *)p)[0], im = ((const float *)p)[1];
      fz_zput(&vr, i + j * ext[0], re, im);
    }
}

/* ---- ALLOCATE with MOLD= or SOURCE= ---------------------------------------------------
 *
 * `allocate(b, mold=x)` is ApplyMold (b takes x's type, element size, rank and bounds)
 * then Allocate; `allocate(a, source=x)` is SetBounds per dimension then AllocateSource
 * (allocate, then copy x's values). The allocation is a malloc the pass gives a shadow
 * (as for the allocatable results above), and the copy is an assignment, whose derivative
 * flows from a back to x. */

void __fz_f18_apply_mold(fz_desc *d, const fz_desc *mold, int rank) {
  d->elem_len = mold->elem_len;
  d->type = mold->type;
  d->rank = (unsigned char)rank;
  for (int k = 0; k < rank && k < 15; k++) {
    d->dim[k].lower_bound = mold->dim[k].lower_bound;
    d->dim[k].extent = mold->dim[k].extent;
  }
}

void __fz_f18_set_bounds(fz_desc *d, int k, long lower, long upper) {
  d->dim[k].lower_bound = lower;
  d->dim[k].extent = upper >= lower ? upper - lower + 1 : 0;
}

/* Allocates an unallocated `d` with the bounds it holds (contiguous, first index
 * fastest); STAT= and ERRMSG= are not differentiated: a failure stops the program. */
static void fz_allocate_bounds(fz_desc *d, const char *src, int line) {
  if (d->base) __fz_f18_fail("ALLOCATE of an array that is already allocated", src, line);
  long sm = (long)d->elem_len;
  for (int k = 0; k < d->rank; k++) {
    d->dim[k].sm = sm;
    sm *= d->dim[k].extent > 0 ? d->dim[k].extent : 0;
  }
  d->base = (char *)malloc((size_t)(sm > 0 ? sm : 1));
  if (!d->base) __fz_f18_fail("ALLOCATE: out of memory", src, line);
  d->attribute = FZ_ALLOCATABLE;
}

int __fz_f18_allocatable_allocate(fz_desc *d, void *async, _Bool has_stat, const fz_desc *errmsg,
                                  const char *src, int line, void *extra) {
  (void)async, (void)has_stat, (void)errmsg, (void)extra;
  fz_allocate_bounds(d, src, line);
  return 0;
}

int __fz_f18_allocatable_allocate_source(fz_desc *d, const fz_desc *source, _Bool has_stat,
                                         const fz_desc *errmsg, const char *src, int line) {
  (void)has_stat, (void)errmsg;
  fz_allocate_bounds(d, src, line);
  fz_assign(d, source, src, line);
  return 0;
}

static void fz_deallocate_components(fz_desc *d);

/* DEALLOCATE through the runtime: flang calls it for arrays of a derived type with
 * allocatable components (whose components the runtime would deallocate first). The
 * elements' allocatable components are freed, by the type description in the
 * descriptor (hpc37: they leaked, tests/fortran/78), then the storage (the pass hands
 * the shadows' storage to its table of shadows, freed once the reverse sweep is done
 * with them), and the descriptor is left unallocated.
 *
 * An object whose type needs finalization (a FINAL procedure of its own or of a
 * component's type: the type description's `noFinalizationNeeded` is clear) is refused
 * (hpc38): its FINAL procedure would run on the primal here, in the forward sweep, and
 * free memory (the components it deallocates, through flang's own runtime) that the
 * reverse sweep still reads; it used to be skipped silently (tests/fortran/91). A local
 * (non-allocatable) variable of such a type is finalized by `_FortranADestroy`, which
 * the pass runs after the reverse sweep (tests/fortran/72). */
static int fz_needs_finalization(const fz_desc *d);

int __fz_f18_allocatable_deallocate(fz_desc *d, _Bool has_stat, const fz_desc *errmsg,
                                    const char *src, int line) {
  (void)has_stat, (void)errmsg;
  if (!d->base) __fz_f18_fail("DEALLOCATE of an array that is not allocated", src, line);
  if (fz_needs_finalization(d))
    __fz_f18_fail("DEALLOCATE, in differentiated code, of an object whose type has a FINAL "
                  "procedure (its own or a component's) is not differentiated: the FINAL "
                  "procedure would free memory the reverse sweep still reads. Deallocate it "
                  "outside the differentiated routine, or make it a local variable that is "
                  "not allocatable (finalized when the routine returns, after the reverse "
                  "sweep)",
                  src, line);
  fz_deallocate_components(d);
  free(d->base);
  d->base = 0;
  return 0;
}

/* ALLOCATE and DEALLOCATE of a POINTER array (`real(8), pointer :: p(:)`; hpc40,
 * tests/fortran/98, 99): PointerSetBounds is AllocatableSetBounds; PointerAllocate allocates
 * whatever the pointer was associated with (flang re-points it, its old target stays), and
 * keeps the descriptor's pointer attribute; PointerDeallocate frees like DEALLOCATE of an
 * allocatable. flang's own PointerAllocate also gives a derived type's objects their
 * default values (`type(node), pointer :: next => null()`, `real(8) :: v = 0`): here as
 * Initialize's implementation below does it (f43, tests/fortran/117; it stopped the
 * program before). The storage is plain malloc'd memory without flang's
 * footer, so a pointer allocated in differentiated code must be deallocated there too
 * (flang's runtime refuses the DEALLOCATE otherwise, at run time). */
int __fz_f18_pointer_allocate(fz_desc *d, _Bool has_stat, const fz_desc *errmsg,
                              const char *src, int line, void *extra) {
  (void)has_stat, (void)errmsg, (void)extra;
  unsigned char attribute = d->attribute;
  d->base = 0;
  fz_allocate_bounds(d, src, line);
  d->attribute = attribute;
  if (d->type == FZ_STRUCT) {
    if (!(d->extra & 1))
      __fz_f18_fail("ALLOCATE of a POINTER to a derived type without its type description "
                    "is not differentiated",
                    src, line);
    /* As `__fz_f18_initialize` does (cleared, then flang's routine, inactive), without
     * calling it: a call from here would give type analysis the pointer's descriptor at
     * every program's Initialize (tests/fortran/74, 80: cannot-deduce-type). */
    fz_view v;
    fz_shape sh;
    fz_view_of(d, &v, &sh);
    __builtin_memset(d->base, 0, (size_t)fz_elements(&v) * d->elem_len);
    __fz_f18_initialize_inactive(d, src, line);
  }
  return 0;
}

/* `allocate (p, source = x)` of a POINTER: PointerAllocate, then the assignment. */
int __fz_f18_pointer_allocate_source(fz_desc *d, const fz_desc *source, _Bool has_stat,
                                     const fz_desc *errmsg, const char *src, int line) {
  __fz_f18_pointer_allocate(d, has_stat, errmsg, src, line, 0);
  fz_assign(d, source, src, line);
  return 0;
}

int __fz_f18_pointer_deallocate(fz_desc *d, _Bool has_stat, const fz_desc *errmsg,
                                const char *src, int line) {
  return __fz_f18_allocatable_deallocate(d, has_stat, errmsg, src, line);
}

/* Copy-in/copy-out of a non-contiguous actual argument (a strided or reversed section
 * passed to an explicit-shape or assumed-size dummy): CopyInAssign gives the temporary
 * `temp` var's type and rank, allocates it contiguous and assigns var into it;
 * CopyOutAssign assigns it back into var (when the dummy may be written: var is null
 * otherwise) and deallocates it. Both are the assignments above, so the derivative flows
 * through the temporary and back. */
FZ_INLINE void fz_copy_in_header(fz_desc *temp, const fz_desc *var, const char *src, int line) {
  temp->base = 0;
  temp->elem_len = var->elem_len;
  temp->version = var->version;
  temp->rank = var->rank;
  temp->type = var->type;
  temp->attribute = FZ_ALLOCATABLE;
  temp->extra = 0;
  if (var->rank == 0) __fz_f18_fail("copy-in of a scalar is not differentiated", src, line);
}

void __fz_f18_copy_in_assign(fz_desc *temp, const fz_desc *var, const char *src, int line) {
  fz_copy_in_header(temp, var, src, line);
  fz_assign(temp, var, src, line);
}

void __fz_f18_copy_out_assign(fz_desc *var, fz_desc *temp, const char *src, int line) {
  if (var) fz_assign(var, temp, src, line);
  free(temp->base);
  temp->base = 0;
}

/* `to = from` with real(8) data on both sides, read and written as doubles only. */
static void fz_assign_r8_r8(fz_desc *to, const fz_desc *from, const char *src, int line) {
  if (from->type != FZ_REAL8 || to->type != FZ_REAL8)
    __fz_f18_fail("copy-in/copy-out of a real(8) array with other data in differentiated code",
                  src, line);
  fz_view vf, vt;
  fz_shape sf, st;
  fz_assign_shape(to, from, 8, FZ_REAL8, &vf, &sf, &vt, &st);
  long n = fz_elements(&vt);
  for (long e = 0; e < n; e++) *(double *)fz_at(&vt, e) = *(const double *)fz_at(&vf, e);
}

/* CopyInAssign / CopyOutAssign of a real(8) variable whose type the IR fixes (the pass
 * redirects such calls here: its descriptor is built with the real(8) type code, and
 * the temporary gets the variable's type). The generic routines also move floats (behind
 * run-time tests), which type analysis sees: the variable, also copied with `memcpy`
 * (flang's temporary of an elemental result), looked like doubles and floats at once, a
 * cannot-deduce-type error at the `memcpy` (tests/fortran/86 at -O2). */
void __fz_f18_copy_in_assign_r8(fz_desc *temp, const fz_desc *var, const char *src,
                                int line) {
  fz_copy_in_header(temp, var, src, line);
  fz_assign_r8_r8(temp, var, src, line);
}

void __fz_f18_copy_out_assign_r8(fz_desc *var, fz_desc *temp, const char *src, int line) {
  if (var) fz_assign_r8_r8(var, temp, src, line);
  free(temp->base);
  temp->base = 0;
}

/* MATMUL of real operands into an unallocated result: (m,k)x(k,n), (m,k)x(k) or
 * (k)x(k,n). */
void __fz_f18_matmul(fz_desc *r, const fz_desc *x, const fz_desc *y, int type,
                     const char *src, int line) {
  fz_need_real(x, "MATMUL of non-real data in differentiated code", src, line);
  fz_need_real(y, "MATMUL of non-real data in differentiated code", src, line);
  fz_view vx, vy, vr;
  fz_shape sx, sy, sr;
  fz_matmul_dims g;
  fz_matmul_shape(r, x, y, type == FZ_REAL8 ? 8 : 4, type, &vx, &sx, &vy, &sy, &vr, &sr, &g, src, line);
  long m = g.m, k = g.k, n = g.n, xs0 = g.xs0, xs1 = g.xs1, ys0 = g.ys0, ys1 = g.ys1;
  for (long j = 0; j < n; j++)
    for (long i = 0; i < m; i++) {
      double s = 0;
      for (long l = 0; l < k; l++) {
        const char *px = vx.base + i * xs0 + l * xs1;
        const char *py = vy.base + l * ys0 + j * ys1;
        double a = vx.type == FZ_REAL8 ? *(const double *)px : (double)*(const float *)px;
        double b = vy.type == FZ_REAL8 ? *(const double *)py : (double)*(const float *)py;
        s += a * b;
      }
      fz_put(&vr, i + j * m, s);
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

double __fz_f18_product(const fz_desc *x, const fz_desc *mask) {
  fz_view v, mv;
  fz_shape sv, smv;
  long n = fz_view_masked(x, mask, &v, &sv, &mv, &smv);
  double p = 1;
  for (long e = 0; e < n; e++)
    if (fz_mask(mask, &mv, e)) p *= fz_get(&v, e);
  return p;
}

double __fz_f18_product_r8(const fz_desc *x, const char *src, int line, int dim,
                           const fz_desc *mask) {
  (void)dim;
  fz_need_real(x, "PRODUCT of non-real data in differentiated code", src, line);
  return __fz_f18_product(x, mask);
}

float __fz_f18_product_r4(const fz_desc *x, const char *src, int line, int dim,
                          const fz_desc *mask) {
  (void)dim;
  fz_need_real(x, "PRODUCT of non-real data in differentiated code", src, line);
  return (float)__fz_f18_product(x, mask);
}

/* NORM2 as sqrt(sum(x**2)) (the runtime scales to avoid overflow; the derivative is the
 * same where both are finite). */
double __fz_f18_norm2_8(const fz_desc *x, const char *src, int line, int dim) {
  (void)dim;
  fz_need_real(x, "NORM2 of non-real data in differentiated code", src, line);
  fz_view v;
  fz_shape sv;
  fz_view_of(x, &v, &sv);
  long n = fz_elements(&v);
  double s = 0;
  for (long e = 0; e < n; e++) {
    double t = fz_get(&v, e);
    s += t * t;
  }
  return __builtin_sqrt(s);
}

float __fz_f18_norm2_4(const fz_desc *x, const char *src, int line, int dim) {
  return (float)__fz_f18_norm2_8(x, src, line, dim);
}

/* TRANSPOSE of a real matrix into an unallocated result. */
static void fz_transpose_complex(fz_desc *r, const fz_desc *x, const char *src, int line);

void __fz_f18_transpose(fz_desc *r, const fz_desc *x, const char *src, int line) {
  if (fz_is_complex(x->type)) {
    fz_transpose_complex(r, x, src, line);
    return;
  }
  fz_need_real(x, "TRANSPOSE of non-real data in differentiated code", src, line);
  fz_view vx, vr;
  fz_shape sx, sr;
  long ext[2];
  fz_transpose_shape(r, x, x->type == FZ_REAL8 ? 8 : 4, x->type, &vx, &sx, &vr, &sr, ext, src, line);
  for (long j = 0; j < ext[1]; j++)
    for (long i = 0; i < ext[0]; i++) {
      const char *p = vx.base + j * sx.sm[0] + i * sx.sm[1];
      double t = vx.type == FZ_REAL8 ? *(const double *)p : (double)*(const float *)p;
      fz_put(&vr, i + j * ext[0], t);
    }
}

/* RESHAPE of real data into an unallocated result whose shape is the integer vector
 * `shape`. The elements of `x` in array element order, then those of PAD (same type)
 * repeated, fill the result in the permuted subscript order ORDER (the result's dimension
 * ORDER(1) varies fastest; hpc38: PAD and ORDER were refused). */
static long fz_int_element(const fz_desc *d, const fz_view *v, long k) {
  const char *p = fz_at(v, k);
  return d->elem_len == 8 ? *(const long *)p : (long)*(const int *)p;
}

void __fz_f18_reshape(fz_desc *r, const fz_desc *x, const fz_desc *shape, const fz_desc *pad,
                      const fz_desc *order, const char *src, int line) {
  if (!fz_is_moved(x->type))
    __fz_f18_fail("RESHAPE of non-real data in differentiated code", src, line);
  if (pad && pad->type != x->type)
    __fz_f18_fail("RESHAPE with a PAD of another type than the SOURCE", src, line);
  fz_view vx, vs, vr, vp, vo;
  fz_shape sx, ss, sr, sp, so;
  fz_view_of(x, &vx, &sx);
  fz_view_of(shape, &vs, &ss);
  int rank = (int)fz_elements(&vs);
  if (rank < 1 || rank > 15) __fz_f18_fail("RESHAPE to an invalid rank", src, line);
  long ext[15], stride[15], idx[15];
  int perm[15], seen[15];
  for (int k = 0; k < rank; k++) {
    ext[k] = fz_int_element(shape, &vs, k);
    perm[k] = k;
    seen[k] = 0;
    idx[k] = 0;
  }
  if (order) {
    fz_view_of(order, &vo, &so);
    if (fz_elements(&vo) != rank)
      __fz_f18_fail("RESHAPE with an ORDER of another size than SHAPE", src, line);
    for (int k = 0; k < rank; k++) {
      long d = fz_int_element(order, &vo, k) - 1;
      if (d < 0 || d >= rank || seen[d])
        __fz_f18_fail("RESHAPE with an ORDER that is not a permutation", src, line);
      seen[d] = 1;
      perm[k] = (int)d;
    }
  }
  r->base = 0;
  __fz_f18_allocate(r, rank, ext, fz_moved_len(x->type), x->type);
  r->attribute = FZ_ALLOCATABLE;
  fz_view_of(r, &vr, &sr);
  long n = fz_elements(&vr), nx = fz_elements(&vx), np = 0;
  if (pad) {
    fz_view_of(pad, &vp, &sp);
    np = fz_elements(&vp);
  }
  if (n > nx && np == 0) __fz_f18_fail("RESHAPE source too small for the shape", src, line);
  stride[0] = 1;
  for (int k = 1; k < rank; k++) stride[k] = stride[k - 1] * ext[k - 1];
  for (long e = 0; e < n; e++) {
    long at = 0;
    for (int k = 0; k < rank; k++) at += idx[k] * stride[k];
    if (e < nx)
      fz_move(&vr, at, &vx, e);
    else
      fz_move(&vr, at, &vp, (e - nx) % np);
    for (int k = 0; k < rank; k++) {
      int d = perm[k];
      if (++idx[d] < ext[d]) break;
      idx[d] = 0;
    }
  }
}

/* ---- array constructors `[x, y(n:1:-1), ...]` of reals ---------------------------------
 *
 * flang builds a constructor whose size it cannot compute from the values through
 * InitArrayConstructorVector(vector, to, ...) and one PushArrayConstructorValue(vector,
 * value) per value (PushArrayConstructorSimpleScalar(vector, &x) for a scalar of the
 * result's type, as `[(x(i) * i, i = 1, n)]` pushes). `vector` is an opaque buffer of the caller's (80 bytes); these
 * implementations keep their own state there, `to` first as flang's does. Non-real
 * constructors go to flang's own routines (renamed back after differentiation), which
 * the Push implementation recognises by `to`'s type. */
typedef struct {
  fz_desc *to;
  long next; /* elements stored */
  long cap;  /* elements `to` holds */
  const char *src;
  long line;
} fz_ctor;

void __fz_f18_ctor_init(void *vector, fz_desc *to, _Bool use_len, const char *src, int line) {
  if (!fz_is_real(to->type)) {
    __fz_f18_ctor_init_inactive(vector, to, use_len, src, line);
    return;
  }
  fz_ctor *v = (fz_ctor *)vector;
  v->to = to;
  v->next = 0;
  v->cap = to->base ? (to->rank == 1 ? to->dim[0].extent : 0) : 0;
  v->src = src;
  v->line = line;
}

/* Makes room for `n` more elements in the constructor's result. */
static void fz_ctor_reserve(fz_ctor *v, long n) {
  fz_desc *to = v->to;
  if (v->next + n > v->cap) {
    /* Grow to exactly what is needed: copy what is there, free the old storage. */
    if (to->rank != 1 || (to->base && to->attribute != FZ_ALLOCATABLE))
      __fz_f18_fail("an array constructor larger than its preallocated result", v->src,
                    (int)v->line);
    char *old = to->base;
    long want = v->next + n;
    to->base = 0;
    __fz_f18_allocate(to, 1, &want, to->type == FZ_REAL8 ? 8 : 4, to->type);
    for (long e = 0; e < v->next; e++) {
      if (to->type == FZ_REAL8)
        ((double *)to->base)[e] = ((const double *)old)[e];
      else
        ((float *)to->base)[e] = ((const float *)old)[e];
    }
    if (old) free(old);
    v->cap = want;
  }
}

void __fz_f18_ctor_push(void *vector, const fz_desc *from) {
  fz_ctor *v = (fz_ctor *)vector;
  fz_desc *to = v->to;
  if (!fz_is_real(to->type)) {
    __fz_f18_ctor_push_inactive(vector, from);
    return;
  }
  fz_need_real(from, "a real array constructor with a non-real value in differentiated code",
               v->src, (int)v->line);
  fz_view vf;
  fz_shape sf;
  fz_view_of(from, &vf, &sf);
  long n = fz_elements(&vf);
  fz_ctor_reserve(v, n);
  fz_view vt;
  fz_shape st;
  fz_view_of(to, &vt, &st);
  for (long e = 0; e < n; e++) fz_put(&vt, v->next + e, fz_get(&vf, e));
  v->next += n;
}

/* One scalar of the result's own type at `from`. */
void __fz_f18_ctor_push_scalar(void *vector, const void *from) {
  fz_ctor *v = (fz_ctor *)vector;
  fz_desc *to = v->to;
  if (!fz_is_real(to->type)) {
    __fz_f18_ctor_push_scalar_inactive(vector, from);
    return;
  }
  fz_ctor_reserve(v, 1);
  fz_view vt;
  fz_shape st;
  fz_view_of(to, &vt, &st);
  fz_put(&vt, v->next, to->type == FZ_REAL8 ? *(const double *)from : *(const float *)from);
  v->next += 1;
}

/* ---- SUM/MAXVAL/MINVAL(x, DIM=), CSHIFT, SPREAD of reals -------------------------------
 *
 * Array results, allocated here as flang's runtime does (the caller frees them). Data
 * that are not real go to flang's own routines through inactive aliases. Element
 * numbers are in array-element order; `fz_split`/`fz_join` convert them to and from
 * subscripts (0-based). */
FZ_INLINE void fz_split(const long *ext, int rank, long e, long *idx) {
  for (int k = 0; k < rank; k++) {
    idx[k] = ext[k] > 0 ? e % ext[k] : 0;
    e = ext[k] > 0 ? e / ext[k] : 0;
  }
}

FZ_INLINE long fz_join(const long *ext, int rank, const long *idx) {
  long e = 0, m = 1;
  for (int k = 0; k < rank; k++) {
    e += idx[k] * m;
    m *= ext[k];
  }
  return e;
}

FZ_INLINE long fz_count(const long *ext, int rank) {
  long n = 1;
  for (int k = 0; k < rank; k++) n *= ext[k] > 0 ? ext[k] : 0;
  return n;
}

/* Element e of the result = the sum (or with `product`, the complex product) of the line of
 * complex x through subscripts `idx` along `dim`. */
FZ_INLINE void fz_reduce_line_complex(const fz_view *vr, long e, const fz_view *vx,
                                      const long *ext, int rank, long *idx, int dim,
                                      int product) {
  double ar = product ? 1.0 : 0.0, ai = 0.0;
  for (long t = 0; t < ext[dim - 1]; t++) {
    idx[dim - 1] = t;
    long f = fz_join(ext, rank, idx);
    fz_zfold(&ar, &ai, fz_zget(vx, f, 0), fz_zget(vx, f, 1), product);
  }
  fz_zput(vr, e, ar, ai);
}

/* The reduction of x along dimension `dim` (1-based): 0 sum, 1 max, 2 min, 3 product,
 * 4 the Euclidean norm (NORM2); of complex data sum and product (fz_reduce_line_complex).
 * Real data may have a MASK of x's shape, or a scalar one (hpc37): the elements where it
 * is false are left out (an empty line gives the operation's identity, as flang's). */
static void fz_reduce_dim(fz_desc *r, const fz_desc *x, int dim, int how, const fz_desc *mask,
                          const char *src, int line) {
  fz_view vx, vr, vm;
  fz_shape sx, sr, sm;
  fz_view_of(x, &vx, &sx);
  if (mask) {
    fz_view_of(mask, &vm, &sm);
    if (fz_is_complex(x->type))
      __fz_f18_fail("SUM or PRODUCT of a complex array with DIM= and MASK= is not "
                    "differentiated; drop the MASK",
                    src, line);
  }
  int rank = sx.rank;
  if (dim < 1 || dim > rank) __fz_f18_fail("DIM= out of range", src, line);
  long ext[15], rext[15], idx[15];
  for (int k = 0; k < rank; k++) ext[k] = sx.extent[k];
  for (int k = 0, j = 0; k < rank; k++)
    if (k != dim - 1) rext[j++] = ext[k];
  r->base = 0;
  __fz_f18_allocate(r, rank - 1, rext, fz_moved_len(x->type), x->type);
  r->attribute = FZ_ALLOCATABLE;
  fz_view_of(r, &vr, &sr);
  long nr = fz_count(rext, rank - 1), len = ext[dim - 1];
  for (long e = 0; e < nr; e++) {
    long ridx[15];
    fz_split(rext, rank - 1, e, ridx);
    for (int k = 0, j = 0; k < rank; k++) idx[k] = k == dim - 1 ? 0 : ridx[j++];
    if (fz_is_complex(x->type)) {
      fz_reduce_line_complex(&vr, e, &vx, ext, rank, idx, dim, how == 3);
      continue;
    }
    double acc = how == 0 || how == 4 ? 0.0
                 : how == 3       ? 1.0
                 : how == 1       ? -__builtin_huge_val()
                                  : __builtin_huge_val();
    for (long t = 0; t < len; t++) {
      idx[dim - 1] = t;
      long f = fz_join(ext, rank, idx);
      if (mask && !fz_mask(mask, &vm, sm.rank > 0 ? f : 0)) continue;
      double v = fz_get(&vx, f);
      if (how == 0)
        acc += v;
      else if (how == 3)
        acc *= v;
      else if (how == 4)
        acc += v * v;
      else if (how == 1 ? v > acc : v < acc)
        acc = v;
    }
    fz_put(&vr, e, how == 4 ? __builtin_sqrt(acc) : acc);
  }
}

void __fz_f18_sum_dim(fz_desc *r, const fz_desc *x, int dim, const char *src, int line,
                      const fz_desc *mask) {
  if (!fz_is_moved(x->type)) {
    __fz_f18_sum_dim_inactive(r, x, dim, src, line, mask);
    return;
  }
  fz_reduce_dim(r, x, dim, 0, mask, src, line);
}

void __fz_f18_maxval_dim(fz_desc *r, const fz_desc *x, int dim, const char *src, int line,
                         const fz_desc *mask) {
  if (!fz_is_real(x->type)) {
    fz_no_complex(x, src, line);
    __fz_f18_maxval_dim_inactive(r, x, dim, src, line, mask);
    return;
  }
  fz_reduce_dim(r, x, dim, 1, mask, src, line);
}

void __fz_f18_minval_dim(fz_desc *r, const fz_desc *x, int dim, const char *src, int line,
                         const fz_desc *mask) {
  if (!fz_is_real(x->type)) {
    fz_no_complex(x, src, line);
    __fz_f18_minval_dim_inactive(r, x, dim, src, line, mask);
    return;
  }
  fz_reduce_dim(r, x, dim, 2, mask, src, line);
}

void __fz_f18_product_dim(fz_desc *r, const fz_desc *x, int dim, const char *src, int line,
                          const fz_desc *mask) {
  if (!fz_is_moved(x->type)) {
    __fz_f18_product_dim_inactive(r, x, dim, src, line, mask);
    return;
  }
  fz_reduce_dim(r, x, dim, 3, mask, src, line);
}

/* NORM2(x, DIM=): reals only (the standard's). */
void __fz_f18_norm2_dim(fz_desc *r, const fz_desc *x, int dim, const char *src, int line) {
  fz_need_real(x, "NORM2 of a non-real array in differentiated code", src, line);
  fz_reduce_dim(r, x, dim, 4, 0, src, line);
}

/* The value of a scalar INTEGER of any kind (a SHIFT argument). */
FZ_INLINE long fz_scalar_int(const fz_desc *d) {
  switch (d->elem_len) {
  case 1: return *(const signed char *)d->base;
  case 2: return *(const short *)d->base;
  case 4: return *(const int *)d->base;
  default: return *(const long *)d->base;
  }
}

/* Gives `r` a fresh allocatable result of x's type and shape (x's extents, also into
 * `ext`) and views it through `vr`. */
FZ_INLINE void fz_result_like(fz_desc *r, const fz_desc *x, const fz_shape *sx, long *ext,
                              fz_view *vr, fz_shape *sr) {
  for (int k = 0; k < sx->rank; k++) ext[k] = sx->extent[k];
  r->base = 0;
  __fz_f18_allocate(r, sx->rank, ext, fz_moved_len(x->type), x->type);
  r->attribute = FZ_ALLOCATABLE;
  fz_view_of(r, vr, sr);
}

/* CSHIFT by a scalar shift along `dim` (1-based) into a fresh result of x's shape. */
static void fz_cshift(fz_desc *r, const fz_desc *x, long shift, int dim, const char *src,
                      int line) {
  fz_view vx, vr;
  fz_shape sx, sr;
  fz_view_of(x, &vx, &sx);
  int rank = sx.rank;
  if (dim < 1 || dim > rank) __fz_f18_fail("CSHIFT's DIM out of range", src, line);
  long ext[15], idx[15];
  fz_result_like(r, x, &sx, ext, &vr, &sr);
  long n = fz_count(ext, rank), len = ext[dim - 1];
  for (long e = 0; e < n; e++) {
    fz_split(ext, rank, e, idx);
    long s = (idx[dim - 1] + shift) % len;
    idx[dim - 1] = s < 0 ? s + len : s;
    fz_move(&vr, e, &vx, fz_join(ext, rank, idx));
  }
}

void __fz_f18_cshift(fz_desc *r, const fz_desc *x, const fz_desc *shift, int dim,
                     const char *src, int line) {
  if (!fz_is_moved(x->type)) {
    __fz_f18_cshift_inactive(r, x, shift, dim, src, line);
    return;
  }
  if (shift->rank != 0)
    __fz_f18_fail("CSHIFT with an array SHIFT is not differentiated; shift by a scalar", src,
                  line);
  long k = fz_scalar_int(shift);
  fz_cshift(r, x, k, dim, src, line);
}

void __fz_f18_cshift_vector(fz_desc *r, const fz_desc *x, long shift, const char *src, int line) {
  if (!fz_is_moved(x->type)) {
    __fz_f18_cshift_vector_inactive(r, x, shift, src, line);
    return;
  }
  fz_cshift(r, x, shift, 1, src, line);
}

/* SPREAD and PACK come in three versions each: the generic one moves elements of the type
 * the descriptor's type code says at run time (real(4), real(8), complex), and the `_r8`
 * and `_r4` ones move real(8) or real(4) elements only (stopping on any other type). The
 * pass calls a typed one where the IR fixes the source descriptor's type code (flang
 * builds it with a constant one): the generic one also reads the source as floats and as
 * doubles (behind run-time tests, which type analysis does not see through), so an array
 * that flang also copies with `memcpy` (-O2's inline CSHIFT of the same `x`) looked like
 * floats and doubles at once, and the copy stopped at run time (tests/fortran/108 at
 * -O2). The shared bodies take the type code as an argument: a constant in the typed
 * versions, where the branches on it fold away. */

/* A view of d's elements as data of type code `type`. */
FZ_INLINE void fz_typed_view(const fz_desc *d, int type, fz_view *v, fz_shape *s) {
  fz_view_of(d, v, s);
  v->type = type;
}

/* SPREAD(x, dim, ncopies): a result of rank x's + 1 with `ncopies` copies along `dim`. */
FZ_INLINE void fz_spread(fz_desc *r, const fz_desc *x, int type, int dim, long ncopies,
                         const char *src, int line) {
  fz_view vx, vr;
  fz_shape sx, sr;
  fz_typed_view(x, type, &vx, &sx);
  int rank = sx.rank + 1;
  if (dim < 1 || dim > rank || rank > 15) __fz_f18_fail("SPREAD's DIM out of range", src, line);
  long ext[15], xext[15], idx[15], xidx[15];
  for (int k = 0; k < sx.rank; k++) xext[k] = sx.extent[k];
  for (int k = 0, j = 0; k < rank; k++) ext[k] = k == dim - 1 ? (ncopies > 0 ? ncopies : 0) : xext[j++];
  r->base = 0;
  __fz_f18_allocate(r, rank, ext, fz_moved_len(type), type);
  r->attribute = FZ_ALLOCATABLE;
  fz_typed_view(r, type, &vr, &sr);
  long n = fz_count(ext, rank);
  for (long e = 0; e < n; e++) {
    fz_split(ext, rank, e, idx);
    for (int k = 0, j = 0; k < rank; k++)
      if (k != dim - 1) xidx[j++] = idx[k];
    fz_move(&vr, e, &vx, fz_join(xext, rank - 1, xidx));
  }
}

void __fz_f18_spread(fz_desc *r, const fz_desc *x, int dim, long ncopies, const char *src,
                     int line) {
  if (!fz_is_moved(x->type)) {
    __fz_f18_spread_inactive(r, x, dim, ncopies, src, line);
    return;
  }
  fz_spread(r, x, x->type, dim, ncopies, src, line);
}

#define FZ_SPREAD_TYPED(name, kind, what)                                                 \
  void name(fz_desc *r, const fz_desc *x, int dim, long ncopies, const char *src, int line) { \
    fz_need_type(x, kind, "SPREAD's ARRAY is not " what, src, line);        \
    fz_spread(r, x, kind, dim, ncopies, src, line);                                          \
  }
FZ_SPREAD_TYPED(__fz_f18_spread_r8, FZ_REAL8, "real(8)")
FZ_SPREAD_TYPED(__fz_f18_spread_r4, FZ_REAL4, "real(4)")

/* PACK(x, mask [, vector]): the elements of x where mask is true, in array-element order,
 * into a fresh rank-1 result; with VECTOR the result has its size and its trailing
 * elements come from it. A scalar mask selects all elements or none. */
FZ_INLINE void fz_pack(fz_desc *r, const fz_desc *x, int type, const fz_desc *mask,
                       const fz_desc *vector, const char *src, int line) {
  fz_view vx, vm, vr, vv;
  fz_shape sx, sm, sr, sv;
  fz_typed_view(x, type, &vx, &sx);
  fz_view_of(mask, &vm, &sm);
  long n = fz_elements(&vx), count = 0;
  for (long e = 0; e < n; e++) count += fz_mask(mask, &vm, sm.rank ? e : 0);
  long len = count;
  if (vector) {
    fz_need_type(vector, type, "PACK's VECTOR of another type than its ARRAY", src, line);
    fz_typed_view(vector, type, &vv, &sv);
    len = fz_elements(&vv);
    if (len < count) __fz_f18_fail("PACK's VECTOR is shorter than the packed elements", src, line);
  }
  r->base = 0;
  __fz_f18_allocate(r, 1, &len, fz_moved_len(type), type);
  r->attribute = FZ_ALLOCATABLE;
  fz_typed_view(r, type, &vr, &sr);
  long k = 0;
  for (long e = 0; e < n; e++)
    if (fz_mask(mask, &vm, sm.rank ? e : 0)) fz_move(&vr, k++, &vx, e);
  for (; k < len; k++) fz_move(&vr, k, &vv, k);
}

void __fz_f18_pack(fz_desc *r, const fz_desc *x, const fz_desc *mask, const fz_desc *vector,
                   const char *src, int line) {
  if (!fz_is_moved(x->type)) {
    __fz_f18_pack_inactive(r, x, mask, vector, src, line);
    return;
  }
  fz_pack(r, x, x->type, mask, vector, src, line);
}

#define FZ_PACK_TYPED(name, kind, what)                                                   \
  void name(fz_desc *r, const fz_desc *x, const fz_desc *mask, const fz_desc *vector,      \
            const char *src, int line) {                                                   \
    fz_need_type(x, kind, "PACK's ARRAY is not " what, src, line);          \
    fz_pack(r, x, kind, mask, vector, src, line);                                            \
  }
FZ_PACK_TYPED(__fz_f18_pack_r8, FZ_REAL8, "real(8)")
FZ_PACK_TYPED(__fz_f18_pack_r4, FZ_REAL4, "real(4)")

/* UNPACK(VECTOR, MASK, FIELD): the result has MASK's shape; where MASK is true it takes
 * the next element of VECTOR, elsewhere FIELD's element (FIELD conformable with MASK, or
 * a scalar); reals or complex numbers. Both sources are moves, so each derivative flows
 * back to the element it came from. */
void __fz_f18_unpack(fz_desc *r, const fz_desc *vector, const fz_desc *mask,
                     const fz_desc *field, const char *src, int line) {
  if (!fz_is_moved(vector->type)) {
    __fz_f18_unpack_inactive(r, vector, mask, field, src, line);
    return;
  }
  if (field->type != vector->type)
    __fz_f18_fail("UNPACK's FIELD of another type than its VECTOR", src, line);
  fz_view vv, vm, vf, vr;
  fz_shape sv, sm, sf, sr;
  fz_view_of(vector, &vv, &sv);
  fz_view_of(mask, &vm, &sm);
  fz_view_of(field, &vf, &sf);
  long n = fz_elements(&vm), count = 0;
  for (long e = 0; e < n; e++) count += fz_mask(mask, &vm, e);
  if (count > fz_elements(&vv))
    __fz_f18_fail("UNPACK's VECTOR is shorter than the true elements of its MASK", src, line);
  r->base = 0;
  __fz_f18_allocate(r, sm.rank, sm.extent, fz_moved_len(vector->type), vector->type);
  r->attribute = FZ_ALLOCATABLE;
  fz_view_of(r, &vr, &sr);
  long k = 0;
  for (long e = 0; e < n; e++) {
    if (fz_mask(mask, &vm, e))
      fz_move(&vr, e, &vv, k++);
    else
      fz_move(&vr, e, &vf, sf.rank ? e : 0);
  }
}

/* EOSHIFT by a scalar shift along `dim` (1-based): the elements shifted out are lost,
 * the ones shifted in are BOUNDARY's (zero without one): a scalar, or an array of the
 * array's shape without dimension `dim` whose element at the other subscripts fills that
 * line (hpc38; it was refused); reals or complex numbers (an element's parts move
 * together). */
static void fz_eoshift(fz_desc *r, const fz_desc *x, long shift, const fz_desc *boundary,
                       int dim, const char *src, int line) {
  fz_view vx, vr, vb;
  fz_shape sx, sr, sb;
  fz_view_of(x, &vx, &sx);
  int rank = sx.rank;
  if (dim < 1 || dim > rank) __fz_f18_fail("EOSHIFT's DIM out of range", src, line);
  if (boundary) {
    if (!fz_is_moved(boundary->type) || fz_is_complex(boundary->type) != fz_is_complex(x->type))
      __fz_f18_fail("EOSHIFT's BOUNDARY of another type than its ARRAY", src, line);
    if (boundary->rank != 0 && boundary->rank != rank - 1)
      __fz_f18_fail("EOSHIFT's BOUNDARY is neither a scalar nor of rank one less than its ARRAY",
                    src, line);
    fz_view_of(boundary, &vb, &sb);
  }
  long ext[15], idx[15], bext[15], bidx[15];
  fz_result_like(r, x, &sx, ext, &vr, &sr);
  long n = fz_count(ext, rank), len = ext[dim - 1];
  int brank = boundary ? sb.rank : 0;
  for (int k = 0, m = 0; k < rank && brank; k++)
    if (k != dim - 1) {
      bext[m] = ext[k];
      if (sb.extent[m++] != ext[k])
        __fz_f18_fail("EOSHIFT's BOUNDARY does not have its ARRAY's shape without DIM", src,
                      line);
    }
  for (long e = 0; e < n; e++) {
    fz_split(ext, rank, e, idx);
    long s = idx[dim - 1] + shift;
    if (s >= 0 && s < len) {
      idx[dim - 1] = s;
      fz_move(&vr, e, &vx, fz_join(ext, rank, idx));
    } else if (boundary) {
      for (int k = 0, m = 0; k < rank && brank; k++)
        if (k != dim - 1) bidx[m++] = idx[k];
      fz_move(&vr, e, &vb, brank ? fz_join(bext, brank, bidx) : 0);
    } else {
      fz_clear(&vr, e);
    }
  }
}

void __fz_f18_eoshift(fz_desc *r, const fz_desc *x, const fz_desc *shift,
                      const fz_desc *boundary, int dim, const char *src, int line) {
  if (!fz_is_moved(x->type)) {
    __fz_f18_eoshift_inactive(r, x, shift, boundary, dim, src, line);
    return;
  }
  if (shift->rank != 0)
    __fz_f18_fail("EOSHIFT with an array SHIFT is not differentiated; shift by a scalar", src,
                  line);
  long k = fz_scalar_int(shift);
  fz_eoshift(r, x, k, boundary, dim, src, line);
}

void __fz_f18_eoshift_vector(fz_desc *r, const fz_desc *x, long shift, const fz_desc *boundary,
                             const char *src, int line) {
  if (!fz_is_moved(x->type)) {
    __fz_f18_eoshift_vector_inactive(r, x, shift, boundary, src, line);
    return;
  }
  fz_eoshift(r, x, shift, boundary, 1, src, line);
}

/* ---- Default initialization of derived-type objects ----------------------------------
 *
 * `type :: t; real(8) :: x = 0; ...` makes flang call Initialize on every new object of
 * the type (a local, a function result, an intent(out) dummy): it writes the constant
 * default values, nullifies pointer and allocatable components. Constants carry no
 * derivative, so the object's reals must end with a zero shadow (forward mode) and the
 * adjoint of what they held before must be dropped (reverse mode). Here the objects are
 * first cleared with a memset, which the pass differentiates whatever the bytes hold (the
 * shadow's bytes are cleared in forward mode, their adjoints in reverse mode), then flang's
 * routine initializes them (an inactive call: only flang knows the type's description).
 * (Until hpc34 flang initialized a scratch copy that was then copied over the objects: the
 * copy of an array of such objects, pointers, integers and reals by turns, could not be
 * typed, a cannot-deduce-type error for every array of a type with default values.) */
void __fz_f18_initialize(const fz_desc *d, const char *src, int line) {
  fz_view v;
  fz_shape s;
  fz_view_of(d, &v, &s);
  long n = fz_elements(&v);
  long contiguous = (long)d->elem_len;
  for (int k = 0; k < s.rank; k++) {
    if (s.extent[k] > 1 && s.sm[k] != contiguous)
      __fz_f18_fail("default initialization of a non-contiguous array of a derived type "
                    "cannot be differentiated",
                    src, line);
    contiguous *= s.extent[k];
  }
  size_t bytes = (size_t)n * d->elem_len;
  if (bytes == 0) return;
  __builtin_memset(d->base, 0, bytes);
  __fz_f18_initialize_inactive(d, src, line);
}

/* ---- SELECT RANK -------------------------------------------------------------------------
 *
 * CopyAndUpdateDescriptor(to, from, type, attribute, lower): the descriptor of an arm of
 * `select rank (a)` is the assumed-rank dummy's descriptor copied, with a new attribute
 * and its lower bounds kept (`lower` 0), set to ones (1) or to zeros (2). The copy moves
 * the base address, so the pass gives the new descriptor the shadow's (a store of a
 * pointer with a shadow); the dimensions are copied with constant indices (see
 * fz_shape). Integer, logical and character data go to flang's routine; a derived type
 * (whose copy would carry a type description) is not differentiated. */
#define FZ_COPY_DIM(k)                                                                   \
  if (from->rank > k) {                                                                  \
    to->dim[k].lower_bound = lower == 0 ? from->dim[k].lower_bound : lower == 1 ? 1 : 0; \
    to->dim[k].extent = from->dim[k].extent;                                            \
    to->dim[k].sm = from->dim[k].sm;                                                    \
  }

void __fz_f18_copy_and_update_descriptor(fz_desc *to, const fz_desc *from,
                                         const void *dynamic_type, signed char attribute,
                                         int lower) {
  if (!fz_is_moved(from->type)) {
    if (from->type == FZ_STRUCT || dynamic_type)
      __fz_f18_fail("SELECT RANK (or SELECT TYPE) of derived-type data through the Fortran "
                    "runtime (CopyAndUpdateDescriptor) is not differentiated; pass the real "
                    "arrays themselves",
                    0, 0);
    __fz_f18_copy_and_update_descriptor_inactive(to, from, dynamic_type, attribute, lower);
    return;
  }
  to->base = from->base;
  to->elem_len = from->elem_len;
  to->version = from->version;
  to->rank = from->rank;
  to->type = from->type;
  to->attribute = (unsigned char)attribute;
  to->extra = from->extra;
  FZ_COPY_DIM(0) FZ_COPY_DIM(1) FZ_COPY_DIM(2) FZ_COPY_DIM(3) FZ_COPY_DIM(4) FZ_COPY_DIM(5)
  FZ_COPY_DIM(6) FZ_COPY_DIM(7) FZ_COPY_DIM(8) FZ_COPY_DIM(9) FZ_COPY_DIM(10)
  FZ_COPY_DIM(11) FZ_COPY_DIM(12) FZ_COPY_DIM(13) FZ_COPY_DIM(14)
}

/* ---- FORALL's descriptor stack -----------------------------------------------------------
 *
 * A FORALL whose left-hand side flang does not address again in its assignment loop (an
 * element of an allocatable component: `forall (i = 1:n, j = 1:n) t%w(i, j) = ...`) first
 * saves every element's address as a descriptor: CreateDescriptorStack, PushDescriptor
 * per element, DescriptorAt in the assignment loop, DestroyDescriptorStack. The saved
 * descriptors hold pointers into differentiated data; kept here in plain C memory, the pass
 * gives the stack a shadow whose descriptors hold the shadow's addresses (as
 * CopyAndUpdateDescriptor's copy does). Index `at` counts from 0, as flang's. */
typedef struct {
  long n, cap;
  fz_desc *slot;
} fz_desc_stack;

#define FZ_STACK_DIM(k)                                                                  \
  if (from->rank > k) {                                                                  \
    to->dim[k].lower_bound = from->dim[k].lower_bound;                                   \
    to->dim[k].extent = from->dim[k].extent;                                             \
    to->dim[k].sm = from->dim[k].sm;                                                     \
  }

FZ_INLINE void fz_stack_copy(fz_desc *to, const fz_desc *from) {
  to->base = from->base;
  to->elem_len = from->elem_len;
  to->version = from->version;
  to->rank = from->rank;
  to->type = from->type;
  to->attribute = from->attribute;
  to->extra = from->extra;
  FZ_STACK_DIM(0) FZ_STACK_DIM(1) FZ_STACK_DIM(2) FZ_STACK_DIM(3) FZ_STACK_DIM(4)
  FZ_STACK_DIM(5) FZ_STACK_DIM(6) FZ_STACK_DIM(7) FZ_STACK_DIM(8) FZ_STACK_DIM(9)
  FZ_STACK_DIM(10) FZ_STACK_DIM(11) FZ_STACK_DIM(12) FZ_STACK_DIM(13) FZ_STACK_DIM(14)
}

void *__fz_f18_create_descriptor_stack(const char *src, int line) {
  (void)src, (void)line;
  fz_desc_stack *s = (fz_desc_stack *)malloc(sizeof(fz_desc_stack));
  s->n = 0;
  s->cap = 0;
  s->slot = 0;
  return s;
}

void __fz_f18_push_descriptor(void *stack, const fz_desc *d) {
  fz_desc_stack *s = (fz_desc_stack *)stack;
  if (d->extra & 1)
    __fz_f18_fail("a FORALL over elements of a derived type (a descriptor with a type "
                  "description) is not differentiated; write it as DO loops",
                  0, 0);
  if (s->n == s->cap) {
    long cap = s->cap ? 2 * s->cap : 16;
    fz_desc *slot = (fz_desc *)malloc((size_t)cap * sizeof(fz_desc));
    for (long k = 0; k < s->n; k++) fz_stack_copy(&slot[k], &s->slot[k]);
    if (s->slot) free(s->slot);
    s->slot = slot;
    s->cap = cap;
  }
  fz_stack_copy(&s->slot[s->n], d);
  s->n++;
}

void __fz_f18_descriptor_at(void *stack, long at, fz_desc *out) {
  fz_stack_copy(out, &((fz_desc_stack *)stack)->slot[at]);
}

void __fz_f18_destroy_descriptor_stack(void *stack) {
  fz_desc_stack *s = (fz_desc_stack *)stack;
  if (s->slot) free(s->slot);
  free(s);
}

/* ---- MOVE_ALLOC -------------------------------------------------------------------------
 *
 * `call move_alloc(from, to)`: `to` is deallocated if allocated, takes `from`'s storage
 * and bounds, and `from` becomes unallocated. Only pointers and integers move: the pass
 * moves the shadow storage with the primal one (a store of a pointer with a shadow), and
 * the deallocation is deferred to the end of the reverse sweep like any free. */
#define FZ_MOVE_DIM(k)                                                                   \
  if (from->rank > k) {                                                                  \
    to->dim[k].lower_bound = from->dim[k].lower_bound;                                   \
    to->dim[k].extent = from->dim[k].extent;                                             \
    to->dim[k].sm = from->dim[k].sm;                                                     \
  }

int __fz_f18_move_alloc(fz_desc *to, fz_desc *from, const void *derived, _Bool has_stat,
                        const fz_desc *errmsg, const char *src, int line) {
  (void)derived, (void)has_stat, (void)errmsg;
  if (from->type == FZ_STRUCT)
    __fz_f18_fail("MOVE_ALLOC of derived-type data cannot be differentiated; move arrays of "
                  "reals",
                  src, line);
  if (to->base) free(to->base);
  to->base = from->base;
  to->elem_len = from->elem_len;
  FZ_MOVE_DIM(0) FZ_MOVE_DIM(1) FZ_MOVE_DIM(2) FZ_MOVE_DIM(3) FZ_MOVE_DIM(4) FZ_MOVE_DIM(5)
  FZ_MOVE_DIM(6) FZ_MOVE_DIM(7) FZ_MOVE_DIM(8) FZ_MOVE_DIM(9) FZ_MOVE_DIM(10) FZ_MOVE_DIM(11)
  FZ_MOVE_DIM(12) FZ_MOVE_DIM(13) FZ_MOVE_DIM(14)
  from->base = 0;
  return 0;
}

/* ---- Whole-object assignment of a derived type (`w2 = w`) -------------------------------
 *
 * flang assigns a derived-type object with allocatable components through its runtime
 * (`_FortranAAssign` on descriptors whose addendum names the type description): a deep
 * copy. The pass does not differentiate that routine; the call gets a built-in rule
 * (`custom/fortran_assign.rs`) whose three functions are these:
 *
 * - augmented forward (reverse mode): flang's own Assign on the primal, then the shadow
 *   object is given the primal's shape: each allocatable real or complex component of
 *   the shadow keeps its storage where flang kept the primal's (the adjoint a caller
 *   seeded there stays), and gets a new zeroed allocation where flang allocated anew;
 *   a pointer component's shadow points where the source's shadow points. The pairs
 *   (shadow of `to`, shadow of `from`) of every real run are the tape;
 * - reverse: for each pair, the shadow of `from` gets the adjoint of `to` added, and the
 *   adjoint of `to` is cleared (its old value was overwritten);
 * - forward: Assign on the primal, the shadow shaped the same way, and the tangent of
 *   `from` copied into it (zero when `from` is constant).
 *
 * The components are found in flang's type description (module `__fortran_type_info`,
 * flang-22's layout, read by byte offset below): their genre (data, pointer,
 * allocatable), category, kind, rank, offset, bounds and, for a derived-type component,
 * its own description. Only the base addresses of the shadow's descriptors are used (the
 * shapes are the primal's). Stopped with a message naming the line: a type with defined
 * assignment, an automatic (parameterized) or allocatable derived-type component, `to`
 * and `from` of different types. An allocatable `to` that flang (re)allocates gets a
 * shadow object of the new shape (zeroed). */

enum {
  /* The type description: its size, its component table (a rank-1 pointer descriptor),
   * and whether a component or the type itself has a defined assignment. */
  FZ_TI_SIZE = 88,
  FZ_TI_COMPONENTS = 232,
  FZ_TI_NO_FINALIZATION_NEEDED = 431,
  FZ_TI_NO_DEFINED_ASSIGNMENT = 432,
  /* One component of the table. */
  FZ_TC_GENRE = 24,
  FZ_TC_CATEGORY = 25,
  FZ_TC_KIND = 26,
  FZ_TC_RANK = 27,
  FZ_TC_OFFSET = 32,
  FZ_TC_DERIVED = 56, /* base address of a pointer descriptor: the type description */
  FZ_TC_BOUNDS = 160, /* a rank-2 pointer descriptor of value(2, rank) */
  /* Component genres and the categories that carry a derivative. */
  FZ_GENRE_DATA = 1,
  FZ_GENRE_POINTER = 2,
  FZ_GENRE_ALLOCATABLE = 3,
  FZ_CATEGORY_REAL = 2,
  FZ_CATEGORY_COMPLEX = 3,
  FZ_CATEGORY_DERIVED = 6
};

FZ_INLINE long fz_ti_long(const char *p, long off) { return *(const long *)(p + off); }
FZ_INLINE const char *fz_ti_ptr(const char *p, long off) { return *(const char *const *)(p + off); }

/* The type description in a derived-type descriptor's addendum (after its dimensions). */
FZ_INLINE const char *fz_type_description(const fz_desc *d) {
  if (!(d->extra & 1)) return 0;
  return *(const char *const *)((const char *)d + 24 + 24 * (long)d->rank);
}

/* Pairs of shadows to add and clear in the reverse sweep: `n` reals of `kind` bytes. */
typedef struct {
  char *dto;
  const char *dfrom;
  long n;
  long kind;
} fz_assign_run;

/* A shadow component the assignment gave new storage (`fresh`), and its descriptor
 * before (`saved`): the reverse sweep frees the new storage and puts the old descriptor
 * back, so what ran before the assignment finds its adjoints where it left them. */
typedef struct {
  fz_desc *at;
  char *fresh;
  char saved[24 + 24 * 15 + 16];
} fz_assign_realloc;

typedef struct {
  long count, cap;
  fz_assign_run *runs;
  /* The base addresses of `to`'s allocatable real components before the assignment, in
   * walk order (whether flang reused each storage). */
  long nold, capold, nextold;
  char **old;
  long nrealloc, caprealloc;
  fz_assign_realloc *reallocs;
} fz_assign_tape;

enum { FZ_WALK_BEFORE, FZ_WALK_AUGMENT, FZ_WALK_TANGENT };

static void fz_tape_old(fz_assign_tape *t, char *base) {
  if (t->nold == t->capold) {
    t->capold = t->capold ? 2 * t->capold : 8;
    char **o = (char **)malloc((size_t)t->capold * sizeof(char *));
    for (long k = 0; k < t->nold; k++) o[k] = t->old[k];
    free(t->old);
    t->old = o;
  }
  t->old[t->nold++] = base;
}

static void fz_tape_run(fz_assign_tape *t, char *dto, const char *dfrom, long n, long kind) {
  if (n <= 0) return;
  if (t->count == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 8;
    fz_assign_run *r = (fz_assign_run *)malloc((size_t)t->cap * sizeof(fz_assign_run));
    for (long k = 0; k < t->count; k++) r[k] = t->runs[k];
    free(t->runs);
    t->runs = r;
  }
  fz_assign_run *r = &t->runs[t->count++];
  r->dto = dto;
  r->dfrom = dfrom;
  r->n = n;
  r->kind = kind;
}

/* Records that the shadow descriptor `sd` is about to get the new storage `fresh`. */
static void fz_tape_realloc(fz_assign_tape *t, fz_desc *sd, char *fresh) {
  if (t->nrealloc == t->caprealloc) {
    t->caprealloc = t->caprealloc ? 2 * t->caprealloc : 4;
    fz_assign_realloc *r =
        (fz_assign_realloc *)malloc((size_t)t->caprealloc * sizeof(fz_assign_realloc));
    for (long k = 0; k < t->nrealloc; k++) r[k] = t->reallocs[k];
    free(t->reallocs);
    t->reallocs = r;
  }
  fz_assign_realloc *r = &t->reallocs[t->nrealloc++];
  r->at = sd;
  r->fresh = fresh;
  long len = 24 + 24 * (long)sd->rank + ((sd->extra & 1) ? 16 : 0);
  if (len > (long)sizeof r->saved) len = (long)sizeof r->saved;
  for (long k = 0; k < len; k++) r->saved[k] = ((const char *)sd)[k];
}

/* `bytes` of zeroed storage (at least one byte). */
static char *fz_zeroed(size_t bytes) {
  char *mem = (char *)malloc(bytes > 0 ? bytes : 1);
  for (size_t k = 0; k < bytes; k++) mem[k] = 0;
  return mem;
}

/* Makes the shadow descriptor `sd` describe the primal `pd` (every field after the base
 * address: rank, type, dimensions, and the addendum when `pd` has one) with the base
 * address `base`. */
static void fz_shadow_descriptor(fz_desc *sd, const fz_desc *pd, char *base) {
  long len = 24 + 24 * (long)pd->rank + ((pd->extra & 1) ? 16 : 0);
  char *d = (char *)sd;
  const char *p = (const char *)pd;
  for (long k = 8; k < len; k++) d[k] = p[k];
  sd->base = base;
}

/* Elements of a component of rank `rank` with `bounds` (value(2, rank): genre, then the
 * bound at byte 8). */
static long fz_component_elements(const char *c) {
  int rank = (unsigned char)c[FZ_TC_RANK];
  if (rank == 0) return 1;
  const fz_desc *b = (const fz_desc *)(c + FZ_TC_BOUNDS);
  long n = 1;
  for (int k = 0; k < rank; k++) {
    const char *lo = b->base + k * b->dim[1].sm;
    const char *hi = lo + b->dim[0].sm;
    long e = fz_ti_long(hi, 8) - fz_ti_long(lo, 8) + 1;
    n *= e > 0 ? e : 0;
  }
  return n;
}

/* Tangent mode copies the source's tangent (zero without one); augmented mode tapes the
 * pair for the reverse sweep. */
static void fz_shadow_reals(int mode, fz_assign_tape *t, char *dto, const char *dfrom, long n,
                            long kind) {
  if (mode == FZ_WALK_AUGMENT) {
    fz_tape_run(t, dto, dfrom, n, kind);
    return;
  }
  size_t bytes = (size_t)(n * kind);
  for (size_t k = 0; k < bytes; k++) dto[k] = dfrom ? dfrom[k] : 0;
}

static void fz_walk_object(int mode, fz_assign_tape *t, const char *ti, char *to, char *dto,
                           const char *dfrom, const char *src, int line);

/* An allocatable real or complex component `tc` of `to` (after the assignment), its
 * shadow `sc` and the source's shadow `fc` (null without one). */
static void fz_walk_allocatable(int mode, fz_assign_tape *t, fz_desc *tc, fz_desc *sc,
                                const fz_desc *fc, long kind, const char *src, int line) {
  if (mode == FZ_WALK_BEFORE) {
    fz_tape_old(t, tc->base);
    return;
  }
  char *old = t->nextold < t->nold ? t->old[t->nextold] : 0;
  t->nextold++;
  if (!tc->base) return; /* unallocated: nothing to differentiate */
  fz_view v;
  fz_shape s;
  fz_view_of(tc, &v, &s);
  long n = fz_elements(&v) * (long)tc->elem_len / kind;
  if (!(sc->base && old == tc->base)) {
    /* flang allocated anew: so does the shadow, zeroed. Its old storage is still the
     * adjoint of what ran before: the reverse sweep frees the new storage and puts the
     * old back (`__fz_f18_assign_derived_rev`); a tangent's old storage goes now, as the
     * primal's did. */
    char *fresh = fz_zeroed((size_t)(n > 0 ? n : 0) * (size_t)kind);
    if (mode == FZ_WALK_AUGMENT)
      fz_tape_realloc(t, sc, fresh);
    else if (sc->base)
      free(sc->base);
    fz_shadow_descriptor(sc, tc, fresh);
  }
  (void)src, (void)line;
  fz_shadow_reals(mode, t, sc->base, fc && fc->base ? fc->base : 0, n, kind);
}

/* One component `c` of the objects at `to` (its shadow `dto`) and the source's shadow
 * `dfrom`. */
static void fz_walk_component(int mode, fz_assign_tape *t, const char *c, char *to, char *dto,
                              const char *dfrom, const char *src, int line) {
  int genre = c[FZ_TC_GENRE], category = c[FZ_TC_CATEGORY];
  long kind = c[FZ_TC_KIND], off = fz_ti_long(c, FZ_TC_OFFSET);
  int real = category == FZ_CATEGORY_REAL || category == FZ_CATEGORY_COMPLEX;
  if (real && kind != 4 && kind != 8)
    __fz_f18_fail("whole-object assignment of a derived type with a real component of a kind "
                  "other than 4 or 8 is not differentiated",
                  src, line);
  long size = category == FZ_CATEGORY_COMPLEX ? 2 : 1;
  const char *sub = category == FZ_CATEGORY_DERIVED ? fz_ti_ptr(c, FZ_TC_DERIVED) : 0;
  const char *from_at = dfrom ? dfrom + off : 0;
  if (genre == FZ_GENRE_DATA) {
    long n = fz_component_elements(c);
    if (real && mode != FZ_WALK_BEFORE)
      fz_shadow_reals(mode, t, dto + off, from_at, n * size, kind);
    if (sub) {
      long bytes = fz_ti_long(sub, FZ_TI_SIZE);
      for (long e = 0; e < n; e++)
        fz_walk_object(mode, t, sub, to + off + e * bytes, dto ? dto + off + e * bytes : 0,
                       from_at ? from_at + e * bytes : 0, src, line);
    }
    return;
  }
  if (genre == FZ_GENRE_POINTER) {
    if (mode == FZ_WALK_BEFORE) return;
    /* Pointer assignment: the shadow points where the source's shadow points, with the
     * primal's bounds (and type description, for a derived type). */
    fz_shadow_descriptor((fz_desc *)(dto + off), (const fz_desc *)(to + off),
                         from_at ? ((const fz_desc *)from_at)->base : 0);
    return;
  }
  if (genre == FZ_GENRE_ALLOCATABLE && sub)
    __fz_f18_fail("whole-object assignment of a derived type with an allocatable component "
                  "of derived type is not differentiated; assign the components one by one",
                  src, line);
  if (genre != FZ_GENRE_ALLOCATABLE)
    __fz_f18_fail("whole-object assignment of a parameterized derived type (automatic "
                  "components) is not differentiated",
                  src, line);
  if (real)
    fz_walk_allocatable(mode, t, (fz_desc *)(to + off), dto ? (fz_desc *)(dto + off) : 0,
                        (const fz_desc *)from_at, kind, src, line);
}

static void fz_walk_object(int mode, fz_assign_tape *t, const char *ti, char *to, char *dto,
                           const char *dfrom, const char *src, int line) {
  const fz_desc *comps = (const fz_desc *)(ti + FZ_TI_COMPONENTS);
  long n = comps->dim[0].extent, sm = comps->dim[0].sm;
  for (long k = 0; k < n; k++)
    fz_walk_component(mode, t, comps->base + k * sm, to, dto, dfrom, src, line);
}

/* Walks every element of `to` (a scalar `from` is broadcast) with its shadow `dto`
 * and the source's shadow `dfrom` (base addresses only; null: no shadow). */
static void fz_walk_assignment(int mode, fz_assign_tape *t, const char *ti, const fz_desc *to,
                               const fz_desc *dto, const fz_desc *from, const fz_desc *dfrom,
                               const char *src, int line) {
  fz_view vt, vf;
  fz_shape st, sf;
  fz_view_of(to, &vt, &st);
  fz_view_of(from, &vf, &sf);
  long n = fz_elements(&vt);
  for (long e = 0; e < n; e++) {
    char *at = fz_at(&vt, e);
    const char *fa = fz_at(&vf, sf.rank > 0 ? e : 0);
    char *dat = dto ? dto->base + (at - to->base) : 0;
    const char *dfa = dfrom && dfrom->base ? dfrom->base + (fa - from->base) : 0;
    fz_walk_object(mode, t, ti, at, dat, dfa, src, line);
  }
}

/* Frees the storage of the allocatable components of the object at `obj` of type `ti`
 * (nested data components too): a tangent object the assignment no longer uses. */
static void fz_free_components(const char *ti, char *obj) {
  const fz_desc *comps = (const fz_desc *)(ti + FZ_TI_COMPONENTS);
  long n = comps->dim[0].extent, sm = comps->dim[0].sm;
  for (long k = 0; k < n; k++) {
    const char *c = comps->base + k * sm;
    long off = fz_ti_long(c, FZ_TC_OFFSET);
    const char *sub = c[FZ_TC_CATEGORY] == FZ_CATEGORY_DERIVED ? fz_ti_ptr(c, FZ_TC_DERIVED) : 0;
    if (c[FZ_TC_GENRE] == FZ_GENRE_ALLOCATABLE) {
      fz_desc *d = (fz_desc *)(obj + off);
      free(d->base);
      d->base = 0;
    } else if (c[FZ_TC_GENRE] == FZ_GENRE_DATA && sub) {
      long bytes = fz_ti_long(sub, FZ_TI_SIZE), m = fz_component_elements(c);
      for (long e = 0; e < m; e++) fz_free_components(sub, obj + off + e * bytes);
    }
  }
}

/* Does the derived-type object `d` need finalization: a FINAL procedure of its type or of
 * a component's (flang's `noFinalizationNeeded` flag, clear)? */
static int fz_needs_finalization(const fz_desc *d) {
  const char *ti = d->type == FZ_STRUCT ? fz_type_description(d) : 0;
  return ti && !ti[FZ_TI_NO_FINALIZATION_NEEDED];
}

/* The allocatable components of every element of the derived-type array `d`. */
static void fz_deallocate_components(fz_desc *d) {
  const char *ti = d->type == FZ_STRUCT ? fz_type_description(d) : 0;
  if (!ti) return;
  fz_view v;
  fz_shape sh;
  fz_view_of(d, &v, &sh);
  long n = fz_elements(&v);
  for (long e = 0; e < n; e++) fz_free_components(ti, fz_at(&v, e));
}

/* ALLOCATE and DEALLOCATE of a scalar POINTER (`type(node), pointer :: p`; hpc45,
 * tests/fortran/111), which the pass calls where the IR fixes the descriptor's rank at 0
 * (`ferrozyme_transform::fortran`). A scalar's descriptor has no dimensions: the
 * addendum (a derived type's description) sits at offset 24, where the generic versions
 * above read an array's first dimension (integers). Type analysis, which cannot know the
 * rank, then saw a pointer and integers at the same bytes of every such descriptor (and
 * of every node holding one: a linked list's `next`), and could type none of it. These
 * read only the fields before the dimensions and the addendum's pointer. */
FZ_INLINE const char *fz_scalar_type_description(const fz_desc *d) {
  return d->type == FZ_STRUCT && (d->extra & 1) ? *(const char *const *)((const char *)d + 24)
                                                 : 0;
}

int __fz_f18_pointer_allocate_scalar(fz_desc *d, _Bool has_stat, const fz_desc *errmsg,
                                     const char *src, int line, void *extra) {
  (void)has_stat, (void)errmsg, (void)extra;
  size_t bytes = d->elem_len ? d->elem_len : 1;
  d->base = (char *)malloc(bytes);
  if (!d->base) __fz_f18_fail("ALLOCATE: out of memory", src, line);
  if (d->type == FZ_STRUCT) {
    if (!fz_scalar_type_description(d))
      __fz_f18_fail("ALLOCATE of a POINTER to a derived type without its type description "
                    "is not differentiated",
                    src, line);
    __builtin_memset(d->base, 0, bytes);
    __fz_f18_initialize_inactive(d, src, line);
  }
  return 0;
}

int __fz_f18_pointer_deallocate_scalar(fz_desc *d, _Bool has_stat, const fz_desc *errmsg,
                                       const char *src, int line) {
  (void)has_stat, (void)errmsg;
  if (!d->base) __fz_f18_fail("DEALLOCATE of a POINTER that is not associated", src, line);
  const char *ti = fz_scalar_type_description(d);
  if (ti && !ti[FZ_TI_NO_FINALIZATION_NEEDED])
    __fz_f18_fail("DEALLOCATE, in differentiated code, of an object whose type has a FINAL "
                  "procedure (its own or a component's) is not differentiated: the FINAL "
                  "procedure would free memory the reverse sweep still reads",
                  src, line);
  if (ti) fz_free_components(ti, d->base);
  free(d->base);
  d->base = 0;
  return 0;
}

/* The checks, the primal assignment, and the shadow's shape; returns the tape. */
static fz_assign_tape *fz_assign_derived(int mode, fz_desc *to, fz_desc *dto, const fz_desc *from,
                                         const fz_desc *dfrom, const char *src, int line) {
  const char *ti = fz_type_description(to), *fti = fz_type_description(from);
  if (to->type != FZ_STRUCT || from->type != FZ_STRUCT || !ti || ti != fti)
    __fz_f18_fail("whole-object assignment between different derived types (or a polymorphic "
                  "one) is not differentiated",
                  src, line);
  if (!ti[FZ_TI_NO_DEFINED_ASSIGNMENT])
    __fz_f18_fail("whole-object assignment of a derived type with a defined assignment "
                  "(assignment(=)) in it is not differentiated",
                  src, line);
  /* An allocatable `to` that is unallocated or of another shape: flang (re)allocates it,
   * and the shadow object gets new zeroed storage of the same shape (in reverse mode its
   * old storage is put back by the reverse sweep; a tangent's old array is left). */
  int grow = 0;
  if (to->attribute == FZ_ALLOCATABLE) {
    grow = to->base == 0 || to->rank != from->rank;
    for (int k = 0; !grow && k < to->rank; k++) grow = to->dim[k].extent != from->dim[k].extent;
  }
  fz_assign_tape *t = (fz_assign_tape *)malloc(sizeof(fz_assign_tape));
  t->count = t->cap = t->nold = t->capold = t->nextold = t->nrealloc = t->caprealloc = 0;
  t->runs = 0;
  t->old = 0;
  t->reallocs = 0;
  if (to->base == from->base) return t; /* `w = w` */
  if (dto && dto->base && !grow)
    fz_walk_assignment(FZ_WALK_BEFORE, t, ti, to, 0, from, 0, src, line);
  char *was = to->base;
  __fz_f18_assign_inactive(to, from, src, line);
  if (grow && dto) {
    fz_view v;
    fz_shape sh;
    fz_view_of(to, &v, &sh);
    char *fresh = fz_zeroed((size_t)fz_elements(&v) * to->elem_len);
    /* The reverse sweep puts the old shadow array back and frees this one, after its
     * elements' components (recorded after it). A tangent's old array goes now, with its
     * elements' components, as the primal's did (hpc37: it leaked). */
    if (mode == FZ_WALK_AUGMENT) {
      fz_tape_realloc(t, dto, fresh);
    } else if (was && dto->base && dto->base != was) {
      fz_view ov;
      fz_shape osh;
      fz_view_of(dto, &ov, &osh);
      long n = fz_elements(&ov);
      for (long e = 0; e < n; e++) fz_free_components(ti, fz_at(&ov, e));
      free(dto->base);
    }
    fz_shadow_descriptor(dto, to, fresh);
  }
  if (dto && dto->base) fz_walk_assignment(mode, t, ti, to, dto, from, dfrom, src, line);
  free(t->old);
  t->old = 0;
  return t;
}

void *__fz_f18_assign_derived_aug(fz_desc *to, fz_desc *dto, const fz_desc *from,
                                  const fz_desc *dfrom, const char *src, int line) {
  return fz_assign_derived(FZ_WALK_AUGMENT, to, dto, from, dfrom, src, line);
}

void __fz_f18_assign_derived_rev(void *tape) {
  fz_assign_tape *t = (fz_assign_tape *)tape;
  for (long r = t->count - 1; r >= 0; r--) {
    fz_assign_run *run = &t->runs[r];
    if (run->kind == 8) {
      double *d = (double *)run->dto;
      const double *s = (const double *)run->dfrom;
      for (long k = 0; k < run->n; k++) {
        if (s) ((double *)s)[k] += d[k];
        d[k] = 0;
      }
    } else {
      float *d = (float *)run->dto;
      const float *s = (const float *)run->dfrom;
      for (long k = 0; k < run->n; k++) {
        if (s) ((float *)s)[k] += d[k];
        d[k] = 0;
      }
    }
  }
  for (long r = t->nrealloc - 1; r >= 0; r--) {
    fz_assign_realloc *re = &t->reallocs[r];
    /* Deallocated since (the program's DEALLOCATE, whose derivative hands the shadow's
     * storage to the shadow table): the old descriptor goes back, so that the reverse of
     * an earlier reallocation finds its own storage and frees it (hpc37: it leaked), but
     * this storage is not freed here. Changed otherwise: left alone. */
    int released = re->at->base == 0;
    if (re->at->base != re->fresh && !released) continue;
    long len = 24 + 24 * (long)((fz_desc *)re->saved)->rank +
               ((((fz_desc *)re->saved)->extra & 1) ? 16 : 0);
    if (len > (long)sizeof re->saved) len = (long)sizeof re->saved;
    for (long k = 0; k < len; k++) ((char *)re->at)[k] = re->saved[k];
    if (!released) free(re->fresh);
  }
  free(t->reallocs);
  free(t->runs);
  free(t);
}

void __fz_f18_assign_derived_fwd(fz_desc *to, fz_desc *dto, const fz_desc *from,
                                 const fz_desc *dfrom, const char *src, int line) {
  fz_assign_tape *t = fz_assign_derived(FZ_WALK_TANGENT, to, dto, from, dfrom, src, line);
  free(t->reallocs);
  free(t->runs);
  free(t);
}

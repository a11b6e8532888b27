/* A Rust-layout `Vec<f64>` in C, `{cap, ptr, len}`, grown by `__rust_realloc` (capacity
 * 1 -> 4 -> 8 -> ...), made with one value by `one`. Used by tests/c/1456 (rust41) and 1457
 * (rust42). Include after fz_rust_alloc.h; or, with FZ_VEC_C_ALLOC defined, the same
 * vector made by `malloc` and grown by C `realloc` (tests/c/1474, rust43). */
#ifndef FZ_RUST_VEC_H
#define FZ_RUST_VEC_H
#include <stddef.h>

#ifdef FZ_VEC_C_ALLOC
#include <stdlib.h>
#define FZ_VEC_ALLOC(n) malloc(n)
#define FZ_VEC_REALLOC(p, old, n) realloc(p, n)
#else
#define FZ_VEC_ALLOC(n) __rust_alloc(n, 8)
#define FZ_VEC_REALLOC(p, old, n) __rust_realloc(p, old, 8, n)
#endif

typedef struct {
  size_t cap;
  double *ptr;
  size_t len;
} vec;

static void push(vec *v, double a) {
  if (v->len == v->cap) {
    size_t nc = v->cap < 2 ? 4 : 2 * v->cap;
    v->ptr = FZ_VEC_REALLOC(v->ptr, v->cap * sizeof(double), nc * sizeof(double));
    v->cap = nc;
  }
  v->ptr[v->len++] = a;
}

static vec one(double a) {
  vec v = {1, FZ_VEC_ALLOC(sizeof(double)), 1};
  v.ptr[0] = a;
  return v;
}

#endif

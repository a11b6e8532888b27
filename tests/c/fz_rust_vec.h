/* A Rust-layout `Vec<f64>` in C, `{cap, ptr, len}`, grown by `__rust_realloc` (capacity
 * 1 -> 4 -> 8 -> ...), made with one value by `one`. Used by tests/c/1456 (rust41) and 1457
 * (rust42). Include after fz_rust_alloc.h. */
#ifndef FZ_RUST_VEC_H
#define FZ_RUST_VEC_H
#include <stddef.h>

typedef struct {
  size_t cap;
  double *ptr;
  size_t len;
} vec;

static void push(vec *v, double a) {
  if (v->len == v->cap) {
    size_t nc = v->cap < 2 ? 4 : 2 * v->cap;
    v->ptr = __rust_realloc(v->ptr, v->cap * sizeof(double), 8, nc * sizeof(double));
    v->cap = nc;
  }
  v->ptr[v->len++] = a;
}

static vec one(double a) {
  vec v = {1, __rust_alloc(sizeof(double), 8), 1};
  v.ptr[0] = a;
  return v;
}

#endif

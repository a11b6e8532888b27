/* Rust's global allocator entry points as rustc's allocator shim defines them
 * (`__rust_alloc(size, align)`, `__rust_alloc_zeroed`, `__rust_realloc(ptr, old, align,
 * new)`, `__rust_dealloc(ptr, size, align)`), written in C as a counting, header-checking
 * `#[global_allocator]`: the header holds a magic number, the size and the alignment, and
 * `__rust_dealloc` aborts on a block it did not make or one released with another layout.
 * `live` counts the blocks live, `made` those made. Used by tests/c/1454 (alloc40), 1456
 * (rust41) and 1457 (rust42). Include after fz_test.h. */
#ifndef FZ_RUST_ALLOC_H
#define FZ_RUST_ALLOC_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FZ_RUST_MAGIC = 0x40a11 };

static long live, made;

static size_t room(size_t align) { return align < 32 ? 32 : align; }

__attribute__((noinline)) void *__rust_alloc(size_t size, size_t align) {
  size_t r = room(align);
  char *p = aligned_alloc(r, (size + r + r - 1) / r * r);
  size_t *h = (size_t *)(p + r) - 3;
  h[0] = FZ_RUST_MAGIC, h[1] = size, h[2] = align;
  live++, made++;
  return p + r;
}

__attribute__((noinline)) void __rust_dealloc(void *q, size_t size, size_t align) {
  size_t *h = (size_t *)q - 3;
  if (h[0] != FZ_RUST_MAGIC || h[1] != size || h[2] != align) {
    fprintf(stderr, "__rust_dealloc(%p, %zu, %zu): not a block of this layout\n", q, size, align);
    abort();
  }
  h[0] = 0;
  live--;
  free((char *)q - room(align));
}

__attribute__((noinline)) void *__rust_alloc_zeroed(size_t size, size_t align) {
  void *p = __rust_alloc(size, align);
  memset(p, 0, size);
  return p;
}

__attribute__((noinline)) void *__rust_realloc(void *q, size_t old, size_t align, size_t size) {
  void *p = __rust_alloc(size, align);
  memcpy(p, q, old < size ? old : size);
  __rust_dealloc(q, old, align);
  return p;
}

#endif

// A user-replaced global operator new/delete in its own translation unit (the pass sees
// only its declarations from the programs that use it), as a debugging or pool allocator
// is: every block carries a 64-byte header with a magic number per family (new, new[],
// aligned new, aligned new[]) and its size; delete checks the header of the family it
// belongs to and aborts on a block it did not allocate (one from calloc or malloc, or
// from the other family), and counts live blocks. tests/cxx/469-471 link it
// (`// SOURCES: src/counting_new.cpp`).
#include <cstdio>
#include <cstdlib>
#include <new>

namespace {
const unsigned long MAGIC[4] = {0x6e65772d626c6f63UL, 0x6e65775b5d2d626cUL,
                                0x616c69676e65642dUL, 0x616c69676e5b5d2dUL};
const char *FAMILY[4] = {"new", "new[]", "aligned new", "aligned new[]"};
enum { HDR = 64 };
long live = 0, total = 0;

void *take(size_t n, int family, size_t align) {
  if (align > HDR) {
    std::fprintf(stderr, "counting_new: alignment %zu over %d\n", align, HDR);
    std::abort();
  }
  size_t bytes = (n + HDR + HDR - 1) / HDR * HDR;
  char *raw = static_cast<char *>(std::aligned_alloc(HDR, bytes));
  if (!raw) return nullptr;
  unsigned long *h = reinterpret_cast<unsigned long *>(raw);
  h[0] = MAGIC[family];
  h[1] = n;
  live++;
  total++;
  return raw + HDR;
}

void give(void *p, int family) {
  if (!p) return;
  unsigned long *h = reinterpret_cast<unsigned long *>(static_cast<char *>(p) - HDR);
  if (h[0] != MAGIC[family]) {
    std::fprintf(stderr, "counting_new: operator delete (%s) of %p, not a block of that family\n",
                 FAMILY[family], p);
    std::abort();
  }
  h[0] = 0;
  live--;
  std::free(h);
}
}  // namespace

extern "C" long counting_new_live() { return live; }
extern "C" long counting_new_total() { return total; }

void *operator new(size_t n) {
  void *p = take(n, 0, 16);
  if (!p) throw std::bad_alloc();
  return p;
}
void *operator new[](size_t n) {
  void *p = take(n, 1, 16);
  if (!p) throw std::bad_alloc();
  return p;
}
void *operator new(size_t n, std::align_val_t a) {
  void *p = take(n, 2, static_cast<size_t>(a));
  if (!p) throw std::bad_alloc();
  return p;
}
void *operator new[](size_t n, std::align_val_t a) {
  void *p = take(n, 3, static_cast<size_t>(a));
  if (!p) throw std::bad_alloc();
  return p;
}
void *operator new(size_t n, const std::nothrow_t &) noexcept { return take(n, 0, 16); }
void *operator new[](size_t n, const std::nothrow_t &) noexcept { return take(n, 1, 16); }
void operator delete(void *p) noexcept { give(p, 0); }
void operator delete(void *p, size_t) noexcept { give(p, 0); }
void operator delete(void *p, const std::nothrow_t &) noexcept { give(p, 0); }
void operator delete[](void *p) noexcept { give(p, 1); }
void operator delete[](void *p, size_t) noexcept { give(p, 1); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { give(p, 1); }
void operator delete(void *p, std::align_val_t) noexcept { give(p, 2); }
void operator delete(void *p, size_t, std::align_val_t) noexcept { give(p, 2); }
void operator delete[](void *p, std::align_val_t) noexcept { give(p, 3); }
void operator delete[](void *p, size_t, std::align_val_t) noexcept { give(p, 3); }

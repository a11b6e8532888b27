// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17 -Wno-deprecated-declarations
// IGNORE: cannot-deduce-type at every level: the record's int and float share one eightbyte, which -O1..-O3 move as one `i64` (load/store i64 over an int and a float of differentiable memory) and -O0 passes by value to `std::__adjust_heap` in an integer register ("floating-point data crosses this call inside integers"), plus conflicting uses at the `memmove`s of `std::__relocate_a_1`/`__copy_move`; records of doubles and ints only (tests/cxx/115's pair) work
// Ranking by an active score, the way C++ users write it: a `std::vector<Item>` of
// `struct Item { double score; int id; float weight; }` (a double, an int and a float in
// one 16-byte record) filled by `emplace_back` inside the function, `std::sort` by score
// with a lambda, then `std::stable_partition` on the int id, `std::unique` on ids after
// a sort by id, and a discounted sum over the final order (a DCG-like loss).
// Oracle: central finite differences (distinct scores).
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <vector>

struct Item {
  double score;
  int id;
  float weight;
};

double ranking_loss(const double *s, const int *ids, int n) {
  std::vector<Item> items;
  for (int i = 0; i < n; i++) items.emplace_back(Item{s[i] * s[i] - s[i], ids[i], 0.5f + 0.1f * i});
  std::sort(items.begin(), items.end(), [](const Item &a, const Item &b) { return a.score > b.score; });
  double dcg = 0.0;
  for (int r = 0; r < n; r++) dcg += items[r].score * items[r].weight / std::log2(r + 2.0);
  std::stable_partition(items.begin(), items.end(), [](const Item &it) { return it.id % 2 == 0; });
  for (int r = 0; r < n; r++) dcg += 0.01 * r * items[r].score;
  std::sort(items.begin(), items.end(), [](const Item &a, const Item &b) { return a.id < b.id; });
  auto last = std::unique(items.begin(), items.end(), [](const Item &a, const Item &b) { return a.id == b.id; });
  for (auto it = items.begin(); it != last; ++it) dcg += 0.1 * it->score * it->score;
  return dcg;
}

int main() {
  const int n = 9;
  double s[n], ds[n] = {0}, fd[n];
  int ids[n] = {4, 1, 4, 7, 2, 9, 2, 5, 8};
  fz_seed(119);
  fz_fill(s, n, -2, 3);
  __enzyme_autodiff<void>((void *)ranking_loss, enzyme_dup, s, ds, enzyme_const, ids, enzyme_const, n);
  fz_fd_grad_of([&] { return ranking_loss(s, ids, n); }, s, n, fd);
  fz_check_arr("dscores fd", ds, fd, n, 1e-6);
  return fz_finish();
}

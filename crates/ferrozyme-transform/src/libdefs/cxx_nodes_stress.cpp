// A randomized check of libdefs/cxx_nodes.c: linked into a plain C++ program under
// libstdc++'s own names (the `__fz_lib_` prefix removed), the definitions replace
// libstdc++.so's for every std::map and std::list operation, which must then agree with
// a sorted vector after each of up to 300 random inserts and erases (min, max, forward
// and backward iteration, size) and with list operations mirrored on a vector. Run by
// the unit test libdefs::tests::cxx_nodes_drive_libstdcxx (skipped without clang-22).
#include <map>
#include <set>
#include <list>
#include <vector>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
int main() {
  std::mt19937 rng(42);
  int bad = 0;
  for (int round = 0; round < 200; round++) {
    std::map<int, int> m; std::vector<std::pair<int,int>> ref;
    int ops = 1 + rng() % 300;
    for (int k = 0; k < ops; k++) {
      int key = rng() % 64;
      if (rng() % 3) { m[key] = k; auto it = std::find_if(ref.begin(), ref.end(), [&](auto &p){return p.first==key;}); if (it == ref.end()) ref.push_back({key,k}); else it->second = k; }
      else { m.erase(key); ref.erase(std::remove_if(ref.begin(), ref.end(), [&](auto &p){return p.first==key;}), ref.end()); }
      if (!m.empty() && (m.begin()->first != std::min_element(ref.begin(), ref.end())->first || m.rbegin()->first != std::max_element(ref.begin(), ref.end())->first)) { bad++; }
    }
    std::sort(ref.begin(), ref.end());
    std::vector<std::pair<int,int>> got(m.begin(), m.end());
    std::vector<std::pair<int,int>> back(m.rbegin(), m.rend()); std::reverse(back.begin(), back.end());
    if (got != ref || back != ref || m.size() != ref.size()) bad++;
    std::list<int> l; std::vector<int> lr;
    for (int k = 0; k < 50; k++) { int v = rng() % 100; if (v % 2) { l.push_front(v); lr.insert(lr.begin(), v); } else { l.push_back(v); lr.push_back(v); } }
    l.sort(); std::sort(lr.begin(), lr.end()); l.reverse(); std::reverse(lr.begin(), lr.end());
    std::list<int> l2{1,2,3}; l.splice(l.begin(), l2); lr.insert(lr.begin(), {1,2,3});
    if (std::vector<int>(l.begin(), l.end()) != lr) bad++;
  }
  printf(bad ? "BAD %d\n" : "OK\n", bad);
}

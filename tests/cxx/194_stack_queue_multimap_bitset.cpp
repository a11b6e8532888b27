// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// IGNORE: mismatched activity at every level: `std::deque<double>::_M_reallocate_map` (behind `std::stack`/`std::queue`) moves the node-pointer map with `memmove` from a pointer that is constant or differentiable depending on the run, and at -O1..-O3 `std::unordered_set<int>::insert` builds `{ptr, i8}` (`insertvalue`) from such a pointer; neither can be guarded at run time (the runtime-activity boundary of cxx/149 and cxx/178). `std::multimap::equal_range` and `std::bitset` alone are not refused
// Standard containers a user reaches for besides vector and map (sweep22): an RPN
// evaluator whose operand stack is a `std::stack<double>` (over `std::deque`) fed by a
// constant token program with active variables, a moving-average filter with a
// `std::queue<double>` window, a `std::multimap<int, double>` grouping active values by
// constant keys (`equal_range` per group), a `std::unordered_set<int>` of visited
// indices, and a `std::bitset<16>` mask choosing which terms count. Oracles: the
// analytic gradient of each part, finite differences, forward vs reverse.
#include "fz_cxx.h"
#include <bitset>
#include <cmath>
#include <map>
#include <queue>
#include <stack>
#include <unordered_set>
#include <vector>

struct tok {
  char kind;  // 'v' variable, 'c' constant, '+', '*', 's' sin
  int idx;
  double c;
};

static const std::vector<tok> &program() {
  // (x0 + x1 * 1.5) * sin(x2)
  static const std::vector<tok> p = {{'v', 0, 0}, {'v', 1, 0}, {'c', 0, 1.5}, {'*', 0, 0},
                                     {'+', 0, 0}, {'v', 2, 0}, {'s', 0, 0},   {'*', 0, 0}};
  return p;
}

static double rpn(const std::vector<tok> &prog, const double *x) {
  std::stack<double> st;
  for (const tok &t : prog) {
    if (t.kind == 'v') st.push(x[t.idx]);
    else if (t.kind == 'c') st.push(t.c);
    else if (t.kind == 's') { double a = st.top(); st.pop(); st.push(std::sin(a)); }
    else {
      double b = st.top(); st.pop();
      double a = st.top(); st.pop();
      st.push(t.kind == '+' ? a + b : a * b);
    }
  }
  return st.top();
}

#define N 8

double containers(const double *x, const std::vector<tok> *prog) {
  double r = rpn(*prog, x);
  // moving average of x^2 over a window of 3
  std::queue<double> win;
  double sum = 0, ma = 0;
  for (int i = 0; i < N; i++) {
    win.push(x[i] * x[i]);
    sum += x[i] * x[i];
    if (win.size() > 3) { sum -= win.front(); win.pop(); }
    ma += sum / 3.0;
  }
  // groups by key i % 3: product of the group's values
  std::multimap<int, double> groups;
  for (int i = 0; i < N; i++) groups.emplace(i % 3, x[i]);
  double gp = 0;
  for (int key = 0; key < 3; key++) {
    auto range = groups.equal_range(key);
    double prod = 1;
    for (auto it = range.first; it != range.second; ++it) prod *= it->second;
    gp += prod;
  }
  // visit indices by a constant walk; count each index once
  std::unordered_set<int> seen;
  double walk = 0;
  for (int k = 0, i = 0; k < 12; k++, i = (i * 5 + 3) % N)
    if (seen.insert(i).second) walk += std::exp(0.1 * x[i]);
  std::bitset<16> mask(0b1011'0110);
  double masked = 0;
  for (int i = 0; i < N; i++)
    if (mask.test(i)) masked += x[i] * (i + 1);
  return r + 0.1 * ma + 0.2 * gp + walk + masked;
}

int main() {
  double x[N] = {0.3, -0.7, 1.1, 0.45, -0.2, 0.9, 1.3, -0.55};
  double dx[N] = {0};
  const std::vector<tok> *prog = &program();
  __enzyme_autodiff<void>((void *)containers, enzyme_dup, x, dx, enzyme_const, prog);
  double want[N] = {0};
  want[0] += std::sin(x[2]);
  want[1] += 1.5 * std::sin(x[2]);
  want[2] += (x[0] + 1.5 * x[1]) * std::cos(x[2]);
  for (int i = 0; i < N; i++) {
    // x_i^2 appears in the windows ending at i, i+1, i+2 (those that exist)
    int cnt = 0;
    for (int e = i; e < N && e <= i + 2; e++) cnt++;
    want[i] += 0.1 * cnt * 2 * x[i] / 3.0;
    double prod = 1;
    for (int j = i % 3; j < N; j += 3)
      if (j != i) prod *= x[j];
    want[i] += 0.2 * prod;
  }
  bool seen[N] = {false};
  for (int k = 0, i = 0; k < 12; k++, i = (i * 5 + 3) % N)
    if (!seen[i]) { seen[i] = true; want[i] += 0.1 * std::exp(0.1 * x[i]); }
  for (int i = 0; i < N; i++)
    if ((0b1011'0110 >> i) & 1) want[i] += i + 1;
  fz_check_arr("d/dx analytic", dx, want, N, 1e-12);
  double fd[N];
  fz_fd_grad_of([&] { return containers(x, prog); }, x, N, fd);
  fz_check_arr("d/dx finite differences", dx, fd, N, 1e-6);
  double t[N], dot = 0;
  for (int i = 0; i < N; i++) t[i] = 0.1 * (i + 1) - 0.35, dot += t[i] * dx[i];
  double jt = __enzyme_fwddiff<double>((void *)containers, enzyme_dup, x, t, enzyme_const, prog);
  fz_check("forward . t vs reverse", jt, dot, 1e-11);
  return fz_finish();
}

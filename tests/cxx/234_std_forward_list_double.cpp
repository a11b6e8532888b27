// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// stl24: `std::forward_list<double>` (a singly linked list whose head is a bare
// `_Fwd_list_node_base`, no size field) built with push_front and insert_after, reversed,
// with remove_if on an inactive predicate of the position, then summed with position
// weights. Oracle: the analytic gradient and central finite differences.
#include "fz_cxx.h"
#include <forward_list>

double model(const double *x, int n) {
  std::forward_list<double> l;
  for (int i = 0; i < n; i++) l.push_front(x[i] * x[i]);
  l.insert_after(l.begin(), x[0] * x[1]);
  l.reverse();
  int pos = 0;
  l.remove_if([&pos](double) { return pos++ == 2; });
  double s = 0.0;
  int k = 1;
  for (double v : l) s += k++ * v;
  return s;
}

int main() {
  const int n = 5;
  double x[n] = {0.3, -0.6, 0.9, 0.2, -0.4}, dx[n] = {0}, fd[n];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  fz_fd_grad_of([&] { return model(x, n); }, x, n, fd);
  fz_check_arr("dx fd", dx, fd, n, 1e-6);
  // After push_front: x4^2 x3^2 x2^2 x1^2 x0^2; insert_after the first: x4^2 x0x1 x3^2 ...;
  // reversed: x0^2 x1^2 x2^2 x3^2 x0x1 x4^2; the third (x2^2) removed:
  // weights 1..5 on x0^2 x1^2 x3^2 x0x1 x4^2.
  double an[n] = {2 * x[0] + 4 * x[1], 2 * 2 * x[1] + 4 * x[0], 0.0, 3 * 2 * x[3], 5 * 2 * x[4]};
  fz_check_arr("dx analytic", dx, an, n, 1e-9);
  return fz_finish();
}

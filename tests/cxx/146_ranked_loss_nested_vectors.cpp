// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// A user's ranking loss on a small two-layer network stored as
// `std::vector<std::vector<double>>` (weights built inside the differentiated function
// from a flat parameter array), an activation chosen at run time through
// `std::function<double(double)>`, lambdas capturing by reference that accumulate into
// locals, and `std::sort` of sample indices by predicted score (a comparator reading
// the active scores) followed by a rank-weighted sum over the sorted order. The sort's
// permutation is piecewise constant in the parameters, so the gradient at this point is
// that of the loss with the order frozen. Oracles: central finite differences (the
// order does not change within the step) and the forward/reverse dot product.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

static const int NIN = 3, NH = 4, NS = 6;
static double X[NS][NIN];
static double Y[NS];

double ranked_loss(const double *p, int act) {
  std::vector<std::vector<double>> W1(NH, std::vector<double>(NIN));
  std::vector<double> w2(NH);
  int k = 0;
  for (auto &row : W1)
    for (auto &w : row) w = p[k++];
  for (auto &w : w2) w = p[k++];
  std::function<double(double)> f;
  if (act == 0)
    f = [](double z) { return std::tanh(z); };
  else
    f = [](double z) { return z / (1 + std::fabs(z)); };
  std::vector<double> score(NS);
  for (int s = 0; s < NS; s++) {
    double out = 0;
    for (int h = 0; h < NH; h++) {
      double z = 0;
      std::for_each(W1[h].begin(), W1[h].end(), [&, i = 0](double w) mutable { z += w * X[s][i++]; });
      out += w2[h] * f(z);
    }
    score[s] = out;
  }
  std::vector<int> idx(NS);
  std::iota(idx.begin(), idx.end(), 0);
  std::sort(idx.begin(), idx.end(), [&](int a, int b) { return score[a] > score[b]; });
  double loss = 0;
  for (int r = 0; r < NS; r++) {
    double e = score[idx[r]] - Y[idx[r]];
    loss += e * e / (1.0 + r);
  }
  return loss;
}

int main() {
  const int NP = NH * NIN + NH;
  for (int s = 0; s < NS; s++) {
    for (int i = 0; i < NIN; i++) X[s][i] = std::sin(1.3 * s + 0.7 * i);
    Y[s] = std::cos(0.9 * s);
  }
  double p[NP], dp[NP] = {0}, fd[NP], v[NP];
  for (int i = 0; i < NP; i++) {
    p[i] = 0.3 * std::sin(2.1 * i + 0.4);
    v[i] = std::cos(1.7 * i);
  }
  for (int act = 0; act < 2; act++) {
    for (int i = 0; i < NP; i++) dp[i] = 0;
    __enzyme_autodiff<void>((void *)ranked_loss, enzyme_dup, p, dp, enzyme_const, act);
    fz_fd_grad_of([&] { return ranked_loss(p, act); }, p, NP, fd);
    fz_check_arr(act ? "softsign: reverse vs fd" : "tanh: reverse vs fd", dp, fd, NP, 1e-6);
    double t = __enzyme_fwddiff<double>((void *)ranked_loss, enzyme_dup, p, v, enzyme_const, act);
    double dot = 0;
    for (int i = 0; i < NP; i++) dot += dp[i] * v[i];
    fz_check("forward vs reverse dot", t, dot, 1e-10);
  }
  return fz_finish();
}

// A C++ function: a one-hidden-layer perceptron's mean squared error, with a template, a
// namespace and std::vector scratch memory. Parameters w = [W (h x d), b (h), v (h)].
#include <cmath>
#include <vector>

namespace nn {

template <class T>
T act(T x) {
  return std::tanh(x);
}

double mse(const double *w, const double *X, const double *y, int n, int d, int h) {
  std::vector<double> hid(h);
  const double *W = w, *b = w + d * h, *v = w + d * h + h;
  double loss = 0.0;
  for (int i = 0; i < n; i++) {
    double out = 0.0;
    for (int j = 0; j < h; j++) {
      double a = b[j];
      for (int k = 0; k < d; k++) a += W[j * d + k] * X[i * d + k];
      hid[j] = act(a);
      out += v[j] * hid[j];
    }
    const double e = out - y[i];
    loss += e * e;
  }
  return loss / n;
}

}  // namespace nn

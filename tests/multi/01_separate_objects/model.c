/* A two-layer model whose loss calls into act.c. */
double act(double z);
double soft(double z);

double layer(const double *w, const double *x, int n, int j) {
  double s = 0;
  for (int i = 0; i < n; i++) s += w[j * n + i] * x[i];
  return act(s);
}

double loss(const double *w, const double *x, int n) {
  double l = 0;
  for (int j = 0; j < n; j++) l += soft(layer(w, x, n, j)) * (j + 1);
  return l;
}

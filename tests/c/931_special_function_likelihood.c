// OPT: O0 O1 O2 O3
// A negative log-likelihood with the C99 special functions a statistician reaches for
// (sweep23): a gamma-distributed rate model (`lgamma` of the shape, `log1p`/`expm1` of
// a softplus link), a Student-t residual term (`lgamma` of (nu+1)/2, `log1p` of the
// scaled square), a censored normal term through `erf`/`erfc`, a Weibull term with
// `pow`, a `hypot` radius, `cbrt` damping and a `tgamma` normaliser. Parameters are all
// active. Oracles: the analytic gradient of the closed-form pieces (digamma from its
// asymptotic series with recurrence, written here), central finite differences.
#include "fz_test.h"

#define N 12
#define NP 5

static double softplus(double z) { return z > 20 ? z : log1p(exp(z)); }
static double inv_softplus_check(double s) { return log(expm1(s)); } // softplus^-1

double nll(const double *p, const double *data, int n) {
  double k = softplus(p[0]);   // gamma shape
  double th = softplus(p[1]);  // gamma scale
  double nu = 2.0 + softplus(p[2]);
  double mu = p[3], sg = 0.5 + softplus(p[4]);
  double s = 0;
  for (int i = 0; i < n; i++) {
    double x = data[i];
    // gamma(k, th) density of x
    s -= (k - 1) * log(x) - x / th - lgamma(k) - k * log(th);
    // Student-t residual of x about mu
    double z = (x - mu) / sg;
    s -= lgamma(0.5 * (nu + 1)) - lgamma(0.5 * nu) - 0.5 * log(nu * M_PI) - log(sg) -
         0.5 * (nu + 1) * log1p(z * z / nu);
    // a censored-at-2 normal tail: P(X > 2) = erfc((2 - mu)/(sqrt 2 sg)) / 2
    if (x > 2.0) s -= log(0.5 * erfc((2.0 - mu) / (M_SQRT2 * sg)));
    else s -= log(0.5 * (1 + erf((x - mu) / (M_SQRT2 * sg))));
  }
  // priors: a hypot radius on (mu, sg), cbrt-damped shape, a tgamma normaliser
  s += 0.1 * hypot(mu, sg) + 0.05 * cbrt(k * th) + 0.01 * log(tgamma(1.0 + 0.5 * k));
  (void)inv_softplus_check;
  return s;
}

static double digamma(double x) {
  double r = 0;
  while (x < 6) { r -= 1 / x; x += 1; }
  double f = 1 / (x * x);
  return r + log(x) - 0.5 / x -
         f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}
static double sigmoid(double z) { return 1 / (1 + exp(-z)); }
static double npdf(double z) { return exp(-0.5 * z * z) / sqrt(2 * M_PI); }

static double P[NP], D[N];
static double ev(void *c) { (void)c; return nll(P, D, N); }

int main(void) {
  double p0[NP] = {0.8, -0.3, 1.1, 1.2, 0.2};
  for (int j = 0; j < NP; j++) P[j] = p0[j];
  fz_seed(931);
  for (int i = 0; i < N; i++) D[i] = 0.3 + 2.6 * fz_uniform(0, 1);
  double g[NP] = {0};
  __enzyme_autodiff((void *)nll, enzyme_dup, P, g, enzyme_const, D, enzyme_const, N);

  // Analytic gradient.
  double k = log1p(exp(P[0])), th = log1p(exp(P[1])), nu = 2 + log1p(exp(P[2]));
  double mu = P[3], sg = 0.5 + log1p(exp(P[4]));
  double dk = 0, dth = 0, dnu = 0, dmu = 0, dsg = 0;
  for (int i = 0; i < N; i++) {
    double x = D[i];
    dk -= log(x) - digamma(k) - log(th);
    dth -= x / (th * th) - k / th;
    double z = (x - mu) / sg, q = z * z / nu;
    dnu -= 0.5 * digamma(0.5 * (nu + 1)) - 0.5 * digamma(0.5 * nu) - 0.5 / nu -
           0.5 * log1p(q) + 0.5 * (nu + 1) * q / (nu * (1 + q));
    // d/dz of -(nu+1)/2 log1p(z^2/nu) = -(nu+1) z / (nu + z^2)
    double dldz = -(nu + 1) * z / (nu + z * z);
    dmu -= dldz * (-1 / sg);
    dsg -= -1 / sg + dldz * (-z / sg);
    if (x > 2.0) {
      double a = (2.0 - mu) / sg, tail = 0.5 * erfc(a / M_SQRT2);
      // d tail/d mu = pdf(a)/sg, d tail/d sg = pdf(a) a / sg
      dmu -= npdf(a) / sg / tail;
      dsg -= npdf(a) * a / sg / tail;
    } else {
      double a = (x - mu) / sg, cdf = 0.5 * (1 + erf(a / M_SQRT2));
      dmu -= -npdf(a) / sg / cdf;
      dsg -= -npdf(a) * a / sg / cdf;
    }
  }
  double r = hypot(mu, sg);
  dmu += 0.1 * mu / r;
  dsg += 0.1 * sg / r;
  double c = cbrt(k * th);
  dk += 0.05 * c / (3 * k);
  dth += 0.05 * c / (3 * th);
  dk += 0.01 * 0.5 * digamma(1.0 + 0.5 * k);
  double want[NP] = {dk * sigmoid(P[0]), dth * sigmoid(P[1]), dnu * sigmoid(P[2]), dmu,
                     dsg * sigmoid(P[4])};
  fz_check_arr("analytic (digamma series)", g, want, NP, 1e-9);
  double fd[NP];
  fz_fd_grad(ev, NULL, P, NP, fd);
  fz_check_arr("finite differences", g, fd, NP, 1e-6);
  return fz_finish();
}

// OPT: O0 O2
// The same particle energy written struct-of-arrays and array-of-structs, as codes
// convert between layouts: AoS `struct {double x, y, z; int type; float q;}` (32-byte
// records, an int and a float among the doubles), SoA with three separate arrays plus
// int and float arrays, and a "strided view" accessor `at(base, i, stride)` over the AoS
// records as raw doubles (stride 4 doubles, the int/float pair in the 4th slot);
// a pairwise Lennard-Jones-like energy with a charge term, and an AoS -> SoA transpose
// inside the differentiated function. Reverse mode through each layout and forward mode.
// Oracle: the three layouts give the same gradient (as positions), central differences,
// analytic charge derivatives (float q is enzyme_const data: its int/float slots must
// stay untouched), and the dot-product identity.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

typedef struct { double x, y, z; int type; float q; } particle;
enum { N = 5 };

static double pair(double dx, double dy, double dz, double qq, int tt) {
  double r2 = dx * dx + dy * dy + dz * dz;
  double s6 = 1.0 / (r2 * r2 * r2);
  double eps = tt ? 0.8 : 1.2;
  return eps * (s6 * s6 - s6) + qq / sqrt(r2);
}

double energy_aos(const particle *p, int n) {
  double e = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      e += pair(p[i].x - p[j].x, p[i].y - p[j].y, p[i].z - p[j].z,
                (double)p[i].q * p[j].q, p[i].type == p[j].type);
  return e;
}

double energy_soa(const double *x, const double *y, const double *z, const int *type,
                  const float *q, int n) {
  double e = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      e += pair(x[i] - x[j], y[i] - y[j], z[i] - z[j], (double)q[i] * q[j],
                type[i] == type[j]);
  return e;
}

static inline double at(const double *base, int i, int k, int stride) {
  return base[i * stride + k];
}
// The AoS records seen as doubles (4 per record), transposed to SoA inside.
double energy_view(const particle *p, int n) {
  const double *raw = (const double *)p;
  const int stride = sizeof(particle) / sizeof(double);
  double x[N], y[N], z[N];
  int type[N];
  float q[N];
  for (int i = 0; i < n; i++) {
    x[i] = at(raw, i, 0, stride);
    y[i] = at(raw, i, 1, stride);
    z[i] = at(raw, i, 2, stride);
    type[i] = p[i].type;
    q[i] = p[i].q;
  }
  return energy_soa(x, y, z, type, q, n);
}

static particle P[N];
static double eval_aos(void *c) { (void)c; return energy_aos(P, N); }

int main(void) {
  fz_seed(1288);
  for (int i = 0; i < N; i++) {
    P[i].x = 1.3 * i + fz_uniform(-0.2, 0.2);
    P[i].y = fz_uniform(-0.3, 0.3) + (i & 1);
    P[i].z = fz_uniform(-0.3, 0.3);
    P[i].type = i % 2;
    P[i].q = (float)fz_uniform(-1, 1);
  }
  // AoS reverse
  particle dP[N];
  memset(dP, 0, sizeof dP);
  __enzyme_autodiff((void *)energy_aos, enzyme_dup, P, dP, enzyme_const, N);
  // SoA reverse
  double x[N], y[N], z[N], dx[N] = {0}, dy[N] = {0}, dz[N] = {0};
  int type[N];
  float q[N];
  for (int i = 0; i < N; i++) x[i] = P[i].x, y[i] = P[i].y, z[i] = P[i].z, type[i] = P[i].type,
                              q[i] = P[i].q;
  __enzyme_autodiff((void *)energy_soa, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_dup, z, dz,
                    enzyme_const, type, enzyme_const, q, enzyme_const, N);
  // strided view reverse
  particle dV[N];
  memset(dV, 0, sizeof dV);
  __enzyme_autodiff((void *)energy_view, enzyme_dup, P, dV, enzyme_const, N);
  char nm[48];
  for (int i = 0; i < N; i++) {
    double fd[3] = {fz_fd_ptr(eval_aos, 0, &P[i].x), fz_fd_ptr(eval_aos, 0, &P[i].y),
                    fz_fd_ptr(eval_aos, 0, &P[i].z)};
    double aos[3] = {dP[i].x, dP[i].y, dP[i].z}, soa[3] = {dx[i], dy[i], dz[i]},
           view[3] = {dV[i].x, dV[i].y, dV[i].z};
    for (int k = 0; k < 3; k++) {
      snprintf(nm, sizeof nm, "aos d p[%d].%c vs fd", i, "xyz"[k]);
      fz_check(nm, aos[k], fd[k], 1e-6);
      snprintf(nm, sizeof nm, "soa = aos d p[%d].%c", i, "xyz"[k]);
      fz_check(nm, soa[k], aos[k], 1e-12);
      snprintf(nm, sizeof nm, "view = aos d p[%d].%c", i, "xyz"[k]);
      fz_check(nm, view[k], aos[k], 1e-12);
    }
    snprintf(nm, sizeof nm, "aos shadow p[%d].type untouched", i);
    fz_check(nm, dP[i].type, 0, 0);
    snprintf(nm, sizeof nm, "view shadow p[%d].type untouched", i);
    fz_check(nm, dV[i].type, 0, 0);
  }
  // forward along v through the AoS and the view
  particle V[N];
  memset(V, 0, sizeof V);
  for (int i = 0; i < N; i++) V[i].x = fz_uniform(-1, 1), V[i].y = fz_uniform(-1, 1),
                              V[i].z = fz_uniform(-1, 1);
  double ja = __enzyme_fwddiff((void *)energy_aos, enzyme_dup, P, V, enzyme_const, N);
  double jw = __enzyme_fwddiff((void *)energy_view, enzyme_dup, P, V, enzyme_const, N);
  double vj = 0;
  for (int i = 0; i < N; i++) vj += V[i].x * dP[i].x + V[i].y * dP[i].y + V[i].z * dP[i].z;
  fz_check("aos <J v, 1> = <v, J^T 1>", ja, vj, 1e-11);
  fz_check("view <J v, 1> = <v, J^T 1>", jw, vj, 1e-11);
  return fz_finish();
}

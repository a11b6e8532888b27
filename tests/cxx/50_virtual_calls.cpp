// OPT: O0 O2
// Virtual calls (issue 10: rejected at every level): single and multiple inheritance
// (the call through the second base goes through a this-adjusting thunk), objects passed
// as enzyme_const (an array of base pointers) and as enzyme_dup (the shadow object is an
// ordinary object of the same class: no hand-written shadow vtable). Reverse and forward.
// Oracle: analytic.
#include <cmath>
#include "../c/fz_test.h"

extern "C" double __enzyme_fwddiff(void *, ...);

struct Shape {
  double k = 1.0;
  virtual double area(double s) const = 0;
  virtual ~Shape() {}
};
struct Square : Shape {
  double area(double s) const override { return k * s * s; }
};
struct Circle : Shape {
  double area(double s) const override { return k * M_PI * s * s; }
};
struct Named {
  virtual const char *name() const { return "named"; }
  virtual ~Named() {}
};
struct Blob : Named, Shape {
  double area(double s) const override { return k * std::exp(s); }
};

double total(const Shape *const *shapes, int n, double s) {
  double t = 0;
  for (int i = 0; i < n; i++) t += shapes[i]->area(s);
  return t;
}
double one(const Shape *sh, double s) { return sh->area(s) * s; }

int main() {
  fz_seed(50);
  Square a;
  Circle b;
  Blob c;
  a.k = fz_uniform(1, 2);
  b.k = fz_uniform(1, 2);
  c.k = fz_uniform(0.2, 0.8);
  const Shape *arr[3] = {&a, &b, &c};
  double s = fz_uniform(0.5, 1.5);
  double want = 2 * a.k * s + 2 * b.k * M_PI * s + c.k * std::exp(s);
  fz_check("const objects (rev)",
           __enzyme_autodiff((void *)total, enzyme_const, arr, enzyme_const, 3, s), want,
           1e-12);
  fz_check("const objects (fwd)",
           __enzyme_fwddiff((void *)total, enzyme_const, arr, enzyme_const, 3, s, 1.0), want,
           1e-12);
  // Duplicated objects: derivative with respect to the member k, through each class.
  Square da;
  da.k = 0;
  fz_check("dup square: ds",
           __enzyme_autodiff((void *)one, enzyme_dup, (const Shape *)&a, (const Shape *)&da, s),
           3 * a.k * s * s, 1e-12);
  fz_check("dup square: dk", da.k, s * s * s, 1e-12);
  Blob dc;
  dc.k = 0;
  fz_check("dup blob (second base): ds",
           __enzyme_autodiff((void *)one, enzyme_dup, (const Shape *)&c, (const Shape *)&dc, s),
           c.k * std::exp(s) * (s + 1), 1e-12);
  fz_check("dup blob: dk", dc.k, std::exp(s) * s, 1e-12);
  return fz_finish();
}

// EXPECT-ERROR: error[bad-autodiff-call]
// EXPECT-ERROR: the first argument of `__enzyme_autodiff` is not a function
// EXPECT-ERROR-COUNT: 0 `__enzyme_autodiff.fzargs
// Messages name a hook as the user wrote it. `ferrozyme cc` loads the clang plugin, which
// renames a hook call with a value passed in two registers (`double _Complex`)
// `<hook>.fzargs.<digits>` (request/reader/two_part.rs); messages printed that name
// (`__enzyme_autodiff.fzargs.211`), which is nowhere in the user's source. The
// instruction line still shows the IR as it is. Every message that names the hook takes
// its name from `hooks::hook_name`.
#include <complex.h>

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_const;

double f(double _Complex z, double a) { return creal(z) * a + cimag(z); }

double (*pick)(double _Complex, double);

int main(int argc, char **argv) {
  (void)argv;
  double _Complex z = 1.0 + 2.0 * I;
  pick = argc > 5 ? f : 0;
  return (int)__enzyme_autodiff((void *)pick, z, enzyme_const, 1.0);
}

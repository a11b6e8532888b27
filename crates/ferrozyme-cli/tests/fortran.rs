//! Fortran through the `ferrozyme` binary: flang-compiled kernels called from C, the
//! Fortran driver and its module, runtime routines without derivatives.

mod common;
use common::*;
use std::process::Command;

/// Whether flang-22 is installed (scripts/ensure-hpc.sh installs it; the Fortran CLI tests
/// need it).
fn have_flang() -> bool {
    Command::new("flang-22")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

const KERNEL_F90: &str = r#"
subroutine sumsq(n, x, y) bind(c, name="sumsq")
  use, intrinsic :: iso_c_binding, only: c_int, c_double
  integer(c_int), value :: n
  real(c_double), intent(in) :: x(n)
  real(c_double), intent(out) :: y
  y = sum(x * x)
end subroutine sumsq
"#;

const MAIN_C_FORTRAN: &str = r#"
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);
void sumsq(int n, const double *x, double *y);
int main(void) {
    double x[3] = {1, 2, 3}, dx[3] = {0, 0, 0}, y = 0, dy = 1;
    __enzyme_autodiff((void *)sumsq, enzyme_const, 3, enzyme_dup, x, dx, enzyme_dup, &y, &dy);
    printf("%g %g %g\n", dx[0], dx[1], dx[2]);
    return 0;
}
"#;

/// `ferrozyme cc` on a mixed Fortran + C command line: flang-22 compiles the Fortran
/// file (with the Fortran-only flag, without the C-only one), clang-22 the C file, the
/// gradient crosses the languages, and flang links (its runtime library).
#[test]
fn cc_differentiates_fortran_called_from_c() {
    if !have_flang() {
        eprintln!("skipped: flang-22 is not installed (bash scripts/ensure-hpc.sh)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "kernel.f90", KERNEL_F90);
    write(dir.path(), "main.c", MAIN_C_FORTRAN);
    for opt in ["-O0", "-O2"] {
        let o = ferrozyme(
            dir.path(),
            &[
                "cc",
                opt,
                "-v",
                "-std=c11",
                "-ffree-form",
                "kernel.f90",
                "main.c",
                "-o",
                "prog",
                "-lm",
            ],
        );
        assert_ok(&o);
        let log = stderr(&o);
        let flang_line = log.lines().find(|l| l.contains("kernel.f90")).unwrap_or("");
        assert!(flang_line.contains("flang"), "{log}");
        assert!(
            flang_line.contains("-ffree-form") && !flang_line.contains("-std=c11"),
            "{log}"
        );
        let clang_line = log.lines().find(|l| l.contains("main.c")).unwrap_or("");
        assert!(
            clang_line.contains("-std=c11") && !clang_line.contains("-ffree-form"),
            "{log}"
        );
        assert_eq!(run_program(&dir.path().join("prog")), "2 4 6\n", "{opt}");
    }
}

const FORTRAN_MAIN: &str = r#"
module m
contains
  subroutine cube(n, x, y)
    integer :: n
    real(8) :: x(n), y
    y = sum(x**3)
  end subroutine cube
end module m
program p
  use ferrozyme
  use m
  implicit none
  real(8) :: x(2), dx(2), y, dy
  x = [1d0, 2d0]; dx = 0; dy = 1
  call __enzyme_autodiff(cube, enzyme_const, 2, enzyme_dup, x, dx, enzyme_dup, y, dy)
  print '(2f8.2)', dx
end program p
"#;

/// `ferrozyme fortran`: the flang-22 drop-in finds the `ferrozyme` module without flags.
#[test]
fn fortran_driver_uses_the_ferrozyme_module() {
    if !have_flang() {
        eprintln!("skipped: flang-22 is not installed (bash scripts/ensure-hpc.sh)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.f90", FORTRAN_MAIN);
    let o = ferrozyme(dir.path(), &["fortran", "-O2", "p.f90", "-o", "prog"]);
    assert_ok(&o);
    assert_eq!(run_program(&dir.path().join("prog")), "    3.00   12.00\n");
}

/// A flang runtime routine without a derivative on the differentiated path (the
/// transformational BESSEL_JN; EOSHIFT and UNPACK were until they got implementations) is
/// a `missing-derivative` error naming it, never a silent zero.
#[test]
fn fortran_runtime_routine_without_derivative_is_named() {
    if !have_flang() {
        eprintln!("skipped: flang-22 is not installed (bash scripts/ensure-hpc.sh)");
        return;
    }
    let src = r#"
subroutine f(x, y)
  real(8) :: x(4), y
  y = sum(bessel_jn(0, 2, x(1)) * x(1:3))
end subroutine f
program p
  use ferrozyme
  real(8) :: x(4), dx(4), y, dy
  external :: f
  x = 1; dx = 0; dy = 1
  call __enzyme_autodiff(f, enzyme_dup, x, dx, enzyme_dup, y, dy)
  print *, dx
end program p
"#;
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.f90", src);
    let o = ferrozyme(dir.path(), &["fortran", "-O0", "p.f90", "-o", "prog"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("error[missing-derivative]"), "{e}");
    assert!(
        e.contains("`_FortranABesselJn_8` (flang's runtime library)"),
        "{e}"
    );
}

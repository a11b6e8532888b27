//! Separate compilation: objects that carry IR, missing bodies deferred to the
//! `ferrozyme cc` link, and the shipped headers found without flags.

mod common;
use common::*;
use std::process::Command;

/// `-c` objects carry their source's IR in `.llvmbc` next to the machine code: a file
/// that differentiates on its own also links with plain clang; one whose differentiated
/// function lives elsewhere compiles with a note and is differentiated at the
/// `ferrozyme cc` link (with plain clang it fails to link, never silently).
#[test]
fn objects_carry_ir_and_defer_missing_bodies() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "self.c",
        r#"#include <stdio.h>
#include <ferrozyme.h>
double cube(double x) { return x * x * x; }
int main(void) { printf("%g\n", __enzyme_autodiff((void *)cube, 2.0)); return 0; }
"#,
    );
    assert_ok(&ferrozyme(dir.path(), &["cc", "-O2", "-c", "self.c"]));
    let obj = std::fs::read(dir.path().join("self.o")).unwrap();
    assert!(
        obj.windows(7).any(|w| w == b".llvmbc"),
        "no .llvmbc section"
    );
    let plain = Command::new("clang-22")
        .args(["self.o", "-o", "plain"])
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(plain.success());
    assert_eq!(run_program(&dir.path().join("plain")), "12\n");

    write(
        dir.path(),
        "main.c",
        r#"#include <stdio.h>
#include <ferrozyme.h>
double cube(double x);
int main(void) { printf("%g\n", __enzyme_autodiff((void *)cube, 3.0)); return 0; }
"#,
    );
    write(
        dir.path(),
        "cube.c",
        "double cube(double x) { return x * x * x; }\n",
    );
    let o = ferrozyme(dir.path(), &["cc", "-O2", "-c", "main.c", "cube.c"]);
    assert_ok(&o);
    assert!(
        stderr(&o).contains("note") && stderr(&o).contains("link step"),
        "{}",
        stderr(&o)
    );
    let plain = Command::new("clang-22")
        .args(["main.o", "cube.o", "-o", "plain2"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        !plain.status.success(),
        "linking without ferrozyme must fail"
    );
    assert!(String::from_utf8_lossy(&plain.stderr).contains("__enzyme_autodiff"));
    assert_ok(&ferrozyme(
        dir.path(),
        &["cc", "main.o", "cube.o", "-o", "prog"],
    ));
    assert_eq!(run_program(&dir.path().join("prog")), "27\n");
    // -flto objects are bitcode, differentiated at the link too.
    assert_ok(&ferrozyme(
        dir.path(),
        &["cc", "-O2", "-flto", "-c", "cube.c", "-o", "cube_lto.o"],
    ));
    let lto = std::fs::read(dir.path().join("cube_lto.o")).unwrap();
    assert!(lto.starts_with(b"BC\xC0\xDE"));
    assert_ok(&ferrozyme(
        dir.path(),
        &["cc", "main.o", "cube_lto.o", "-o", "prog_lto"],
    ));
    assert_eq!(run_program(&dir.path().join("prog_lto")), "27\n");
}

/// `<enzyme/enzyme>` and `<ferrozyme.h>` are found without flags, from C++ and C.
#[test]
fn headers_found_without_flags() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "api.cpp",
        r#"#include <enzyme/enzyme>
#include <ferrozyme.h>
#include <cstdio>
double f(double x, double y) { return x * x * y; }
int main() {
  auto r = enzyme::autodiff<enzyme::ReverseWithPrimal>(f, enzyme::Active{3.0}, enzyme::Const{2.0});
  std::printf("%g %g\n", enzyme::get<0>(enzyme::get<0>(r)), enzyme::get<1>(r));
}
"#,
    );
    for level in ["-O0", "-O2"] {
        assert_ok(&ferrozyme(
            dir.path(),
            &["c++", level, "-std=c++17", "api.cpp", "-o", "api"],
        ));
        assert_eq!(run_program(&dir.path().join("api")), "12 18\n");
    }
}

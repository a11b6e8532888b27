//! err36: bad input as a new user meets it, second round. A C syntax error and a missing
//! `-o` directory (named without Ferrozyme's internal command line), an object whose
//! differentiation waits for the link linked by a plain linker, Enzyme's option names
//! mistyped or written without their dash, bitcode from LLVM 14, and the plugin loaded
//! into LLVM 14's `opt`.

mod common;
use common::*;

use std::path::Path;
use std::process::Command;

const SQUARE_C: &str = r#"
#include <stdio.h>
extern double __enzyme_autodiff(void *, ...);
double f(double x) { return x * x; }
int main(void) { printf("%g\n", __enzyme_autodiff((void *)f, 2.0)); return 0; }
"#;

/// clang's own error is shown, then one line naming the file (it showed clang's whole
/// internal command: `-fplugin=...`, `-mllvm ...`, a temporary `.bc`); exit status 1.
#[test]
fn c_syntax_error_names_the_file_not_the_internal_command() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "syn.c", "double f(double x) { return x * x }\n");
    let o = ferrozyme(dir.path(), &["cc", "-O2", "syn.c", "-o", "syn"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("expected ';'"), "{err}");
    assert!(
        err.contains("ferrozyme: error: clang-22 on 'syn.c' failed (exit status 1)"),
        "{err}"
    );
    assert!(
        !err.contains("-fplugin") && !err.contains("ferrozyme-"),
        "{err}"
    );
}

/// `-o` into a directory that does not exist stops before compiling, saying so (it was
/// the linker's "cannot open output file" after the whole build, then the internal link
/// command).
#[test]
fn missing_output_directory_is_named_before_compiling() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "sq.c", SQUARE_C);
    for extra in [&[][..], &["-c"][..]] {
        let mut args = vec!["cc", "-O2", "sq.c", "-o", "nodir/sq"];
        args.extend_from_slice(extra);
        let o = ferrozyme(dir.path(), &args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(
            err.contains("cannot write 'nodir/sq': the directory 'nodir' does not exist"),
            "{err}"
        );
        assert!(!err.contains("ld:") && !err.contains("clang"), "{err}");
    }
}

/// An object whose function to differentiate is defined in another file waits for the
/// link (`ferrozyme cc a.o b.o` differentiates it). Linked by a plain linker, its
/// undefined hook now says what to do (`__enzyme_autodiff.link_this_object_with_ferrozyme_cc`)
/// instead of a bare `__enzyme_autodiff`; `ferrozyme cc` still links it and the
/// derivative is right (d/dx x^3 at 2 = 12).
#[test]
fn object_left_to_the_link_tells_a_plain_linker_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "main.c",
        r#"
#include <stdio.h>
extern double __enzyme_autodiff(void *, ...);
double g(double x);
int main(void) { printf("%g\n", __enzyme_autodiff((void *)g, 2.0)); return 0; }
"#,
    );
    write(
        dir.path(),
        "g.c",
        "double g(double x) { return x * x * x; }\n",
    );
    for (src, obj) in [("main.c", "main.o"), ("g.c", "g.o")] {
        assert_ok(&ferrozyme(dir.path(), &["cc", "-O2", "-c", src, "-o", obj]));
    }
    let plain = Command::new("clang-22")
        .args(["main.o", "g.o", "-o", "plain"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let err = stderr(&plain);
    assert!(!plain.status.success(), "{err}");
    assert!(
        err.contains("__enzyme_autodiff.link_this_object_with_ferrozyme_cc"),
        "{err}"
    );
    assert_ok(&ferrozyme(
        dir.path(),
        &["cc", "main.o", "g.o", "-o", "prog"],
    ));
    assert_eq!(run_program(&dir.path().join("prog")).trim(), "12");
}

/// Enzyme's option names: accepted as Enzyme spells them (`-enzyme-loose-types`, by
/// `ferrozyme opt` too), a mistyped one gets the nearest name (it suggested
/// `-enzyme-print`, a prefix), and one written without its dash as `opt`'s scripts name
/// it is not taken for a second input module.
#[test]
fn enzyme_option_names_as_users_type_them() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "sq.c", SQUARE_C);
    let o = ferrozyme(
        dir.path(),
        &[
            "cc",
            "-O2",
            "sq.c",
            "-o",
            "sq",
            "-mllvm",
            "-enzyme-loose-types",
        ],
    );
    assert_ok(&o);
    assert_eq!(run_program(&dir.path().join("sq")).trim(), "4");
    let o = ferrozyme(
        dir.path(),
        &[
            "cc",
            "-O2",
            "sq.c",
            "-o",
            "sq",
            "-mllvm",
            "-enzyme-print-activty",
        ],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("unknown Enzyme option '-enzyme-print-activty'")
            && err.contains("did you mean '-enzyme-print-activity'?"),
        "{err}"
    );
    assert_ok(&ferrozyme(
        dir.path(),
        &["cc", "-O0", "-S", "-emit-llvm", "sq.c", "-o", "sq.ll"],
    ));
    assert_ok(&ferrozyme(
        dir.path(),
        &["opt", "sq.ll", "-o", "out.ll", "-enzyme-loose-types"],
    ));
    let o = ferrozyme(
        dir.path(),
        &["opt", "sq.ll", "-o", "out.ll", "enzyme-print-activity"],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("'enzyme-print-activity' is not a file: Enzyme's options take a dash ('-enzyme-print-activity')"),
        "{err}"
    );
}

const LLVM14: &str = "/usr/lib/llvm-14/bin";

/// Typed-pointer IR of LLVM 14's time (`i8*`, `bitcast`), for LLVM 14's tools.
const TYPED_POINTERS_LL: &str = r#"
declare double @__enzyme_autodiff(i8*, ...)
define double @sq(double %x) {
  %r = fmul double %x, %x
  %s = fmul double %r, %x
  ret double %s
}
define double @grad_sq(double %x) {
  %d = call double (i8*, ...) @__enzyme_autodiff(i8* bitcast (double (double)* @sq to i8*), double %x)
  ret double %d
}
"#;

/// Bitcode written by LLVM 14 loads (LLVM reads older bitcode) and is differentiated:
/// d/dx x^3 at 1.5 = 6.75, through a C main compiled by clang-22.
#[test]
fn bitcode_from_llvm_14_is_differentiated() {
    if !Path::new(LLVM14).join("llvm-as").exists() {
        eprintln!("skipped: no LLVM 14 tools");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "t14.ll", TYPED_POINTERS_LL);
    let as14 = Command::new(Path::new(LLVM14).join("llvm-as"))
        .args(["t14.ll", "-o", "t14.bc"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_ok(&as14);
    assert_ok(&ferrozyme(dir.path(), &["opt", "t14.bc", "-o", "out.ll"]));
    write(
        dir.path(),
        "main.c",
        "#include <stdio.h>\ndouble grad_sq(double);\nint main(void) { printf(\"%g\\n\", grad_sq(1.5)); return 0; }\n",
    );
    let cc = Command::new("clang-22")
        .args(["-O1", "main.c", "out.ll", "-o", "prog"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_ok(&cc);
    assert_eq!(run_program(&dir.path().join("prog")).trim(), "6.75");
}

/// The plugin loaded into LLVM 14's `opt`: that `opt` refuses it without a reason
/// ("Failed to load passes ... Request ignored", then "unknown pass name"); the plugin
/// now says it is built for LLVM 22 and which LLVM the program uses.
#[test]
fn plugin_in_another_llvm_says_which() {
    let opt14 = Path::new(LLVM14).join("opt");
    let plugin = Path::new(FERROZYME).with_file_name("libferrozyme_plugin.so");
    if !opt14.exists() || !plugin.exists() {
        eprintln!("skipped: no LLVM 14 opt or no plugin built");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "t14.ll", TYPED_POINTERS_LL);
    let o = Command::new(opt14)
        .arg(format!("-load-pass-plugin={}", plugin.display()))
        .args(["-passes=enzyme", "t14.ll", "-S", "-o", "out.ll"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let err = stderr(&o);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("this plugin is built for LLVM 22") && err.contains("libLLVM-14"),
        "{err}"
    );
}

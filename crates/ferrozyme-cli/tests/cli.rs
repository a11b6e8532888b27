//! End-to-end tests of the `ferrozyme` binary: usage errors,
//! malformed IR, `opt` round trips and the whole `cc` pipeline (compile → link bitcode →
//! pass → verify → optimize → codegen → link → run).

mod common;
use common::*;
use std::process::Command;

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &[][..],
        &["frobnicate"],
        &["opt"],
        &["opt", "in.ll"],
        &["cc"],
        &["cc", "-o"],
        &["cc", "-O9x", "a.c"],
        &["opt", "a.ll", "-o", "b.ll", "--nope"],
    ] {
        let o = ferrozyme(dir.path(), args);
        assert_eq!(
            o.status.code(),
            Some(2),
            "args {args:?}\nstderr:\n{}",
            stderr(&o)
        );
        assert!(
            stderr(&o).contains("error"),
            "args {args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn help_and_version() {
    let dir = tempfile::tempdir().unwrap();
    let o = ferrozyme(dir.path(), &["--help"]);
    assert_ok(&o);
    assert!(stdout(&o).contains("ferrozyme cc"));
    let o = ferrozyme(dir.path(), &["--version"]);
    assert_ok(&o);
    assert!(stdout(&o).starts_with("ferrozyme "));
}

#[test]
fn malformed_ll_is_malformed_ir() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "bad.ll",
        "define double @f(double %x) {\n  ret double %nope\n}\n",
    );
    let o = ferrozyme(dir.path(), &["opt", "bad.ll", "-o", "out.ll"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("error[malformed-ir]: bad.ll"), "{err}");
    assert!(err.contains("%nope"), "LLVM's message is kept: {err}");
    assert!(!dir.path().join("out.ll").exists());
}

#[test]
fn malformed_ll_through_cc() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "bad.ll", "this is not IR\n");
    let o = ferrozyme(dir.path(), &["cc", "-O2", "bad.ll", "-o", "prog"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

#[test]
fn opt_round_trips_text_and_bitcode() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "in.ll", PLAIN_LL);
    assert_ok(&ferrozyme(dir.path(), &["opt", "in.ll", "-o", "out.bc"]));
    assert_ok(&ferrozyme(
        dir.path(),
        &["opt", "out.bc", "-o", "out.ll", "-O2"],
    ));
    let text = std::fs::read_to_string(dir.path().join("out.ll")).unwrap();
    assert!(text.contains("define double @square(double"), "{text}");
    // The output parses again, and `-o -` prints it.
    let o = ferrozyme(dir.path(), &["opt", "out.ll", "-o", "-"]);
    assert_ok(&o);
    assert!(stdout(&o).contains("@square"));
}

/// `--time-passes` (and clang's spelling `-ftime-report`) prints the phase table on
/// stderr, the AD pass's own phases indented under it, and still writes the output.
#[test]
fn time_passes_table_for_opt_and_cc() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "in.ll", PLAIN_LL);
    write(dir.path(), "main.c", MAIN_C);
    write(dir.path(), "sq.c", SQ_C);
    let opt = ferrozyme(
        dir.path(),
        &["opt", "in.ll", "-o", "out.ll", "-O2", "--time-passes"],
    );
    let cc = ferrozyme(
        dir.path(),
        &[
            "cc",
            "-O2",
            "-ftime-report",
            "main.c",
            "sq.c",
            "-o",
            "prog",
            "-lm",
        ],
    );
    for (o, rows) in [
        (
            &opt,
            &["load and link bitcode", "verify", "post-AD optimization"][..],
        ),
        (&cc, &["clang compile", "codegen", "link"][..]),
    ] {
        assert_ok(o);
        let err = stderr(o);
        assert!(err.contains("ferrozyme: time per phase"), "{err}");
        for row in rows
            .iter()
            .chain(&["AD pass", "    type analysis", "total"])
        {
            assert!(err.contains(row), "no {row:?} row:\n{err}");
        }
    }
    assert!(dir.path().join("out.ll").is_file());
    assert_eq!(run_program(&dir.path().join("prog")), EXPECTED);
}

#[test]
fn cc_runs_a_plain_program_at_o0_and_o2() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "main.c", MAIN_C);
    write(dir.path(), "sq.c", SQ_C);
    for level in ["-O0", "-O2"] {
        let exe = format!("prog{level}");
        assert_ok(&ferrozyme(
            dir.path(),
            &[
                "cc", level, "-g", "-Wall", "-std=c11", "main.c", "sq.c", "-o", &exe, "-lm",
            ],
        ));
        assert_eq!(run_program(&dir.path().join(&exe)), EXPECTED, "{level}");
    }
}

#[test]
fn cc_ad_before_opt_and_save_temps() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "main.c", MAIN_C);
    write(dir.path(), "sq.c", SQ_C);
    let o = ferrozyme(
        dir.path(),
        &[
            "cc",
            "-O2",
            "--ad-before-opt",
            "--save-temps=temps",
            "main.c",
            "sq.c",
            "-o",
            "prog",
            "-lm",
        ],
    );
    assert_ok(&o);
    assert_eq!(run_program(&dir.path().join("prog")), EXPECTED);
    for f in ["prog.before-ad.ll", "prog.after-ad.ll"] {
        let text = std::fs::read_to_string(dir.path().join("temps").join(f)).unwrap();
        assert!(text.contains("@sq("), "{f} holds both files' IR");
    }
}

#[test]
fn cc_compile_then_link() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "main.c", MAIN_C);
    write(dir.path(), "sq.c", SQ_C);
    assert_ok(&ferrozyme(
        dir.path(),
        &["cc", "-O2", "-c", "main.c", "sq.c"],
    ));
    assert!(dir.path().join("main.o").exists() && dir.path().join("sq.o").exists());
    assert_ok(&ferrozyme(
        dir.path(),
        &["cc", "-O1", "-c", "sq.c", "-o", "square.o"],
    ));
    assert_ok(&ferrozyme(
        dir.path(),
        &["cc", "main.o", "square.o", "-o", "prog", "-lm"],
    ));
    assert_eq!(run_program(&dir.path().join("prog")), EXPECTED);
    // A source and an object in one command.
    assert_ok(&ferrozyme(
        dir.path(),
        &["cc", "-O2", "main.c", "sq.o", "-o", "prog2", "-lm"],
    ));
    assert_eq!(run_program(&dir.path().join("prog2")), EXPECTED);
}

#[test]
fn cxx_driver() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "p.cpp",
        "#include <cstdio>\n#include <vector>\nint main() { std::vector<double> v{1, 2, 3}; double s = 0; for (double x : v) s += x * x; std::printf(\"%g\\n\", s); }\n",
    );
    assert_ok(&ferrozyme(
        dir.path(),
        &["c++", "-O2", "-std=c++17", "p.cpp", "-o", "p"],
    ));
    assert_eq!(run_program(&dir.path().join("p")), "14\n");
}

#[test]
fn compile_errors_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "e.c", "int main(void) { return undeclared; }\n");
    let o = ferrozyme(dir.path(), &["cc", "e.c", "-o", "e"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("undeclared"),
        "clang's own message reaches the user"
    );
}

/// `docs/coverage.md` is what `ferrozyme rules` prints: regenerate it with
/// `target/release/ferrozyme rules > docs/coverage.md` after changing the rules table.
#[test]
fn coverage_doc_is_current() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ferrozyme"))
        .arg("rules")
        .output()
        .expect("runs");
    assert!(out.status.success());
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/coverage.md"
    ))
    .expect("docs/coverage.md");
    assert!(
        doc == String::from_utf8_lossy(&out.stdout),
        "docs/coverage.md is stale: run `target/release/ferrozyme rules > docs/coverage.md`"
    );
}

/// The differentiated function calls a helper defined in another source file: `cc`
/// links all bitcode before the pass, so the helper's IR is there. An object written by
/// `ferrozyme cc -c` carries its IR, so linking it works too; an object compiled by plain
/// clang has no IR: a `missing-derivative` error naming the helper and that object.
#[test]
fn cc_differentiates_across_source_files() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "main.c",
        r#"
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
double helper(const double *x, int n);
double f(const double *x, int n) { return 2.0 * helper(x, n); }
int main(void) {
  double x[3] = {1, 2, 3}, dx[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
  printf("%g %g %g\n", dx[0], dx[1], dx[2]); /* d(2 sum x^2) = 4x */
  return 0;
}
"#,
    );
    write(dir.path(), "helper.c", "double helper(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i]; return s; }\n");
    for level in ["-O0", "-O2"] {
        assert_ok(&ferrozyme(
            dir.path(),
            &["cc", level, "main.c", "helper.c", "-o", "prog"],
        ));
        assert_eq!(run_program(&dir.path().join("prog")), "4 8 12\n");
    }
    assert_ok(&ferrozyme(
        dir.path(),
        &["cc", "-O2", "-c", "helper.c", "-o", "helper.o"],
    ));
    assert_ok(&ferrozyme(
        dir.path(),
        &["cc", "-O2", "main.c", "helper.o", "-o", "prog2"],
    ));
    assert_eq!(run_program(&dir.path().join("prog2")), "4 8 12\n");
    let clang = std::process::Command::new("clang-22")
        .args(["-O2", "-c", "helper.c", "-o", "native.o"])
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(clang.success());
    let o = ferrozyme(
        dir.path(),
        &["cc", "-O2", "-g", "main.c", "native.o", "-o", "prog3"],
    );
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains("missing-derivative")
            && e.contains("`helper`")
            && e.contains("main.c:6")
            && e.contains("native.o")
            && e.contains("-fembed-bitcode"),
        "{e}"
    );
}

/// `opt --print-activity --print-type-analysis` prints, per instruction of each
/// differentiated function, the activity and the type tree; the module is still rewritten.
#[test]
fn opt_prints_activity_and_type_analysis() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "in.ll",
        r#"
@enzyme_dup = external global i32
@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @f(ptr %x, i64 %n) {
entry:
  %k = mul i64 %n, 3
  %p = getelementptr inbounds double, ptr %x, i64 %k
  %v = load double, ptr %p, align 8
  %sq = fmul double %v, %v
  ret double %sq
}

define double @main_like(ptr %x, ptr %dx) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %d, ptr %x, ptr %dx, i32 %c, i64 2)
  ret double %r
}
"#,
    );
    let o = ferrozyme(
        dir.path(),
        &[
            "opt",
            "in.ll",
            "-o",
            "out.ll",
            "--print-activity",
            "--print-type-analysis",
        ],
    );
    assert_ok(&o);
    let out = stdout(&o);
    assert!(out.contains("activity for @f"), "{out}");
    assert!(out.contains("type analysis for @f"), "{out}");
    let line = |needle: &str| {
        out.lines()
            .find(|l| l.contains(needle) && l.contains(" : "))
            .map(str::to_string)
    };
    // Activity: the loaded double and its square are active, the integer math is not,
    // the pointer into x is shadowed.
    assert!(
        line("%sq = fmul").is_some_and(|l| l.ends_with(": active")),
        "{out}"
    );
    assert!(
        line("%k = mul").is_some_and(|l| l.ends_with(": inactive")),
        "{out}"
    );
    assert!(
        line("%p = getelementptr").is_some_and(|l| l.contains("shadowed")),
        "{out}"
    );
    // Type analysis: x points to doubles, the load is a double, n is an integer.
    assert!(
        out.lines()
            .any(|l| l.contains("ptr %x : ptr {") && l.contains("Double")),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.contains("%v = load double") && l.contains("{[0]:Double}")),
        "{out}"
    );
    // An i64 integer is an integer in both of its 4-byte pieces.
    assert!(
        out.lines()
            .any(|l| l.contains("i64 %n : {[0]:Integer, [4]:Integer}")),
        "{out}"
    );
    let rewritten = std::fs::read_to_string(dir.path().join("out.ll")).unwrap();
    assert!(
        !rewritten.contains("call double (ptr, ...) @__enzyme_autodiff"),
        "{rewritten}"
    );
}

#[test]
fn malformed_bitcode_is_malformed_ir() {
    let dir = tempfile::tempdir().unwrap();
    // The bitcode magic, then garbage: LLVM's bitcode reader must reject it cleanly.
    std::fs::write(
        dir.path().join("bad.bc"),
        b"BC\xc0\xde\x35\x14\x00\x00\x05\x00\x00\x00garbage",
    )
    .unwrap();
    let o = ferrozyme(dir.path(), &["opt", "bad.bc", "-o", "out.ll"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.starts_with("error[malformed-ir]: bad.bc: "), "{err}");
    assert!(err.contains("help: the input must be LLVM 22 IR"), "{err}");
    assert!(!dir.path().join("out.ll").exists());
}

#[test]
fn cxx_exceptions_on_the_differentiated_path() {
    // C++ compiled with exceptions: the derivative follows the normal path (invokes become
    // calls, landing pads go). When no exception is thrown the derivative is right; when
    // one is thrown on the differentiated path the program terminates (derivatives are
    // nounwind), even though the caller catches: never a number computed past the throw.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "throw.cpp",
        r#"#include <stdexcept>
#include <cstdio>
#include <cstdlib>
#include <vector>
extern "C" double __enzyme_autodiff(void *, ...);
double f(double x) {
  std::vector<double> v;
  v.push_back(x);
  if (x < 0) throw std::domain_error("negative");
  v.push_back(x * x);
  return v[1];
}
int main(int argc, char **argv) {
  double x = atof(argv[1]);
  try {
    printf("d=%.17g\n", __enzyme_autodiff((void *)f, x));
  } catch (const std::exception &e) {
    printf("caught %s\n", e.what());
  }
  return 0;
}
"#,
    );
    for opt in ["-O0", "-O2"] {
        let o = ferrozyme(dir.path(), &["c++", opt, "-g", "throw.cpp", "-o", "prog"]);
        assert!(o.status.success(), "{opt}: {}", stderr(&o));
        let run = |x: &str| {
            Command::new(dir.path().join("prog"))
                .arg(x)
                .output()
                .unwrap()
        };
        let ok = run("3");
        assert!(ok.status.success(), "{opt}");
        assert_eq!(String::from_utf8_lossy(&ok.stdout).trim(), "d=6", "{opt}");
        let thrown = run("-1");
        assert!(!thrown.status.success(), "{opt}: a throw must not return");
        let out = String::from_utf8_lossy(&thrown.stdout);
        assert!(!out.contains("d="), "{opt}: {out}");
        assert!(
            String::from_utf8_lossy(&thrown.stderr).contains("terminate"),
            "{opt}"
        );
    }
}

#[test]
fn call_through_a_pointer_to_an_unknown_function_stops() {
    // The possible targets of a call through a pointer are the functions of its type whose
    // address the program takes and whose derivative Ferrozyme can make (here `sq`); at
    // run time the pointer is `nearbyint` (libm, no IR, no libm rule; `j0` and `logb` were
    // used until they got rules, sweep9 and libm10): the program must stop with a
    // message naming the call, not compute a derivative with the wrong function.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "unknown.c",
        r#"#include <math.h>
#include <stdio.h>
#include <stdlib.h>
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_const;
typedef double (*fn)(double);
double sq(double x) { return x * x; }
double apply(fn f, double x) { return f(x); }
int main(int argc, char **argv) {
  fn f = atoi(argv[1]) ? nearbyint : sq;
  printf("d=%g\n", __enzyme_autodiff((void *)apply, enzyme_const, f, 3.0));
  return 0;
}
"#,
    );
    let o = ferrozyme(
        dir.path(),
        &["cc", "-O2", "-g", "unknown.c", "-o", "prog", "-lm"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let run = |a: &str| {
        Command::new(dir.path().join("prog"))
            .arg(a)
            .output()
            .unwrap()
    };
    let ok = run("0");
    assert_eq!(String::from_utf8_lossy(&ok.stdout).trim(), "d=6");
    let bad = run("1");
    assert!(!bad.status.success());
    assert!(!String::from_utf8_lossy(&bad.stdout).contains("d="));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("unknown.c:8"), "{err}");
    assert!(err.contains("function pointer"), "{err}");
    assert!(err.contains("sq"), "{err}");
}

/// `-fno-vectorize -fno-slp-vectorize` also hold for the optimization after AD: the
/// derivative of a fast-math reduction is vectorized without them, not with them.
#[test]
fn cc_loop_flags_reach_the_derivative() {
    const SRC: &str = r#"
extern int enzyme_dup;
extern double __enzyme_autodiff(void *, ...);
double dot(const double *a, const double *b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += a[i] * b[i] * b[i];
  return s;
}
void grad(double *a, double *da, double *b, double *db, int n) {
  __enzyme_autodiff((void *)dot, enzyme_dup, a, da, enzyme_dup, b, db, n);
}
"#;
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "g.c", SRC);
    let vector_ops = |flags: &[&str], out: &str| {
        let mut args = vec![
            "cc",
            "-O2",
            "-ffast-math",
            "-S",
            "-emit-llvm",
            "g.c",
            "-o",
            out,
        ];
        args.extend_from_slice(flags);
        assert_ok(&ferrozyme(dir.path(), &args));
        let ir = std::fs::read_to_string(dir.path().join(out)).unwrap();
        // The derivative, or `grad` when it was inlined there (it needs no tape when
        // the loop is differentiated before vectorization, see `deferred.rs`).
        let body = |name: &str| -> String {
            ir.lines()
                .skip_while(|l| !l.starts_with("define") || !l.contains(name))
                .take_while(|l| *l != "}")
                .collect::<Vec<_>>()
                .join("\n")
        };
        let mut grad = body("@fz_grad_dot(");
        if grad.is_empty() {
            grad = body("@grad(");
        }
        assert!(grad.contains("define"), "the derivative is in the output");
        grad.matches("<2 x double>").count() + grad.matches("<4 x double>").count()
    };
    assert!(
        vector_ops(&[], "vec.ll") > 0,
        "vectorized by default at -O2 -ffast-math"
    );
    assert_eq!(
        vector_ops(&["-fno-vectorize", "-fno-slp-vectorize"], "novec.ll"),
        0,
        "no vector code with -fno-vectorize -fno-slp-vectorize"
    );
}

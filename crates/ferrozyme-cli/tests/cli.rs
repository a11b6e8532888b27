//! End-to-end tests of the `ferrozyme` binary: usage errors,
//! malformed IR, `opt` round trips and the whole `cc` pipeline (compile → link bitcode →
//! pass → verify → optimize → codegen → link → run).

use std::path::Path;
use std::process::{Command, Output};

const FERROZYME: &str = env!("CARGO_BIN_EXE_ferrozyme");

fn ferrozyme(dir: &Path, args: &[&str]) -> Output {
    Command::new(FERROZYME)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the ferrozyme binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[track_caller]
fn assert_ok(o: &Output) {
    assert!(
        o.status.success(),
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        stdout(o),
        stderr(o)
    );
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("write test input");
}

fn run_program(path: &Path) -> String {
    let o = Command::new(path)
        .output()
        .expect("the compiled program runs");
    assert_ok(&o);
    stdout(&o)
}

const MAIN_C: &str = r#"
#include <math.h>
#include <stdio.h>
double sq(double x);
int main(void) {
    double s = 0;
    for (int i = 1; i <= 10; i++) s += sq(i) + sqrt((double)i * i);
    printf("sum=%.1f\n", s);
    return 0;
}
"#;
const SQ_C: &str = "double sq(double x) { return x * x; }\n";
// sum_{i=1..10} i^2 + i = 385 + 55
const EXPECTED: &str = "sum=440.0\n";

const PLAIN_LL: &str = r#"
define double @square(double %x) {
entry:
  %y = fmul double %x, %x
  ret double %y
}
"#;

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
    // run time the pointer is `j0` (libm, no IR, no rule): the program must stop with a
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
  fn f = atoi(argv[1]) ? j0 : sq;
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

#[test]
fn reduce_shrinks_a_module_that_triggers_a_diagnostic() {
    // `mystery` has no body and no rule: missing-derivative. The unrelated functions and
    // instructions must go, the diagnostic must stay.
    let dir = tempfile::tempdir().unwrap();
    let input = r#"
@enzyme_out = external global i32
declare double @mystery(double)
declare double @__enzyme_autodiff(ptr, ...)
define double @g(double %x) {
  %a = fmul double %x, %x
  %b = fadd double %a, 1.0
  %c = call double @mystery(double %b)
  %d = fmul double %c, %a
  %e = fadd double %d, %x
  ret double %e
}
define double @unrelated(double %y) {
  %s = fmul double %y, 3.0
  %t = fadd double %s, %y
  ret double %t
}
define double @main_like(double %x) {
  %m = load i32, ptr @enzyme_out
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @g, i32 %m, double %x)
  %u = call double @unrelated(double %r)
  ret double %u
}
"#;
    write(dir.path(), "in.ll", input);
    let before = ferrozyme(dir.path(), &["opt", "in.ll", "-o", "o.ll"]);
    assert!(
        stderr(&before).starts_with("error[missing-derivative]"),
        "{}",
        stderr(&before)
    );
    let o = ferrozyme(
        dir.path(),
        &[
            "reduce",
            "in.ll",
            "-o",
            "small.ll",
            "--kind",
            "diagnostic=missing-derivative",
        ],
    );
    assert_ok(&o);
    let small = std::fs::read_to_string(dir.path().join("small.ll")).unwrap();
    let count = |s: &str| s.lines().filter(|l| !l.trim().is_empty()).count();
    assert!(count(&small) < count(input), "not smaller:\n{small}");
    assert!(!small.contains("@unrelated"), "{small}");
    // The reduced module still fails with the same class (llvm-reduce may keep a different
    // instance of it, e.g. `g` reduced to a declaration).
    let after = ferrozyme(dir.path(), &["opt", "small.ll", "-o", "o2.ll"]);
    assert_eq!(after.status.code(), Some(1));
    assert!(
        stderr(&after).starts_with("error[missing-derivative]"),
        "{}",
        stderr(&after)
    );
    // Without --kind the class is found from the input itself; an input that does not
    // fail is an error.
    write(dir.path(), "fine.ll", PLAIN_LL);
    let o = ferrozyme(dir.path(), &["reduce", "fine.ll", "-o", "x.ll"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("nothing to reduce"), "{}", stderr(&o));
    let o = ferrozyme(
        dir.path(),
        &["reduce", "in.ll", "-o", "x.ll", "--kind", "bogus"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn check_gradients_warns_only_where_derivative_and_finite_differences_disagree() {
    // `f`, `g` (reverse and forward) are smooth functions of their inputs: their checks
    // pass, also for `counted`, whose global counter the check restores between runs.
    // `bad` rounds its input through an integer: its derivative is zero (no derivative
    // flows through `fptosi`) while its finite differences see the staircase, so the check
    // must report it, naming the call site. `drift` keeps state in memory the check cannot
    // see, so it must be reported as giving different results for the same input.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "gc.c",
        r#"#include <math.h>
#include <stdio.h>
#include <stdlib.h>
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
double f(const double *a, int n, double k) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(a[i] * k) * a[i];
  return s;
}
void g(const double *a, double *out, int n) {
  for (int i = 0; i < n; i++) out[i] = a[i] * a[(i + 1) % n];
}
static int calls = 0;
double counted(double x) { calls++; return (calls % 2 ? 1.0 : 3.0) * x * x; }
double bad(double x) { long q = (long)(x * 1e6); return (double)q * 1e-6 + x * x; }
static int store;
double drift(double x, int *cnt) { *cnt += 1; return *cnt * x; }
int main(void) {
  double a[4] = {0.3, -0.5, 0.9, 1.2}, da[4] = {0};
  double *h = malloc(4 * sizeof(double)), *dh = calloc(4, sizeof(double));
  for (int i = 0; i < 4; i++) h[i] = a[i];
  double dk = __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_const, 4, 1.5);
  double out[4], dout[4] = {1, 0.5, 0, 2};
  __enzyme_autodiff((void *)g, enzyme_dup, h, dh, enzyme_dup, out, dout, enzyme_const, 4);
  double ta[4] = {1, 0, 0, 0}, tout[4];
  __enzyme_fwddiff((void *)g, enzyme_dup, a, ta, enzyme_dup, out, tout, enzyme_const, 4);
  double dc = __enzyme_autodiff((void *)counted, 2.0);
  double db = __enzyme_autodiff((void *)bad, 2.0);
  int *volatile cp = &store; /* the check cannot see what this points to */
  double dd = __enzyme_autodiff((void *)drift, 2.0, enzyme_const, cp);
  printf("%.6f %.6f %.6f %.6f %.6f %.6f %.6f\n", dk, da[0], dh[0], tout[0], dc, db, dd);
  return 0;
}
"#,
    );
    let o = ferrozyme(
        dir.path(),
        &[
            "cc",
            "-O2",
            "-g",
            "--check-gradients",
            "gc.c",
            "-o",
            "gc",
            "-lm",
        ],
    );
    assert_ok(&o);
    let run = |env: &str| {
        std::process::Command::new(dir.path().join("gc"))
            .env("FERROZYME_CHECK_GRADIENTS", env)
            .output()
            .unwrap()
    };
    let r = run("verbose");
    assert!(r.status.success());
    let err = String::from_utf8_lossy(&r.stderr).to_string();
    let passed = |name: &str| {
        err.lines()
            .filter(|l| l.contains("check passed") && l.contains(&format!("of `{name}`")))
            .count()
    };
    assert_eq!(passed("f"), 3, "{err}");
    assert!(passed("g") >= 4, "{err}"); // 3 reverse directions + forward buffers
    assert_eq!(passed("counted"), 3, "{err}");
    assert!(
        err.lines()
            .filter(|l| l.contains("FAILED"))
            .all(|l| l.contains("of `bad`") || l.contains("of `drift`")),
        "{err}"
    );
    assert!(
        err.lines().any(|l| l.contains("FAILED")
            && l.contains("of `drift`")
            && l.contains("different results")),
        "{err}"
    );
    // The warning names the call site: file and line of the `bad` hook call.
    let src = std::fs::read_to_string(dir.path().join("gc.c")).unwrap();
    let line = 1 + src
        .lines()
        .position(|l| l.contains("__enzyme_autodiff((void *)bad"))
        .unwrap();
    assert!(
        err.lines()
            .any(|l| l.contains(&format!("FAILED at gc.c:{line}:")) && l.contains("of `bad`")),
        "{err}"
    );
    // The derivatives the program prints are unchanged by checking.
    let plain = ferrozyme(dir.path(), &["cc", "-O2", "gc.c", "-o", "gc2", "-lm"]);
    assert_ok(&plain);
    let p = std::process::Command::new(dir.path().join("gc2"))
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&r.stdout),
        String::from_utf8_lossy(&p.stdout)
    );
    // Disabled at run time: no output at all.
    let off = run("0");
    assert!(String::from_utf8_lossy(&off.stderr).is_empty());
}

#[test]
fn check_gradients_passes_on_test_programs() {
    // A sample of the end-to-end programs (loops, memory, calls, float code, forward mode,
    // split mode) built with --check-gradients: in strict mode the program exits with 86 at
    // the first disagreement, so these must all run cleanly.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "03_sumsq",
        "15_dot",
        "47_physics_spring",
        "93_switch_in_loop",
        "129_libm_supported",
        "203_fwd_array_inout",
        "211_fwd_matvec",
        "241_split_void_arrays",
    ] {
        let src = root.join("tests/c").join(format!("{name}.c"));
        let inc = format!("-I{}", root.join("tests/c").display());
        let out = dir.path().join(name);
        let o = ferrozyme(
            dir.path(),
            &[
                "cc",
                "-O2",
                "--check-gradients",
                &inc,
                src.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
                "-lm",
            ],
        );
        assert_ok(&o);
        let r = Command::new(&out)
            .env("FERROZYME_CHECK_GRADIENTS", "strict")
            .output()
            .unwrap();
        assert!(
            r.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
    }
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

/// A flang runtime routine without a derivative on the differentiated path (CSHIFT at
/// -O0) is a `missing-derivative` error naming it, never a silent zero.
#[test]
fn fortran_runtime_routine_without_derivative_is_named() {
    if !have_flang() {
        eprintln!("skipped: flang-22 is not installed (bash scripts/ensure-hpc.sh)");
        return;
    }
    let src = r#"
subroutine f(x, y)
  real(8) :: x(4), y
  y = sum(cshift(x, 1) * x)
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
        e.contains("`_FortranACshiftVector` (flang's runtime library)"),
        "{e}"
    );
}

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

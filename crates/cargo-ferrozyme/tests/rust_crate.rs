//! The Rust end-to-end suite: `tests/rust` (a crate of its own, with a second crate and
//! rayon in its dependency graph) built and run with this `cargo ferrozyme`, in release
//! and debug builds, as library unit tests, integration tests, a binary and an example;
//! the two ways it must fail: a plain `cargo` build whose derivative is called (a clear
//! panic, never a number) and a derivative the pass cannot generate (an error naming the
//! Rust function and source line); the constructs that must be right or refused; and
//! `tests/rust-linalg` (ndarray and nalgebra from the registry).
//!
//! Two chains, each with its own target directory (`target/rust-release`,
//! `target/rust-debug`), run concurrently by libtest's threads (rust28: the suite's time).
//! Each profile's build is made once and every check of that profile runs from it: the
//! binaries and examples `cargo test` already linked, the error and refusal cases built
//! with one feature set (the library compiled once for all of them), `tests/rust-linalg`
//! in the same target directory (the `ferrozyme` crate and its proc macro are shared). The
//! debug chain is `tests/rust`'s debug build alone (its unit-test binary's link is the
//! longest single-threaded step); the plain build and linalg's debug build run at the end
//! of the release chain. A chain runs all its checks and then reports every failure.
//! Repeated runs are incremental.
//! Each cargo invocation's wall time is printed (`--nocapture` shows it).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use ferrozyme_e2e::children_cpu_seconds;
use ferrozyme_e2e::matrix::Matrix;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/cargo-ferrozyme is two levels below the repository root")
        .to_path_buf()
}

/// Runs `cargo ferrozyme <args>` (or plain `cargo <args>`) in `tests/rust`.
fn cargo(ferrozyme: bool, args: &[&str], target: &str) -> Output {
    cargo_in("rust", ferrozyme, args, target)
}

/// Runs `cargo ferrozyme <args>` (or plain `cargo <args>`) in `tests/<dir>`.
fn cargo_in(dir: &str, ferrozyme: bool, args: &[&str], target: &str) -> Output {
    let root = root();
    let mut cmd = if ferrozyme {
        let mut c = Command::new(env!("CARGO_BIN_EXE_cargo-ferrozyme"));
        c.arg("ferrozyme");
        c
    } else {
        Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
    };
    cmd.args(args)
        .current_dir(root.join("tests").join(dir))
        .env("CARGO_TARGET_DIR", root.join("target").join(target))
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("FERROZYME_LINKER_MODE");
    let t = std::time::Instant::now();
    let o = cmd.output().expect("cannot run cargo");
    eprintln!(
        "[rust_crate] {:6.1} s  {}cargo {} (tests/{dir})",
        t.elapsed().as_secs_f64(),
        if ferrozyme { "ferrozyme " } else { "" },
        args.join(" ")
    );
    o
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[track_caller]
fn assert_ok(o: &Output, what: &str) {
    let (out, err) = text(o);
    assert!(
        o.status.success(),
        "{what} failed ({}):\n--- stdout ---\n{out}\n--- stderr (tail) ---\n{}",
        o.status,
        tail(&err, 60)
    );
}

fn tail(s: &str, n: usize) -> String {
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// The summary of the pass's errors `cargo ferrozyme` prints after a failed link.
#[track_caller]
fn pass_report(stderr: &str) -> &str {
    stderr
        .split("cargo-ferrozyme: the AD pass reported:")
        .nth(1)
        .unwrap_or_else(|| panic!("no summary of the pass's errors:\n{}", tail(stderr, 40)))
}

/// Sum of "N passed" over the test binaries' summaries; panics on any failure.
fn passed(stdout: &str) -> usize {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("test result: ok. "))
        .filter_map(|l| l.split(' ').next()?.parse::<usize>().ok())
        .sum()
}

/// Tests of every build (front39 added five, `tests/front39_users.rs`; alloc40 three,
/// `tests/alloc40_global_allocator.rs`; rust41 six: the alloc40 test it un-ignored and
/// `tests/rust41_grown_vectors.rs`; rust42 one, the lost-adjoint stop in a child process;
/// rust44 four, `tests/rust44_loaded_headers.rs`; rust45 three there: the two rust44
/// tests debug builds crashed in, and the forward-mode rows).
const TESTS: usize = 168;
/// front24's five tests, front34's six, front35's seven, front36's nine, front37's five,
/// front38's five and rustmap's six, compiled out of debug builds
/// (tests/rust/tests/front24_users.rs, front34_users.rs, front35_users.rs,
/// front36_users.rs, front37_users.rs, front38_users.rs, rustmap_maps.rs).
const RELEASE_ONLY: usize = 43;
/// The release chain's target directory (tests/rust, tests/rust-linalg, the plain build).
const RELEASE: &str = "rust-release";
/// The debug chain's (tests/rust's debug build).
const DEBUG: &str = "rust-debug";
/// Every feature that adds a refusal case to `tests/rust`, enabled together so that the
/// library is compiled once for all of them.
const REFUSAL_FEATURES: &str = "error-case,dyn-built-inside,dyn-layers-lib,probe27-refused";

/// The checks of one chain: each runs even when an earlier one failed (a check needing
/// an earlier build finds it, or builds it); the failures are reported together at the end.
struct Chain {
    name: &'static str,
    failed: Vec<&'static str>,
}

impl Chain {
    fn new(name: &'static str) -> Self {
        Chain {
            name,
            failed: Vec::new(),
        }
    }

    /// Runs one check; its wall time and its child processes' CPU time go to stderr
    /// (shown with `--nocapture`; the CPU time is the check's own with `--test-threads=1`,
    /// the chains otherwise run at once).
    fn check(&mut self, what: &'static str, f: impl FnOnce()) {
        let start = std::time::Instant::now();
        let cpu = children_cpu_seconds();
        if catch_unwind(AssertUnwindSafe(f)).is_err() {
            self.failed.push(what);
        }
        eprintln!(
            "{}: {what}: {:.1} s wall, {:.1} s CPU of child processes",
            self.name,
            start.elapsed().as_secs_f64(),
            children_cpu_seconds() - cpu
        );
    }

    fn finish(self) {
        assert!(
            self.failed.is_empty(),
            "{}: failed checks (their messages are above): {:?}",
            self.name,
            self.failed
        );
    }
}

/// The release build: `cargo ferrozyme test --release` (library unit tests, integration
/// tests, and the binary and examples it links), the binary and examples run, the error
/// and refusal cases, and `tests/rust-linalg` in release; then the debug builds that need
/// not wait for the debug chain: the plain `cargo` build (which must panic clearly at the
/// first derivative) and, with `FZ_FULL_MATRIX=1`, `tests/rust-linalg` in debug.
#[test]
fn release_chain() {
    let mut c = Chain::new("release chain");
    c.check("cargo ferrozyme test --release", || {
        let o = cargo(true, &["test", "--release"], RELEASE);
        assert_ok(&o, "cargo ferrozyme test --release");
        let (out, _) = text(&o);
        assert!(
            passed(&out) >= TESTS + RELEASE_ONLY,
            "expected at least {} tests to pass:\n{out}",
            TESTS + RELEASE_ONLY
        );
    });
    c.check("binary and examples (release)", || {
        runs_pass(
            &[
                &["run", "--release", "--bin", "fz-rust-demo"],
                &["run", "--release", "--example", "rosenbrock"],
                &["run", "--release", "--example", "front16_fit"],
            ],
            RELEASE,
        )
    });
    c.check("pass errors name the Rust function and source line", || {
        pass_errors_name_the_rust_function_and_source_line(RELEASE)
    });
    c.check(
        "println in a derivative is refused with Rust advice",
        || println_in_a_derivative_is_refused_with_rust_advice(RELEASE),
    );
    c.check(
        "right or refused: Box<dyn>, total_cmp sort, BTreeMap",
        || right_or_refused_cases(RELEASE),
    );
    c.check("tests/rust-linalg, release", || {
        linalg_crates_from_the_registry(&["test", "--release"], 19, RELEASE)
    });
    // The debug chain's critical path is one long single-threaded link (the library's
    // debug unit-test binary through the AD pass): the other debug-profile builds run here,
    // on the other core (debug artifacts of their own in this directory).
    c.check("plain cargo build: the derivative panics clearly", || {
        plain_cargo_build_links_and_the_derivative_panics_clearly(RELEASE)
    });
    // debug builds: one test is ignored, two front18 and five front19 ndarray tests are
    // compiled out (refusals in ndarray's `Zip` and `stride_offset`; tests/README.md
    // front17-front19), eleven run (the view least squares crashed before front18).
    // With `FZ_FULL_MATRIX=1` only (since session 28, CI took 1607 s at stop 56: 45 CPU
    // seconds cold, nalgebra and ndarray built a second time, and the longer of the two
    // chains), as the end-to-end suite's full matrix.
    if Matrix::from_env() == Matrix::Full {
        c.check("tests/rust-linalg, debug", || {
            linalg_crates_from_the_registry(&["test"], 11, RELEASE)
        });
    }
    c.finish();
}

/// The debug build of `tests/rust`: `cargo ferrozyme test`, the binary and examples run.
#[test]
fn debug_chain() {
    let mut c = Chain::new("debug chain");
    c.check("cargo ferrozyme test", || {
        let o = cargo(true, &["test"], DEBUG);
        assert_ok(&o, "cargo ferrozyme test");
        let (out, _) = text(&o);
        assert!(
            passed(&out) >= TESTS,
            "expected at least {TESTS} tests to pass:\n{out}"
        );
    });
    c.check("binary and examples (debug)", || {
        runs_pass(
            &[
                &["run", "--bin", "fz-rust-demo"],
                &["run", "--example", "rosenbrock"],
                &["run", "--example", "front16_fit"],
            ],
            DEBUG,
        )
    });
    c.finish();
}

/// Each `cargo ferrozyme run …` prints a `PASS` line (its checks against formulas).
fn runs_pass(runs: &[&[&str]], target: &str) {
    for args in runs {
        let o = cargo(true, args, target);
        let what = format!("cargo ferrozyme {}", args.join(" "));
        assert_ok(&o, &what);
        let (out, _) = text(&o);
        assert!(
            out.lines().any(|l| l == "PASS"),
            "{what}: no PASS line:\n{out}"
        );
    }
}

/// A plain `cargo run` (no AD pass) builds and links; the first derivative call panics
/// saying to build with `cargo ferrozyme`, and no number comes out. (A debug build: the
/// panic is the `ferrozyme` crate's, whatever the profile; release until rust28.)
fn plain_cargo_build_links_and_the_derivative_panics_clearly(target: &str) {
    let o = cargo(false, &["run", "--bin", "fz-rust-demo"], target);
    let (out, err) = text(&o);
    assert_eq!(
        o.status.code(),
        Some(101),
        "a plain build must build, then panic (exit 101) at the first derivative call:\n{out}\n{}",
        tail(&err, 30)
    );
    assert!(
        err.contains("built without the AD pass")
            && err.contains("cargo ferrozyme build|run|test|bench"),
        "the panic must say to build with cargo ferrozyme:\n{}",
        tail(&err, 30)
    );
    assert!(
        !out.contains("PASS") && !out.contains("FAIL"),
        "no number may come out:\n{out}"
    );
}

/// Inline assembly producing a value in a differentiated function (the example
/// `fz-rust-error`; a binary until rust28): the build fails with
/// an error naming the demangled Rust function and the source line.
fn pass_errors_name_the_rust_function_and_source_line(target: &str) {
    let o = cargo(
        true,
        &[
            "build",
            "--release",
            "--features",
            REFUSAL_FEATURES,
            "--example",
            "fz-rust-error",
        ],
        target,
    );
    let (_, err) = text(&o);
    assert!(!o.status.success(), "the error case must not build");
    let src = std::fs::read_to_string(root().join("tests/rust/examples/fz-rust-error.rs"))
        .expect("the error program");
    let line = src
        .lines()
        .position(|l| l.contains("FZ-ERROR-LINE"))
        .expect("a marked line")
        + 1;
    let report = pass_report(&err);
    for want in [
        "error[unsupported-instruction]".to_string(),
        format!("fz-rust-error.rs:{line}:"),
        "in function `fz_rust_error::model::loss`".to_string(),
    ] {
        assert!(report.contains(&want), "missing `{want}` in:\n{report}");
    }
    assert!(!report.contains("_ZN"), "mangled names in:\n{report}");
}

/// `println!` in a differentiated function: refused, with help a Rust user can act on
/// (it used to be C advice: `ferrozyme cc a.c b.c`, `enzyme_const`).
fn println_in_a_derivative_is_refused_with_rust_advice(target: &str) {
    let o = cargo(
        true,
        &[
            "build",
            "--release",
            "--features",
            REFUSAL_FEATURES,
            "--example",
            "fz-rust-println",
        ],
        target,
    );
    let (_, err) = text(&o);
    assert!(!o.status.success(), "the println case must not build");
    let report = pass_report(&err);
    assert!(report.contains("error[missing-derivative]"), "{report}");
    assert!(
        report.contains("help: printing and formatting (`println!`"),
        "no Rust advice in:\n{report}"
    );
    for c_advice in ["ferrozyme cc", "enzyme_const", "__enzyme_"] {
        assert!(
            !report.contains(&format!("help: {c_advice}"))
                && !report
                    .lines()
                    .any(|l| l.trim_start().starts_with("help:") && l.contains(c_advice)),
            "C advice `{c_advice}` in:\n{report}"
        );
    }
}

/// Constructs whose derivative the pass may refuse, each behind a feature of `tests/rust`
/// with an integration test of its own (checked against FD and formulas):
/// * `Box<dyn Trait>` objects created and dropped inside a differentiated function
///   (`front16_user::built_inside`, `refused_dyn_built_inside`; the destructors are called
///   through the vtable, and every destructor of that type in the program is a candidate);
/// * `Box<dyn Layer>`s duplicated with shadow boxes whose methods push into a `Vec`
///   (`front16_user::network`, `refused_dyn_layers`);
/// * probe27: `sort_by(f64::total_cmp)` (the sort moves the floats as integers once the
///   comparison reads their bits) and a `BTreeMap` built inside a differentiated function
///   (`probe27_more::top_k`, `sparse_dot`, `refused_probe27`), refused with Rust advice
///   (`partial_cmp`; build the map outside), the map's errors naming the user's function
///   and line (front39's `HashMap` built inside, `hash_accumulate`, is differentiated
///   since rustmap: `tests/rustmap_maps.rs`).
///
/// Each must be right (its tests pass) or refused with a clear error, never a failing
/// test. One feature set for all (the library is compiled once, as for the error
/// examples); one test binary, one link, per case, so that a refusal hides no other case.
fn right_or_refused_cases(target: &str) {
    for (test, tests) in [
        ("refused_dyn_built_inside", 1),
        ("refused_dyn_layers", 1),
        ("refused_probe27", 2),
    ] {
        let o = cargo(
            true,
            &[
                "test",
                "--release",
                "--features",
                REFUSAL_FEATURES,
                "--test",
                test,
            ],
            target,
        );
        if !assert_right_or_refused(&o, test, tests) && test == "refused_probe27" {
            let (_, err) = text(&o);
            let report = pass_report(&err);
            assert!(
                report.contains("partial_cmp") && report.contains("BTreeMap"),
                "the Rust help lines: {report}"
            );
            // front39: the maps built inside are reported at the user's lines, with the
            // help saying what to use instead.
            for want in [
                "note: reached from `ferrozyme_rust_tests::probe27_more::sparse_dot` at src/probe27_more.rs:",
                "a `Vec<(K, f64)>` of pairs",
            ] {
                assert!(report.contains(want), "missing `{want}` in: {report}");
            }
        }
    }
}

/// A build whose derivative the pass may refuse: either at least `tests` tests ran and
/// passed (true), or the link failed with the pass's error report (false) — never a
/// failing test.
#[track_caller]
fn assert_right_or_refused(o: &Output, what: &str, tests: usize) -> bool {
    let (out, err) = text(o);
    if o.status.success() {
        assert!(passed(&out) >= tests, "{what}: the tests must run:\n{out}");
        return true;
    }
    assert!(
        !out.contains("test result: FAILED"),
        "{what}: a wrong derivative:\n{out}"
    );
    let report = pass_report(&err);
    assert!(report.contains("error["), "{what}: {report}");
    false
}

/// front17: `tests/rust-linalg`, losses written with `ndarray` and `nalgebra` from
/// crates.io (a workspace of its own, so that the main suite needs no registry), built
/// and tested with `args` (release: at least 19 tests, among them the softmax loss with
/// one matrix-matrix `dot` through matrixmultiply's packed GEMM, refused before front19
/// and differentiated since through a definition of ours,
/// `ferrozyme_abi::RUST_DIFFERENTIABLE_DEFINITIONS`; debug: one test is ignored and the
/// ndarray tests of front18/front19 are compiled out). Skipped, saying so, when cargo
/// cannot get the crates (no registry, nothing cached).
fn linalg_crates_from_the_registry(args: &[&str], want: usize, target: &str) {
    let o = cargo_in("rust-linalg", true, args, target);
    let (out, err) = text(&o);
    if !o.status.success()
        && [
            "failed to download",
            "failed to get",
            "Unable to update",
            "failed to load source",
        ]
        .iter()
        .any(|m| err.contains(m))
    {
        eprintln!(
            "skipped: ndarray/nalgebra unavailable from the registry:\n{}",
            tail(&err, 10)
        );
        return;
    }
    assert_ok(
        &o,
        &format!("cargo ferrozyme {} in tests/rust-linalg", args.join(" ")),
    );
    assert!(
        passed(&out) >= want,
        "expected {want} tests to pass:\n{out}"
    );
}

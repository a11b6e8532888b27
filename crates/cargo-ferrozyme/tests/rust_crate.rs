//! The Rust end-to-end suite: `tests/rust` (a crate of its own, with a second crate and
//! rayon in its dependency graph) built and run with this `cargo ferrozyme`, in release
//! and debug builds, as library unit tests, integration tests, a binary and an example;
//! plus the two ways it must fail: a plain `cargo` build whose derivative is called
//! (a clear panic, never a number) and a derivative the pass cannot generate (an error
//! naming the Rust function and source line).
//!
//! Builds go to `target/rust-tests` (and `target/rust-tests-plain` for the plain build),
//! so repeated runs are incremental. The tests take a lock: they share a target
//! directory, and cargo would serialize them anyway.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

static LOCK: Mutex<()> = Mutex::new(());

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
    cmd.output().expect("cannot run cargo")
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

const TESTS: usize = 135;
/// front24's five tests, compiled out of debug builds (tests/rust/tests/front24_users.rs).
const RELEASE_ONLY: usize = 5;

#[test]
fn release_build_library_and_integration_tests() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let o = cargo(true, &["test", "--release"], "rust-tests");
    assert_ok(&o, "cargo ferrozyme test --release");
    let (out, _) = text(&o);
    assert!(
        passed(&out) >= TESTS + RELEASE_ONLY,
        "expected at least {TESTS} tests to pass:\n{out}"
    );
}

#[test]
fn debug_build_library_and_integration_tests() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let o = cargo(true, &["test"], "rust-tests");
    assert_ok(&o, "cargo ferrozyme test");
    let (out, _) = text(&o);
    assert!(
        passed(&out) >= TESTS,
        "expected at least {TESTS} tests to pass:\n{out}"
    );
}

#[test]
fn binary_and_example_release_and_debug() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    for args in [
        &["run", "--release", "--bin", "fz-rust-demo"][..],
        &["run", "--release", "--example", "rosenbrock"][..],
        &["run", "--example", "rosenbrock"][..],
        &["run", "--release", "--example", "front16_fit"][..],
        &["run", "--example", "front16_fit"][..],
        &["run", "--bin", "fz-rust-demo"][..],
    ] {
        let o = cargo(true, args, "rust-tests");
        let what = format!("cargo ferrozyme {}", args.join(" "));
        assert_ok(&o, &what);
        let (out, _) = text(&o);
        assert!(
            out.lines().any(|l| l == "PASS"),
            "{what}: no PASS line:\n{out}"
        );
    }
}

#[test]
fn plain_cargo_build_links_and_the_derivative_panics_clearly() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let o = cargo(
        false,
        &["run", "--release", "--bin", "fz-rust-demo"],
        "rust-tests-plain",
    );
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

#[test]
fn pass_errors_name_the_rust_function_and_source_line() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let o = cargo(
        true,
        &[
            "build",
            "--release",
            "--features",
            "error-case",
            "--bin",
            "fz-rust-error",
        ],
        "rust-tests",
    );
    let (_, err) = text(&o);
    assert!(!o.status.success(), "the error case must not build");
    let src = std::fs::read_to_string(root().join("tests/rust/src/bin/fz-rust-error.rs"))
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
#[test]
fn println_in_a_derivative_is_refused_with_rust_advice() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let o = cargo(
        true,
        &[
            "build",
            "--release",
            "--features",
            "error-case",
            "--bin",
            "fz-rust-println",
        ],
        "rust-tests",
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

/// `Box<dyn Trait>` objects created and dropped inside a differentiated function
/// (`front16_user::built_inside`, feature `dyn-built-inside`): refused at front16 (the
/// destructors are called through the vtable, and every destructor of that type in the
/// program is a candidate); and `Box<dyn Layer>`s duplicated with shadow boxes whose
/// methods push into a `Vec` (`front16_user::network`, feature `dyn-layers-lib`),
/// refused in this crate at front16. Each must either be right — its test checks it
/// against FD and a formula — or be refused with a clear error; a failing test fails
/// this one.
/// (`to_vec()` of a `Vec<Vec<f64>>`, checked here at rust15, is in the default build since
/// front16: `rust15_structs::cloned_rows_*`.)
#[test]
fn box_dyn_built_inside_is_right_or_refused() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    for (feature, test) in [
        ("dyn-built-inside", "box_dyn_terms_built_inside"),
        (
            "dyn-layers-lib",
            "duplicated_trait_objects_with_parameter_fields",
        ),
    ] {
        let o = cargo(
            true,
            &[
                "test",
                "--release",
                "--features",
                feature,
                "--lib",
                "--",
                test,
            ],
            "rust-tests",
        );
        assert_right_or_refused(&o, feature, 1);
    }
}

/// probe27: `sort_by(f64::total_cmp)` (the sort moves the floats as integers once the
/// comparison reads their bits) and a `BTreeMap` built inside a differentiated function
/// (feature `probe27-refused`): right against formulas, or refused with Rust advice
/// (`partial_cmp`; build the map outside).
#[test]
fn total_cmp_sort_and_btree_map_are_right_or_refused() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let o = cargo(
        true,
        &[
            "test",
            "--release",
            "--features",
            "probe27-refused",
            "--lib",
            "--",
            "probe27_more",
        ],
        "rust-tests",
    );
    assert_right_or_refused(&o, "probe27-refused", 2);
    if !o.status.success() {
        let (_, err) = text(&o);
        let report = pass_report(&err);
        assert!(
            report.contains("partial_cmp") && report.contains("BTreeMap"),
            "the Rust help lines: {report}"
        );
    }
}

/// A build whose derivative the pass may refuse: either at least `tests` tests ran and
/// passed, or the link failed with the pass's error report — never a failing test.
#[track_caller]
fn assert_right_or_refused(o: &Output, what: &str, tests: usize) {
    let (out, err) = text(o);
    if o.status.success() {
        assert!(passed(&out) >= tests, "{what}: the tests must run:\n{out}");
        return;
    }
    assert!(
        !out.contains("test result: FAILED"),
        "{what}: a wrong derivative:\n{out}"
    );
    let report = pass_report(&err);
    assert!(report.contains("error["), "{what}: {report}");
}

/// front17: `tests/rust-linalg`, losses written with `ndarray` and `nalgebra` from
/// crates.io (a workspace of its own, so that the main suite needs no registry), built
/// and tested in release and debug (in debug, one test is ignored and the ndarray tests
/// of front18/front19 are compiled out); its `ndarray-gemm` feature (a matrix-matrix
/// `dot` through matrixmultiply's packed GEMM, refused before front19) must be right.
/// Skipped, saying so, when cargo cannot get the crates (no registry, nothing cached).
#[test]
fn linalg_crates_from_the_registry() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    for args in [&["test", "--release"][..], &["test"][..]] {
        let o = cargo_in("rust-linalg", true, args, "rust-linalg");
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
        // debug builds: one test is ignored, two front18 and five front19 ndarray tests
        // are compiled out (refusals in ndarray's `Zip` and `stride_offset`;
        // tests/README.md front17-front19), eleven run (the view least squares crashed
        // before front18)
        let want = if args.contains(&"--release") { 19 } else { 11 };
        assert!(
            passed(&out) >= want,
            "expected {want} tests to pass:\n{out}"
        );
    }
    let o = cargo_in(
        "rust-linalg",
        true,
        &["test", "--release", "--features", "ndarray-gemm", "--lib"],
        "rust-linalg",
    );
    // since front19 the packed GEMM is differentiated through a definition of ours
    // (`ferrozyme_abi::RUST_DIFFERENTIABLE_DEFINITIONS`): the softmax loss with one
    // matrix-matrix `dot` must be right
    assert_ok(&o, "cargo ferrozyme test --release --features ndarray-gemm");
    let (out, _) = text(&o);
    assert!(passed(&out) >= 18, "expected 18 tests to pass:\n{out}");
}

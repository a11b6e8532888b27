//! `tests/rust-probe` (rust30): a crate written as a Rust user writes one, in styles the other
//! Rust test crates do not cover, with `-C target-cpu=native` in its `.cargo/config.toml`,
//! built and tested with `cargo ferrozyme` in release and debug builds; and its refusal cases
//! (feature `probe30-refused`), right or refused with a clear error.
//!
//! Its own target directory (`target/rust-probe`): its configured `rustflags` differ from
//! the other crates', so a shared directory would rebuild the `ferrozyme` crate in turn.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Tests of the release build (48 unit tests, 4 integration tests; rust31 added 12,
/// rustpy32 6, front39 3 in `tests/front39_native.rs`, front40 6 in `tests/front40_users.rs`,
/// front43 6 in `tests/front43_users.rs`, front45 6 in `tests/front45_users.rs`, front46 3
/// in `tests/front46_users.rs`, front47 5 in `tests/front47_users.rs`, and one ignored).
const RELEASE_TESTS: usize = 78;
/// Tests of the debug build: four are compiled out (`DEBUG-REFUSED` in the crate:
/// `Vec`s built by a `dyn Layer`'s `collect`, a derived `Clone` of a struct with a `Vec`
/// field and a boxed closure owning a `Vec` (its `Vec::as_slice`) are refused with
/// cannot-deduce-type in debug builds).
const DEBUG_TESTS: usize = 74;

fn probe_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/cargo-ferrozyme is two levels below the repository root")
        .join("tests")
        .join("rust-probe")
}

fn cargo_ferrozyme(args: &[&str]) -> Output {
    let dir = probe_dir();
    let t = std::time::Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_cargo-ferrozyme"))
        .arg("ferrozyme")
        .args(args)
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", dir.join("../../target/rust-probe"))
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("FERROZYME_LINKER_MODE")
        .output()
        .expect("cannot run cargo-ferrozyme");
    eprintln!(
        "[rust_probe] {:6.1} s  cargo ferrozyme {}",
        t.elapsed().as_secs_f64(),
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

fn tail(s: &str, n: usize) -> String {
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Sum of "N passed" over the test binaries' summaries.
fn passed(stdout: &str) -> usize {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("test result: ok. "))
        .filter_map(|l| l.split(' ').next()?.parse::<usize>().ok())
        .sum()
}

#[track_caller]
fn assert_all_pass(args: &[&str], want: usize) {
    let o = cargo_ferrozyme(args);
    let (out, err) = text(&o);
    assert!(
        o.status.success() && passed(&out) >= want,
        "cargo ferrozyme {}: expected {want} tests to pass:\n{}\n{}",
        args.join(" "),
        tail(&out, 40),
        tail(&err, 60)
    );
}

/// Release, then debug (one target directory: the proc macro and dependencies are shared).
#[test]
fn probe_crate_release_and_debug() {
    assert_all_pass(&["test", "--release"], RELEASE_TESTS);
    assert_all_pass(&["test"], DEBUG_TESTS);
}

/// The `BTreeMap` built inside (the enum with `Vec`/`Box` variants beside float ones,
/// refused until rustpy32, is in the main build: `scientist32.rs`): the test passes, or
/// the link fails with the pass's report in Rust terms (demangled names, the `BTreeMap`
/// advice) — never a failing (wrong) derivative.
#[test]
fn probe_refusals_are_right_or_clear() {
    let o = cargo_ferrozyme(&[
        "test",
        "--release",
        "--features",
        "probe30-refused",
        "--test",
        "refused_probe30",
    ]);
    let (out, err) = text(&o);
    assert!(
        !out.contains("test result: FAILED"),
        "a wrong derivative:\n{out}"
    );
    if o.status.success() {
        assert!(passed(&out) >= 1, "the refusal test must run:\n{out}");
        return;
    }
    let report = err
        .split("cargo-ferrozyme: the AD pass reported:")
        .nth(1)
        .unwrap_or_else(|| panic!("no summary of the pass's errors:\n{}", tail(&err, 40)));
    for want in [
        "error[cannot-deduce-type]",
        "a `BTreeMap`/`BTreeSet` built inside the differentiated function",
        "build the map outside",
        "note: reached from `ferrozyme_rust_probe::refused::sparse_dot_inside` at src/refused.rs:",
    ] {
        assert!(report.contains(want), "missing `{want}` in:\n{report}");
    }
    assert!(!report.contains("_ZN"), "mangled names in:\n{report}");
}

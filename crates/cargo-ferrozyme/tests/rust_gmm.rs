//! `examples/rust-gmm` (the benchmark suite's GMM objective in idiomatic Rust) built with
//! this `cargo ferrozyme build --release`, its gradient checked against the C benchmark's
//! (`bench/src/gmm.c` differentiated by `ferrozyme cc`, the same input) and against
//! central finite differences.
//!
//! Inputs: a small deterministic problem written here (always), and ADBench's
//! `gmm/1k/gmm_d2_K5.txt` and `gmm_d10_K5.txt` when the data is present
//! (`$FERROZYME_BENCH_DATA`, default `/work/shared/data/adbench`). The program itself
//! compares its objective and gradient with the C result file to 1e-9 and six
//! coordinates with finite differences (its `CHECK` lines must all pass); this test
//! compares the printed gradient with the C file once more, on its own.
//!
//! Needs `target/release/ferrozyme` (built by `cargo build --release`, as the end-to-end
//! tests do). The crate builds into `target/rust-gmm` (incremental across runs).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/cargo-ferrozyme is two levels below the repository root")
        .to_path_buf()
}

fn run(cmd: &mut Command, what: &str) -> Output {
    let o = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    assert!(
        o.status.success(),
        "{what} failed ({}):\n--- stdout ---\n{}\n--- stderr ---\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        tail(&String::from_utf8_lossy(&o.stderr), 60)
    );
    o
}

fn tail(s: &str, n: usize) -> String {
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// The Rust program, built with `cargo ferrozyme build --release`.
fn build_rust(root: &Path) -> PathBuf {
    let target = root.join("target").join("rust-gmm");
    run(
        Command::new(env!("CARGO_BIN_EXE_cargo-ferrozyme"))
            .args(["ferrozyme", "build", "--release"])
            .current_dir(root.join("examples").join("rust-gmm"))
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .env_remove("FERROZYME_LINKER_MODE"),
        "cargo ferrozyme build --release (examples/rust-gmm)",
    );
    // `cargo ferrozyme` builds for an explicit `--target <host>`: the binary is in
    // `target/<triple>/release`; the newest one found.
    let mut found: Vec<PathBuf> = std::fs::read_dir(&target)
        .expect("the target directory")
        .filter_map(|e| Some(e.ok()?.path().join("release").join("rust-gmm")))
        .filter(|p| p.is_file())
        .collect();
    found.sort_by_key(|p| p.metadata().and_then(|m| m.modified()).ok());
    found
        .pop()
        .unwrap_or_else(|| panic!("no rust-gmm binary under {}", target.display()))
}

/// The C benchmark, built by `ferrozyme cc` with the benchmark suite's flags.
fn build_c(root: &Path, dir: &Path) -> PathBuf {
    let fz = std::env::var_os("FERROZYME_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target").join("release").join("ferrozyme"));
    assert!(
        fz.is_file(),
        "{} is missing: run `cargo build --release` first",
        fz.display()
    );
    let exe = dir.join("gmm");
    run(
        Command::new(&fz)
            .arg("cc")
            .args([
                "-O2",
                "-ffast-math",
                "-fno-vectorize",
                "-fno-slp-vectorize",
                "-fno-unroll-loops",
            ])
            .arg("-I")
            .arg(root.join("bench").join("common"))
            .arg(root.join("bench").join("src").join("gmm.c"))
            .arg("-o")
            .arg(&exe)
            .arg("-lm"),
        "ferrozyme cc bench/src/gmm.c",
    );
    exe
}

/// A GMM problem in ADBench's format: d = 3, K = 4, n = 40, numbers from a fixed
/// linear congruential sequence; γ = 1.5, m = 1.
fn write_small_problem(path: &Path) {
    let (d, k, n) = (3usize, 4usize, 40usize);
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |lo: f64, hi: f64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        lo + (hi - lo) * ((state >> 11) as f64 / (1u64 << 53) as f64)
    };
    let mut text = format!("{d} {k} {n}\n");
    let mut line = |count: usize, lo: f64, hi: f64| {
        let v: Vec<String> = (0..count).map(|_| format!("{:.6}", next(lo, hi))).collect();
        v.join(" ") + "\n"
    };
    let rows = [
        (k, 1, -1.0, 1.0),               // alphas
        (k, d, -1.5, 1.5),               // means
        (k, d * (d + 1) / 2, -0.5, 0.5), // icf
        (n, d, -2.0, 2.0),               // x
    ];
    for (count, width, lo, hi) in rows {
        for _ in 0..count {
            text += &line(width, lo, hi);
        }
    }
    text += "1.500000 1\n";
    std::fs::write(path, text).expect("cannot write the small GMM problem");
}

fn numbers(text: &str) -> Vec<f64> {
    text.split_whitespace()
        .map(|t| t.parse().expect("a number"))
        .collect()
}

/// Runs C (writing its result) and Rust on `input`; checks the Rust program's verdicts
/// and compares the gradients here too.
fn check_input(c: &Path, rust: &Path, input: &Path, dir: &Path) {
    let name = input.file_stem().unwrap().to_string_lossy();
    let dump = dir.join(format!("{name}.c-result.txt"));
    run(
        Command::new(c)
            .arg(input)
            .args([
                "--measure",
                "grad",
                "--min-time",
                "0",
                "--nruns",
                "1",
                "--time-limit",
                "0",
                "--dump",
            ])
            .arg(&dump),
        &format!("the C GMM on {name}"),
    );
    let o = run(
        Command::new(rust)
            .arg(input)
            .arg("--c-result")
            .arg(&dump)
            .args(["--measure", "none", "--print-gradient"]),
        &format!("rust-gmm on {name}"),
    );
    let out = String::from_utf8_lossy(&o.stdout);
    for want in [
        "CHECK ok objective vs C (ferrozyme cc)",
        "CHECK ok gradient vs C (ferrozyme cc)",
        "STATUS ok",
    ] {
        assert!(out.contains(want), "{name}: no `{want}` in:\n{out}");
    }
    let fd_ok = out
        .lines()
        .filter(|l| l.starts_with("CHECK ok") && l.contains("vs finite differences"))
        .count();
    assert_eq!(
        fd_ok, 6,
        "{name}: six finite-difference checks must pass:\n{out}"
    );
    assert!(!out.contains("CHECK FAIL"), "{name}:\n{out}");

    // The gradient once more, here: the printed entries against the C file.
    let c_result = numbers(&std::fs::read_to_string(&dump).expect("the C result"));
    let grad: Vec<f64> = out
        .lines()
        .filter_map(|l| l.strip_prefix("RESULT grad["))
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(grad.len() + 1, c_result.len(), "{name}: gradient lengths");
    for (i, (r, c)) in grad.iter().zip(&c_result[1..]).enumerate() {
        let dist = (r - c).abs() / (r.abs() + c.abs()).max(1.0);
        assert!(dist <= 1e-9, "{name}: grad[{i}] Rust {r:e} C {c:e}");
    }
}

#[test]
fn rust_gmm_gradient_matches_the_c_benchmark_and_finite_differences() {
    let root = root();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let c = build_c(&root, dir.path());
    let rust = build_rust(&root);

    let small = dir.path().join("small_d3_K4.txt");
    write_small_problem(&small);
    check_input(&c, &rust, &small, dir.path());

    let data = std::env::var_os("FERROZYME_BENCH_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/work/shared/data/adbench"));
    let adbench: Vec<PathBuf> = ["gmm_d2_K5.txt", "gmm_d10_K5.txt"]
        .iter()
        .map(|f| data.join("gmm").join("1k").join(f))
        .filter(|p| p.is_file())
        .collect();
    if adbench.is_empty() {
        eprintln!(
            "note: ADBench's GMM inputs are not in {}: checked the small problem only",
            data.display()
        );
    }
    for input in &adbench {
        check_input(&c, &rust, input, dir.path());
    }
}

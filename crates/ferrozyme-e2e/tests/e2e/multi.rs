//! Multi-file and library programs: `tests/multi/<name>/build.sh` builds a program from
//! several sources (separate `-c` compiles, `-flto` objects, static libraries ...) and
//! the harness runs it like any other program.
//!
//! `build.sh` runs in a fresh build directory with
//! `FERROZYME` (the binary), `OPT` (`-O0`, `-O2` ...), `SRC` (the test's directory),
//! `FZ_TEST` (the directory of `fz_test.h`), `CLANG`/`CLANGXX` (clang-22) and `AR`
//! (llvm-ar-22, else `ar`), and must leave an executable `prog` there, which must print `PASS`.
//! Its leading `#` comment lines carry the usual directives (`# OPT: O0 O2`,
//! `# IGNORE: reason`); with `# EXPECT-ERROR: <text>` the script itself must fail and
//! its output must contain every expectation (no program is run).

use std::path::{Path, PathBuf};
use std::process::Command;

use ferrozyme_e2e::*;
use libtest_mimic::{Failed, Trial};

use super::{build_dir, ferrozyme, COMPILE_TIMEOUT, RUN_TIMEOUT};

/// Directives of a build script: its leading `#` comment lines (after `#!`).
fn script_directives(src: &str) -> Directives {
    let as_comments: String = src
        .lines()
        .filter(|l| !l.starts_with("#!"))
        .map(|l| match l.trim_start().strip_prefix('#') {
            Some(rest) => format!("//{rest}\n"),
            None => format!("{l}\n"),
        })
        .collect();
    parse_directives(&as_comments)
}

/// One trial per (program, opt level) for every directory with a `build.sh`.
pub fn trials(root: &Path) -> Vec<Trial> {
    let dir = root.join("tests").join("multi");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.join("build.sh").is_file())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    let mut out = Vec::new();
    for test in dirs {
        let name = trial_component(&test.file_name().unwrap().to_string_lossy());
        let script = std::fs::read_to_string(test.join("build.sh")).unwrap_or_default();
        let d = script_directives(&script);
        for opt in &d.opts {
            let ignored = d.ignored_at(opt).is_some();
            let (root, test, d, opt2) = (root.to_path_buf(), test.clone(), d.clone(), opt.clone());
            out.push(
                super::timed(format!("multi::{name}::{opt}"), move || {
                    run(&root, &test, &d, &opt2)
                })
                .with_ignored_flag(ignored),
            );
        }
    }
    out
}

/// llvm-ar-22 (installed with LLVM 22), else the system's `ar`.
fn archiver() -> &'static str {
    let found = Command::new("llvm-ar-22")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if found {
        "llvm-ar-22"
    } else {
        "ar"
    }
}

fn run(root: &Path, test: &Path, d: &Directives, opt: &str) -> Result<(), Failed> {
    let bin = ferrozyme(root)?;
    let name = test.file_name().unwrap().to_string_lossy().into_owned();
    let dir = build_dir(&format!("multi-{name}"), opt)?;
    let mut cmd = Command::new("bash");
    cmd.arg("-e")
        .arg(test.join("build.sh"))
        .current_dir(&dir)
        .env("FERROZYME", &bin)
        .env("OPT", format!("-{opt}"))
        .env("SRC", test)
        .env("FZ_TEST", root.join("tests").join("c"))
        .env("CLANG", "clang-22")
        .env("CLANGXX", "clang++-22")
        .env("AR", archiver());
    let b = run_with_timeout(cmd, COMPILE_TIMEOUT)
        .map_err(|e| format!("cannot run build.sh of {name}: {e}"))?;
    let output = format!("{}{}", b.stdout, b.stderr);
    if !d.expect_errors.is_empty() {
        let missing: Vec<&String> = d
            .expect_errors
            .iter()
            .filter(|e| !output.contains(e.as_str()))
            .collect();
        if b.success() || !missing.is_empty() {
            return Err(format!(
                "build.sh should fail with {:?} ({}), missing {missing:?}\n--- output ---\n{}",
                d.expect_errors,
                b.describe_status(),
                tail(&output, 60)
            )
            .into());
        }
        return Ok(());
    }
    let exe = dir.join("prog");
    if !b.success() || !exe.is_file() {
        return Err(format!(
            "build.sh failed ({})\n--- output ---\n{}",
            b.describe_status(),
            tail(&output, 80)
        )
        .into());
    }
    let mut run = Command::new(&exe);
    run.current_dir(&dir);
    let r = run_with_timeout(run, RUN_TIMEOUT)
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    if r.success() && r.stdout.lines().any(|l| l.trim_start().starts_with("PASS")) {
        return Ok(());
    }
    Err(format!(
        "program failed ({})\n--- mismatches ---\n{}\n--- program stdout (tail) ---\n{}\n--- program stderr (tail) ---\n{}\n--- build output ---\n{}",
        r.describe_status(),
        mismatch_lines(&r.stdout, 20),
        tail(&r.stdout, 40),
        tail(&r.stderr, 20),
        tail(&output, 40)
    )
    .into())
}

//! End-to-end suite: one trial per (program, opt level) for `tests/c/*.c`
//! (`c::03_sumsq::O2`) and `tests/cxx/*.cpp` (through `ferrozyme c++`), for the Fortran,
//! OpenMP and MPI programs (`fortran::`, `openmp::`, `mpi::`), one per error program in
//! `tests/errors/` (`errors::missing_derivative`), one per IR filetest in
//! `tests/filetests/` (`filetests::counter_counted_down`), and one per (multi-file program,
//! opt level) in `tests/multi/*/build.sh` (`multi::01_separate_objects::O2`, see
//! `e2e/multi.rs`). Run with
//! `cargo build --release && cargo test -p ferrozyme-e2e`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use ferrozyme_e2e::matrix::{Kind, Matrix, Variant};
use ferrozyme_e2e::*;
use libtest_mimic::{Arguments, Failed, Trial};

#[path = "e2e/multi.rs"]
mod multi;

/// A trial whose wall time is appended to the file named by `FZ_TRIAL_TIMES` (one
/// `seconds name cpu-seconds` line per trial; the CPU seconds of its child processes are
/// its own with `--test-threads=1`), so the suite's slow trials can be found.
fn timed(
    name: impl Into<String>,
    run: impl FnOnce() -> Result<(), Failed> + Send + 'static,
) -> Trial {
    let name = name.into();
    let label = name.clone();
    Trial::test(name, move || {
        let start = std::time::Instant::now();
        let cpu_start = children_cpu_seconds();
        let result = run();
        if let Ok(path) = std::env::var("FZ_TRIAL_TIMES") {
            use std::io::Write;
            let line = format!(
                "{:.3} {label} {:.3}\n",
                start.elapsed().as_secs_f64(),
                children_cpu_seconds() - cpu_start
            );
            if let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
            {
                let _ = f.write_all(line.as_bytes());
            }
        }
        result
    })
}

const RUN_TIMEOUT: Duration = Duration::from_secs(60);
const COMPILE_TIMEOUT: Duration = Duration::from_secs(300);

/// `target/e2e/<name>-<opt>` of this checkout, emptied.
fn build_dir(name: &str, opt: &str) -> Result<PathBuf, Failed> {
    // Under this checkout's target directory, so that test runs of several checkouts (or
    // worktrees) on one machine never share (and delete) each other's build directories.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/e2e")
        .join(format!("{name}-{opt}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    Ok(dir)
}

fn ferrozyme(root: &Path) -> Result<PathBuf, Failed> {
    find_ferrozyme(root).ok_or_else(|| Failed::from(missing_binary_message(root)))
}

/// How a trial builds its program.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Via {
    /// `ferrozyme cc` / `ferrozyme c++`.
    Cli,
    /// `clang-22 -fpass-plugin=libferrozyme_plugin.so`: the pass inside clang's pipeline.
    Plugin,
    /// `ferrozyme cc --ad-before-opt`: the transform on unoptimized IR (the paper's
    /// "Ref" pipeline, also what the benchmarks compare with).
    Ref,
    /// `ferrozyme cc -fsanitize=address`, run with `ASAN_OPTIONS=detect_leaks=1`: no
    /// memory errors and no leaks (shadow memory, tapes) allowed.
    Asan,
}

/// Programs left out of the `ref::` trials: a `double` copied through a `long *` is only
/// recognisable once the optimizer folded the pun (before it, the `long` TBAA tags make
/// the memory ambiguous and the transform reports `cannot-deduce-type`, the documented
/// answer to type punning).
const NOT_REF: &[&str] = &["63_min_int_copy_one"];

/// The memory-safety subset (`asan::<name>::{O0,O2}`): heap buffers, realloc, VLAs, loops
/// whose values go on tapes, recursion, calls in loops, linked structures. Programs of
/// `tests/c` by name, of `tests/cxx` as `cxx/<name>`.
const ASAN_PROGRAMS: &[&str] = &[
    "03_sumsq",
    "15_dot",
    "20_prefix_sum",
    "34_while_data_dependent",
    "35_nested_triangular",
    "39_recursion",
    "41_malloc_calloc",
    "42_realloc",
    "43_stack_array",
    "47_physics_spring",
    "48_mlp",
    "53_nested_multi_exit",
    "56_helper_loop_writes",
    "57_linked_list",
    "58_tree",
    "59_return_pointer",
    "76_vla_in_loop",
    "81_calls_in_loops_in_calls",
    "86_mutual_recursion",
    "87_realloc_growth",
    "88_pointer_bumping",
    "122_recursion_memory",
    "246_split_fifo_recursive",
    "247_threads_gradients",
    "248_repeated_big_tapes",
    "500_call_markers",
    "501_split_tape_markers",
    "1333_arena_chunks_kept_across_calls",
    "1495_list_gradient_repeated_calls",
    // C++ (`cxx/`): shadows of `operator new` released by `operator delete`.
    "cxx/467_enzyme_sugar_class_results",
    "cxx/472_vector_push_back_shadows",
];

/// The trial `<prefix>::<program>::<opt>` building `file` `via` a pipeline. A program
/// built for a CPU feature this machine lacks cannot run here, and one marked `IGNORE`
/// should not: either is listed as ignored (with `--include-ignored` it runs; the former
/// then fails with SIGILL).
fn program_trial(
    root: &Path,
    file: &Path,
    d: &Directives,
    prefix: &str,
    opt: &str,
    via: Via,
) -> Trial {
    let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
    let name = format!("{prefix}::{}::{opt}", trial_component(&stem));
    let key = match via {
        Via::Cli => opt,
        Via::Ref => "REF",
        Via::Plugin => "PLUGIN",
        Via::Asan => "ASAN",
    };
    let ignored = !missing_cpu_flags(&d.requires).is_empty() || d.ignored_at(key).is_some();
    let (root, file, opt, d) = (
        root.to_path_buf(),
        file.to_path_buf(),
        opt.to_string(),
        d.clone(),
    );
    timed(name, move || run_c_program(&root, &file, &opt, &d, via)).with_ignored_flag(ignored)
}

fn run_c_program(
    root: &Path,
    file: &Path,
    opt: &str,
    d: &Directives,
    via: Via,
) -> Result<(), Failed> {
    let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
    let suffix = match via {
        Via::Cli => "",
        Via::Plugin => "-plugin",
        Via::Asan => "-asan",
        Via::Ref => "-ref",
    };
    let dir = build_dir(&format!("{stem}{suffix}"), opt)?;
    let exe = dir.join("exe");
    let mut cc = match via {
        Via::Cli | Via::Asan | Via::Ref => {
            let mut c = Command::new(ferrozyme(root)?);
            let driver = if file.extension().is_some_and(|e| e == "cpp") {
                "c++"
            } else {
                "cc"
            };
            c.arg(driver);
            if via == Via::Ref {
                c.arg("--ad-before-opt");
            }
            c
        }
        Via::Plugin => {
            let lib = find_plugin(root).ok_or_else(|| {
                Failed::from("libferrozyme_plugin.so not found: run `cargo build --release` first")
            })?;
            let cxx = file.extension().is_some_and(|e| e == "cpp");
            let mut c = Command::new(if cxx { "clang++-22" } else { "clang-22" });
            c.arg(format!("-I{}", file.parent().unwrap().display()));
            match find_clang_plugin(root) {
                // As Enzyme's users load ClangEnzyme: `-fplugin`, which also keeps Enzyme's
                // source attributes and provides Ferrozyme's headers (<enzyme/enzyme>,
                // <ferrozyme.h>) without `-I` (crates/ferrozyme-clang).
                Some(clang_lib) => {
                    c.arg(format!("-fplugin={}", clang_lib.display()));
                }
                // Without clang's headers: the pass plugin, with Enzyme's source
                // attributes defined as the README tells `-fpass-plugin` users (plain
                // clang drops them; without these the pass stops with an error naming them).
                None => {
                    c.arg(format!("-fpass-plugin={}", lib.display()));
                    c.arg(format!("-I{}", root.join("include").display()));
                    c.args([
                        r#"-Denzyme_inactive=annotate("enzyme_inactive")"#,
                        r#"-Denzyme_inactive_noblock=annotate("enzyme_inactive")"#,
                        r#"-Denzyme_function_like(name)=annotate("enzyme_function_like:" name)"#,
                    ]);
                }
            }
            c
        }
    };
    cc.arg(format!("-{opt}"));
    cc.args(&d.cflags);
    if via == Via::Asan {
        cc.args(["-fsanitize=address", "-fno-omit-frame-pointer"]);
    }
    cc.arg(file);
    // `// SOURCES:` more translation units, relative to the program (a replaced
    // `operator new` the pass cannot see into, tests/cxx/469).
    cc.args(d.sources.iter().map(|s| file.parent().unwrap().join(s)));
    cc.arg("-o").arg(&exe);
    cc.args(&d.args);
    cc.arg("-lm");
    cc.current_dir(&dir);
    let cmdline = format!("{cc:?}");
    let c =
        run_with_timeout(cc, COMPILE_TIMEOUT).map_err(|e| format!("cannot run {cmdline}: {e}"))?;
    if !c.success() || !exe.is_file() {
        return Err(format!(
            "compilation failed ({})\ncommand: {cmdline}\n--- compiler stderr ---\n{}\n--- compiler stdout ---\n{}",
            c.describe_status(),
            tail(&c.stderr, 80),
            tail(&c.stdout, 20)
        )
        .into());
    }
    let mut run = Command::new(&exe);
    run.current_dir(&dir);
    if via == Via::Asan {
        run.env(
            "ASAN_OPTIONS",
            "detect_leaks=1:abort_on_error=0:exitcode=23",
        );
    }
    let r = run_with_timeout(run, RUN_TIMEOUT)
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    if !d.expect_runtime_errors.is_empty() {
        let missing: Vec<&String> = d
            .expect_runtime_errors
            .iter()
            .filter(|e| !r.stderr.contains(e.as_str()))
            .collect();
        if r.success() || !missing.is_empty() {
            return Err(format!(
                "expected a run-time error containing {:?} ({}), missing {missing:?}\n--- program stderr ---\n{}",
                d.expect_runtime_errors,
                r.describe_status(),
                tail(&r.stderr, 20)
            )
            .into());
        }
        return Ok(());
    }
    let sanitizer_report =
        r.stderr.contains("ERROR: AddressSanitizer") || r.stderr.contains("ERROR: LeakSanitizer");
    let passed = r.success()
        && !sanitizer_report
        && r.stdout.lines().any(|l| l.trim_start().starts_with("PASS"));
    if !passed {
        return Err(format!(
            "program failed ({})\n--- mismatches ---\n{}\n--- program stdout (tail) ---\n{}\n--- program stderr (tail) ---\n{}\n--- compiler stderr ---\n{}",
            r.describe_status(),
            mismatch_lines(&r.stdout, 20),
            tail(&r.stdout, 40),
            tail(&r.stderr, 20),
            tail(&c.stderr, 40)
        )
        .into());
    }
    Ok(())
}

/// `opt` is the level a `.c` error program is compiled at (`O2` unless its `// OPT:`
/// directive lists levels: the same error is then expected at each).
fn run_error_program(
    root: &Path,
    file: &Path,
    src: &str,
    d: &Directives,
    opt: &str,
) -> Result<(), Failed> {
    let bin = ferrozyme(root)?;
    let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
    let is_ll = file.extension().and_then(|e| e.to_str()) == Some("ll");
    let dir = build_dir(&format!("error-{stem}"), if is_ll { "opt" } else { opt })?;
    let mut cmd = Command::new(&bin);
    if is_ll {
        cmd.arg("opt").arg(file).arg("-o").arg(dir.join("out.ll"));
    } else {
        cmd.arg("cc").arg("-g").arg(format!("-{opt}"));
        cmd.args(&d.cflags);
        cmd.arg(file).arg("-o").arg(dir.join("out"));
        cmd.args(&d.args);
    }
    cmd.current_dir(&dir);
    let cmdline = format!("{cmd:?}");
    let out =
        run_with_timeout(cmd, COMPILE_TIMEOUT).map_err(|e| format!("cannot run {cmdline}: {e}"))?;
    let mut problems = Vec::new();
    if out.timed_out {
        problems.push("the command timed out".to_string());
    } else if out.success() {
        problems.push("the command exited 0 but an error was expected".to_string());
    }
    let mut expected: Vec<String> = d.expect_errors.clone();
    for marker in &d.expect_error_lines {
        match marker_location(file, src, marker) {
            Some(loc) => expected.push(loc),
            None => problems.push(format!(
                "EXPECT-ERROR-LINE marker {marker:?} not found in the file"
            )),
        }
    }
    if expected.is_empty() {
        problems.push("no EXPECT-ERROR directive in the file".to_string());
    }
    for e in &expected {
        if !out.stderr.contains(e.as_str()) {
            problems.push(format!("stderr does not contain {e:?}"));
        }
    }
    for (n, e) in &d.expect_error_counts {
        let got = out.stderr.matches(e.as_str()).count();
        if got != *n {
            problems.push(format!("stderr contains {e:?} {got} times, not {n}"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}\ncommand: {cmdline} ({})\n--- stderr ---\n{}",
            problems.join("\n"),
            out.describe_status(),
            tail(&out.stderr, 60)
        )
        .into())
    }
}

/// A fuzz regression (`tests/fuzz/*.ll`): `ferrozyme opt` must either succeed with output
/// that `opt-22 -passes=verify` accepts, or stop with a clean diagnostic (exit 1,
/// `error[<kind>]`, not `internal-error`, no panic). `; EXPECT-ERROR:` lines, when present,
/// pin the diagnostic; `; EXPECT: ok` pins success.
fn run_fuzz_regression(root: &Path, file: &Path, src: &str, d: &Directives) -> Result<(), Failed> {
    let bin = ferrozyme(root)?;
    let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
    let dir = build_dir(&format!("fuzz-{stem}"), "opt")?;
    let out_ll = dir.join("out.ll");
    let mut cmd = Command::new(&bin);
    cmd.arg("opt").arg(file).arg("-o").arg(&out_ll);
    let out = run_with_timeout(cmd, Duration::from_secs(60))
        .map_err(|e| format!("cannot run ferrozyme: {e}"))?;
    let status = out.describe_status();
    if out.timed_out || out.status.and_then(|s| s.code()).is_none() {
        return Err(format!(
            "ferrozyme opt crashed or hung ({status})\n{}",
            tail(&out.stderr, 40)
        )
        .into());
    }
    if out.stderr.contains("panicked at") || out.stderr.contains("LLVM ERROR") {
        return Err(format!(
            "ferrozyme opt crashed ({status})\n{}",
            tail(&out.stderr, 40)
        )
        .into());
    }
    let wants_ok = src.lines().any(|l| l.trim() == "; EXPECT: ok");
    if out.success() {
        if !d.expect_errors.is_empty() {
            return Err(format!(
                "expected errors {:?}, but ferrozyme opt succeeded",
                d.expect_errors
            )
            .into());
        }
        let v = Command::new("opt-22")
            .args(["-passes=verify", "-disable-output"])
            .arg(&out_ll)
            .output()
            .map_err(|e| format!("cannot run opt-22: {e}"))?;
        if !v.status.success() {
            return Err(format!(
                "the output fails opt-22's verifier:\n{}",
                String::from_utf8_lossy(&v.stderr)
            )
            .into());
        }
        return Ok(());
    }
    let clean = out.status.and_then(|s| s.code()) == Some(1)
        && out.stderr.starts_with("error[")
        && !out.stderr.contains("error[internal-error]");
    if !clean || wants_ok {
        return Err(format!(
            "not a clean diagnostic ({status}):\n{}",
            tail(&out.stderr, 40)
        )
        .into());
    }
    match d
        .expect_errors
        .iter()
        .find(|e| !out.stderr.contains(e.as_str()))
    {
        Some(e) => Err(format!("stderr does not contain {e:?}:\n{}", tail(&out.stderr, 40)).into()),
        None => Ok(()),
    }
}

/// The Fortran, OpenMP and MPI programs (`ferrozyme_e2e::hpc`): one trial per (program,
/// opt level) that `matrix` runs (the programs share their `-O0` trials),
/// `<suite>::<program>::<opt>`, each running every thread or process count.
fn hpc_trials(root: &Path, matrix: Matrix, trials: &mut Vec<Trial>) {
    use ferrozyme_e2e::hpc::{run_program, Suite};
    for suite in Suite::ALL {
        let dir = root.join("tests").join(suite.name());
        for file in list_files(&dir, &["c", "cpp", "f90", "f"]) {
            let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
            let mut d = parse_directives(&std::fs::read_to_string(&file).unwrap_or_default());
            // The smallest and largest of the process counts listed (`Matrix::process_counts`).
            d.mpi_procs = matrix.process_counts(&d, &d.mpi_procs);
            for opt in d.opts.clone() {
                // Every suite shares its -O0 trials (`ferrozyme_e2e::matrix`).
                let kind = match suite {
                    Suite::Mpi => Kind::Mpi,
                    Suite::OpenMp => Kind::OpenMp,
                    Suite::Fortran => Kind::Fortran,
                };
                if !matrix.runs_level(&stem, kind, &d, &opt) {
                    continue;
                }
                let name = format!("{}::{}::{opt}", suite.name(), trial_component(&stem));
                let (root, file, d) = (root.to_path_buf(), file.clone(), d.clone());
                let stem = stem.clone();
                let ignored = d.ignored_at(&opt).is_some();
                trials.push(
                    timed(name, move || {
                        let bin = ferrozyme(&root)?;
                        let dir = build_dir(&format!("{}-{stem}", suite.name()), &opt)?;
                        run_program(&bin, &root, suite, &file, &opt, &d, &dir).map_err(Failed::from)
                    })
                    .with_ignored_flag(ignored),
                );
            }
        }
    }
}

/// One trial per IR filetest (`filetests::<stem>`, see `ferrozyme_e2e::filetest`), plus
/// `filetests::harness_reports_a_failed_check`: the first filetest with one extra check
/// that cannot match must fail, so a harness that stopped running FileCheck (or lost
/// its verdict) cannot pass silently.
fn filetest_trials(root: &Path) -> Vec<Trial> {
    let dir = root.join("tests").join("filetests");
    let files = list_files(&dir, &["ll"]);
    let mut trials = Vec::new();
    for file in &files {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(file).unwrap_or_default();
        let d = parse_directives(&src);
        let (root, file) = (root.to_path_buf(), file.clone());
        trials.push(
            timed(
                format!("filetests::{}", trial_component(&stem)),
                move || {
                    filetest::run_filetest(&ferrozyme(&root)?, &file, &src).map_err(Failed::from)
                },
            )
            .with_ignored_flag(d.ignore.is_some()),
        );
    }
    if let Some(first) = files.first() {
        let (root, first) = (root.to_path_buf(), first.clone());
        trials.push(timed(
            "filetests::harness_reports_a_failed_check",
            move || {
                let src = std::fs::read_to_string(&first)
                    .map_err(|e| format!("cannot read {}: {e}", first.display()))?;
                let dir = build_dir("filetest-harness", "check")?;
                let mutated = dir.join("mutated.ll");
                let text = format!("{src}\n; CHECK: this text is never in the output\n");
                std::fs::write(&mutated, &text).map_err(|e| format!("writing: {e}"))?;
                match filetest::run_filetest(&ferrozyme(&root)?, &mutated, &text) {
                    Err(msg) if msg.contains("this text is never in the output") => Ok(()),
                    Err(msg) => Err(format!("failed, but not on the added check:\n{msg}").into()),
                    Ok(()) => Err("a check that cannot match passed".into()),
                }
            },
        ));
    }
    trials
}

/// `lli::<program>::<jit>::<opt>`: the program differentiated by the plugin in `opt-22`
/// and run by `lli-22` under MCJIT and ORC (see `ferrozyme_e2e::lli`).
fn lli_trials(root: &Path) -> Vec<Trial> {
    use ferrozyme_e2e::lli::{lli_levels, run_lli_program, Jit, LLI_PROGRAMS};
    let mut trials = Vec::new();
    let files = list_files(&root.join("tests").join("c"), &["c"])
        .into_iter()
        .chain(list_files(&root.join("tests").join("cxx"), &["cpp"]));
    for file in files {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(&file).unwrap_or_default();
        let mut levels = lli_levels(&src);
        if levels.is_empty() && LLI_PROGRAMS.contains(&stem.as_str()) {
            levels = vec!["O0".to_string(), "O2".to_string()];
        }
        let d = parse_directives(&src);
        // LLVM's MCJIT cannot run C++ programs with static constructors and destructors
        // (a plain `std::cout << 1` crashes `lli-22 --jit-kind=mcjit` without Ferrozyme):
        // C++ programs run under ORC only.
        let cxx = file.extension().is_some_and(|e| e == "cpp");
        for opt in levels {
            for jit in Jit::ALL.into_iter().filter(|j| !cxx || *j == Jit::Orc) {
                let (root, file, d, opt) =
                    (root.to_path_buf(), file.clone(), d.clone(), opt.clone());
                let name = format!("lli::{}::{}::{opt}", trial_component(&stem), jit.name());
                let ignored = d.ignore.is_some();
                trials.push(
                    timed(name, move || {
                        let plugin = find_plugin(&root).ok_or_else(|| {
                            Failed::from("libferrozyme_plugin.so not found: run `cargo build --release` first")
                        })?;
                        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
                        let dir = build_dir(&format!("{stem}-lli-{}", jit.name()), &opt)?;
                        run_lli_program(&file, &opt, jit, &d, &plugin, &dir).map_err(Failed::from)
                    })
                    .with_ignored_flag(ignored),
                );
            }
        }
    }
    trials
}

fn main() {
    let args = Arguments::from_args();
    let root = workspace_root();
    let mut trials = Vec::new();
    let matrix = Matrix::from_env();
    let (mut variants_run, mut variants_all) = (0usize, 0usize);
    let mut take = |runs: bool| {
        variants_all += 1;
        variants_run += usize::from(runs);
        runs
    };

    let programs = list_files(&root.join("tests").join("c"), &["c"])
        .into_iter()
        .map(|f| ("c", f))
        .chain(
            list_files(&root.join("tests").join("cxx"), &["cpp"])
                .into_iter()
                .map(|f| ("cxx", f)),
        );
    for (kind, file) in programs {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let src = match std::fs::read_to_string(&file) {
            Ok(s) => s,
            Err(e) => {
                let msg = format!("cannot read {}: {e}", file.display());
                trials.push(timed(
                    format!("{kind}::{}", trial_component(&stem)),
                    move || Err(msg.into()),
                ));
                continue;
            }
        };
        let d = parse_directives(&src);
        let k = if kind == "c" {
            Kind::C
        } else {
            Kind::of_cxx(&src)
        };
        for opt in &d.opts {
            if take(matrix.runs_level(&stem, k, &d, opt)) {
                trials.push(program_trial(&root, &file, &d, kind, opt, Via::Cli));
            }
        }
        // C and C++ programs once more with AD before the optimizer (`--ad-before-opt`:
        // unoptimized templates, what the benchmarks' Ref builds see).
        if d.opts.iter().any(|o| o == "O2")
            && d.expect_errors.is_empty()
            && !NOT_REF.contains(&stem.as_str())
            && take(matrix.runs(&stem, k, &d, Variant::Ref))
        {
            let prefix = if kind == "c" { "ref" } else { "ref_cxx" };
            trials.push(program_trial(&root, &file, &d, prefix, "O2", Via::Ref));
        }
        // C and C++ programs once more through the pass plugin inside clang's own -O2
        // pipeline (a share of them in the default matrix: `ferrozyme_e2e::matrix`).
        if d.opts.iter().any(|o| o == "O2") && take(matrix.runs(&stem, k, &d, Variant::Plugin)) {
            let prefix = if kind == "c" { "plugin" } else { "plugin_cxx" };
            trials.push(program_trial(&root, &file, &d, prefix, "O2", Via::Plugin));
        }
    }

    if matrix == Matrix::Sampled {
        eprintln!(
            "e2e: the default matrix runs {variants_run} of the {variants_all} C/C++ program \
             variants (-O2 always, -O0 for half of the MPI and OpenMP programs and a quarter of the others, -O2 alone and neither \
             --ad-before-opt nor the plugin for the C++ programs built on Eigen or boost, one of -O1 and -O3 for a quarter of those listing both (an eighth of \
             the C++ ones), --ad-before-opt for a twelfth and the plugin for a sixteenth of the programs); FZ_FULL_MATRIX=1 runs all of them"
        );
    }

    for entry in ASAN_PROGRAMS {
        let (file, name) = match entry.strip_prefix("cxx/") {
            Some(name) => (
                root.join("tests").join("cxx").join(format!("{name}.cpp")),
                name,
            ),
            None => (
                root.join("tests").join("c").join(format!("{entry}.c")),
                *entry,
            ),
        };
        let d = parse_directives(&std::fs::read_to_string(&file).unwrap_or_default());
        for opt in ["O0", "O2"] {
            let (root, file, d) = (root.clone(), file.clone(), d.clone());
            trials.push(timed(
                format!("asan::{}::{opt}", trial_component(name)),
                move || run_c_program(&root, &file, opt, &d, Via::Asan),
            ));
        }
    }

    hpc_trials(&root, matrix, &mut trials);
    trials.extend(multi::trials(&root));

    for file in list_files(&root.join("tests").join("errors"), &["c", "cpp", "ll"]) {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(&file).unwrap_or_default();
        let d = parse_directives(&src);
        // Error programs run at -O2, or at each level of an explicit `// OPT:` line.
        let explicit_opts = src
            .lines()
            .take_while(|l| l.trim().is_empty() || l.trim_start().starts_with("//"))
            .any(|l| {
                l.trim_start()
                    .trim_start_matches('/')
                    .trim()
                    .starts_with("OPT:")
            });
        let levels: Vec<(String, String)> =
            if explicit_opts && file.extension().is_some_and(|e| e == "c" || e == "cpp") {
                d.opts
                    .iter()
                    .map(|o| {
                        (
                            format!("errors::{}::{o}", trial_component(&stem)),
                            o.clone(),
                        )
                    })
                    .collect()
            } else {
                vec![(
                    format!("errors::{}", trial_component(&stem)),
                    "O2".to_string(),
                )]
            };
        for (name, opt) in levels {
            let (root, file2, src, d) = (root.clone(), file.clone(), src.clone(), d.clone());
            trials.push(timed(name, move || {
                run_error_program(&root, &file2, &src, &d, &opt)
            }));
        }
    }

    for file in list_files(&root.join("tests").join("fuzz"), &["ll"]) {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(&file).unwrap_or_default();
        let d = parse_directives(&src);
        let (root, file2) = (root.clone(), file.clone());
        let name = format!("fuzz::{}", trial_component(&stem));
        trials.push(timed(name, move || {
            run_fuzz_regression(&root, &file2, &src, &d)
        }));
    }

    trials.extend(filetest_trials(&root));
    trials.extend(lli_trials(&root));

    libtest_mimic::run(&args, trials).exit();
}

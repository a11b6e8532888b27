//! The Fortran, OpenMP and MPI suites (`tests/fortran`, `tests/openmp`, `tests/mpi`).
//!
//! A program there is a C or C++ main (`.c`, `.cpp`, including `tests/c/fz_test.h`) or a Fortran main
//! (`.f90`, or fixed-form `.f`, using the `fz_check` module of `tests/fortran/src/fz_check.f90`, which the
//! harness compiles first), plus the `// SOURCES:` it names. It is built once per opt
//! level through the public CLI — `ferrozyme cc` for a C main (Fortran sources go to
//! flang inside it), `ferrozyme c++` for a C++ one, `ferrozyme fortran` for a Fortran one — with `-fopenmp` when it
//! has `OMP_THREADS:` and Open MPI's `mpicc --showme` flags when it has `MPI:`, then
//! run once per thread count (`OMP_NUM_THREADS`) or process count
//! (`mpirun -np N --oversubscribe`). A run passes when it exits 0 and prints a line
//! starting with `PASS`; the trial passes when every run does.
//!
//! `mpirun` refuses to start as root unless told it may; the harness sets Open MPI's
//! `OMPI_ALLOW_RUN_AS_ROOT`/`..._CONFIRM` (harmless otherwise) and keeps the job on this
//! machine (shared memory and loopback only).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::{mismatch_lines, run_with_timeout, tail, Directives};

/// One test suite of this module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suite {
    Fortran,
    OpenMp,
    Mpi,
}

impl Suite {
    pub const ALL: [Suite; 3] = [Suite::Fortran, Suite::OpenMp, Suite::Mpi];

    /// The trial-name prefix and the directory under `tests/`.
    pub fn name(self) -> &'static str {
        match self {
            Suite::Fortran => "fortran",
            Suite::OpenMp => "openmp",
            Suite::Mpi => "mpi",
        }
    }
}

/// How long one run may take (MPI jobs of 4 processes on 2 cores are slow to start).
const RUN_TIMEOUT: Duration = Duration::from_secs(120);
const COMPILE_TIMEOUT: Duration = Duration::from_secs(300);

/// Open MPI's compile and link flags (`mpicc --showme:compile`, `--showme:link`).
pub fn mpi_flags() -> Result<(Vec<String>, Vec<String>), String> {
    let show = |what: &str| -> Result<Vec<String>, String> {
        let o = Command::new("mpicc")
            .arg(format!("--showme:{what}"))
            .output()
            .map_err(|e| {
                format!("cannot run mpicc ({e}); install Open MPI: bash scripts/ensure-hpc.sh")
            })?;
        if !o.status.success() {
            return Err(format!(
                "mpicc --showme:{what} failed: {}",
                String::from_utf8_lossy(&o.stderr)
            ));
        }
        Ok(String::from_utf8_lossy(&o.stdout)
            .split_whitespace()
            .map(String::from)
            .collect())
    };
    Ok((show("compile")?, show("link")?))
}

/// `mpirun -np <n>` for a job on this machine only, allowed to run as root.
pub fn mpirun(np: u32, exe: &Path) -> Command {
    let mut c = Command::new("mpirun");
    c.args([
        "-np",
        &np.to_string(),
        "--oversubscribe",
        "--bind-to",
        "none",
    ])
    .arg(exe);
    mpi_env(&mut c);
    c
}

/// A directory of its own for each program's `mpirun`s: Open MPI 4 creates its session
/// directory `ompi.<host>.<uid>` under `$TMPDIR` and two `mpirun`s starting at the same
/// moment race on it ("orte_session_dir failed ... File exists"; seen once in the suite
/// with three trials in parallel). Short (under /tmp) because the session directory holds
/// Unix sockets, whose paths are limited to 108 bytes. Removed when dropped.
struct SessionDir(PathBuf);

impl SessionDir {
    fn new() -> Result<Self, String> {
        use std::sync::atomic::{AtomicU32, Ordering};
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("fzmpi.{}.{n}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        Ok(SessionDir(dir))
    }

    fn apply(&self, c: &mut Command) {
        c.env("OMPI_MCA_orte_tmpdir_base", &self.0)
            .env("TMPDIR", &self.0);
    }
}

impl Drop for SessionDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The environment every `mpirun` of the suite gets.
pub fn mpi_env(c: &mut Command) {
    c.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        // Shared memory between the ranks; no network devices are probed.
        .env("OMPI_MCA_btl", "self,vader")
        .env("OMPI_MCA_btl_vader_single_copy_mechanism", "none")
        // One-sided windows of the primal programs (MPI_Win_create) over those btls:
        // osc rdma and sm refuse them ("invalid window"); pt2pt sends messages.
        .env("OMPI_MCA_osc", "pt2pt")
        // Oversubscribed ranks yield the CPU when waiting.
        .env("OMPI_MCA_mpi_yield_when_idle", "1");
}

/// The command that builds `file` (with its `SOURCES`) at `opt` into `exe`.
pub fn build_command(
    ferrozyme: &Path,
    root: &Path,
    suite: Suite,
    file: &Path,
    opt: &str,
    d: &Directives,
    exe: &Path,
) -> Result<Command, String> {
    let fortran_main = file.extension().is_some_and(|e| e == "f90" || e == "f");
    let dir = file.parent().unwrap_or(Path::new("."));
    let mut c = Command::new(ferrozyme);
    let cxx_main = file.extension().is_some_and(|e| e == "cpp");
    c.arg(if fortran_main {
        "fortran"
    } else if cxx_main {
        "c++"
    } else {
        "cc"
    });
    c.arg(format!("-{opt}"));
    if !fortran_main {
        c.arg(format!("-I{}", root.join("tests").join("c").display()));
    }
    if suite == Suite::OpenMp || !d.omp_threads.is_empty() {
        c.arg("-fopenmp");
    }
    let mpi = if suite == Suite::Mpi || !d.mpi_procs.is_empty() {
        Some(mpi_flags()?)
    } else {
        None
    };
    if let Some((compile, _)) = &mpi {
        c.args(compile);
    }
    c.args(&d.cflags);
    if fortran_main {
        c.arg(
            root.join("tests")
                .join("fortran")
                .join("src")
                .join("fz_check.f90"),
        );
    }
    for s in &d.sources {
        c.arg(dir.join(s));
    }
    c.arg(file).arg("-o").arg(exe);
    if let Some((_, link)) = &mpi {
        c.args(link);
    }
    c.args(&d.args);
    c.arg("-lm");
    Ok(c)
}

/// The runs of a built program: (label, command), one per thread or process count.
pub fn run_commands(suite: Suite, d: &Directives, exe: &Path) -> Vec<(String, Command)> {
    let mut out = Vec::new();
    if suite == Suite::Mpi || !d.mpi_procs.is_empty() {
        let procs = if d.mpi_procs.is_empty() {
            vec![2]
        } else {
            d.mpi_procs.clone()
        };
        for np in procs {
            let mut c = mpirun(np, exe);
            c.env("OMP_NUM_THREADS", "1");
            avoid_steal_race(&mut c);
            out.push((format!("mpirun -np {np}"), c));
        }
    } else if suite == Suite::OpenMp || !d.omp_threads.is_empty() {
        let threads = if d.omp_threads.is_empty() {
            vec![1, 2]
        } else {
            d.omp_threads.clone()
        };
        for t in threads {
            let mut c = Command::new(exe);
            c.env("OMP_NUM_THREADS", t.to_string());
            avoid_steal_race(&mut c);
            out.push((format!("OMP_NUM_THREADS={t}"), c));
        }
    } else {
        out.push(("run".to_string(), Command::new(exe)));
    }
    out
}

/// libomp runs `schedule(dynamic)` loops by work stealing (`static_steal`), which on a
/// loaded machine sometimes aborts inside libomp itself ("Assertion failure at
/// kmp_dispatch.cpp(1618): vnew.p.ub * (UT)chunk <= trip"; llvm-project issues 54422,
/// 86995, 132164, with plain OpenMP programs, no derivative involved). The trials run
/// dynamic loops monotonically instead: the same `__kmpc_dispatch_*` calls, chunks handed
/// out by one shared counter, so a derivative's replay of the chunks a thread ran is
/// tested the same way.
fn avoid_steal_race(c: &mut Command) {
    c.env("KMP_FORCE_MONOTONIC_DYNAMIC_SCHEDULE", "1");
}

/// Builds and runs one program of a suite in `dir` (a fresh build directory).
pub fn run_program(
    ferrozyme: &Path,
    root: &Path,
    suite: Suite,
    file: &Path,
    opt: &str,
    d: &Directives,
    dir: &Path,
) -> Result<(), String> {
    let exe: PathBuf = dir.join("exe");
    let mut cc = build_command(ferrozyme, root, suite, file, opt, d, &exe)?;
    cc.current_dir(dir);
    let cmdline = format!("{cc:?}");
    let c =
        run_with_timeout(cc, COMPILE_TIMEOUT).map_err(|e| format!("cannot run {cmdline}: {e}"))?;
    if !c.success() || !exe.is_file() {
        return Err(format!(
            "compilation failed ({})\ncommand: {cmdline}\n--- compiler stderr ---\n{}\n--- compiler stdout ---\n{}",
            c.describe_status(),
            tail(&c.stderr, 80),
            tail(&c.stdout, 20)
        ));
    }
    let mut failures = Vec::new();
    let session = SessionDir::new()?;
    for (label, mut run) in run_commands(suite, d, &exe) {
        run.current_dir(dir);
        session.apply(&mut run);
        let r = run_with_timeout(run, RUN_TIMEOUT)
            .map_err(|e| format!("cannot run {} ({label}): {e}", exe.display()))?;
        if !d.expect_runtime_errors.is_empty() {
            // The program must stop with every expected message (a clear run-time error).
            let missing: Vec<&String> = d
                .expect_runtime_errors
                .iter()
                .filter(|e| !r.stderr.contains(e.as_str()))
                .collect();
            if r.success() || !missing.is_empty() {
                failures.push(format!(
                    "{label}: expected a run-time error containing {:?} ({}), missing {missing:?}\n--- program stderr (tail) ---\n{}",
                    d.expect_runtime_errors,
                    r.describe_status(),
                    tail(&r.stderr, 20),
                ));
            }
            continue;
        }
        let passed = r.success() && r.stdout.lines().any(|l| l.trim_start().starts_with("PASS"));
        if !passed {
            failures.push(format!(
                "{label}: program failed ({})\n--- mismatches ---\n{}\n--- program stdout (tail) ---\n{}\n--- program stderr (tail) ---\n{}",
                r.describe_status(),
                mismatch_lines(&r.stdout, 20),
                tail(&r.stdout, 30),
                tail(&r.stderr, 20),
            ));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}\n--- compiler stderr ---\n{}",
            failures.join("\n"),
            tail(&c.stderr, 40)
        ))
    }
}

//! Helpers for the Ferrozyme end-to-end test harness (`tests/e2e.rs`).
//!
//! The suite lives in `<workspace>/tests/`: `tests/c/NN_name.c` are
//! self-checking programs, `tests/errors/*.{c,ll}` must be rejected with a
//! given diagnostic, `tests/filetests/*.ll` pin the transform's decisions on the
//! generated IR (`filetest.rs`); `tests/fortran`, `tests/openmp` and `tests/mpi` hold the
//! Fortran, OpenMP and MPI programs (see [`hpc`]). See `tests/README.md` for the
//! directive syntax.

pub mod filetest;
pub mod hpc;
pub mod lli;
pub mod matrix;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Optimization levels tested when a program has no `// OPT:` directive.
pub const DEFAULT_OPTS: &[&str] = &["O0", "O2"];

/// The workspace root: the first ancestor of this crate's manifest dir that
/// contains a `Cargo.toml` with a `[workspace]` table (falls back to `../..`).
pub fn workspace_root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for dir in here.ancestors().skip(1) {
        let manifest = dir.join("Cargo.toml");
        if let Ok(text) = std::fs::read_to_string(&manifest) {
            if text.lines().any(|l| l.trim() == "[workspace]") {
                return dir.to_path_buf();
            }
        }
    }
    here.join("..").join("..")
}

/// The `ferrozyme` binary: `$FERROZYME_BIN`, else `<root>/target/release/ferrozyme`,
/// else `<root>/target/debug/ferrozyme`. `None` if none exists.
pub fn find_ferrozyme(root: &Path) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("FERROZYME_BIN") {
        let p = PathBuf::from(p);
        return if p.is_file() { Some(p) } else { None };
    }
    let exe = format!("ferrozyme{}", std::env::consts::EXE_SUFFIX);
    ["release", "debug"]
        .iter()
        .map(|profile| root.join("target").join(profile).join(&exe))
        .find(|p| p.is_file())
}

/// The pass plugin: `$FERROZYME_PLUGIN`, else `target/{release,debug}/libferrozyme_plugin.so`.
pub fn find_plugin(root: &Path) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("FERROZYME_PLUGIN") {
        let p = PathBuf::from(p);
        return if p.is_file() { Some(p) } else { None };
    }
    ["release", "debug"]
        .iter()
        .map(|profile| {
            root.join("target")
                .join(profile)
                .join("libferrozyme_plugin.so")
        })
        .find(|p| p.is_file())
}

/// `libferrozyme_clang.so`, the `-fplugin` library (crates/ferrozyme-clang), when it was
/// built with its clang half (clang's headers installed). Looked up once per process:
/// every plugin trial asks, and the answer is read from the library's bytes.
pub fn find_clang_plugin(root: &Path) -> Option<PathBuf> {
    static FOUND: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| {
            let lib = find_plugin(root)?.with_file_name("libferrozyme_clang.so");
            let built = std::fs::read(&lib)
                .ok()?
                .windows(b"enzyme_function_like".len())
                .any(|w| w == b"enzyme_function_like");
            built.then_some(lib)
        })
        .clone()
}

/// The message every trial reports when the binary is missing.
pub fn missing_binary_message(root: &Path) -> String {
    format!(
        "ferrozyme binary not found (looked at $FERROZYME_BIN, {}/target/release/ferrozyme, \
         {}/target/debug/ferrozyme); run `cargo build --release` first",
        root.display(),
        root.display()
    )
}

/// Directives parsed from the leading `//` (or `;` for .ll) comment block.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Directives {
    /// `// OPT: O0 O2 ...` (defaults to [`DEFAULT_OPTS`]).
    pub opts: Vec<String>,
    /// `// CFLAGS: ...` extra compiler flags (whitespace separated, may repeat).
    pub cflags: Vec<String>,
    /// `// ARGS: ...` extra link/compile arguments (whitespace separated, may repeat).
    pub args: Vec<String>,
    /// `// EXPECT-ERROR: <substring>` (may repeat).
    pub expect_errors: Vec<String>,
    /// `// EXPECT-ERROR-LINE: <marker>` (may repeat).
    pub expect_error_lines: Vec<String>,
    /// `// EXPECT-ERROR-COUNT: <n> <substring>` (may repeat): the substring appears
    /// exactly `n` times in stderr (an error reported once, a name never shown).
    pub expect_error_counts: Vec<(usize, String)>,
    /// `// EXPECT-RUNTIME-ERROR: <substring>` (may repeat): the program compiles, then
    /// must fail at run time with this in its stderr.
    pub expect_runtime_errors: Vec<String>,
    /// `// REQUIRES: <cpu flag>` (may repeat): the trial is ignored, with the reason, on
    /// a machine whose /proc/cpuinfo lacks the flag (e.g. `avx512f`).
    pub requires: Vec<String>,
    /// `// IGNORE: <reason>`: a capability that does not work yet. The trials are listed
    /// as ignored (so the gap stays visible; `--include-ignored` runs them and they fail).
    pub ignore: Option<String>,
    /// `// SOURCES: src/k.f90 ...`: more sources compiled with the program, relative to
    /// its directory (a Fortran kernel for a C main, say).
    pub sources: Vec<String>,
    /// `// OMP_THREADS: 1 2`: the program is built with `-fopenmp` and run once per
    /// count with `OMP_NUM_THREADS` set to it.
    pub omp_threads: Vec<u32>,
    /// `// MPI: 2 4`: the program is built with Open MPI's flags and run with
    /// `mpirun -np N --oversubscribe` once per count.
    pub mpi_procs: Vec<u32>,
    /// `// IGNORE-O0: <reason>` (any level), `// IGNORE-REF:`, `// IGNORE-PLUGIN:`: as
    /// `IGNORE`, for the `ferrozyme cc` trials at that level, the `--ad-before-opt` trial
    /// or the plugin trial only.
    pub ignore_at: Vec<(String, String)>,
    /// `// VARIANTS: all`: every variant of the program runs, also in the default
    /// sampled matrix ([`matrix::Matrix`]).
    pub all_variants: bool,
}

impl Directives {
    /// Why the trials with key `opt` (a level such as `O2`, or `REF`, `PLUGIN`) are
    /// ignored, if they are.
    pub fn ignored_at(&self, opt: &str) -> Option<&str> {
        self.ignore.as_deref().or_else(|| {
            self.ignore_at
                .iter()
                .find(|(o, _)| o == opt)
                .map(|(_, r)| r.as_str())
        })
    }
}

/// CPU flags (from /proc/cpuinfo) that `requires` lists and this machine lacks.
pub fn missing_cpu_flags(requires: &[String]) -> Vec<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let flags: Vec<&str> = info
        .lines()
        .find(|l| l.starts_with("flags"))
        .map(|l| l.split_whitespace().collect())
        .unwrap_or_default();
    requires
        .iter()
        .filter(|r| !flags.contains(&r.as_str()))
        .cloned()
        .collect()
}

/// Parses directives from the leading comment lines of `src`: lines starting
/// with `//` or `;` before the first line that is neither a comment nor blank.
pub fn parse_directives(src: &str) -> Directives {
    let mut d = Directives::default();
    let mut opts: Option<Vec<String>> = None;
    for line in src.lines() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let body = if let Some(b) = t.strip_prefix("//") {
            b
        } else if let Some(b) = t.strip_prefix(';') {
            b.trim_start_matches(';')
        } else if let Some(b) = t.strip_prefix('!') {
            // Fortran comments.
            b
        } else {
            break;
        };
        let body = body.trim();
        let Some((key, value)) = body.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match key.trim() {
            "OPT" => {
                let list = opts.get_or_insert_with(Vec::new);
                for o in value.split_whitespace() {
                    let o = o.trim_start_matches('-');
                    let o = if o.starts_with('O') {
                        o.to_string()
                    } else {
                        format!("O{o}")
                    };
                    if !list.contains(&o) {
                        list.push(o);
                    }
                }
            }
            "CFLAGS" => d.cflags.extend(value.split_whitespace().map(String::from)),
            "ARGS" => d.args.extend(value.split_whitespace().map(String::from)),
            "EXPECT-ERROR" if !value.is_empty() => d.expect_errors.push(value.to_string()),
            "EXPECT-ERROR-LINE" if !value.is_empty() => {
                d.expect_error_lines.push(value.to_string())
            }
            "EXPECT-ERROR-COUNT" => {
                if let Some((n, text)) = value
                    .split_once(' ')
                    .and_then(|(n, t)| Some((n.parse().ok()?, t.trim())))
                    .filter(|(_, t)| !t.is_empty())
                {
                    d.expect_error_counts.push((n, text.to_string()));
                }
            }
            "EXPECT-RUNTIME-ERROR" if !value.is_empty() => {
                d.expect_runtime_errors.push(value.to_string())
            }
            "IGNORE" if !value.is_empty() => d.ignore = Some(value.to_string()),
            k if k.starts_with("IGNORE-") && !value.is_empty() => d
                .ignore_at
                .push((k["IGNORE-".len()..].to_string(), value.to_string())),
            "REQUIRES" => d
                .requires
                .extend(value.split_whitespace().map(String::from)),
            "VARIANTS" => d.all_variants |= value == "all",
            "SOURCES" => d.sources.extend(value.split_whitespace().map(String::from)),
            "OMP_THREADS" => d.omp_threads.extend(
                value
                    .split_whitespace()
                    .filter_map(|n| n.parse::<u32>().ok()),
            ),
            "MPI" => d.mpi_procs.extend(
                value
                    .split_whitespace()
                    .filter_map(|n| n.parse::<u32>().ok()),
            ),
            _ => {}
        }
    }
    d.opts = match opts {
        Some(v) if !v.is_empty() => v,
        _ => DEFAULT_OPTS.iter().map(|s| s.to_string()).collect(),
    };
    d
}

/// For an `EXPECT-ERROR-LINE` marker: `<basename>:<line>` of the first line of
/// `src` (1-based) containing `marker`, skipping the directive line itself.
pub fn marker_location(file: &Path, src: &str, marker: &str) -> Option<String> {
    let base = file.file_name()?.to_string_lossy().into_owned();
    src.lines()
        .enumerate()
        .filter(|(_, l)| !l.contains("EXPECT-ERROR-LINE"))
        .find(|(_, l)| l.contains(marker))
        .map(|(i, _)| format!("{base}:{}", i + 1))
}

/// Sorted files in `dir` whose extension is one of `exts`.
pub fn list_files(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.is_file()
                        && p.extension()
                            .and_then(|e| e.to_str())
                            .is_some_and(|e| exts.contains(&e))
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Output of a finished (or killed) process.
#[derive(Debug)]
pub struct RunOutput {
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
    pub timed_out: bool,
}

impl RunOutput {
    pub fn success(&self) -> bool {
        !self.timed_out && self.status.is_some_and(|s| s.success())
    }
    pub fn describe_status(&self) -> String {
        if self.timed_out {
            "timed out".to_string()
        } else {
            match self.status {
                Some(s) => s.to_string(),
                None => "unknown status".to_string(),
            }
        }
    }
}

/// Runs `cmd` with piped stdout/stderr, killing it after `timeout`.
pub fn run_with_timeout(mut cmd: Command, timeout: Duration) -> std::io::Result<RunOutput> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn()?;
    let mut out_pipe = child.stdout.take().expect("piped stdout");
    let mut err_pipe = child.stderr.take().expect("piped stderr");
    let out_t = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = out_pipe.read_to_end(&mut b);
        b
    });
    let err_t = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = err_pipe.read_to_end(&mut b);
        b
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break Some(s);
        }
        if start.elapsed() >= timeout {
            timed_out = true;
            let _ = child.kill();
            break child.wait().ok();
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let stdout = String::from_utf8_lossy(&out_t.join().unwrap_or_default()).into_owned();
    let stderr = String::from_utf8_lossy(&err_t.join().unwrap_or_default()).into_owned();
    Ok(RunOutput {
        status,
        stdout,
        stderr,
        timed_out,
    })
}

/// The last `max_lines` lines of `s` (with a note when something was cut).
/// CPU seconds (user and system) of this process's finished child processes so far
/// (`getrusage(RUSAGE_CHILDREN)`): a test's own when it runs alone (`--test-threads=1`),
/// and unlike wall time not moved by the machine's load.
pub fn children_cpu_seconds() -> f64 {
    // SAFETY: getrusage fills the struct it is given.
    let mut r: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut r) } != 0 {
        return 0.0;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(r.ru_utime) + secs(r.ru_stime)
}

pub fn tail(s: &str, max_lines: usize) -> String {
    let lines: Vec<&str> = s.lines().collect();
    if lines.len() <= max_lines {
        return s.to_string();
    }
    format!(
        "[... {} lines omitted ...]\n{}",
        lines.len() - max_lines,
        lines[lines.len() - max_lines..].join("\n")
    )
}

/// Lines of a program's stdout reporting mismatches (for short failure messages).
pub fn mismatch_lines(stdout: &str, max: usize) -> String {
    let v: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("MISMATCH"))
        .collect();
    let mut s = v.iter().take(max).copied().collect::<Vec<_>>().join("\n");
    if v.len() > max {
        s.push_str(&format!(
            "\n[... {} more MISMATCH lines ...]",
            v.len() - max
        ));
    }
    s
}

/// Turns a file stem into a trial-name component (`missing-derivative` -> `missing_derivative`).
pub fn trial_component(stem: &str) -> String {
    stem.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives() {
        let src = "// OPT: O0 O1 O3\n// ARGS: -lm\n// CFLAGS: -ffast-math\n\n// EXPECT-ERROR: foo\n#include <x.h>\n// OPT: O2\n";
        let d = parse_directives(src);
        assert_eq!(d.opts, vec!["O0", "O1", "O3"]);
        assert_eq!(d.args, vec!["-lm"]);
        assert_eq!(d.cflags, vec!["-ffast-math"]);
        assert_eq!(d.expect_errors, vec!["foo"]);
    }

    #[test]
    fn hpc_directives() {
        let src = "! SOURCES: src/a.f90 src/b.f90\n! OMP_THREADS: 1 2\nprogram p\n";
        let d = parse_directives(src);
        assert_eq!(d.sources, vec!["src/a.f90", "src/b.f90"]);
        assert_eq!(d.omp_threads, vec![1, 2]);
        let d = parse_directives("// MPI: 2 4\n// OPT: O2\nint main;\n");
        assert_eq!(d.mpi_procs, vec![2, 4]);
        assert_eq!(d.opts, vec!["O2"]);
    }

    #[test]
    fn ignore_per_level() {
        let d = parse_directives("// OPT: O0 O2\n// IGNORE-O0: crashes at -O0\nint x;\n");
        assert_eq!(d.ignored_at("O0"), Some("crashes at -O0"));
        assert_eq!(d.ignored_at("O2"), None);
        let all = parse_directives("// IGNORE: not yet\n");
        assert_eq!(all.ignored_at("O2"), Some("not yet"));
    }

    #[test]
    fn default_opts_and_ll() {
        let d = parse_directives("; EXPECT-ERROR: malformed-ir\ndefine");
        assert_eq!(d.opts, vec!["O0", "O2"]);
        assert_eq!(d.expect_errors, vec!["malformed-ir"]);
    }

    #[test]
    fn marker() {
        let src = "// EXPECT-ERROR-LINE: HERE\nint a;\nx(); // HERE\n";
        assert_eq!(
            marker_location(Path::new("/a/b/f.c"), src, "HERE").as_deref(),
            Some("f.c:3")
        );
    }
}

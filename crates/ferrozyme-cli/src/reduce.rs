//! `ferrozyme reduce IN.{ll,bc} -o OUT.ll [--kind K] [--timeout S]`: shrink a module that
//! makes the pass fail, keeping the same failure class.
//!
//! Writes an interestingness test (a `sh` script that runs *this* `ferrozyme opt` on the
//! candidate and checks the class), then runs `llvm-reduce-22 --test=SCRIPT`. Classes:
//!
//! * `crash` — a signal, a Rust panic, an LLVM fatal error, or a timeout;
//! * `verifier` — the output fails `opt-22 -passes=verify`, or Ferrozyme reports
//!   `internal-error` (its own verifier check);
//! * `diagnostic=<kind>` — exit 1 with `error[<kind>]: …`;
//! * `mismatch` — the module (a whole program with `main`) builds after the pass and
//!   prints a line starting `MISMATCH` (the tests' convention for a wrong derivative).
//!
//! Without `--kind` the class is what the input does now; an input that does not fail is
//! an error.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::CliError;

#[derive(Debug, Default)]
pub struct ReduceArgs {
    pub input: PathBuf,
    pub output: PathBuf,
    pub kind: Option<String>,
    pub timeout_s: u32,
    pub help: bool,
}

impl ReduceArgs {
    pub fn parse(words: &[String]) -> Result<ReduceArgs, CliError> {
        let usage = |m: String| CliError::Usage(m);
        let mut a = ReduceArgs {
            timeout_s: 20,
            ..Default::default()
        };
        let (mut input, mut output) = (None, None);
        let mut it = words.iter();
        while let Some(w) = it.next() {
            let mut value = |name: &str| {
                it.next()
                    .cloned()
                    .ok_or_else(|| usage(format!("missing argument to '{name}'")))
            };
            match w.as_str() {
                "--help" | "-h" => a.help = true,
                "-o" => output = Some(PathBuf::from(value("-o")?)),
                "--kind" => a.kind = Some(value("--kind")?),
                "--timeout" => {
                    let v = value("--timeout")?;
                    a.timeout_s = v
                        .parse::<f64>()
                        .ok()
                        .filter(|t| *t >= 1.0)
                        .map(|t| t.ceil() as u32)
                        .ok_or_else(|| usage(format!("invalid --timeout '{v}'")))?;
                }
                s if s.starts_with("--kind=") => a.kind = Some(s[7..].to_string()),
                s if s.starts_with('-') && s != "-" => {
                    return Err(usage(format!(
                        "unknown option '{s}' for 'ferrozyme reduce'"
                    )))
                }
                s if input.is_none() => input = Some(PathBuf::from(s)),
                _ => return Err(usage("'ferrozyme reduce' takes exactly one input".into())),
            }
        }
        if a.help {
            return Ok(a);
        }
        a.input = input.ok_or_else(|| usage("'ferrozyme reduce' needs an input module".into()))?;
        a.output = output.ok_or_else(|| usage("'ferrozyme reduce' needs -o OUT.ll".into()))?;
        if let Some(k) = &a.kind {
            Class::parse(k).ok_or_else(|| {
                usage(format!(
                    "unknown --kind '{k}' (expected crash, verifier, diagnostic=<kind> or mismatch)"
                ))
            })?;
        }
        Ok(a)
    }
}

/// A failure class the interestingness test keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Class {
    Crash,
    Verifier,
    Diagnostic(String),
    Mismatch,
}

impl Class {
    pub fn parse(s: &str) -> Option<Class> {
        match s {
            "crash" => Some(Class::Crash),
            "verifier" => Some(Class::Verifier),
            "mismatch" => Some(Class::Mismatch),
            _ => s
                .strip_prefix("diagnostic=")
                .filter(|k| !k.is_empty() && k.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
                .map(|k| Class::Diagnostic(k.to_string())),
        }
    }
    fn describe(&self) -> String {
        match self {
            Class::Crash => "crash".into(),
            Class::Verifier => "verifier".into(),
            Class::Mismatch => "mismatch".into(),
            Class::Diagnostic(k) => format!("diagnostic={k}"),
        }
    }
}

/// An LLVM 22 tool: `<name>-22` on PATH, else `/usr/lib/llvm-22/bin/<name>`.
fn llvm_tool(name: &str) -> Result<PathBuf, CliError> {
    let versioned = format!("{name}-22");
    let path = std::env::var_os("PATH").unwrap_or_default();
    if let Some(p) = std::env::split_paths(&path)
        .map(|d| d.join(&versioned))
        .find(|p| p.is_file())
    {
        return Ok(p);
    }
    let p = Path::new("/usr/lib/llvm-22/bin").join(name);
    if p.is_file() {
        return Ok(p);
    }
    Err(CliError::Failed(format!(
        "cannot find {versioned} (nor {}); install LLVM 22",
        p.display()
    )))
}

fn sh_quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', r"'\''"))
}

/// The interestingness test: exit 0 when candidate `$1` still fails with `class`.
pub fn script(class: &Class, fz: &Path, opt: &Path, clang: &Path, timeout_s: u32) -> String {
    let check = match class {
        Class::Crash => "[ $rc -eq 124 ] || [ $rc -gt 128 ] || [ $rc -eq 101 ] || grep -q -e 'panicked at' -e 'LLVM ERROR' \"$d/err\"".to_string(),
        Class::Verifier => format!(
            "grep -q '^error\\[internal-error\\]' \"$d/err\" || {{ [ $rc -eq 0 ] && ! {} -passes=verify -disable-output \"$d/out.ll\" 2>/dev/null; }}",
            sh_quote(opt)
        ),
        Class::Diagnostic(k) => format!("[ $rc -eq 1 ] && grep -q '^error\\[{k}\\]' \"$d/err\" && ! grep -q 'panicked at' \"$d/err\""),
        Class::Mismatch => format!(
            "[ $rc -eq 0 ] && {} -O0 \"$d/out.ll\" -o \"$d/exe\" -lm 2>/dev/null && timeout {timeout_s} \"$d/exe\" 2>/dev/null | grep -q '^MISMATCH'",
            sh_quote(clang)
        ),
    };
    format!(
        "#!/bin/sh\n# Interestingness test written by `ferrozyme reduce --kind {}`:\n# exit 0 when the candidate module \"$1\" still fails that way.\nd=$(mktemp -d) || exit 2\ntrap 'rm -rf \"$d\"' EXIT\ntimeout {timeout_s} {} opt \"$1\" -o \"$d/out.ll\" >/dev/null 2>\"$d/err\"\nrc=$?\n{check}\n",
        class.describe(),
        sh_quote(fz)
    )
}

/// Runs `script` on `input` directly: does the input fail that way now?
fn interesting(script_path: &Path, input: &Path) -> Result<bool, CliError> {
    let st = Command::new("sh")
        .arg(script_path)
        .arg(input)
        .status()
        .map_err(|e| CliError::Failed(format!("cannot run sh: {e}")))?;
    Ok(st.success())
}

/// Reduces `args.input` into `args.output`; returns a one-line summary.
pub fn run(args: &ReduceArgs) -> Result<String, CliError> {
    let fz = std::env::current_exe()
        .map_err(|e| CliError::Failed(format!("cannot locate the ferrozyme binary: {e}")))?;
    let opt = llvm_tool("opt")?;
    let reduce = llvm_tool("llvm-reduce")?;
    let clang = crate::tools::clang()?;
    if !args.input.is_file() {
        return Err(CliError::Failed(format!(
            "cannot read '{}'",
            args.input.display()
        )));
    }
    let dir = tempfile::Builder::new()
        .prefix("ferrozyme-reduce-")
        .tempdir()
        .map_err(|e| CliError::Failed(format!("cannot create a temporary directory: {e}")))?;
    let input = std::fs::canonicalize(&args.input)
        .map_err(|e| CliError::Failed(format!("cannot read '{}': {e}", args.input.display())))?;
    let write_script = |class: &Class| -> Result<PathBuf, CliError> {
        let p = dir
            .path()
            .join(format!("test-{}.sh", class.describe().replace('=', "-")));
        std::fs::write(&p, script(class, &fz, &opt, &clang, args.timeout_s))
            .map_err(|e| CliError::Failed(format!("cannot write {}: {e}", p.display())))?;
        // llvm-reduce executes the test directly.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| CliError::Failed(format!("cannot chmod {}: {e}", p.display())))?;
        Ok(p)
    };
    let (class, test) = match &args.kind {
        Some(k) => {
            let class = Class::parse(k).expect("checked by parse");
            let test = write_script(&class)?;
            if !interesting(&test, &input)? {
                return Err(CliError::Failed(format!(
                    "'{}' does not fail with --kind {k}; nothing to reduce",
                    args.input.display()
                )));
            }
            (class, test)
        }
        None => {
            let mut found = None;
            let mut candidates = vec![Class::Crash, Class::Verifier];
            candidates.extend(DIAG_KINDS.iter().map(|k| Class::Diagnostic(k.to_string())));
            for class in candidates {
                let test = write_script(&class)?;
                if interesting(&test, &input)? {
                    found = Some((class, test));
                    break;
                }
            }
            found.ok_or_else(|| {
                CliError::Failed(format!(
                    "'{}' goes through `ferrozyme opt` without a crash, a verifier failure or a diagnostic; nothing to reduce (use --kind mismatch for wrong derivatives)",
                    args.input.display()
                ))
            })?
        }
    };
    let out = std::path::absolute(&args.output)
        .map_err(|e| CliError::Failed(format!("bad output path: {e}")))?;
    let mut cmd = Command::new(&reduce);
    cmd.arg(format!("--test={}", test.display()))
        .arg("-o")
        .arg(&out)
        .arg(&input)
        .current_dir(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    crate::tools::run(&mut cmd)?;
    let lines = |p: &Path| {
        std::fs::read_to_string(p)
            .map(|s| s.lines().count())
            .unwrap_or(0)
    };
    Ok(format!(
        "ferrozyme reduce: {} ({}) reduced to {} ({} lines)",
        args.input.display(),
        class.describe(),
        args.output.display(),
        lines(&out)
    ))
}

/// Diagnostic kinds tried, in order, when `--kind` is not given.
const DIAG_KINDS: &[&str] = &[
    "unsupported-instruction",
    "missing-derivative",
    "cannot-deduce-type",
    "bad-autodiff-call",
    "malformed-ir",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_parse() {
        assert_eq!(Class::parse("crash"), Some(Class::Crash));
        assert_eq!(
            Class::parse("diagnostic=missing-derivative"),
            Some(Class::Diagnostic("missing-derivative".into()))
        );
        assert_eq!(Class::parse("diagnostic="), None);
        assert_eq!(Class::parse("diagnostic=a;rm"), None);
        assert_eq!(Class::parse("bogus"), None);
    }
}

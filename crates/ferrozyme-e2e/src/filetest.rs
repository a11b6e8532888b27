//! IR filetests (`tests/filetests/*.ll`): what the transform *decided*, checked with
//! LLVM's `FileCheck`.
//!
//! The numeric end-to-end programs show that derivatives are right; they cannot show
//! that a loop counter was counted down instead of taped, or that a final store moved
//! after the reverse sweep — a regression there only costs speed or memory. A filetest
//! pins such a decision on the generated IR, in the style of LLVM's own tests and
//! Cranelift's `.clif` filetests: a small `.ll` input with a hook call, `RUN:` lines
//! saying how to transform it, and `CHECK:` lines that `FileCheck-22` matches against
//! the output.
//!
//! # Format
//!
//! A comment line whose text starts with `RUN:` is a run line (lit's syntax, restricted to the one pipeline that makes sense here):
//!
//! ```text
//! ; RUN: %ferrozyme opt %s -o - | %FileCheck %s
//! ; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s --check-prefix=OPT
//! ```
//!
//! `%s` is the test file, `%ferrozyme` the `ferrozyme` binary under test, `%FileCheck`
//! LLVM 22's FileCheck. Arguments are split at whitespace (no quoting, no other shell
//! syntax). Each run line must print the module to stdout (`-o -`) and succeed; FileCheck
//! then reads the check lines of `%s` (`; CHECK:`, `; CHECK-NOT:`, `; CHECK-LABEL:`,
//! `; CHECK-COUNT-n:`, `; CHECK-NEXT:`, `; CHECK-DAG:`, or with the prefix the run line
//! names). The leading comment block may hold `; IGNORE: <reason>` (a decision that
//! does not hold yet: the trial is listed as ignored).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::{run_with_timeout, tail};

/// How long one `ferrozyme opt` may take (each should take well under a second).
const OPT_TIMEOUT: Duration = Duration::from_secs(60);

/// One `RUN:` line: the arguments of `ferrozyme` and of `FileCheck`, substitutions done
/// except `%ferrozyme`/`%FileCheck` themselves (the tools are found at run time).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunLine {
    /// 1-based line number in the test file (for messages).
    pub line: usize,
    pub ferrozyme_args: Vec<String>,
    pub filecheck_args: Vec<String>,
}

/// Parses every `RUN:` line of `src` (the test file at `path`). An error names the line
/// and what is wrong with it.
pub fn parse_run_lines(path: &Path, src: &str) -> Result<Vec<RunLine>, String> {
    let file = path.display().to_string();
    let mut out = Vec::new();
    for (k, line) in src.lines().enumerate() {
        let Some(comment) = line.trim_start().strip_prefix(';') else {
            continue;
        };
        let Some(body) = comment
            .trim_start_matches(';')
            .trim_start()
            .strip_prefix("RUN:")
        else {
            continue;
        };
        let body = body.trim();
        let bad = |why: &str| format!("{file}:{}: {why}: `{}`", k + 1, line.trim());
        let stages: Vec<&str> = body.split('|').map(str::trim).collect();
        let [first, second] = stages.as_slice() else {
            return Err(bad(
                "a RUN line is `%ferrozyme <args> -o - | %FileCheck %s [<args>]`",
            ));
        };
        let subst = |w: &str| {
            if w == "%s" {
                file.clone()
            } else {
                w.to_string()
            }
        };
        let mut fz = first.split_whitespace();
        let mut fc = second.split_whitespace();
        if fz.next() != Some("%ferrozyme") {
            return Err(bad("the first command must be %ferrozyme"));
        }
        if fc.next() != Some("%FileCheck") {
            return Err(bad("the second command must be %FileCheck"));
        }
        let ferrozyme_args: Vec<String> = fz.map(subst).collect();
        let filecheck_args: Vec<String> = fc.map(subst).collect();
        if !ferrozyme_args
            .windows(2)
            .any(|w| w[0] == "-o" && w[1] == "-")
        {
            return Err(bad("%ferrozyme must write the module to stdout (`-o -`)"));
        }
        if !filecheck_args.contains(&file) {
            return Err(bad("%FileCheck must read its checks from %s"));
        }
        out.push(RunLine {
            line: k + 1,
            ferrozyme_args,
            filecheck_args,
        });
    }
    if out.is_empty() {
        return Err(format!(
            "{file}: no `; RUN: %ferrozyme opt %s -o - | %FileCheck %s` line"
        ));
    }
    Ok(out)
}

/// LLVM 22's FileCheck: `$FERROZYME_FILECHECK`, else `FileCheck-22` on `PATH`, else
/// `/usr/lib/llvm-22/bin/FileCheck`.
pub fn find_filecheck() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("FERROZYME_FILECHECK") {
        return Some(PathBuf::from(p));
    }
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("FileCheck-22"))
            .find(|p| p.is_file())
    });
    on_path.or_else(|| {
        let p = PathBuf::from("/usr/lib/llvm-22/bin/FileCheck");
        p.is_file().then_some(p)
    })
}

/// Runs every run line of the test at `path` (contents `src`) with the `ferrozyme`
/// binary `bin`. `Err` carries a message fit for the trial's failure report: the run
/// line, and either ferrozyme's stderr or FileCheck's diagnostics.
pub fn run_filetest(bin: &Path, path: &Path, src: &str) -> Result<(), String> {
    let filecheck = find_filecheck().ok_or_else(|| {
        "FileCheck-22 not found (package llvm-22-tools; `bash scripts/ensure-llvm.sh` \
         installs it, or set $FERROZYME_FILECHECK)"
            .to_string()
    })?;
    for run in parse_run_lines(path, src)? {
        let shown = format!(
            "{}:{}: RUN: ferrozyme {} | FileCheck {}",
            path.display(),
            run.line,
            run.ferrozyme_args.join(" "),
            run.filecheck_args.join(" ")
        );
        let mut cmd = Command::new(bin);
        cmd.args(&run.ferrozyme_args);
        let out = run_with_timeout(cmd, OPT_TIMEOUT)
            .map_err(|e| format!("{shown}\ncannot run {}: {e}", bin.display()))?;
        if !out.success() {
            return Err(format!(
                "{shown}\nferrozyme failed ({})\n--- stderr ---\n{}",
                out.describe_status(),
                tail(&out.stderr, 40)
            ));
        }
        check(&filecheck, &run.filecheck_args, &out.stdout)
            .map_err(|msg| format!("{shown}\n{msg}"))?;
    }
    Ok(())
}

/// Feeds `input` to FileCheck with `args`; `Err` holds FileCheck's report.
fn check(filecheck: &Path, args: &[String], input: &str) -> Result<(), String> {
    let mut child = Command::new(filecheck)
        .args(args)
        .arg("--dump-input-context=8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", filecheck.display()))?;
    // FileCheck reads all of stdin before it writes anything, so writing first is safe.
    let mut stdin = child.stdin.take().expect("piped stdin");
    let written = stdin.write_all(input.as_bytes());
    drop(stdin);
    let out = child
        .wait_with_output()
        .map_err(|e| format!("waiting for FileCheck: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    let report = String::from_utf8_lossy(&out.stderr);
    let note = match written {
        Err(e) => format!(" (writing its input failed: {e})"),
        Ok(()) => String::new(),
    };
    Err(format!(
        "FileCheck failed ({}){note}\n{}",
        out.status,
        tail(&report, 120)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(src: &str) -> Result<Vec<RunLine>, String> {
        parse_run_lines(Path::new("/t/x.ll"), src)
    }

    #[test]
    fn run_lines_with_substitutions() {
        let src = "; what it pins\n; RUN: %ferrozyme opt %s -o - | %FileCheck %s\n\
                   define void @f() {\n  ret void\n}\n\
                   ;   RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s --check-prefix=OPT\n";
        let r = parse(src).unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].line, 2);
        assert_eq!(r[0].ferrozyme_args, ["opt", "/t/x.ll", "-o", "-"]);
        assert_eq!(r[0].filecheck_args, ["/t/x.ll"]);
        assert_eq!(r[1].ferrozyme_args, ["opt", "/t/x.ll", "-O2", "-o", "-"]);
        assert_eq!(r[1].filecheck_args, ["/t/x.ll", "--check-prefix=OPT"]);
    }

    #[test]
    fn malformed_run_lines_are_errors() {
        assert!(parse("define void @f()\n")
            .unwrap_err()
            .contains("no `; RUN"));
        for bad in [
            "; RUN: %ferrozyme opt %s -o -",
            "; RUN: opt-22 %s -o - | %FileCheck %s",
            "; RUN: %ferrozyme opt %s -o - | grep x",
            "; RUN: %ferrozyme opt %s -o out.ll | %FileCheck %s",
            "; RUN: %ferrozyme opt %s -o - | %FileCheck other.ll",
            "; RUN: %ferrozyme opt %s -o - | %FileCheck %s | cat",
        ] {
            let e = parse(bad).unwrap_err();
            assert!(e.starts_with("/t/x.ll:1: "), "{bad}: {e}");
        }
    }

    #[test]
    fn check_lines_are_not_run_lines() {
        let src = "; RUN: %ferrozyme opt %s -o - | %FileCheck %s\n; CHECK: RUN: x\n";
        let r = parse(src).unwrap();
        assert_eq!(r.len(), 1);
    }
}

//! The `lli::` trials: programs differentiated by the pass plugin inside `opt-22` and run
//! by LLVM's interpreter-JIT `lli-22`, the way Enzyme's users and Enzyme's own tests run
//! IR:
//!
//! ```text
//! clang-22 -O<n> -S -emit-llvm prog.c -o prog.ll
//! opt-22 -load-pass-plugin=libferrozyme_plugin.so -passes=enzyme prog.ll -S -o ad.ll
//!        (-passes='enzyme,default<O2>' at -O2: the differentiated module optimized again)
//! lli-22 --jit-kind=mcjit ad.ll      (trial lli::<prog>::mcjit::<opt>)
//! lli-22 ad.ll                       (trial lli::<prog>::orc::<opt>: the default, ORC)
//! ```
//!
//! MCJIT supports no thread-local storage, and neither JIT provides every symbol a
//! native link does, so these trials check that generated code needs nothing beyond
//! ordinary calls into the C library (the tape runtime's per-thread state goes through
//! `pthread` keys). Libraries a program links (`// ARGS: -lopenblas`) are loaded into
//! `lli` with `--dlopen`.
//!
//! Which programs: those in [`LLI_PROGRAMS`] (a cross-section of the suite: every mode,
//! loops with tape stacks, the stack-buffer pool, split-mode arenas, threads, higher
//! order, memory), at `-O0` and `-O2`, and any program of `tests/c` or `tests/cxx` with a
//! `// LLI: O0 O2` directive. C++ programs run under ORC only: MCJIT cannot run C++
//! with static constructors and destructors at all (`std::cout << 1` crashes it, with or
//! without Ferrozyme).

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::{mismatch_lines, run_with_timeout, tail, Directives};

/// The two execution engines `lli-22` offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Jit {
    /// `--jit-kind=mcjit`: the older engine, no thread-local storage.
    Mcjit,
    /// `lli-22`'s default, ORC.
    Orc,
}

impl Jit {
    pub const ALL: [Jit; 2] = [Jit::Mcjit, Jit::Orc];

    pub fn name(self) -> &'static str {
        match self {
            Jit::Mcjit => "mcjit",
            Jit::Orc => "orc",
        }
    }
}

/// Programs of `tests/c` run through `lli` at `-O0` and `-O2` besides those with an
/// `// LLI:` directive.
pub const LLI_PROGRAMS: &[&str] = &[
    "03_sumsq",
    "09_libm_trig",
    "16_matvec",
    "20_prefix_sum",
    "23_struct_mixed",
    "25_memcpy_memset",
    "34_while_data_dependent",
    "39_recursion",
    "41_malloc_calloc",
    "42_realloc",
    "44_global_accum",
    "48_mlp",
    "57_linked_list",
    "204_fwd_loops",
    "207_fwd_calls_recursion",
    "222_vec_jacobian_w3",
    "225_vec_rev_rows_w2",
    "240_split_scalar",
    "243_split_timestep_lifo",
    "246_split_fifo_recursive",
    "247_threads_gradients",
    "248_repeated_big_tapes",
    "260_hvp_fwd_over_rev_rosenbrock",
    "262_hvp_rev_over_fwd",
];

/// The `-O` levels a program's `// LLI: O0 O2` directive asks for (empty when it has
/// none).
pub fn lli_levels(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in src.lines() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let Some(body) = t.strip_prefix("//") else {
            break;
        };
        if let Some(v) = body.trim().strip_prefix("LLI:") {
            for o in v.split_whitespace() {
                let o = o.trim_start_matches('-');
                let o = if o.starts_with('O') {
                    o.to_string()
                } else {
                    format!("O{o}")
                };
                if !out.contains(&o) {
                    out.push(o);
                }
            }
        }
    }
    out
}

/// `--dlopen` arguments for the libraries of a program's link flags (`-lX` →
/// `libX.so`); the C library, libm and libpthread are in `lli` already.
fn dlopen_args(args: &[String]) -> Vec<String> {
    args.iter()
        .filter_map(|a| a.strip_prefix("-l"))
        .filter(|l| !["m", "c", "pthread", "dl", "rt"].contains(l))
        .map(|l| format!("--dlopen=lib{l}.so"))
        .collect()
}

/// Compiles `file` to IR, differentiates it with the plugin in `opt-22`, runs it with
/// `lli-22` under `jit`, in `dir`. Passes like the native trials: exit status 0 and a
/// `PASS` line.
pub fn run_lli_program(
    file: &Path,
    opt: &str,
    jit: Jit,
    d: &Directives,
    plugin: &Path,
    dir: &Path,
) -> Result<(), String> {
    const COMPILE: Duration = Duration::from_secs(300);
    const RUN: Duration = Duration::from_secs(120);
    let ir = dir.join("prog.ll");
    let ad = dir.join("ad.ll");
    let is_cxx = file.extension().is_some_and(|e| e == "cpp");
    let mut cc = Command::new(if is_cxx { "clang++-22" } else { "clang-22" });
    cc.arg(format!("-{opt}"))
        .args(["-S", "-emit-llvm"])
        .arg(format!(
            "-I{}",
            file.parent().unwrap_or(Path::new(".")).display()
        ))
        // Ferrozyme's headers (<enzyme/checkpoint.h>, <enzyme/fixed_point.h>), as plugin
        // users add them.
        .arg(format!(
            "-I{}",
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../include")
                .display()
        ))
        .args(d.cflags.iter())
        .args(d.args.iter().filter(|a| !a.starts_with("-l")))
        .arg(file)
        .arg("-o")
        .arg(&ir)
        .current_dir(dir);
    step("clang", cc, COMPILE)?;
    let passes = if opt == "O0" {
        "enzyme".to_string()
    } else {
        format!("enzyme,default<{opt}>")
    };
    let mut opt_cmd = Command::new("opt-22");
    opt_cmd
        .arg(format!("-load-pass-plugin={}", plugin.display()))
        .arg(format!("-passes={passes}"))
        .arg(&ir)
        .arg("-S")
        .arg("-o")
        .arg(&ad)
        .current_dir(dir);
    step("opt-22 with the plugin", opt_cmd, COMPILE)?;
    let mut lli = Command::new("lli-22");
    if jit == Jit::Mcjit {
        lli.arg("--jit-kind=mcjit");
    }
    lli.args(dlopen_args(&d.args)).arg(&ad).current_dir(dir);
    let cmdline = format!("{lli:?}");
    let r = run_with_timeout(lli, RUN).map_err(|e| format!("cannot run {cmdline}: {e}"))?;
    let passed = r.success() && r.stdout.lines().any(|l| l.trim_start().starts_with("PASS"));
    if !passed {
        return Err(format!(
            "program failed under lli ({})\ncommand: {cmdline}\n--- mismatches ---\n{}\n--- stdout (tail) ---\n{}\n--- stderr (tail) ---\n{}",
            r.describe_status(),
            mismatch_lines(&r.stdout, 20),
            tail(&r.stdout, 30),
            tail(&r.stderr, 30)
        ));
    }
    Ok(())
}

/// Runs one build step; its failure is the trial's.
fn step(what: &str, cmd: Command, timeout: Duration) -> Result<(), String> {
    let cmdline = format!("{cmd:?}");
    let out = run_with_timeout(cmd, timeout).map_err(|e| format!("cannot run {cmdline}: {e}"))?;
    if out.success() {
        Ok(())
    } else {
        Err(format!(
            "{what} failed ({})\ncommand: {cmdline}\n--- stderr ---\n{}",
            out.describe_status(),
            tail(&out.stderr, 60)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directive_and_libraries() {
        assert_eq!(
            lli_levels("// OPT: O0\n// LLI: O0 -O2\n#include <x.h>\n// LLI: O3\n"),
            ["O0", "O2"]
        );
        assert!(lli_levels("int x;\n// LLI: O0").is_empty());
        let args: Vec<String> = ["-lopenblas", "-lm", "-lpthread", "-L/x"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(dlopen_args(&args), ["--dlopen=libopenblas.so"]);
    }
}

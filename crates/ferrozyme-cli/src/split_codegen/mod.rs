//! Code generation of one large module on several threads (what LLVM's LTO does with
//! `splitCodeGen` and rustc with codegen units), for `ferrozyme cc -c`'s object.
//!
//! Code generation is about half of `ferrozyme cc -O2`'s own work on large programs
//! (issue 18), and it works one function at a time: split the module, and each part's
//! machine code is the code the whole module would have had for the same functions.
//!
//! Phases:
//! 1. Decide: `--codegen-threads N` (or `FERROZYME_CODEGEN_THREADS`) forces N parts
//!    (1 = one module, as before); by default a module of at least
//!    [`AUTO_MIN_INSTRUCTIONS`] instructions is split in as many parts as there are cores
//!    (at most [`AUTO_MAX_THREADS`], and at least [`MIN_PART_INSTRUCTIONS`] per part).
//! 2. Plan (`partition.rs`): which part defines each global, balanced by instruction
//!    count; which local symbols another part refers to.
//! 3. The module is written to bitcode once; each thread parses it into its own LLVM
//!    context, cuts it to its part (`part.rs`), verifies it and generates its object.
//! 4. The parts' objects become the one object with `clang -r` (the linker clang links
//!    with, `ld -r`), and the promoted symbols are made local again with objcopy
//!    (`--localize-symbols`): the object has the symbols and relocations of the unsplit
//!    one, its sections concatenated per part.
//!
//! Modules with aliases or ifuncs, targets other than Linux (ELF), instrumented
//! compiles (`-fsanitize`, `-fprofile-*`, `-fcoverage-*`, whose globals are tied to each
//! other by metadata a split does not see) and machines without objcopy take the
//! one-module path. A part that fails LLVM's verifier is Ferrozyme's bug (`internal-error`); a
//! failed `ld -r` or objcopy falls back to the one-module path (the module is unchanged
//! but for names given to unnamed globals).

mod part;
mod partition;

use std::path::{Path, PathBuf};
use std::process::Command;

use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::targets::{FileType, TargetMachine};

use crate::args::OptLevel;
use crate::error::CliError;
use crate::pipeline::{self, Emit};
use crate::tools;

/// A module this large (instructions) is split by default: below it, the bitcode round
/// trip and `ld -r` cost more than the second thread saves (measured, bench/compile_scaling).
pub const AUTO_MIN_INSTRUCTIONS: usize = 40_000;
/// The most threads the default uses (each holds a copy of the module).
pub const AUTO_MAX_THREADS: usize = 4;
/// The least instructions a part gets by default.
pub const MIN_PART_INSTRUCTIONS: usize = 20_000;
/// The environment's say when `--codegen-threads` is not given.
pub const THREADS_ENV: &str = "FERROZYME_CODEGEN_THREADS";

/// How many threads code generation may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodegenThreads {
    /// Split large modules over the cores (the default).
    Auto,
    /// Exactly this many parts (1: never split).
    Fixed(usize),
}

impl CodegenThreads {
    /// The flag's value, else the environment's (a value that is not a positive count
    /// there is ignored), else [`CodegenThreads::Auto`].
    pub fn resolve(flag: Option<usize>) -> CodegenThreads {
        flag.or_else(|| {
            std::env::var(THREADS_ENV)
                .ok()
                .and_then(|v| v.trim().parse::<usize>().ok())
                .filter(|&n| n >= 1)
        })
        .map_or(CodegenThreads::Auto, CodegenThreads::Fixed)
    }

    /// The number of parts for a module of `instructions` instructions.
    fn parts(self, instructions: usize) -> usize {
        match self {
            CodegenThreads::Fixed(n) => n,
            CodegenThreads::Auto if instructions < AUTO_MIN_INSTRUCTIONS => 1,
            CodegenThreads::Auto => {
                let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                cores
                    .min(AUTO_MAX_THREADS)
                    .min(instructions / MIN_PART_INSTRUCTIONS)
                    .max(1)
            }
        }
    }
}

/// How the object was generated: in parts, or whole and why (`--time-passes` says it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Split in this many parts, generated on as many threads.
    Split(usize),
    /// One module, for this reason.
    Whole(WhyWhole),
}

/// Why the object was generated as one module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WhyWhole {
    /// `--codegen-threads 1`, an instrumented compile, or a module under the default's size.
    OneThread { instructions: usize },
    /// Not an ELF (Linux) target: the join needs `ld -r` and objcopy.
    NotElf,
    /// clang or objcopy was not found.
    NoJoinTools,
    /// The module does not split usefully.
    Plan(partition::Whole),
    /// A symbol the join would have to make local again that objcopy cannot name.
    UnnamableSymbol(String),
    /// `ld -r` or objcopy failed on the parts.
    JoinFailed(String),
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Split(n) => write!(f, "{n} parts on {n} threads"),
            Outcome::Whole(why) => {
                write!(f, "one module: ")?;
                match why {
                    WhyWhole::OneThread { instructions } => write!(
                        f,
                        "one thread ({instructions} instructions; the default splits from {AUTO_MIN_INSTRUCTIONS})"
                    ),
                    WhyWhole::NotElf => write!(f, "not an ELF target"),
                    WhyWhole::NoJoinTools => write!(f, "clang or llvm-objcopy not found"),
                    WhyWhole::Plan(w) => write!(f, "{w}"),
                    WhyWhole::UnnamableSymbol(n) => {
                        write!(f, "objcopy cannot name the symbol `{n}`")
                    }
                    WhyWhole::JoinFailed(e) => write!(f, "joining the parts failed: {e}"),
                }
            }
        }
    }
}

/// Writes `module`'s object to `out`, on several threads when `threads` says so.
pub fn emit_object(
    module: &Module<'_>,
    tm: &TargetMachine,
    level: OptLevel,
    threads: CodegenThreads,
    out: &Path,
) -> Result<Outcome, CliError> {
    let whole =
        |why: WhyWhole| pipeline::emit(module, tm, Emit::Object, out).map(|()| Outcome::Whole(why));
    let m = ferrozyme_llvm::Module::from_inkwell(module);
    let instructions: usize = m.functions().iter().map(|f| f.instruction_count()).sum();
    let triple = module.get_triple().as_str().to_string_lossy().into_owned();
    // `ld -r` and objcopy as the join: ELF objects of Linux targets only.
    if !triple.contains("-linux") {
        return whole(WhyWhole::NotElf);
    }
    let parts = threads.parts(instructions);
    if parts < 2 {
        return whole(WhyWhole::OneThread { instructions });
    }
    let Some((clang, objcopy)) = tools::clang()
        .ok()
        .and_then(|clang| tools::objcopy(&clang).map(|objcopy| (clang, objcopy)))
    else {
        return whole(WhyWhole::NoJoinTools);
    };
    let plan = match partition::plan(m, parts) {
        Ok(plan) => plan,
        Err(w) => return whole(WhyWhole::Plan(w)),
    };
    if let Some(n) = plan.promoted.iter().find(|n| !localizable(n)) {
        return whole(WhyWhole::UnnamableSymbol(n.clone()));
    }
    let bitcode = pipeline::to_bitcode(module);
    let objects = generate_parts(&bitcode, &plan, level)?;
    let join = Join {
        clang: &clang,
        objcopy: &objcopy,
        triple: &triple,
    };
    match join.combine(&objects, &plan.promoted, out) {
        Ok(()) => Ok(Outcome::Split(plan.parts)),
        Err(e) => whole(WhyWhole::JoinFailed(e.to_string())),
    }
}

/// Can objcopy's symbol list name this symbol (one name a line, `#` starts a comment)?
/// A leading `\x01` (LLVM's "no prefix" mark) is not part of the object's name.
fn localizable(name: &str) -> bool {
    !name.is_empty() && !name.contains(|c: char| c.is_whitespace() || c == '#')
}

/// The object's name of a symbol (LLVM's `\x01` "no prefix" mark dropped).
fn object_name(name: &str) -> &str {
    name.strip_prefix('\u{1}').unwrap_or(name)
}

/// Each part's object, generated on its own thread.
fn generate_parts(
    bitcode: &[u8],
    plan: &partition::Plan,
    level: OptLevel,
) -> Result<Vec<Vec<u8>>, CliError> {
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..plan.parts)
            .map(|i| s.spawn(move || generate_part(bitcode, plan, i, level)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(CliError::internal(
                        "a code generation thread panicked".to_string(),
                    ))
                })
            })
            .collect()
    })
}

/// Part `part`: parsed into a context of its own, cut, verified, compiled.
fn generate_part(
    bitcode: &[u8],
    plan: &partition::Plan,
    part: usize,
    level: OptLevel,
) -> Result<Vec<u8>, CliError> {
    let ctx = Context::create();
    let module = pipeline::parse_bytes(&ctx, bitcode, "split module")?;
    let m = ferrozyme_llvm::Module::from_inkwell(&module);
    part::cut(m, plan, part);
    // As the whole module's context: no names for the values code generation makes.
    m.discard_value_names();
    if let Some(first) = pipeline::verifier_complaint(&module) {
        return Err(CliError::internal(format!(
            "part {part} of the split module fails LLVM's verifier: {first} (run with --codegen-threads 1 to compile it whole)"
        )));
    }
    let tm = pipeline::machine_for(&module, level)?;
    tm.write_to_memory_buffer(&module, FileType::Object)
        .map(|b| b.as_slice().to_vec())
        .map_err(|e| CliError::Failed(format!("code generation of part {part}: {e}")))
}

/// The tools that join the parts' objects, and the target they are for.
struct Join<'a> {
    clang: &'a Path,
    objcopy: &'a Path,
    triple: &'a str,
}

impl Join<'_> {
    /// `clang -r` of the parts into one object, then the promoted symbols local again.
    fn combine(
        &self,
        objects: &[Vec<u8>],
        promoted: &[String],
        out: &Path,
    ) -> Result<(), CliError> {
        let dir = tempfile::Builder::new()
            .prefix("ferrozyme-codegen")
            .tempdir()
            .map_err(|e| CliError::Failed(format!("cannot make a temporary directory: {e}")))?;
        let write = |name: &str, bytes: &[u8]| -> Result<PathBuf, CliError> {
            let p = dir.path().join(name);
            std::fs::write(&p, bytes)
                .map_err(|e| CliError::Failed(format!("cannot write '{}': {e}", p.display())))?;
            Ok(p)
        };
        let mut paths = Vec::new();
        for (i, o) in objects.iter().enumerate() {
            paths.push(write(&format!("part{i}.o"), o)?);
        }
        let linked = if promoted.is_empty() {
            out.to_path_buf()
        } else {
            dir.path().join("linked.o")
        };
        let mut ld = Command::new(self.clang);
        ld.arg(format!("--target={}", self.triple))
            .args(["-r", "-nostdlib", "-Wl,--build-id=none", "-o"])
            .arg(&linked)
            .args(&paths);
        run_quietly(&mut ld)?;
        if promoted.is_empty() {
            return Ok(());
        }
        let names: String = promoted
            .iter()
            .map(|n| format!("{}\n", object_name(n)))
            .collect();
        let list = write("promoted.txt", names.as_bytes())?;
        let mut oc = Command::new(self.objcopy);
        oc.arg(format!("--localize-symbols={}", list.display()))
            .arg(&linked)
            .arg(out);
        run_quietly(&mut oc)
    }
}

/// Runs a joining tool; its failure carries the tool's first lines of stderr (shown by
/// `--time-passes` as the reason the object was generated whole).
fn run_quietly(cmd: &mut Command) -> Result<(), CliError> {
    let what = cmd.get_program().to_string_lossy().into_owned();
    let out = cmd
        .output()
        .map_err(|e| CliError::Failed(format!("cannot run '{what}': {e}")))?;
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first: Vec<&str> = stderr.lines().take(3).collect();
    Err(CliError::Failed(format!(
        "'{what}' failed ({}): {}",
        out.status,
        first.join(" / ")
    )))
}

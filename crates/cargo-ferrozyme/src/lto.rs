//! The link-time pipeline of an AD build: all of the program's Rust bitcode in one module
//! → the AD pass → LLVM's verifier → re-optimization of what the pass generated →
//! one native object.
//!
//! Dead code goes first (`crate::gc`): a library's derivatives the program never calls
//! are not differentiated.
//!
//! This is what `ferrozyme cc` does after clang (`crates/ferrozyme-cli/src/cc/`), with
//! rustc's pre-link optimized bitcode as input: rustc already ran its optimization
//! pipeline on every crate, so functions the pass did not touch are frozen (`optnone`)
//! during the re-optimization and only code generation sees them again. The phases are
//! timed, so a build can say how much of it was AD and how much plain LTO work
//! (linking modules, optimization, code generation).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ferrozyme_transform::Options;
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{
    CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine,
};
use inkwell::OptimizationLevel;

use crate::diag;
use crate::error::{failed, Error};

/// One bitcode module: where it came from (for messages) and its bytes.
pub struct Bitcode {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// How to build the object.
#[derive(Clone, Debug)]
pub struct Settings {
    /// rustc's optimization level for the link (`-plugin-opt=O<n>`): 0 to 3.
    pub opt: u8,
    /// rustc's target CPU (`-plugin-opt=mcpu=…`).
    pub cpu: String,
    /// Keep `<stem>.before-ad.ll`, `.after-ad.ll` and `.after-opt.ll` here.
    pub save_temps: Option<PathBuf>,
    /// The standard library's archives on the link line (`crate::upstream`).
    pub upstream: Vec<PathBuf>,
    /// The symbols native code references (`crate::gc`); `None`: keep every definition.
    pub gc_roots: Option<HashSet<String>>,
    pub stem: String,
}

/// Seconds spent in each phase.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timings {
    /// Parsing and linking the bitcode into one module.
    pub link: Duration,
    /// Copying and optimizing the code the derivatives differentiate (`crate::preopt`).
    pub preopt: Duration,
    /// The AD pass and the verifier.
    pub ad: Duration,
    /// Re-optimizing the functions the pass generated or changed.
    pub optimize: Duration,
    /// Code generation of the whole module.
    pub codegen: Duration,
}

/// Bitcode starts with `BC 0xC0DE` (or the wrapper magic `0x0B17C0DE`).
pub fn is_bitcode(bytes: &[u8]) -> bool {
    bytes.starts_with(b"BC\xC0\xDE") || bytes.starts_with(&[0xDE, 0xC0, 0x17, 0x0B])
}

/// Builds one native object from `inputs` with the AD pass in the pipeline. `None`: the
/// linked module calls no hook after all (the byte search that chose this path also
/// finds the hooks' names in a crate that only mentions them, such as the proc-macro
/// crate generating the calls), so the link goes on unchanged.
pub fn build_object(
    inputs: Vec<Bitcode>,
    out: &Path,
    s: &Settings,
) -> Result<Option<Timings>, Error> {
    let mut t = Timings::default();
    let start = Instant::now();
    let ctx = Context::create();
    let mut modules = Vec::with_capacity(inputs.len());
    for b in &inputs {
        let buf = MemoryBuffer::create_from_memory_range_copy(&b.bytes, &b.name);
        let m = Module::parse_bitcode_from_buffer(&buf, &ctx)
            .map_err(|e| failed(format!("cannot read the bitcode of {}: {e}", b.name)))?;
        modules.push(m);
    }
    drop(inputs);
    if modules.is_empty() {
        return Err(failed("no bitcode to link"));
    }
    let module = modules.remove(0);
    for m in modules {
        module
            .link_in_module(m)
            .map_err(|e| failed(format!("linking the crates' bitcode failed: {e}")))?;
    }
    t.link = start.elapsed();
    if !crate::preopt::has_hook_calls(ferrozyme_llvm::Module::from_inkwell(&module)) {
        return Ok(None);
    }
    let tm = target_machine(&module, s)?;
    if let Some(roots) = &s.gc_roots {
        crate::gc::remove_dead(&module, &tm, roots)?;
    }
    crate::upstream::import_needed(&ctx, &module, &s.upstream)?;
    t.link = start.elapsed();
    save(&module, s, "linked")?;
    let start = Instant::now();
    crate::preopt::optimize_differentiated(&module, &tm, s.opt)?;
    t.preopt = start.elapsed();
    save(&module, s, "before-ad")?;

    let start = Instant::now();
    let fz = ferrozyme_transform::Module::from_inkwell(&module);
    ferrozyme_transform::run_on_module(fz, &Options::default()).map_err(|ds| {
        Error::Diagnostics(ferrozyme_llvm::diag::join_rendered(
            ds.iter().map(diag::render),
        ))
    })?;
    if let Err(e) = module.verify() {
        let kept = keep(&module);
        return Err(failed(format!(
            "internal error: the module failed LLVM's verifier after differentiation (a Ferrozyme bug): {}\n  {kept}",
            e.to_string().trim()
        )));
    }
    t.ad = start.elapsed();
    save(&module, s, "after-ad")?;

    // The generated code (and what the pass changed) is optimized at the build's level,
    // at least O2: in debug builds too, the user's own functions stay as rustc made them.
    let start = Instant::now();
    let frozen = ferrozyme_transform::freeze::freeze_untouched(fz);
    let level = format!("default<O{}>", s.opt.clamp(2, 3));
    let r = module.run_passes(&level, &tm, PassBuilderOptions::create());
    ferrozyme_transform::freeze::thaw(frozen);
    r.map_err(|e| failed(format!("LLVM pipeline '{level}' failed: {e}")))?;
    t.optimize = start.elapsed();
    save(&module, s, "after-opt")?;

    let start = Instant::now();
    tm.write_to_file(&module, FileType::Object, out)
        .map_err(|e| failed(format!("cannot write '{}': {e}", out.display())))?;
    t.codegen = start.elapsed();
    Ok(Some(t))
}

fn save(module: &Module<'_>, s: &Settings, what: &str) -> Result<(), Error> {
    let Some(dir) = &s.save_temps else {
        return Ok(());
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| failed(format!("cannot create '{}': {e}", dir.display())))?;
    let p = dir.join(format!("{}.{what}.ll", s.stem));
    module
        .print_to_file(&p)
        .map_err(|e| failed(format!("cannot write '{}': {e}", p.display())))
}

/// Writes an invalid module to a kept temporary file; says where.
fn keep(module: &Module<'_>) -> String {
    let kept = tempfile::Builder::new()
        .prefix("ferrozyme-invalid-")
        .suffix(".ll")
        .tempfile()
        .ok()
        .and_then(|f| f.keep().ok())
        .and_then(|(_, p)| module.print_to_file(&p).ok().map(|()| p));
    match kept {
        Some(p) => format!("the module is in {}", p.display()),
        None => "the module could not be saved".to_string(),
    }
}

/// A target machine for the module's triple, position-independent (rustc links PIE
/// executables and shared objects).
fn target_machine(module: &Module<'_>, s: &Settings) -> Result<TargetMachine, Error> {
    Target::initialize_native(&InitializationConfig::default())
        .map_err(|e| failed(format!("cannot initialize the native LLVM target: {e}")))?;
    let mut triple = module.get_triple();
    if triple.as_str().to_bytes().is_empty() {
        triple = TargetMachine::get_default_triple();
    }
    let target = Target::from_triple(&triple)
        .map_err(|e| failed(format!("no LLVM target for the module's triple: {e}")))?;
    let level = match s.opt {
        0 => OptimizationLevel::None,
        1 => OptimizationLevel::Less,
        2 => OptimizationLevel::Default,
        _ => OptimizationLevel::Aggressive,
    };
    target
        .create_target_machine(
            &triple,
            &s.cpu,
            "",
            level,
            RelocMode::PIC,
            CodeModel::Default,
        )
        .ok_or_else(|| failed("cannot create a target machine"))
}

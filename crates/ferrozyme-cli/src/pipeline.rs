//! The in-process LLVM half of the driver: load → differentiate → verify → optimize →
//! emit.
//!
//! Each step is a plain function over an inkwell module, so `cc` and `opt` compose the
//! same steps in their own order. The verifier runs right after the AD pass (Cranelift's
//! habit of verifying between passes): a module the pass left invalid is a Ferrozyme bug,
//! reported as `internal-error` with the failing IR kept on disk, never handed to the
//! optimizer where it could crash LLVM.

use std::path::Path;

use ferrozyme_transform::{Options, Report};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{
    CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple,
};
use inkwell::OptimizationLevel;

use crate::args::OptLevel;
use crate::error::CliError;

/// Bitcode starts with `BC 0xC0DE`, or with the wrapper magic `0x0B17C0DE` (little endian).
fn is_bitcode(bytes: &[u8]) -> bool {
    bytes.starts_with(b"BC\xC0\xDE") || bytes.starts_with(&[0xDE, 0xC0, 0x17, 0x0B])
}

/// Loads a module from `.ll` text or `.bc` bitcode (told apart by content, not name).
/// Unparseable input is `malformed-ir` with LLVM's own message.
pub fn load<'ctx>(ctx: &'ctx Context, path: &Path) -> Result<Module<'ctx>, CliError> {
    let bytes = std::fs::read(path)
        .map_err(|e| CliError::Failed(format!("cannot read '{}': {e}", path.display())))?;
    load_bytes(ctx, &bytes, &path.display().to_string())
}

/// [`load`] from memory; `name` is the module's origin, for messages.
pub fn load_bytes<'ctx>(
    ctx: &'ctx Context,
    bytes: &[u8],
    name: &str,
) -> Result<Module<'ctx>, CliError> {
    let module = parse_bytes(ctx, bytes, name)?;
    // The parser accepts IR that LLVM's verifier rejects (a use before its definition, a
    // bad terminator): that is bad input too, not a Ferrozyme bug found later.
    if let Some(first) = verifier_complaint(&module) {
        return Err(CliError::malformed_ir(format!(
            "{name}: the module fails LLVM's verifier: {first}"
        )));
    }
    Ok(module)
}

/// The first lines of LLVM's verifier message for `module` (joined by ` | `), `None`
/// when it passes.
pub fn verifier_complaint(module: &Module<'_>) -> Option<String> {
    let msg = module.verify().err()?.to_string();
    let first: Vec<&str> = msg.trim().lines().take(3).collect();
    Some(first.join(" | "))
}

/// [`load_bytes`] without the verifier (for a module Ferrozyme wrote itself).
pub fn parse_bytes<'ctx>(
    ctx: &'ctx Context,
    bytes: &[u8],
    name: &str,
) -> Result<Module<'ctx>, CliError> {
    let name = name.to_string();
    let buffer = MemoryBuffer::create_from_memory_range_copy(bytes, &name);
    let parsed = if is_bitcode(bytes) {
        Module::parse_bitcode_from_buffer(&buffer, ctx)
    } else {
        ctx.create_module_from_ir(buffer)
    };
    let module = parsed.map_err(|e| {
        let msg = e.to_string();
        CliError::malformed_ir(format!(
            "{name}: {}{}",
            msg.trim_end(),
            truncation_note(bytes, &msg)
        ))
    })?;
    Ok(module)
}

/// LLVM's bitcode reader reports a file cut short as "can't skip to bit N from M" (a
/// block's length reaches past the end), or, when its length is not a multiple of 4
/// bytes (bitcode is written in 32-bit words), as "Invalid bitcode signature" though the
/// signature is there: said in words, with the file's size.
fn truncation_note(bytes: &[u8], msg: &str) -> String {
    if is_bitcode(bytes) && bytes.len() % 4 != 0 {
        return format!(
            " (the file starts as bitcode but is truncated: it has {} bytes, not a whole number of 32-bit words)",
            bytes.len()
        );
    }
    let wanted = msg
        .split("skip to bit ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse::<u64>().ok());
    match wanted {
        Some(bit) if is_bitcode(bytes) && bit > 8 * bytes.len() as u64 => format!(
            " (the file is truncated: it has {} bytes, its contents reach past byte {})",
            bytes.len(),
            bit / 8
        ),
        _ => String::new(),
    }
}

/// Links `others` into `main` (what `llvm-link` does), so calls across source files
/// have IR the pass can differentiate.
pub fn link_into<'ctx>(main: &Module<'ctx>, others: Vec<Module<'ctx>>) -> Result<(), CliError> {
    for m in others {
        main.link_in_module(m).map_err(|e| {
            CliError::Failed(format!("linking the bitcode of the sources failed: {e}"))
        })?;
    }
    Ok(())
}

/// The module as bitcode, in memory.
pub fn to_bitcode(module: &Module<'_>) -> Vec<u8> {
    module.write_bitcode_to_memory().as_slice().to_vec()
}

/// Embeds `bitcode` in the module's object file, in the `.llvmbc` section clang's
/// `-fembed-bitcode` uses (ELF marks it excluded, so linked programs do not carry it).
/// Called after the last optimization, so no pass can drop the unused global.
pub fn embed_bitcode(module: &Module<'_>, bitcode: &[u8]) {
    let ctx = module.get_context();
    let init = ctx.const_string(bitcode, false);
    let g = module.add_global(init.get_type(), None, "__ferrozyme.ir");
    g.set_initializer(&init);
    g.set_linkage(inkwell::module::Linkage::Private);
    g.set_constant(true);
    g.set_section(Some(".llvmbc"));
    g.set_alignment(1);
}

/// Named metadata recording the `-O` level a module was compiled at.
const OPT_METADATA: &str = "ferrozyme.opt";

/// Records `level` in the module (for the link step of separately compiled objects).
pub fn record_opt_level(module: &Module<'_>, level: OptLevel) {
    let ctx = module.get_context();
    let s = ctx.metadata_string(level.clang_flag());
    let node = ctx.metadata_node(&[s.into()]);
    // Adding fails only for a malformed name; the level is then simply not recorded.
    let _ = module.add_global_metadata(OPT_METADATA, &node);
}

/// The highest `-O` level recorded in the module's parts, if any.
pub fn recorded_opt_level(module: &Module<'_>) -> Option<OptLevel> {
    let rank = |l: OptLevel| match l {
        OptLevel::O0 => 0,
        OptLevel::O1 => 1,
        OptLevel::Os | OptLevel::Oz => 2,
        OptLevel::O2 => 3,
        OptLevel::O3 => 4,
    };
    module
        .get_global_metadata(OPT_METADATA)
        .into_iter()
        .filter_map(|n| n.get_node_values())
        .flatten()
        .filter_map(|v| {
            let inkwell::values::BasicMetadataValueEnum::MetadataValue(md) = v else {
                return None;
            };
            let s = std::str::from_utf8(md.get_string_value()?).ok()?;
            OptLevel::parse(s.strip_prefix("-O")?)
        })
        .max_by_key(|l| rank(*l))
}

/// The external symbols the module defines, and those it uses without defining (not
/// intrinsics), as a linker sees them.
pub fn symbols(module: &Module<'_>) -> (Vec<String>, Vec<String>) {
    use inkwell::module::Linkage;
    let local = |l: Linkage| matches!(l, Linkage::Internal | Linkage::Private);
    let mut defined = Vec::new();
    let mut undefined = Vec::new();
    for f in module.get_functions() {
        let name = f.get_name().to_string_lossy().into_owned();
        if f.count_basic_blocks() > 0 {
            if !local(f.get_linkage()) {
                defined.push(name);
            }
        } else if !name.starts_with("llvm.") {
            undefined.push(name);
        }
    }
    for g in module.get_globals() {
        let name = g.get_name().to_string_lossy().into_owned();
        if g.is_declaration() {
            undefined.push(name);
        } else if !local(g.get_linkage()) {
            defined.push(name);
        }
    }
    (defined, undefined)
}

/// Runs the AD pass. Diagnostics come back as they are, for `main` to print; on failure
/// the printouts the options asked for (`--print-type-analysis` ...) that were made before
/// it go to `printout` first: what the analyses deduced up to the error.
pub fn differentiate(
    module: &Module<'_>,
    opts: &Options,
    printout: &mut dyn FnMut(&str),
) -> Result<Report, CliError> {
    ferrozyme_transform::run_keeping_printout(
        ferrozyme_transform::Module::from_inkwell(module),
        opts,
    )
    .map_err(|f| {
        if !f.printout.is_empty() {
            printout(&f.printout);
        }
        CliError::Diagnostics(f.diags)
    })
}

/// Verifies the module after the pass. On failure the module is written to a kept
/// temporary file named in the message.
pub fn verify_after_ad(module: &Module<'_>) -> Result<(), CliError> {
    let Err(msg) = module.verify() else {
        return Ok(());
    };
    let kept = tempfile::Builder::new()
        .prefix("ferrozyme-invalid-")
        .suffix(".ll")
        .tempfile()
        .ok()
        .and_then(|f| f.keep().ok())
        .and_then(|(_, path)| module.print_to_file(&path).ok().map(|()| path));
    let where_ = match kept {
        Some(p) => format!("the module is in {}", p.display()),
        None => "the module could not be saved".to_string(),
    };
    Err(CliError::internal(format!(
        "the generated IR failed LLVM's verifier: {}\n  {where_}",
        msg.to_string().trim_end()
    )))
}

/// A target machine for the module's own triple (clang set it), position-independent
/// like clang's default PIE output. The CPU is left generic: clang's per-function
/// `target-cpu`/`target-features` attributes still apply.
pub fn target_machine(module: &Module<'_>, level: OptLevel) -> Result<TargetMachine, CliError> {
    Target::initialize_native(&InitializationConfig::default())
        .map_err(|e| CliError::Failed(format!("cannot initialize the native LLVM target: {e}")))?;
    machine_for(module, level)
}

/// [`target_machine`] once the native target is initialized (as it is on the main thread
/// before code generation's threads ask for their own machines).
pub fn machine_for(module: &Module<'_>, level: OptLevel) -> Result<TargetMachine, CliError> {
    let triple = module.get_triple();
    let triple = if triple.as_str().to_bytes().is_empty() {
        TargetMachine::get_default_triple()
    } else {
        triple
    };
    let target = Target::from_triple(&triple).map_err(|e| {
        CliError::Failed(format!("no LLVM target for '{}': {e}", triple_str(&triple)))
    })?;
    let cg_level = match level {
        OptLevel::O0 => OptimizationLevel::None,
        OptLevel::O1 => OptimizationLevel::Less,
        OptLevel::O2 | OptLevel::Os | OptLevel::Oz => OptimizationLevel::Default,
        OptLevel::O3 => OptimizationLevel::Aggressive,
    };
    target
        .create_target_machine(
            &triple,
            "",
            "",
            cg_level,
            RelocMode::PIC,
            CodeModel::Default,
        )
        .ok_or_else(|| {
            CliError::Failed(format!(
                "cannot create a target machine for '{}'",
                triple_str(&triple)
            ))
        })
}

fn triple_str(t: &TargetTriple) -> String {
    t.as_str().to_string_lossy().into_owned()
}

/// Loop transformations of the re-optimization, as clang's flags set them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopOptions {
    pub vectorize: bool,
    pub slp_vectorize: bool,
    pub unroll: bool,
    /// Keep the loop vectorizer's run-time alias checks in loop preheaders
    /// ([`NO_HOISTED_RUNTIME_CHECKS`]); set after the AD pass carried stencil streams.
    pub preheader_checks: bool,
    /// Vectorize loops with in-order floating-point reductions ([`ORDERED_REDUCTIONS`]);
    /// set after the AD pass carried order-preserving stencil streams.
    pub ordered_reductions: bool,
}

impl LoopOptions {
    /// clang's defaults at `level`, then `-f[no-]vectorize`, `-f[no-]slp-vectorize`,
    /// `-f[no-]unroll-loops` in `flags` (the last one of each wins).
    pub fn from_flags(level: OptLevel, flags: &[String]) -> LoopOptions {
        let vec_default = matches!(level, OptLevel::O2 | OptLevel::O3 | OptLevel::Os);
        let mut o = LoopOptions {
            vectorize: vec_default,
            slp_vectorize: vec_default,
            unroll: level != OptLevel::O0,
            preheader_checks: false,
            ordered_reductions: false,
        };
        for f in flags {
            match f.as_str() {
                "-fvectorize" | "-ftree-vectorize" => o.vectorize = true,
                "-fno-vectorize" | "-fno-tree-vectorize" => o.vectorize = false,
                "-fslp-vectorize" | "-ftree-slp-vectorize" => o.slp_vectorize = true,
                "-fno-slp-vectorize" | "-fno-tree-slp-vectorize" => o.slp_vectorize = false,
                "-funroll-loops" => o.unroll = true,
                "-fno-unroll-loops" => o.unroll = false,
                _ => {}
            }
        }
        o
    }
}

/// The loop options of the post-AD pipeline, which optimizes only what the AD pass
/// generated or changed (the rest is frozen, `ferrozyme_transform::freeze`): the user's,
/// without unrolling below `-O3`. The primal's loops were already fully unrolled where
/// clang found it worth it (the first compile keeps full unrolling, `deferred.rs`); what
/// remains in derivative code are loops whose trip count only became known from the
/// constants a hook call passes (IPSCCP into the generated functions), and unrolling
/// those fully doubled the reverse code of `bench/compile_scaling`'s chain (54.6k →
/// 29.7k instructions without it; 8% of `ferrozyme cc`'s time) for no measured run-time
/// gain: `bench/icount.py` on `make bench-quick` compiled with `-O2 -ffast-math`
/// (unrolling on) counted the same or fewer gradient instructions without it (issue 18,
/// bench/compile_scaling/README.md). `#pragma unroll` still unrolls. At `-O3` the
/// forward sweep's copies of the primal's loops unroll as the primal's do (GMM's packed
/// triangle at `-march=x86-64-v3`: twice, 16 → 10.5 instructions per entry), and the
/// loops the reverse sweep builds stay rolled (`llvm.loop.unroll.disable`,
/// `ferrozyme_transform::rolled_loops`; issue 14, gmm19 in bench/README.md).
pub fn derivative_loops(level: OptLevel, loops: LoopOptions) -> LoopOptions {
    LoopOptions {
        unroll: loops.unroll && level == OptLevel::O3,
        ..loops
    }
}

/// Runs a textual pass pipeline with the loop options (and the switches that make LLVM 22
/// honour them through the C API, see [`optimize`]).
pub fn run_pipeline(
    module: &Module<'_>,
    tm: &TargetMachine,
    pipeline: &str,
    loops: LoopOptions,
) -> Result<(), CliError> {
    set_loop_switches(loops);
    let options = PassBuilderOptions::create();
    options.set_loop_vectorization(loops.vectorize);
    options.set_loop_slp_vectorization(loops.slp_vectorize);
    options.set_loop_interleaving(loops.vectorize);
    options.set_loop_unrolling(loops.unroll);
    module
        .run_passes(pipeline, tm, options)
        .map_err(|e| CliError::Failed(format!("LLVM pipeline '{pipeline}' failed: {e}")))
}

/// Runtime alias checks of an inner loop stay in its preheader (`opt
/// -hoist-runtime-checks=false`). With LLVM 22's default (checks hoisted out of the outer
/// loop when a pointer's bounds move with it), LoopVectorize gives up on such a loop
/// without any remark, even under `llvm.loop.vectorize.enable`: the Brusselator's reverse
/// stencil loop (rows `i - 1`, `i`, `i + 1` of one shadow, the clamped rows only known at
/// run time, the row an induction of the outer loop) stayed scalar with users' flags
/// (bench/README.md, "bruss9"). In the preheader the checks cost a few compares per outer
/// iteration. Set only when loops are vectorized and the AD pass carried a stencil
/// stream (`Report::carried_streams`): the switch is process-wide, it reaches every loop
/// of the module (the later run over untouched functions too, `deferred.rs`), and
/// elsewhere it is not neutral (measured, users' flags: `lstm-fused`'s gradient 17.6M ->
/// 19.9M instructions, its primal 13.5M -> 13.2M; `gmm-fused` +0.06%).
pub const NO_HOISTED_RUNTIME_CHECKS: &str = "-hoist-runtime-checks=false";

/// In-order (strict) floating-point reductions may be vectorized (`opt
/// -force-ordered-reductions`; LLVM enables them by default on AArch64, not on x86). A
/// reverse loop whose stencil streams were carried without `reassoc`
/// (`streams/values.rs`) also sums the adjoints of its loop-invariant inputs in a
/// register, in iteration order; without this switch LoopVectorize refuses the whole loop
/// ("cannot prove it is safe to reorder floating-point operations"). The vector loop
/// adds each lane in order (`llvm.vector.reduce.fadd` without `reassoc`), so the sums are
/// unchanged, bit for bit. LLVM takes only a reduction with one `fadd` per iteration:
/// a 1-D stencil whose parameter appears once vectorizes, the Brusselator's `alpha` (two
/// adds per cell) does not (bench/README.md, "exact11"). Process-wide like
/// [`NO_HOISTED_RUNTIME_CHECKS`], so set only when a value stream was carried.
pub const ORDERED_REDUCTIONS: &str = "-force-ordered-reductions";

/// The pipeline options alone do not keep LLVM 22's loop vectorizer out of
/// `default<O2>` when run through the C API (measured: loops still vectorized); the
/// switches `opt -vectorize-loops=false` uses do.
fn set_loop_switches(loops: LoopOptions) {
    let mut switches = Vec::new();
    if !loops.vectorize {
        switches.extend(["-vectorize-loops=false", "-interleave-loops=false"]);
    }
    if !loops.slp_vectorize {
        switches.push("-vectorize-slp=false");
    }
    if loops.vectorize && loops.preheader_checks {
        switches.push(NO_HOISTED_RUNTIME_CHECKS);
    }
    if loops.vectorize && loops.ordered_reductions {
        switches.push(ORDERED_REDUCTIONS);
    }
    if !switches.is_empty() {
        ferrozyme_transform::set_llvm_options(&switches);
    }
}

/// Re-optimizes with LLVM's new pass manager: `default<O<n>>`, with the loop options
/// clang would use for the same flags. At -O0 only `always-inline` runs, as in clang.
/// Who unswitches the loops of guarded packed indices at `level`: `-O3`'s pipeline does
/// (non-trivial loop unswitching), at `-O1`/`-O2` [`optimize`] does after the pipeline,
/// elsewhere nobody (the selects are folded).
pub fn guarded_indices(level: OptLevel) -> ferrozyme_transform::GuardedIndices {
    use ferrozyme_transform::GuardedIndices;
    match level {
        OptLevel::O3 => GuardedIndices::PipelineUnswitches,
        OptLevel::O1 | OptLevel::O2 => GuardedIndices::UnswitchAfterPipeline,
        // No pipeline to clean the loop up (-O0); no code duplicated for size (-Os, -Oz).
        OptLevel::O0 | OptLevel::Os | OptLevel::Oz => GuardedIndices::Folded,
    }
}

pub fn optimize(
    module: &Module<'_>,
    tm: &TargetMachine,
    level: OptLevel,
    loops: LoopOptions,
) -> Result<(), CliError> {
    let pipeline = match level {
        OptLevel::O0 => "always-inline".to_string(),
        // Without the passes that would find nothing to do (`o2_passes.rs`).
        OptLevel::O2 => {
            crate::o2_passes::o2_pipeline(ferrozyme_transform::Module::from_inkwell(module), loops)
                .unwrap_or_else(|| "default<O2>".to_string())
        }
        l => format!("default<{}>", l.pipeline_name()),
    };
    // Huge straight-line generated functions skip SLP, whose cost there is quadratic
    // (`ferrozyme_transform::slp_limit`).
    let no_slp = (level != OptLevel::O0 && loops.slp_vectorize).then(|| {
        ferrozyme_transform::slp_limit::mark(ferrozyme_transform::Module::from_inkwell(module))
    });
    // A huge straight-line derivative merged into its caller is inlined before the
    // pipeline's early passes, which otherwise work through its tape traffic piece by
    // piece (`ferrozyme_transform::early_inline`).
    let early = level != OptLevel::O0
        && ferrozyme_transform::early_inline::wanted(ferrozyme_transform::Module::from_inkwell(
            module,
        ));
    let ran = if early {
        run_pipeline(module, tm, "always-inline", loops)
            .and_then(|()| run_pipeline(module, tm, &pipeline, loops))
    } else {
        run_pipeline(module, tm, &pipeline, loops)
    };
    if let Some(marked) = &no_slp {
        ferrozyme_transform::slp_limit::unmark(
            ferrozyme_transform::Module::from_inkwell(module),
            marked,
        );
    }
    // Below -O3, the loops of guarded packed indices are unswitched now, in their
    // functions alone (`reverse/stepped_index.rs`, gmm32).
    let ran = ran.and_then(|()| {
        ferrozyme_transform::unswitch_guarded_loops(ferrozyme_transform::Module::from_inkwell(
            module,
        ))
        .map(|_| ())
        .map_err(|e| CliError::Failed(format!("unswitching guarded packed indices: {e}")))
    });
    // Tape record addresses in generated loops are hidden from code generation's loop
    // strength reduction, whose search they made 2-5x longer (`record_freeze.rs`).
    if ran.is_ok() && level != OptLevel::O0 {
        ferrozyme_transform::record_freeze::freeze_record_addresses(
            ferrozyme_transform::Module::from_inkwell(module),
        );
    }
    ran
}

/// AddressSanitizer after the AD pass (what `-fsanitize=address` makes clang do at the end
/// of its pipeline): every defined function gets `sanitize_address`, then the `asan`
/// module pass instruments loads, stores, allocas and globals, derivative code included.
pub fn address_sanitize(module: &Module<'_>, tm: &TargetMachine) -> Result<(), CliError> {
    let ctx = module.get_context();
    let kind = inkwell::attributes::Attribute::get_named_enum_kind_id("sanitize_address");
    for f in module.get_functions() {
        if f.count_basic_blocks() > 0 {
            f.add_attribute(
                inkwell::attributes::AttributeLoc::Function,
                ctx.create_enum_attribute(kind, 0),
            );
        }
    }
    module
        .run_passes("asan", tm, PassBuilderOptions::create())
        .map_err(|e| CliError::Failed(format!("LLVM pipeline 'asan' failed: {e}")))
}

/// What to write at the end of a module's journey.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    Object,
    Assembly,
    Bitcode,
    TextIr,
}

/// Writes the module as an object file, assembly, bitcode or text IR.
pub fn emit(
    module: &Module<'_>,
    tm: &TargetMachine,
    kind: Emit,
    path: &Path,
) -> Result<(), CliError> {
    let fail = |e: String| CliError::Failed(format!("cannot write '{}': {e}", path.display()));
    match kind {
        Emit::Object => tm
            .write_to_file(module, FileType::Object, path)
            .map_err(|e| fail(e.to_string())),
        Emit::Assembly => tm
            .write_to_file(module, FileType::Assembly, path)
            .map_err(|e| fail(e.to_string())),
        Emit::Bitcode => module
            .write_bitcode_to_path(path)
            .then_some(())
            .ok_or_else(|| fail("LLVM could not write bitcode".into())),
        Emit::TextIr => module.print_to_file(path).map_err(|e| fail(e.to_string())),
    }
}

/// Writes the module as text IR for `--save-temps`.
pub fn save_ir(module: &Module<'_>, path: &Path) -> Result<(), CliError> {
    module
        .print_to_file(path)
        .map_err(|e| CliError::Failed(format!("cannot write '{}': {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitcode_magic() {
        assert!(is_bitcode(b"BC\xC0\xDE\x35\x14"));
        assert!(is_bitcode(&[0xDE, 0xC0, 0x17, 0x0B, 0, 0]));
        assert!(!is_bitcode(b"; ModuleID = 'x'"));
        assert!(!is_bitcode(b""));
    }

    #[test]
    fn malformed_text_is_malformed_ir() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("bad.ll");
        std::fs::write(&p, "define i32 @f( {\n").unwrap();
        let ctx = Context::create();
        let err = load(&ctx, &p).unwrap_err().to_string();
        assert!(err.starts_with("error[malformed-ir]: "), "{err}");
        assert!(err.contains("bad.ll"), "{err}");
    }

    #[test]
    fn loads_text_and_verifies() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("ok.ll");
        std::fs::write(
            &p,
            "define double @sq(double %x) {\n  %y = fmul double %x, %x\n  ret double %y\n}\n",
        )
        .unwrap();
        let ctx = Context::create();
        let m = load(&ctx, &p).unwrap();
        verify_after_ad(&m).unwrap();
        let tm = target_machine(&m, OptLevel::O2).unwrap();
        optimize(
            &m,
            &tm,
            OptLevel::O2,
            LoopOptions::from_flags(OptLevel::O2, &[]),
        )
        .unwrap();
        let bc = dir.path().join("ok.bc");
        emit(&m, &tm, Emit::Bitcode, &bc).unwrap();
        let ctx2 = Context::create();
        assert!(load(&ctx2, &bc).unwrap().get_function("sq").is_some());
    }

    #[test]
    fn discarded_value_names_keep_globals_and_meaning() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("named.ll");
        std::fs::write(
            &p,
            "@g = global double 2.0\n\
             define double @sq(double %x) {\nentry:\n  %g.v = load double, ptr @g\n  \
             %y = fmul double %x, %g.v\n  br label %done\ndone:\n  ret double %y\n}\n",
        )
        .unwrap();
        let ctx = Context::create();
        let m = load(&ctx, &p).unwrap();
        ferrozyme_transform::Module::from_inkwell(&m).discard_value_names();
        let text = m.print_to_string().to_string();
        for local in ["%x", "%g.v", "%y", "entry:", "done:"] {
            assert!(!text.contains(local), "{local} kept:\n{text}");
        }
        assert!(
            text.contains("@sq(") && text.contains("@g = global"),
            "{text}"
        );
        // Names given later are dropped too (the context discards them).
        let f = m.get_function("sq").unwrap();
        f.get_first_param().unwrap().set_name("again");
        assert!(!m.print_to_string().to_string().contains("%again"));
        verify_after_ad(&m).unwrap();
    }

    #[test]
    fn derivative_code_is_unrolled_only_at_o3_and_keeps_the_vectorizers() {
        let d = derivative_loops(OptLevel::O2, LoopOptions::from_flags(OptLevel::O2, &[]));
        assert!(!d.unroll && d.vectorize && d.slp_vectorize);
        let o3 = LoopOptions::from_flags(OptLevel::O3, &[]);
        assert_eq!(derivative_loops(OptLevel::O3, o3), o3);
        let f = ["-fno-unroll-loops".to_string()];
        let no_unroll = LoopOptions::from_flags(OptLevel::O3, &f);
        assert!(!derivative_loops(OptLevel::O3, no_unroll).unroll);
    }

    #[test]
    fn loop_options_follow_clang_flags() {
        let f = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let o2 = LoopOptions::from_flags(OptLevel::O2, &[]);
        assert!(o2.vectorize && o2.slp_vectorize && o2.unroll);
        let o1 = LoopOptions::from_flags(OptLevel::O1, &[]);
        assert!(!o1.vectorize && !o1.slp_vectorize && o1.unroll);
        let off = LoopOptions::from_flags(
            OptLevel::O2,
            &f(&["-fno-vectorize", "-fno-slp-vectorize", "-fno-unroll-loops"]),
        );
        assert!(!off.vectorize && !off.slp_vectorize && !off.unroll);
        let last = LoopOptions::from_flags(OptLevel::O1, &f(&["-fno-vectorize", "-fvectorize"]));
        assert!(last.vectorize && !last.slp_vectorize);
    }
}

//! What the caller asks of one run of the pass, and what the run reports back.

/// What the caller wants from one run of the pass.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Append the activity analysis of every differentiated function to `Report::printout`.
    pub print_activity: bool,
    /// Append the type analysis of every differentiated function to `Report::printout`.
    pub print_type_analysis: bool,
    /// Instrument every top-level `__enzyme_autodiff`/`__enzyme_fwddiff` call to compare
    /// its derivative with finite differences at run time; needs the checking runtime
    /// (`__fz_gc_*`, linked in by `ferrozyme cc --check-gradients`).
    pub check_gradients: bool,
    /// Enzyme's `-enzyme-*` options that Ferrozyme honours (`ferrozyme_abi::options`).
    pub enzyme: ferrozyme_abi::options::EnzymeSettings,
    /// Collect optimization remarks (what the reverse sweep caches, recomputes and
    /// re-reads) into `Report::remarks` (`-Rpass=enzyme`). Enzyme's `-enzyme-print-perf`
    /// also prints them into `Report::printout`.
    pub remarks: bool,
    /// The pipeline after the pass vectorizes loops (`ferrozyme cc` at -O2/-O3 without
    /// `-fno-vectorize`, `ferrozyme opt -O2`). Gradients whose reverse stencil streams
    /// were carried then get `noalias` on the copies of `restrict` pointers and their
    /// shadows, which the loop vectorizer needs (`streams/mod.rs`); without it they would
    /// only change code generation (measured: register spills, 130.3k -> 140.5k
    /// instructions per Brusselator gradient with the harness flags). Off by default
    /// (the plugin inside clang's pipeline, whose flags the pass does not see).
    pub vectorized_loops: bool,
    /// The optimizer's LoopUnroll runs after the pass, not before it (the plugin at
    /// clang's OptimizerEarly), at this optimization level (1-3): reverse clones get its
    /// peeling first (`clang_unroll.rs`), as `ferrozyme cc`'s first compile gives the
    /// primal to the pass.
    pub loops_unpeeled: Option<u8>,
    /// The pass runs inside clang without `ferrozyme cc`'s attribute defines (the
    /// plugin): check the source for Enzyme's attributes clang dropped
    /// (`custom/annotations.rs`, `dropped_in_source`).
    pub check_source_attributes: bool,
}

/// What one run of the pass did.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Names of the derivative functions generated.
    pub generated: Vec<String>,
    /// Human-readable analysis printouts requested through `Options`.
    pub printout: String,
    /// Notes for the user (not errors), e.g. calls `--check-gradients` cannot check.
    pub notes: Vec<String>,
    /// Time spent per phase of the pass (`ferrozyme cc --time-passes`).
    pub times: crate::timing::PhaseTimes,
    /// Optimization remarks, when `Options::remarks` or `-enzyme-print-perf` asked.
    pub remarks: Vec<ferrozyme_llvm::Remark>,
    /// Reverse stencil streams carried in registers (`streams/mod.rs`): the driver then
    /// keeps the loop vectorizer's run-time alias checks in loop preheaders
    /// (`ferrozyme-cli`'s `pipeline::NO_HOISTED_RUNTIME_CHECKS`).
    pub carried_streams: usize,
    /// Of those, streams in value form (no `reassoc`, `streams/values.rs`): the driver
    /// then lets the loop vectorizer vectorize in-order floating-point reductions
    /// (`ferrozyme-cli`'s `pipeline::ORDERED_REDUCTIONS`).
    pub exact_streams: usize,
    /// The pass ran LLVM's verifier on the whole module after its last change (it does
    /// when it differentiated something): the driver need not verify it again.
    pub verified: bool,
}

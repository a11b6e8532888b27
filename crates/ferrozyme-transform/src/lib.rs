//! Ferrozyme's transform: finds `__enzyme_*` calls in a module and synthesizes derivatives.
//!
//! Code map (dependencies point down the list; no module imports one above it except
//! through `services`' traits):
//! * `session.rs` — one run of the pass: the steps before the hook calls are read, the
//!   rounds that replace them (innermost first), the cleanup and verification after;
//! * `hooks.rs` — finds the hook calls, what they differentiate, which are ready;
//! * `plan.rs` — one hook call planned (the derivative it needs) and replaced;
//! * `request.rs` — parses an `__enzyme_*` call (markers, shadows, width, defaults);
//! * `replace.rs` — rewrites each hook call into a call of its derivative (`marshal.rs`
//!   converts values across the hook boundary, `checkgrad.rs` adds `--check-gradients`);
//! * `driver.rs` — memoised requests → generated functions, worklist of bodies, the
//!   analyses each synthesis works from;
//! * `clone.rs` — clone + canonicalise the function to differentiate;
//! * `reverse/` — reverse-mode synthesis (forward sweep, reverse sweep, tape);
//! * `tangent/` — forward-mode synthesis, scalar and batched (`enzyme_width`);
//! * `common/` — what both modes share: problems and diagnostics, shadows of constants,
//!   the opcode classification;
//! * `signature.rs` — requests and the signatures of generated functions;
//! * `services.rs` — what synthesis may ask of the rest: callee derivatives (`Callees`)
//!   and module-level objects (`Support`);
//! * `lanes.rs` — the `Lane` index of vector mode;
//! * `lower.rs` — derivative rules (from `ferrozyme-rules`) lowered to IR;
//! * `runtime.rs` — tape stacks and memory adjoints, linked into the module as IR;
//! * `generated.rs` — the mark on every function the pass creates.
//! * `hook_args.rs` — hook operands seen through `-O0` stack slots;
//! * `libdefs.rs` — differentiable definitions of complex-valued library functions.
#![forbid(unsafe_code)]

pub mod adjoint_chain;
pub mod adjoint_factor;
pub mod adjoint_fusion;
pub mod adjoint_split;
mod affine_index;
mod analyses;
mod audit;
mod batch;
mod byref_args;
mod call_extents;
mod candidate_stops;
mod checkgrad;
mod checkpoint;
mod clone;
mod coerced_structs;
mod common;
mod constant_copies;
mod contexts;
mod cse;
mod custom;
mod double_halves;
mod driver;
pub mod early_inline;
pub mod entry_inline;
mod fortify;
mod fortran;
mod fortran_constants;
mod fortran_dummies;
mod frame_buffers;
pub mod freeze;
pub mod generated;
mod global_args;
mod global_views;
mod hook_args;
mod hookret;
mod hooks;
mod ifunc_calls;
mod ignore;
mod implicit_sret;
mod intptr;
mod iter;
mod known_asm;
mod lanes;
mod libcalls;
pub mod libdefs;
mod lower;
mod marshal;
pub mod merge;
mod options;
pub mod outline;
mod outside_allocations;
mod parallel;
mod peel;
mod peel_rows;
mod placeholder;
mod plan;
mod private_markers;
mod reached;
mod reassoc_sums;
pub mod record_freeze;
mod remarks;
mod replace;
mod request;
mod reverse;
/// Guarded packed indices before the post-AD pipeline (`reverse/stepped_index.rs`).
pub use reverse::stepped_index::{settle_guarded_indices, unswitch_guarded_loops, GuardedIndices};
pub use runtime::cache_thread_state_in_tls;
mod clang_unroll;
pub mod rolled_loops;
mod runtime;
mod seed_calls;
mod seed_fusion;
mod seed_unroll;
mod services;
mod session;
mod settings;
mod shadow_memory;
mod signature;
mod size_hint;
pub mod slp_limit;
mod splice_chains;
pub use splice_chains::fold_module as fold_chained_splices;
mod split_math;
mod stack_guard;
mod streams;
mod tangent;
mod target_attrs;
#[cfg(test)]
mod test_ir;
mod thread_locals;
mod timing;
mod trampolines;
mod truncate;
mod unmerge;
mod wrap_index;

pub use clone::clone_function;
pub use custom::{inline_barriers, keep_calls, prepare_module, registered_functions};
pub use private_markers::keep_private_markers;

/// The clang flag `ferrozyme cc` compiles with so that Enzyme's
/// `__attribute__((enzyme_inactive))` reaches the pass (as clang's `annotate`).
pub const ENZYME_INACTIVE_DEFINE: &str = "-Denzyme_inactive=annotate(\"enzyme_inactive\")";
/// The same for `__attribute__((enzyme_inactive_noblock))`, Enzyme's inactive function
/// that does not stop optimizations around its calls: for the derivative it is inactive.
pub const ENZYME_INACTIVE_NOBLOCK_DEFINE: &str =
    "-Denzyme_inactive_noblock=annotate(\"enzyme_inactive\")";
/// `__attribute__((enzyme_function_like("log1p")))` as clang's `annotate`, with the name
/// after the prefix the pass reads (`custom/annotations.rs`).
pub const ENZYME_FUNCTION_LIKE_DEFINE: &str =
    "-Denzyme_function_like(name)=annotate(\"enzyme_function_like:\" name)";
/// Every define `ferrozyme cc` adds so that Enzyme's clang-plugin attributes that change
/// a derivative reach the pass instead of being dropped by clang with a warning.
pub const ENZYME_ATTRIBUTE_DEFINES: &[&str] = &[
    ENZYME_INACTIVE_DEFINE,
    ENZYME_INACTIVE_NOBLOCK_DEFINE,
    ENZYME_FUNCTION_LIKE_DEFINE,
];
pub use ferrozyme_abi::options as enzyme_options;
pub use ferrozyme_llvm::{set_llvm_options, Diagnostic, Module};
pub use options::{Options, Report};
pub use timing::{cpu_now, Phase, PhaseTimes, Span, Stamp};

pub use hooks::call_into_other_module;
pub use session::{run_keeping_printout, run_on_ir_text, run_on_module, Failure};

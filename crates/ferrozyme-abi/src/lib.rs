//! The `__enzyme_*` entry points and `enzyme_*` argument markers: one table, no dependencies.
//!
//! Ferrozyme speaks Enzyme's C ABI so existing user code works unchanged. A call to any
//! declared function whose *name contains* an entry-point name is that entry point (users
//! declare typed prototypes such as `__enzyme_autodiff_f32` or `__enzyme_autodiff4`, and
//! C++ templates produce mangled names). Markers are `extern int` globals whose *values*
//! are passed; we recognise them by the global the value is loaded from. An `enzyme_*`
//! global that is not in [`MARKERS`] is an error, never silently ignored.
#![forbid(unsafe_code)]

pub mod alloc;
pub mod input;
pub mod library;
pub mod mangled;
pub use alloc::{
    alloc_fn, allocator_size_arg, rust_entry_symbol, AllocFn, AllocKind, Family, ShadowDealloc,
    ALLOC_FNS,
};
pub use input::{input_library, scanf_targets, Input, Reads, ScanTarget, INPUT_LIBRARY};
pub use library::{
    inactive_library, one_time_init_state, table_search, Inactive, Writes, INACTIVE_FAMILIES,
    INACTIVE_LIBRARY, ONE_TIME_INIT, TABLE_SEARCHES,
};

pub mod doc;
pub mod options;

/// Differentiation modes and program transformations reachable from C.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryPoint {
    /// `__enzyme_autodiff`: reverse mode, combined forward + reverse sweep.
    Autodiff,
    /// `__enzyme_fwddiff`: forward mode (tangents).
    Fwddiff,
    /// `__enzyme_augmentfwd`: split mode, forward half; returns the tape.
    AugmentFwd,
    /// `__enzyme_reverse`: split mode, reverse half; takes and frees the tape.
    Reverse,
    /// `__enzyme_augmentsize`: the size in bytes of the tape of `AugmentFwd`.
    AugmentSize,
    /// `__enzyme_batch(f, enzyme_width, N, args...)`: `f` over N lanes of arguments.
    Batch,
    /// `__enzyme_virtualreverse(f)`: the shadow of the function pointer `f`.
    VirtualReverse,
    /// `__enzyme_truncate_op_func(f, from, to)` / `(f, from, exponent, mantissa)`: `f`
    /// with every floating-point operation rounded to a narrower format.
    TruncateOpFunc,
    /// `__enzyme_truncate_mem_func(...)`: as `TruncateOpFunc`; values in memory are the
    /// narrow values, held in the wide type.
    TruncateMemFunc,
    /// `__enzyme_truncate_mem_value(x, from, to)`: `x` rounded to the narrow format.
    TruncateMemValue,
    /// `__enzyme_expand_mem_value(x, from, to)`: a narrow value back in the wide format.
    ExpandMemValue,
    /// `__enzyme_error_estimate(f, x, err_x, ...)`: forward propagation of floating-point
    /// rounding errors.
    ErrorEstimate,
}

/// Entry-point names, most specific first (matching is by substring).
pub const ENTRY_POINTS: &[(&str, EntryPoint)] = &[
    ("__enzyme_autodiff", EntryPoint::Autodiff),
    ("__enzyme_fwddiff", EntryPoint::Fwddiff),
    ("__enzyme_augmentfwd", EntryPoint::AugmentFwd),
    ("__enzyme_virtualreverse", EntryPoint::VirtualReverse),
    ("__enzyme_reverse", EntryPoint::Reverse),
    ("__enzyme_augmentsize", EntryPoint::AugmentSize),
    ("__enzyme_batch", EntryPoint::Batch),
    ("__enzyme_truncate_op_func", EntryPoint::TruncateOpFunc),
    ("__enzyme_truncate_mem_func", EntryPoint::TruncateMemFunc),
    ("__enzyme_truncate_mem_value", EntryPoint::TruncateMemValue),
    ("__enzyme_expand_mem_value", EntryPoint::ExpandMemValue),
    ("__enzyme_error_estimate", EntryPoint::ErrorEstimate),
];

impl EntryPoint {
    /// Does a call of this entry point pass the differentiated function's arguments, each
    /// with its marker and shadows (what the clang plugin describes, see
    /// [`ARG_LAYOUT_TAG`])?
    pub fn reads_arguments(self) -> bool {
        matches!(
            self,
            EntryPoint::Autodiff
                | EntryPoint::Fwddiff
                | EntryPoint::AugmentFwd
                | EntryPoint::Reverse
        )
    }
}

/// What the clang plugin appends to the name of a hook it calls with a value the x86-64
/// ABI passes as two operands (`double _Complex`, a struct of two doubles), followed by
/// one digit per source argument after the function: `2` for such a value, `1` for any
/// other (ferrozyme-clang's `clang_plugin.cpp`, ferrozyme-transform's
/// `request/reader/two_part.rs`).
pub const ARG_LAYOUT_TAG: &str = ".fzargs.";

/// A hook's name as the user wrote it: `name` without the clang plugin's
/// [`ARG_LAYOUT_TAG`] and what follows it (`__enzyme_fwddiff.fzargs.22` is
/// `__enzyme_fwddiff`), for messages.
pub fn user_hook_name(name: &str) -> &str {
    name.find(ARG_LAYOUT_TAG).map_or(name, |k| &name[..k])
}

/// Enzyme entry points Ferrozyme does not implement, with the reason: a call is a
/// compile-time error naming it (never a call left for the linker or a JIT to fail on).
pub const UNSUPPORTED_ENTRY_POINTS: &[(&str, &str)] = &[
    ("__enzyme_fwdsplit", "split forward mode (a forward derivative reusing a tape) is not supported; use __enzyme_fwddiff"),
    ("__enzyme_todense", "sparse derivative accumulation (loads and stores through user functions) is not supported; accumulate into a dense shadow"),
    ("__enzyme_trace", "probabilistic programming is not supported"),
    ("__enzyme_condition", "probabilistic programming is not supported"),
    ("__enzyme_likelihood", "probabilistic programming is not supported"),
    ("__enzyme_sample", "probabilistic programming is not supported"),
    ("__enzyme_observe", "probabilistic programming is not supported"),
];

/// Functions of Enzyme's ABI the pass evaluates in place (not differentiation hooks).
pub const VALUE_ENTRY_POINTS: &[(&str, &str)] = &[
    (
        "__enzyme_iter",
        "works: `__enzyme_iter(n, k)` is `n` in the program as written and grows by `k` in each derivative (every differentiation of the function adds `k`: series that keep their accuracy under differentiation)",
    ),
    (
        "__enzyme_context",
        "works: `ctx = __enzyme_context(1)` zeroes the shadows of mutable globals and names them (one live context at a time: using an older one stops the program with a message)",
    ),
    (
        "__enzyme_shadow",
        "works: `__enzyme_shadow(ctx, &g, 0)` is the address of global `g`'s shadow (its adjoint after reverse mode, its tangent for forward mode), also of a member or element of `g` at a constant offset (`&blk.b`); a pointer the program stored into `g` from an allocator outside the derivatives has a zeroed shadow allocation of the same size",
    ),
    (
        "__enzyme_zero_shadows",
        "works: zeroes every global shadow of float data in the context",
    ),
    (
        "__enzyme_ignore_derivatives",
        "works: `__enzyme_ignore_derivatives(x)` is `x` with no derivative (a stop-gradient), in reverse and forward mode",
    ),
    (
        "__enzyme_ptr_size_hint",
        "works: `__enzyme_ptr_size_hint(p, bytes, 0)` gives the extent of the memory behind `p` that a loop annotated for checkpointing writes (its snapshot region); removed everywhere (Ferrozyme sizes shadows from the allocations)",
    ),
    (
        "__enzyme_set_fixed_point",
        "works: `__enzyme_set_fixed_point(enzyme_fp_state, z, (int64_t)bytes, [enzyme_fp_reduction, r,] [enzyme_fp_max_iters, n,] [enzyme_fp_control, control,] [enzyme_checkpoint_region, p, bytes,]...)` inside a loop's body marks that loop a fixed-point iteration: the loop is outlined into a step and differentiated as `__enzyme_fixed_point` (at the fixed point only); a marker outside a loop, a loop that exits before the end of its body or carries a value in a register, and state memory not listed are compile-time errors; values the loop gives to the code after it are kept in slots",
    ),
    (
        "__enzyme_set_checkpointing",
        "works: `__enzyme_set_checkpointing(schedule, budget)` (what the clang plugin puts at the top of a loop annotated `[[enzyme::checkpoint(\"revolve\", 3)]]`, `#pragma enzyme checkpoint`, `enzyme_checkpointing_enable`; tags of `<enzyme/checkpoint_schedule.h>`): in reverse-differentiated code the loop runs checkpointed with that schedule (periodic, revolve, store_all, binomial) and budget; a loop that cannot be outlined or whose state cannot be bounded is a compile-time error; elsewhere removed",
    ),
];

/// Checkpointed time loops (`<enzyme/checkpoint.h>`): entry points the pass rewrites
/// before differentiating (the transform's `checkpoint/`), with their status.
pub const CHECKPOINT_ENTRY_POINTS: &[(&str, &str)] = &[
    ("__enzyme_checkpoint_for", "works: the loop `for (i = start; i < start + n; i++) step(i, args...)`; in reverse mode snapshots of the marked regions and written globals and one step's tape at a time, scheduled by the scheme (Revolve with ceil(sqrt(n)) slots, or FERROZYME_TAPE_BUDGET bytes, by default); forward mode: the loop of the step's derivative"),
    ("__enzyme_checkpoint_while", "works: `i = 0; while (step(i++, args...));`, reverse mode as `__enzyme_checkpoint_for` (store-all by default; the scheme needs `set_nsteps`); forward mode differentiates the plain loop"),
    ("__enzyme_fixed_point", "works: `i = 0; while (step(i++, args...));` iterating a state `z = phi(z, x)` to convergence (`<enzyme/fixed_point.h>`); reverse mode keeps one snapshot and iterates the adjoint of one step at the converged state until it converges (the two-phase adjoint), forward mode iterates the step's tangent there; `enzyme_fp_state`, `enzyme_fp_reduction`, `enzyme_fp_max_iters`, `enzyme_fp_control` (Tapenade's protocol), `enzyme_checkpoint_region`"),
];

/// The markers of [`CHECKPOINT_ENTRY_POINTS`] (they appear only in those calls).
pub const CHECKPOINT_MARKERS: &[(&str, &str)] = &[
    ("enzyme_scheme", "works: `enzyme_scheme, &scheme, &config`: an `EnzymeCheckpointScheme` and its data (the reference schemes EnzymeCkptRevolve, EnzymeCkptPeriodic, EnzymeCkptStoreAll take an `EnzymeCkptConfig`)"),
    ("enzyme_checkpoint_region", "works: `enzyme_checkpoint_region, ptr, (int64_t)bytes`: memory every snapshot holds; a step writing through an argument no region covers is an error"),
    ("enzyme_fp_state", "works: `enzyme_fp_state, ptr, (int64_t)bytes`: a state of `__enzyme_fixed_point` (doubles or floats, a pointer the step takes): snapshotted, its adjoint's or tangent's update decides convergence, its shadow is zero after reverse mode"),
    ("enzyme_fp_reduction", "works: `enzyme_fp_reduction, r` (double): stop once the squared norm of the update falls to r times the first one's (default 1e-12)"),
    ("enzyme_fp_max_iters", "works: `enzyme_fp_max_iters, n` (int64_t): at most n derivative iterations (default 1000, 0: no limit); stopping unconverged prints a warning"),
    ("enzyme_fp_control", "works: `enzyme_fp_control, control`: `int control(double *cumul, double *reduction)` decides instead, called with -1 before the first iteration and the squared norm after each"),
];

/// Is `name` (a declared function's) one of [`CHECKPOINT_ENTRY_POINTS`]?
pub fn checkpoint_entry_point(name: &str) -> Option<&'static str> {
    CHECKPOINT_ENTRY_POINTS
        .iter()
        .find(|(n, _)| name.contains(n))
        .map(|(n, _)| *n)
}

/// Functions a program defines for Enzyme to call, which Ferrozyme does not call: a
/// module differentiated while defining one is a compile-time error naming it (the
/// program's own count or log would silently stay empty otherwise).
pub const UNSUPPORTED_HOOK_FUNCTIONS: &[(&str, &str)] = &[(
    "enzymeLogGrad",
    "Enzyme's gradient logging (a program-defined enzymeLogGrad that Enzyme calls with each adjoint) is not supported: Ferrozyme never calls it",
)];

/// Why an Enzyme entry point is not supported, if `name` is one of those.
pub fn unsupported_entry_point(name: &str) -> Option<(&'static str, &'static str)> {
    UNSUPPORTED_ENTRY_POINTS
        .iter()
        .find(|(n, _)| name.contains(n))
        .copied()
}

impl EntryPoint {
    /// The entry point's C name.
    pub fn name(self) -> &'static str {
        ENTRY_POINTS
            .iter()
            .find(|(_, e)| *e == self)
            .map(|(n, _)| *n)
            .expect("invariant: every entry point is in ENTRY_POINTS")
    }
}

/// Which entry point a declared function name denotes, if any.
pub fn entry_point(name: &str) -> Option<EntryPoint> {
    ENTRY_POINTS
        .iter()
        .find(|(n, _)| name.contains(n))
        .map(|(_, e)| *e)
}

/// Hooks a program may *define*, with a body that is only a fallback: the `ferrozyme`
/// Rust crate defines these two (panicking "build with `cargo ferrozyme`") so programs
/// built without the pass still link. A defined function with exactly one of these names
/// is treated as a hook like a declared one; its body is never differentiated or run
/// once the pass has replaced the calls. Other defined functions are never hooks.
pub const FALLBACK_HOOKS: &[&str] = &["__enzyme_autodiff", "__enzyme_fwddiff"];

/// Is `name` a hook even when the module defines it (see [`FALLBACK_HOOKS`])?
pub fn is_fallback_hook(name: &str) -> bool {
    FALLBACK_HOOKS.contains(&name)
}

/// How an argument of the differentiated function takes part in differentiation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Marker {
    /// Pointer followed by its shadow; derivatives accumulate into the shadow.
    Dup,
    /// As `Dup`, and the primal result is not needed.
    DupNoNeed,
    /// No derivative.
    Const,
    /// Active scalar: its derivative is returned.
    Out,
    /// `enzyme_width, N`: vector (batched) mode with N lanes.
    Width,
    /// `enzyme_dupv, stride, x, base` (and `enzyme_dupnoneedv`): lane k's shadow at
    /// `base + k*stride` bytes.
    DupV,
    /// `enzyme_primal_return` right after the function (forward mode): the hook returns
    /// the function's result followed by its tangent(s).
    PrimalReturn,
    /// `enzyme_byref, N, [marker,] p`: the argument's value is the N bytes at `p` (its
    /// type is the parameter's, of size N); its shadow, if any, is passed by value as
    /// usual. Front ends that hold every scalar in memory (Julia's, Rust's) write it.
    ByRef,
}

/// Marker globals, by name.
pub const MARKERS: &[(&str, Marker)] = &[
    ("enzyme_dup", Marker::Dup),
    ("enzyme_dupnoneed", Marker::DupNoNeed),
    ("enzyme_const", Marker::Const),
    ("enzyme_out", Marker::Out),
    ("enzyme_width", Marker::Width),
    ("enzyme_dupv", Marker::DupV),
    ("enzyme_primal_return", Marker::PrimalReturn),
    ("enzyme_dupnoneedv", Marker::DupV),
    ("enzyme_byref", Marker::ByRef),
];

/// Prefix shared by every marker global; a global with this prefix that is not a known
/// marker is reported as an unknown marker.
pub const MARKER_PREFIX: &str = "enzyme_";

/// Enzyme's first releases spelled the argument markers `diffe_dup`, `diffe_dupnoneed`,
/// `diffe_const` and `diffe_out` (globals or metadata strings); programs written for those
/// releases still use them. Each is the same marker as its `enzyme_*` name.
pub const LEGACY_MARKERS: &[(&str, &str)] = &[
    ("diffe_dup", "enzyme_dup"),
    ("diffe_dupnoneed", "enzyme_dupnoneed"),
    ("diffe_const", "enzyme_const"),
    ("diffe_out", "enzyme_out"),
];

/// The `enzyme_*` name a global or metadata string stands for as a marker: the name
/// itself when it has the marker prefix, the current spelling of a legacy `diffe_*`
/// marker, `None` for any other name.
/// A C++ marker with internal linkage or in a namespace stands for the name it mangles
/// (`_ZL10enzyme_dup`: `enzyme_dup`; [`mangled`]).
pub fn canonical_marker_name(name: &str) -> Option<&str> {
    let name = mangled::variable_source_name(name).unwrap_or(name);
    if name.starts_with(MARKER_PREFIX) {
        return Some(name);
    }
    LEGACY_MARKERS
        .iter()
        .find(|(old, _)| *old == name)
        .map(|(_, new)| *new)
}

/// Whether a global of this name is an argument or call marker (current or legacy
/// spelling).
pub fn is_marker_name(name: &str) -> bool {
    canonical_marker_name(name).is_some()
}

/// Looks up a marker global by exact name.
pub fn marker(name: &str) -> Option<Marker> {
    MARKERS.iter().find(|(n, _)| *n == name).map(|(_, m)| *m)
}

/// Markers that say something about the whole call rather than one argument; they may
/// stand anywhere among the arguments (Enzyme's `handleArguments` skips them there).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallMarker {
    /// `enzyme_primal_return`: the hook also returns the primal result, first.
    PrimalReturn,
    /// `enzyme_noret`: the primal result is not returned (`__enzyme_augmentfwd`).
    NoRet,
    /// `enzyme_const_return`: the result carries no derivative (no seed, no tangent).
    ConstReturn,
    /// `enzyme_active_return`: the float result is active (the default).
    ActiveReturn,
    /// `enzyme_dup_return`: the result is duplicated. In forward mode, for a result
    /// holding floats, that is the default (its tangent is returned; Enzyme's C++ header
    /// passes it for `enzyme::Forward`); a pointer result's shadow is not supported.
    DupReturn,
    /// `enzyme_context, ctx`: the derivative uses the global shadows of the context `ctx`
    /// as they are (no zeroing first).
    Context,
    /// `enzyme_allocated, N`: the caller provides N bytes for the tape (with `Tape`).
    Allocated,
    /// `enzyme_tape, p`: the tape goes to (`__enzyme_augmentfwd`) or comes from
    /// (`__enzyme_reverse`) the caller's memory at `p`.
    Tape,
    /// `enzyme_interleave`: every argument comes first (an unmarked one takes the
    /// activity of the argument before it, `enzyme_dup` at the start), then, after the
    /// marker, the shadows of the duplicated ones in the same order (MFEM's calls).
    Interleave,
    /// `enzyme_nofree`, `enzyme_runtime_activity`, `enzyme_not_overwritten`: hints about
    /// Enzyme's own memory management and caching that do not change the derivative
    /// Ferrozyme computes (it frees what it allocates when no longer needed, checks
    /// activity at run time where it cannot decide at compile time, and never assumes an
    /// argument is not overwritten).
    NoEffect,
}

impl CallMarker {
    /// How many values follow the marker (`enzyme_allocated, N`: one).
    pub fn operands(self) -> usize {
        match self {
            CallMarker::Allocated | CallMarker::Tape => 1,
            _ => 0,
        }
    }
}

/// Call-level markers, by name.
pub const CALL_MARKERS: &[(&str, CallMarker)] = &[
    ("enzyme_primal_return", CallMarker::PrimalReturn),
    ("enzyme_noret", CallMarker::NoRet),
    ("enzyme_const_return", CallMarker::ConstReturn),
    ("enzyme_active_return", CallMarker::ActiveReturn),
    ("enzyme_dup_return", CallMarker::DupReturn),
    ("enzyme_allocated", CallMarker::Allocated),
    ("enzyme_tape", CallMarker::Tape),
    ("enzyme_context", CallMarker::Context),
    ("enzyme_interleave", CallMarker::Interleave),
    ("enzyme_nofree", CallMarker::NoEffect),
    ("enzyme_runtime_activity", CallMarker::NoEffect),
    ("enzyme_not_overwritten", CallMarker::NoEffect),
];

/// Looks up a call-level marker by exact name.
pub fn call_marker(name: &str) -> Option<CallMarker> {
    CALL_MARKERS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, m)| *m)
}

/// Enzyme markers Ferrozyme recognises but does not implement, with the reason (an error
/// naming the marker, never silently ignored).
pub const UNSUPPORTED_MARKERS: &[(&str, &str)] = &[
    ("enzyme_strong_zero", "the guarded arithmetic that makes 0 * inf contribute 0 to adjoints is not implemented (Ferrozyme propagates IEEE arithmetic as is)"),
    ("enzyme_scalar", "is a marker of __enzyme_batch only"),
    ("enzyme_vector", "is a marker of __enzyme_batch only"),
    ("enzyme_buffer", "is a marker of __enzyme_batch only"),
    ("enzyme_interface", "probabilistic programming (__enzyme_trace, __enzyme_condition) is not supported"),
    ("enzyme_trace", "probabilistic programming (__enzyme_trace, __enzyme_condition) is not supported"),
    ("enzyme_duptrace", "probabilistic programming (__enzyme_trace, __enzyme_condition) is not supported"),
    ("enzyme_likelihood", "probabilistic programming (__enzyme_trace, __enzyme_condition) is not supported"),
    ("enzyme_duplikelihood", "probabilistic programming (__enzyme_trace, __enzyme_condition) is not supported"),
    ("enzyme_observations", "probabilistic programming (__enzyme_trace, __enzyme_condition) is not supported"),
    ("enzyme_active_rand_var", "probabilistic programming (__enzyme_trace, __enzyme_condition) is not supported"),
];

/// Why a recognised Enzyme marker is not supported, if it is one of those.
pub fn unsupported_marker(name: &str) -> Option<&'static str> {
    lookup(UNSUPPORTED_MARKERS, name)
}

/// The second entry of the pair whose first is `key`, in a table of name pairs.
fn lookup(table: &[(&str, &'static str)], key: &str) -> Option<&'static str> {
    table.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

/// What an Enzyme type hint (`__enzyme_double(ptr)` ...) says the memory at its argument
/// holds. Users add such calls to tell type analysis; they have no body and the pass
/// removes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeHint {
    Double,
    Float,
    Integer,
    Pointer,
}

/// The type hint functions, by name.
pub const TYPE_HINTS: &[(&str, TypeHint)] = &[
    ("__enzyme_double", TypeHint::Double),
    ("__enzyme_float", TypeHint::Float),
    ("__enzyme_integer", TypeHint::Integer),
    ("__enzyme_pointer", TypeHint::Pointer),
];

/// The hint a function name denotes (exact names only).
pub fn type_hint(name: &str) -> Option<TypeHint> {
    TYPE_HINTS.iter().find(|(n, _)| *n == name).map(|(_, h)| *h)
}

/// Enzyme's registration globals: what a global named `__enzyme_<kind>...` tells the
/// pass (users declare them to register derivatives or activity facts; C++ may mangle the
/// name, so matching is by substring).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Registration {
    /// `void *__enzyme_register_gradient_f[] = {f, augmented_f, reverse_f};`
    Gradient,
    /// `void *__enzyme_register_derivative_f[] = {f, forward_f};`
    Derivative,
    /// `void *__enzyme_register_splitderivative_f[] = {f, augmented_f, reverse_f};`
    SplitDerivative,
    /// `void *__enzyme_inactivefn[] = {f, ...};` — calls to these never carry derivatives
    /// (also `__enzyme_inactivenoblockfn`, Enzyme's spelling for an inactive function that
    /// does not block inlining or other analyses: the same for Ferrozyme).
    InactiveFn,
    /// `void *__enzyme_shouldrecompute[] = {f, ...};` — the user says calls to `f` may be
    /// recomputed in the reverse sweep instead of cached: a performance hint. Ferrozyme
    /// decides what it keeps from its own analysis (always correct), so the list is
    /// checked and otherwise ignored.
    ShouldRecompute,
    /// `void *__enzyme_inactive_global[] = {&g, ...};` — these globals carry no derivatives.
    InactiveGlobal,
    /// `void *__enzyme_function_like[2] = {f, "name"};` — `f` behaves like a known function.
    FunctionLike,
    /// `void *__enzyme_allocation_like[4] = {f, size_arg, "-1", free_fn};`
    AllocationLike,
}

/// Registration globals by the name they contain, most specific first.
pub const REGISTRATIONS: &[(&str, Registration)] = &[
    ("__enzyme_register_gradient", Registration::Gradient),
    (
        "__enzyme_register_splitderivative",
        Registration::SplitDerivative,
    ),
    ("__enzyme_register_derivative", Registration::Derivative),
    ("__enzyme_inactivefn", Registration::InactiveFn),
    ("__enzyme_inactivenoblockfn", Registration::InactiveFn),
    ("__enzyme_shouldrecompute", Registration::ShouldRecompute),
    ("__enzyme_inactive_global", Registration::InactiveGlobal),
    ("__enzyme_function_like", Registration::FunctionLike),
    ("__enzyme_allocation_like", Registration::AllocationLike),
];

/// Which registration a global's name denotes, if any.
pub fn registration(name: &str) -> Option<Registration> {
    REGISTRATIONS
        .iter()
        .find(|(n, _)| name.contains(n))
        .map(|(_, r)| *r)
}

/// The string function attribute the pass puts on a function with a registered derivative
/// (`Gradient` or `Derivative`): calls to it use the registered functions.
pub const CUSTOM_RULE_ATTR: &str = "enzyme_custom_rule";

/// The string function attribute on every function the pass generates (derivatives,
/// wrappers, the tape runtime).
pub const GENERATED_ATTR: &str = "ferrozyme-generated";

/// The string function attribute on a function registered with `__enzyme_allocation_like`:
/// its calls allocate memory like `malloc`, the value is the index of the size argument.
pub const ALLOCATOR_ATTR: &str = "ferrozyme-allocator-size";

/// The string function attribute on the deallocation function of an
/// `__enzyme_allocation_like` registration: its calls free memory like `free`, the value is
/// the index of the pointer argument.
pub const DEALLOCATOR_ATTR: &str = "ferrozyme-deallocator-ptr";

/// The string function attribute on the allocation function of an
/// `__enzyme_allocation_like` registration: the deallocator's name. Shadows of its memory
/// are made by the allocator itself and released by that deallocator
/// (ferrozyme-transform's `shadow_memory.rs`), given the allocation's arguments
/// [`ALLOCATOR_DEALLOC_ARGS_ATTR`] names.
pub const ALLOCATOR_DEALLOC_ATTR: &str = "ferrozyme-allocator-dealloc";

/// The string function attribute beside [`ALLOCATOR_DEALLOC_ATTR`]: the registration's
/// deallocator argument list as written (`"-1,0"`: the pointer, then the allocation
/// call's argument 0).
pub const ALLOCATOR_DEALLOC_ARGS_ATTR: &str = "ferrozyme-allocator-dealloc-args";

/// The string function attribute (Enzyme's own spelling, also what
/// `__enzyme_function_like` sets) saying a function behaves like the known function named
/// by its value (`"free"`, `"malloc"`, `"sin"` ...).
pub const FUNCTION_LIKE_ATTR: &str = "enzyme_function_like";

/// The string function attribute marking a function whose calls never carry derivatives
/// (Enzyme's own spelling; set by `__enzyme_inactivefn` or by the user).
pub const INACTIVE_ATTR: &str = "enzyme_inactive";

/// Every Enzyme entry point, marker and hint starts with one of these.
pub const ENZYME_FUNCTION_PREFIX: &str = "__enzyme_";

/// External functions that never affect derivatives even when given active values
/// (they only read their arguments to print them).
pub const INACTIVE_EXTERNALS: &[&str] = &[
    "printf",
    "fprintf",
    "puts",
    "putchar",
    "fputs",
    "fputc",
    "fflush",
    "fwrite",
    "perror",
    "write",
    "__printf_chk",
    "__fprintf_chk",
    // (Formatting into character buffers, `sprintf` and its forms, and the clocks that
    // fill a structure, `time`, `gettimeofday`, `clock_gettime`, are rows of
    // `library::INACTIVE_LIBRARY`, which says what they write.)
    "vfprintf",
    "vprintf",
    "abort",
    "exit",
    "clock",
    "srand",
    "rand",
    "srand48",
    "drand48",
    "random",
    "srandom",
    "getenv",
    "assert",
    "__assert_fail",
    // C++ exceptions and the library's throw helpers: they never return normally, and
    // derivatives are `nounwind` (a throw on the differentiated path terminates).
    "__cxa_throw",
    "__cxa_allocate_exception",
    "__cxa_free_exception",
    "__cxa_rethrow",
    "_ZSt20__throw_length_errorPKc",
    "_ZSt17__throw_bad_allocv",
    "_ZSt28__throw_bad_array_new_lengthv",
    "_ZSt24__throw_out_of_range_fmtPKcz",
    "_ZSt20__throw_out_of_rangePKc",
    "_ZSt19__throw_logic_errorPKc",
    "_ZSt21__throw_runtime_errorPKc",
    "_ZSt24__throw_invalid_argumentPKc",
    "_ZSt25__throw_bad_function_callv",
    "_ZSt9terminatev",
    // Integer results of floats: no derivative flows through them, and they write nothing.
    "lround",
    "lroundf",
    "llround",
    "llroundf",
    "lrint",
    "lrintf",
    "llrint",
    "llrintf",
    "ilogb",
    "ilogbf",
    "ilogbl",
];

/// Library functions without IR that return several results (a complex number) or move
/// memory as only their code says (qsort, the links of std::list and std::map nodes), which Ferrozyme differentiates through
/// definitions of its own (`ferrozyme-transform`'s `libdefs`): inside differentiated
/// code, calls go to `__fz_lib_<name>`.
#[rustfmt::skip] // grouped by family, several short names per line
pub const DIFFERENTIABLE_DEFINITIONS: &[&str] = &[
    // What clang calls for `z * w` and `z / w` of complex numbers (C99 Annex G).
    "__muldc3", "__divdc3", "__mulsc3", "__divsc3",
    // <complex.h>, double: complex results, or a float pair passed as two doubles.
    "carg", "cexp", "clog", "csqrt", "cpow", "csin", "ccos", "ctan", "csinh", "ccosh", "ctanh",
    // <complex.h>, float: a `float _Complex` is one `<2 x float>` on x86-64.
    "cabsf", "cargf", "cexpf", "clogf", "csqrtf", "cpowf", "csinf", "ccosf",
    // long double: `long double _Complex` goes in memory (`byval`), comes back as two x87
    // values; `__mulxc3`/`__divxc3` are what clang calls for `z * w`, `z / w`.
    "__mulxc3", "__divxc3",
    "cabsl", "cargl", "cexpl", "clogl", "csqrtl", "cpowl", "csinl", "ccosl", "ctanl",
    "csinhl", "ccoshl", "ctanhl", "casinl", "cacosl", "casinhl", "cacoshl", "catanl", "catanhl",
    // <stdlib.h>: the permutation follows the comparator, called through a pointer.
    "qsort",
    // libstdc++'s node functions of std::list and std::map/std::set: they link nodes
    // holding the program's data; differentiated, they link the shadow nodes alike.
    "_ZNSt8__detail15_List_node_base7_M_hookEPS0_",
    "_ZNSt8__detail15_List_node_base9_M_unhookEv",
    "_ZNSt8__detail15_List_node_base10_M_reverseEv",
    "_ZNSt8__detail15_List_node_base11_M_transferEPS0_S1_",
    "_ZNSt8__detail15_List_node_base4swapERS0_S1_",
    "_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base",
    "_ZSt18_Rb_tree_incrementPKSt18_Rb_tree_node_base",
    "_ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base",
    "_ZSt18_Rb_tree_decrementPKSt18_Rb_tree_node_base",
    "_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_",
    "_ZSt28_Rb_tree_rebalance_for_erasePSt18_Rb_tree_node_baseRS_",
    // `dynamic_cast`: the result points into the argument; its shadow, into the shadow.
    "__dynamic_cast",
];

/// Rust library functions (by their path, as `rustc-demangle` prints it without the
/// hash) whose code a derivative cannot follow, differentiated through definitions of
/// our own (`ferrozyme-transform`'s `libdefs`, `__fz_lib_<name>`): `cargo-ferrozyme`
/// points the calls inside the code it differentiates at them. `matrixmultiply`'s
/// packed GEMM (behind ndarray's matrix-matrix `dot` and nalgebra's products of dynamic
/// matrices) writes packing buffers it allocates and picks its kernel by the CPU's
/// features at run time; the definitions are the same product as three loops.
pub const RUST_DIFFERENTIABLE_DEFINITIONS: &[(&str, &str)] = &[
    ("matrixmultiply::gemm::dgemm", "matrixmultiply_dgemm"),
    ("matrixmultiply::gemm::sgemm", "matrixmultiply_sgemm"),
];

/// Rust library functions (path prefixes, as `rustc-demangle` prints them without the
/// hash, a leading `<` dropped) that serve every element type at once: `RawVecInner`'s
/// methods (`grow_amortized`, `finish_grow`, ...) take the element layout as an argument
/// and reallocate a `Vec`'s buffer whatever it holds. Type analysis is not
/// context-sensitive, so inside one shared copy the buffer's type is the join of every
/// caller's (`f64`s of one `Vec`, the `{cap, ptr, len}` rows of a `Vec<Vec<f64>>`):
/// `cargo-ferrozyme` inlines the copies the derivatives differentiate into their callers
/// (rust45), where the buffer has its one type.
pub const RUST_TYPE_ERASED_PREFIXES: &[&str] = &["alloc::raw_vec::RawVecInner"];

/// Is the Rust function with this demangled path type-erased
/// ([`RUST_TYPE_ERASED_PREFIXES`])?
pub fn rust_type_erased(path: &str) -> bool {
    let p = path.trim_start_matches('<');
    RUST_TYPE_ERASED_PREFIXES.iter().any(|k| p.starts_with(k))
}

/// The definition's name (without `__fz_lib_`) for a Rust function's demangled path.
pub fn rust_differentiable_definition(path: &str) -> Option<&'static str> {
    lookup(RUST_DIFFERENTIABLE_DEFINITIONS, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_erased_rust_paths() {
        assert!(rust_type_erased(
            "<alloc::raw_vec::RawVecInner>::grow_amortized"
        ));
        assert!(rust_type_erased(
            "alloc::raw_vec::RawVecInner<A>::finish_grow"
        ));
        assert!(!rust_type_erased("alloc::raw_vec::RawVec<T,A>::grow_one"));
    }

    #[test]
    fn hook_names_match_by_substring() {
        assert_eq!(entry_point("__enzyme_autodiff"), Some(EntryPoint::Autodiff));
        assert_eq!(
            entry_point("__enzyme_autodiff_f32"),
            Some(EntryPoint::Autodiff)
        );
        assert_eq!(
            entry_point("_Z17__enzyme_autodiffIdJPFddEdEET_DpT0_"),
            Some(EntryPoint::Autodiff)
        );
        assert_eq!(entry_point("__enzyme_fwddiff4"), Some(EntryPoint::Fwddiff));
        assert_eq!(entry_point("enzyme_dup"), None);
    }

    #[test]
    fn new_entry_points_match() {
        assert_eq!(entry_point("__enzyme_batch"), Some(EntryPoint::Batch));
        assert_eq!(
            entry_point("__enzyme_virtualreverse"),
            Some(EntryPoint::VirtualReverse)
        );
        assert_eq!(entry_point("__enzyme_reverse2"), Some(EntryPoint::Reverse));
        assert_eq!(
            entry_point("_Z26__enzyme_truncate_mem_funcIFddEEPT_S2_ii"),
            Some(EntryPoint::TruncateMemFunc)
        );
        assert!(unsupported_entry_point("__enzyme_todense").is_some());
        assert!(unsupported_entry_point("__enzyme_autodiff").is_none());
    }

    #[test]
    fn registrations_match_by_substring() {
        assert_eq!(
            registration("__enzyme_register_gradient_quant"),
            Some(Registration::Gradient)
        );
        assert_eq!(
            registration("_ZN4mfem43__enzyme_register_derivative_smooth_2dE"),
            Some(Registration::Derivative)
        );
        assert_eq!(
            registration("__enzyme_register_splitderivative_f"),
            Some(Registration::SplitDerivative)
        );
        assert_eq!(
            registration("__enzyme_inactivefn"),
            Some(Registration::InactiveFn)
        );
        assert_eq!(
            registration("__enzyme_inactivenoblockfn"),
            Some(Registration::InactiveFn)
        );
        assert_eq!(
            registration("__enzyme_shouldrecompute"),
            Some(Registration::ShouldRecompute)
        );
        assert_eq!(registration("__enzyme_autodiff"), None);
    }

    #[test]
    fn fallback_hooks_are_exact_names() {
        assert!(is_fallback_hook("__enzyme_autodiff"));
        assert!(is_fallback_hook("__enzyme_fwddiff"));
        assert!(!is_fallback_hook("__enzyme_autodiff_f32"));
        assert!(!is_fallback_hook("my__enzyme_autodiff"));
    }

    #[test]
    fn markers_are_exact() {
        assert_eq!(marker("enzyme_dup"), Some(Marker::Dup));
        assert_eq!(marker("enzyme_dupnoneed"), Some(Marker::DupNoNeed));
        assert_eq!(marker("enzyme_bogus"), None);
        assert!("enzyme_bogus".starts_with(MARKER_PREFIX));
    }

    #[test]
    fn legacy_markers_are_current_ones() {
        assert_eq!(canonical_marker_name("diffe_dup"), Some("enzyme_dup"));
        assert_eq!(
            canonical_marker_name("diffe_dupnoneed"),
            Some("enzyme_dupnoneed")
        );
        assert_eq!(canonical_marker_name("enzyme_width"), Some("enzyme_width"));
        assert_eq!(canonical_marker_name("diffe_bogus"), None);
        assert_eq!(canonical_marker_name("_ZL10enzyme_dup"), Some("enzyme_dup"));
        assert_eq!(
            canonical_marker_name("_ZN2ad9diffe_outE"),
            Some("enzyme_out")
        );
        assert_eq!(canonical_marker_name("_ZL7scratch"), None);
        assert!(!is_marker_name("scratch"));
    }
}

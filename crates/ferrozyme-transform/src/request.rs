//! Parsing a call to `__enzyme_autodiff` into a differentiation request.
//!
//! The call's first argument is the function to differentiate; the rest are its
//! arguments, each optionally preceded by a marker value loaded from an `enzyme_*`
//! global. Unmarked arguments follow Enzyme's defaults: floating scalars are active
//! (`enzyme_out`), pointers are duplicated (a shadow follows), integers are constant.
//! Every mismatch — a missing shadow, a marker on the wrong type, too many or too few
//! arguments, an unknown marker, a first argument that is not a function — is a
//! `bad-autodiff-call` diagnostic naming the call's source line.
//!
//! `hook_target` finds the function a hook call differentiates, `call_markers` takes
//! the call-level markers out of its operands, and `reader` reads the arguments that
//! remain, marker by marker; this module holds the request's types and the checks of
//! the whole call.

mod call_markers;
mod hook_target;
mod reader;

pub use call_markers::{marker_name, marker_of};
pub(crate) use hook_target::{body_elsewhere, strip_casts};

use call_markers::{split_call_markers, split_call_markers_at};
use ferrozyme_abi::Marker;
use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_llvm::{DiagKind, Diagnostic, Type, Value};
use hook_target::hook_function;
pub use reader::ByRefArg;
use reader::{layout, pair_starts, ByRef, Operands, Reader};

/// How a call passes the shadows of one argument.
#[derive(Clone, Debug)]
pub enum Shadow {
    None,
    /// One shadow (pointer or tangent value) per lane.
    Lanes(Vec<Value>),
    /// `enzyme_dupv, stride, x, base`: lane `k` is at `base + k * stride` bytes (for a
    /// scalar argument, the lane's tangent is loaded from there).
    Strided {
        base: Value,
        stride: Value,
    },
}

/// One argument of the differentiated function as passed at the call site.
#[derive(Clone, Debug)]
pub struct CallArg {
    pub activity: ArgActivity,
    /// `enzyme_dupnoneed`: the caller does not need what the function writes to this
    /// argument's memory (reverse mode may skip those stores, see
    /// `reverse::memory::dropped_stores`).
    pub noneed: bool,
    /// `enzyme_dupnoneed` with a placeholder primal (`nullptr`, `(T *)0x1`): see
    /// `placeholder.rs`.
    pub placeholder: bool,
    pub primal: Value,
    pub shadow: Shadow,
    /// The `enzyme_*` marker written before the argument (`None`: Enzyme's default).
    pub marker: Option<Marker>,
    /// The function's own `sret` output, which a forward-mode call does not pass
    /// (`implicit_sret_output`): its primal is a scratch slot of this type in the caller
    /// and lane `k`'s shadow the hook's `sret` memory `k` structs in, made by
    /// `AutodiffCall::make_scratch_slots` when the call is replaced. Until then `primal`
    /// and the one shadow lane are the hook's `sret` pointer, which stands in for them in
    /// the checks that read the call (a pointer to memory of the same type).
    pub sret_scratch: Option<Type>,
}

/// Which hook a call is, for parsing purposes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `__enzyme_autodiff`: reverse-mode markers.
    Reverse,
    /// `__enzyme_augmentfwd`: reverse-mode markers (the tape is its result).
    AugmentFwd,
    /// `__enzyme_fwddiff`: floats take a tangent after them instead of being `enzyme_out`.
    Forward,
    /// `__enzyme_reverse`: reverse-mode markers, then `[dret,] tape`.
    ReverseSplit,
}

#[derive(Clone, Debug)]
pub struct AutodiffCall {
    pub call: Value,
    pub func: Value,
    pub args: Vec<CallArg>,
    /// `enzyme_width, N` (1 when absent).
    pub width: u32,
    /// `enzyme_primal_return` (forward mode): the hook returns the result, then tangents.
    pub primal_return: bool,
    /// Values after the function's arguments: `__enzyme_reverse`'s return seed and tape.
    pub trailing: Vec<Value>,
    /// The call-level markers (`enzyme_primal_return`, `enzyme_tape, p` ...).
    pub opts: CallOptions,
}

/// What the call-level markers of a hook call ask for.
#[derive(Clone, Debug, Default)]
pub struct CallOptions {
    /// `enzyme_primal_return`.
    pub primal_return: bool,
    /// `enzyme_noret`.
    pub noret: bool,
    /// `enzyme_const_return`: the result carries no derivative.
    pub const_return: bool,
    /// `enzyme_dup_return`: the result's tangent is returned (forward mode, float
    /// results only; `check_call_options`).
    pub dup_return: bool,
    /// `enzyme_allocated, N` (`u64::MAX`: a size not known here, see
    /// `allocated_at_run_time`, or `N = 1`, GNU C's `sizeof(void)`).
    pub allocated: Option<u64>,
    /// `enzyme_allocated, n` with `n` known only at run time (the result of
    /// `__enzyme_augmentsize`, as Enzyme's own tests pass it): `allocated` is then
    /// `u64::MAX` and the tape code checks `n` against the tape's size when it runs.
    pub allocated_at_run_time: Option<Value>,
    /// `enzyme_tape, p`.
    pub tape: Option<Value>,
    /// `enzyme_context, ctx` (`contexts.rs`).
    pub context: Option<Value>,
    /// `enzyme_interleave`: where the shadows start among the operands left after the
    /// call-level markers (`reader.rs` reads them from there).
    pub interleave_at: Option<usize>,
}

/// The largest `enzyme_width` accepted.
pub const MAX_WIDTH: u32 = 64;

pub(crate) type ErrFn<'a> = dyn Fn(String, &str) -> Diagnostic + 'a;

/// A `bad-autodiff-call` diagnostic at hook call `call` in function `caller_name`.
pub(crate) fn make_err<'a>(
    call: Value,
    caller_name: &'a str,
) -> impl Fn(String, &str) -> Diagnostic + 'a {
    // The instruction is printed only when there is an error: printing numbers the
    // whole module's values, so doing it for every hook call is quadratic.
    move |msg: String, help: &str| {
        Diagnostic::new(DiagKind::BadAutodiffCall, msg)
            .in_function(caller_name.to_string())
            .at_instruction(call.to_string())
            .at_loc(call.source_loc())
            .with_help(help.to_string())
    }
}

/// `enzyme_width` in split mode is not supported.
pub(crate) fn split_width_error(call: Value, caller_name: &str) -> Diagnostic {
    make_err(call, caller_name)(
        format!(
            "`{}`: enzyme_width is not supported in split mode; __enzyme_augmentfwd/__enzyme_reverse take one adjoint direction per call",
            crate::hooks::hook_name(call)
        ),
        "use __enzyme_autodiff with enzyme_width for several directions at once, or one split pair per direction",
    )
}

/// `__enzyme_augmentsize(f, markers...)`: the function and one activity per parameter
/// (markers only, no values; unmarked parameters take the defaults).
pub fn parse_markers_only(
    call: Value,
    caller_name: &str,
) -> Result<(Value, Vec<ArgActivity>, CallOptions), Diagnostic> {
    let err = make_err(call, caller_name);
    let (func, rest) = hook_function(call, caller_name, &err)?;
    let (opts, rest) = split_call_markers(rest, &err)?;
    let params = func.params();
    let mut marks = Vec::new();
    for v in &rest {
        match marker_of(*v) {
            Some(Ok(m)) => marks.push(m),
            Some(Err(name)) => {
                return Err(err(
                    format!("unknown activity marker `{name}`"),
                    "use enzyme_dup, enzyme_const or enzyme_out",
                ))
            }
            None => {
                return Err(err(
                    format!("`__enzyme_augmentsize` takes only markers after the function, found {v}"),
                    "pass one marker per argument of the function, e.g. __enzyme_augmentsize((void*)f, enzyme_dup, enzyme_const)",
                ))
            }
        }
    }
    if !marks.is_empty() && marks.len() != params.len() {
        return Err(err(
            format!(
                "`{}` takes {} arguments but __enzyme_augmentsize got {} markers",
                func.name(),
                params.len(),
                marks.len()
            ),
            "pass one marker per argument (or none for the defaults)",
        ));
    }
    let acts = params
        .iter()
        .enumerate()
        .map(|(k, p)| match marks.get(k) {
            Some(Marker::Dup) | Some(Marker::DupNoNeed) => ArgActivity::Dup,
            Some(Marker::Out) => ArgActivity::Active,
            Some(_) => ArgActivity::Const,
            None => default_activity(p.ty()),
        })
        .collect();
    Ok((func, acts, opts))
}

/// Enzyme's defaults for unmarked arguments.
/// (In forward mode an `Active` float takes its tangent after it.)
pub(super) fn default_activity(pty: ferrozyme_llvm::Type) -> ArgActivity {
    if pty.is_fp() {
        ArgActivity::Active
    } else if pty.is_pointer() {
        ArgActivity::Dup
    } else {
        ArgActivity::Const
    }
}

pub fn parse(call: Value, caller_name: &str, mode: Mode) -> Result<AutodiffCall, Diagnostic> {
    parse_with(call, caller_name, mode, ByRef::Loaded).map(|(ac, _)| ac)
}

/// The arguments a hook call passes with `enzyme_byref` (pointers still as written), in
/// the order of the arguments; `byref_args.rs` loads them.
pub(crate) fn by_reference(
    call: Value,
    caller_name: &str,
    mode: Mode,
) -> Result<Vec<ByRefArg>, Diagnostic> {
    parse_with(call, caller_name, mode, ByRef::Pointers).map(|(_, b)| b)
}

fn parse_with(
    call: Value,
    caller_name: &str,
    mode: Mode,
    byref: ByRef,
) -> Result<(AutodiffCall, Vec<ByRefArg>), Diagnostic> {
    let written = parse_order(call, caller_name, mode, byref, false);
    // Enzyme's reverse-mode order for a function returning a struct through `sret`: the
    // result's seed first, its primal a slot of Ferrozyme's. Tried only when the call
    // does not parse with the `sret` argument written out (whose pairs it shifts by one).
    if written.is_err() && mode == Mode::Reverse {
        let err = make_err(call, caller_name);
        let applies = hook_function(call, caller_name, &err)
            .is_ok_and(|(func, _)| crate::implicit_sret::reverse_seed_applies(call, func, mode));
        if applies {
            if let Ok(r) = parse_order(call, caller_name, mode, byref, true) {
                return Ok(r);
            }
        }
    }
    written
}

/// Parses the call; `seed_first`: the first operand is the seed of the function's `sret`
/// result (`implicit_sret::reverse_seed`).
fn parse_order(
    call: Value,
    caller_name: &str,
    mode: Mode,
    byref: ByRef,
    seed_first: bool,
) -> Result<(AutodiffCall, Vec<ByRefArg>), Diagnostic> {
    let err = make_err(call, caller_name);
    let (func, ops) = hook_function(call, caller_name, &err)?;
    let (opts, kept) = split_call_markers_at(&ops, &err)?;
    check_call_options(&opts, func, mode, &err)?;
    let in_memory = reader::in_memory(call);
    let hook = call.called_function().map(|f| f.name()).unwrap_or_default();
    let starts = match layout(&hook) {
        Some(digits) => pair_starts(&ops, digits, &in_memory, &err)?,
        None => vec![false; ops.len()],
    };
    let ops = Operands::new(
        kept.iter().map(|&i| ops[i]).collect(),
        kept.iter().map(|&i| starts[i]).collect(),
    );
    let mut r = Reader::new(ops, &err, func, mode, &opts, byref, call);
    let (width, primal_return) = r.leading()?;
    let params = func.params();
    let mut args = Vec::with_capacity(params.len());
    args.extend(crate::implicit_sret::output(call, func, mode, width));
    if seed_first {
        let seed = r.next_plain_pointer().filter(|_| width == 1);
        let arg = seed.and_then(|s| crate::implicit_sret::reverse_seed(func, s));
        args.push(arg.ok_or_else(|| {
            err(
                "no seed for the struct result".to_string(),
                "pass the result's seed first",
            )
        })?);
    }
    for (k, p) in params.iter().enumerate().skip(args.len()) {
        args.push(r.argument(k, p.ty(), params.len(), width)?);
    }
    let byref_args = std::mem::take(&mut r.byref_args);
    let trailing = r.trailing(func, params.len())?;
    check_assumed_shape_dummies(call, func, &args, &err)?;
    let ac = AutodiffCall {
        call,
        func,
        args,
        width,
        primal_return,
        trailing,
        opts,
    };
    Ok((ac, byref_args))
}

/// A Fortran call of a hook (`__enzyme_autodiff_`: `use ferrozyme` declares the hooks
/// `external`) passes arrays by address; a routine reading one as a descriptor (an
/// assumed-shape dummy `x(:)`) cannot be given one (`fortran_dummies`).
fn check_assumed_shape_dummies(
    call: Value,
    func: Value,
    args: &[CallArg],
    err: &ErrFn<'_>,
) -> Result<(), Diagnostic> {
    if !call.called_value().name().ends_with('_') || func.is_declaration() {
        return Ok(());
    }
    let params = func.params();
    for (k, (p, a)) in params.iter().zip(args).enumerate() {
        if p.ty().is_pointer()
            && crate::fortran_dummies::reads_descriptor(*p)
            && crate::fortran_dummies::is_plain_data_object(a.primal)
        {
            let name = crate::fortran_dummies::fortran_name(&func.name());
            return Err(err(
                format!(
                    "argument {} of {name} is an assumed-shape array (`x(:)`): through the implicit interface of `use ferrozyme`, the hook passes the array's address, not the descriptor (extents, strides) the routine reads",
                    k + 1
                ),
                "differentiate a wrapper with explicit-shape dummies instead, e.g. `subroutine loss_n(n, x, f); integer :: n; real(8) :: x(n), f; call loss(x, f)` (pass n enzyme_const), or declare the dummy explicit-shape `x(n)`",
            ));
        }
    }
    Ok(())
}

/// Call-level markers that do not fit the function or the mode.
fn check_call_options(
    opts: &CallOptions,
    func: Value,
    mode: Mode,
    err: &ErrFn<'_>,
) -> Result<(), Diagnostic> {
    let ret = func.function_type().return_type();
    if opts.primal_return && ret.is_void() {
        return Err(err(
            format!(
                "`enzyme_primal_return` asks for the result of `{}`, which returns void",
                func.name()
            ),
            "remove enzyme_primal_return",
        ));
    }
    if opts.primal_return && mode == Mode::ReverseSplit {
        return Err(err(
            "`enzyme_primal_return` is not available in `__enzyme_reverse`: the primal result comes from `__enzyme_augmentfwd`".to_string(),
            "declare __enzyme_augmentfwd to return struct { void *tape; T result; } instead",
        ));
    }
    if opts.dup_return && (mode != Mode::Forward || ret.is_pointer() || !ret.contains_fp()) {
        let why = if mode != Mode::Forward {
            "it asks for the result's shadow, which only forward mode (__enzyme_fwddiff) returns; in reverse mode a float result is active by default"
        } else if ret.is_pointer() {
            "a pointer result with a shadow (the shadow of the returned memory) is not supported"
        } else {
            "the result holds no floating-point value, so it has no tangent"
        };
        return Err(err(
            format!("`enzyme_dup_return` on `{}`, which returns {ret}: {why}", func.name()),
            "remove enzyme_dup_return (enzyme_active_return or enzyme_const_return in reverse mode); return a pointer's data through an enzyme_dup argument instead",
        ));
    }
    if opts.allocated.is_some() && opts.tape.is_none() {
        return Err(err(
            "`enzyme_allocated, N` without `enzyme_tape, p`: a tape returned by value is not supported".to_string(),
            "also pass the memory: enzyme_allocated, N, enzyme_tape, p",
        ));
    }
    if (opts.allocated.is_some() || opts.tape.is_some())
        && !matches!(mode, Mode::ReverseSplit | Mode::AugmentFwd)
    {
        return Err(err(
            "`enzyme_tape`/`enzyme_allocated` only apply to `__enzyme_augmentfwd` and `__enzyme_reverse`".to_string(),
            "remove them, or use split mode",
        ));
    }
    Ok(())
}

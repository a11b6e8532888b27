//! Parsing a call to `__enzyme_autodiff` into a differentiation request.
//!
//! The call's first argument is the function to differentiate; the rest are its
//! arguments, each optionally preceded by a marker value loaded from an `enzyme_*`
//! global. Unmarked arguments follow Enzyme's defaults: floating scalars are active
//! (`enzyme_out`), pointers are duplicated (a shadow follows), integers are constant.
//! Every mismatch — a missing shadow, a marker on the wrong type, too many or too few
//! arguments, an unknown marker, a first argument that is not a function — is a
//! `bad-autodiff-call` diagnostic naming the call's source line.

use ferrozyme_abi::{
    call_marker, canonical_marker_name, marker, unsupported_marker, CallMarker, Marker,
};
use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_llvm::{DiagKind, Diagnostic, Opcode, Type, Value};

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
    /// `enzyme_allocated, N`.
    pub allocated: Option<u64>,
    /// `enzyme_allocated, n` with `n` known only at run time (the result of
    /// `__enzyme_augmentsize`, as Enzyme's own tests pass it): `allocated` is then
    /// `u64::MAX` and the tape code checks `n` against the tape's size when it runs.
    pub allocated_at_run_time: Option<Value>,
    /// `enzyme_tape, p`.
    pub tape: Option<Value>,
    /// `enzyme_context, ctx` (`contexts.rs`).
    pub context: Option<Value>,
}

/// The `enzyme_*` name a call argument stands for: a marker global (its value loaded,
/// or the global itself, casts stripped) or a metadata string (`metadata
/// !"enzyme_dup"`, as rustc's and Julia's IR pass markers).
pub fn marker_name(v: Value) -> Option<String> {
    let name = if v.is_metadata() {
        v.md_string()?
    } else {
        let mut g = if v.opcode() == Some(Opcode::LLVMLoad) {
            v.operand(0)
        } else {
            v
        };
        g = strip_casts(g);
        if !g.is_global_variable() {
            return None;
        }
        g.name()
    };
    canonical_marker_name(&name).map(str::to_string)
}

/// The argument marker a call argument stands for, if it is one (`Err(name)` for any
/// other `enzyme_*` name).
pub fn marker_of(v: Value) -> Option<Result<Marker, String>> {
    let name = marker_name(v)?;
    Some(marker(&name).ok_or(name))
}

/// Takes the call-level markers (and the values they consume) out of a hook call's
/// operands; markers Ferrozyme does not implement are errors naming them.
fn split_call_markers(
    ops: Vec<Value>,
    err: &ErrFn<'_>,
) -> Result<(CallOptions, Vec<Value>), Diagnostic> {
    let mut opts = CallOptions::default();
    let mut rest = Vec::with_capacity(ops.len());
    let mut it = ops.into_iter();
    while let Some(v) = it.next() {
        let Some(name) = marker_name(v) else {
            rest.push(v);
            continue;
        };
        if let Some(why) = unsupported_marker(&name) {
            return Err(err(
                format!("the marker `{name}` is not supported: {why}"),
                "remove the marker (see the README's ABI table for what Ferrozyme supports)",
            ));
        }
        let Some(m) = call_marker(&name) else {
            rest.push(v);
            continue;
        };
        let mut operand = || {
            it.next().ok_or_else(|| {
                err(
                    format!("`{name}` must be followed by a value"),
                    "write enzyme_allocated, <bytes> and enzyme_tape, <pointer>",
                )
            })
        };
        match m {
            CallMarker::PrimalReturn => opts.primal_return = true,
            CallMarker::NoRet => opts.noret = true,
            CallMarker::ConstReturn => opts.const_return = true,
            CallMarker::ActiveReturn => opts.const_return = false,
            CallMarker::NoEffect => {}
            CallMarker::Context => opts.context = Some(operand()?),
            CallMarker::Allocated => {
                let n = operand()?;
                if n.const_int_value().is_none() && n.ty().is_integer() {
                    opts.allocated = Some(u64::MAX);
                    opts.allocated_at_run_time = Some(n);
                    continue;
                }
                let Some(k) = n.const_int_value().filter(|k| *k >= 0) else {
                    return Err(err(
                        format!("`enzyme_allocated` must be followed by a constant byte count, found {n}"),
                        "write enzyme_allocated, 256 (an integer literal: the size of the tape memory you provide)",
                    ));
                };
                opts.allocated = Some(k as u64);
            }
            CallMarker::Tape => {
                let p = operand()?;
                if !p.ty().is_pointer() {
                    return Err(err(
                        format!("`enzyme_tape` must be followed by a pointer to the tape memory, found {p}"),
                        "write enzyme_tape, tape_memory (a pointer)",
                    ));
                }
                opts.tape = Some(p);
            }
        }
    }
    Ok((opts, rest))
}

pub(crate) fn strip_casts(mut v: Value) -> Value {
    for _ in 0..4 {
        if let Some(target) = v.aliasee() {
            // `__attribute__((alias("f")))`: the function behind the alias.
            v = target;
        } else if v.is_constant_expr()
            && matches!(
                v.const_opcode(),
                Some(Opcode::LLVMBitCast) | Some(Opcode::LLVMAddrSpaceCast)
            )
        {
            v = v.operand(0);
        } else {
            break;
        }
    }
    v
}

/// The function a trampoline stands for, when `v` is `llvm.adjust.trampoline(t)` of a
/// trampoline `t` set up by `llvm.init.trampoline(t, function, frame)` (how flang passes
/// an internal procedure that uses its host's variables); its name, or `?`.
fn trampoline_target(v: Value) -> Option<String> {
    if v.opcode() != Some(Opcode::LLVMCall) {
        return None;
    }
    let callee = v.called_function()?;
    if !callee.is_intrinsic("llvm.adjust.trampoline") {
        return None;
    }
    let init = v.operand(0).users().into_iter().find(|u| {
        u.opcode() == Some(Opcode::LLVMCall)
            && u.called_function()
                .is_some_and(|f| f.is_intrinsic("llvm.init.trampoline"))
    });
    Some(
        init.map(|i| strip_casts(i.operand(1)))
            .filter(|f| f.is_function())
            .map_or_else(|| "?".to_string(), |f| f.name()),
    )
}

/// The largest `enzyme_width` accepted.
pub const MAX_WIDTH: u32 = 64;

type ErrFn<'a> = dyn Fn(String, &str) -> Diagnostic + 'a;

/// The hook's operands after an `sret` pointer, and the function to differentiate.
fn hook_function(
    call: Value,
    caller_name: &str,
    err: &ErrFn<'_>,
) -> Result<(Value, Vec<Value>), Diagnostic> {
    let hook = call.called_function().map(|f| f.name()).unwrap_or_default();
    let ops = call.call_args();
    let sret = call.call_sret_type(0).is_some();
    let ops: Vec<Value> = if sret { ops[1..].to_vec() } else { ops };
    let Some(&first) = ops.first() else {
        return Err(err(
            format!("`{hook}` called without the function to differentiate"),
            "pass the function as the first argument: __enzyme_autodiff((void*)f, args...)",
        ));
    };
    let func = strip_casts(first);
    if let Some(inner) = trampoline_target(func) {
        return Err(err(
            format!(
                "the first argument of `{hook}` is a closure (`llvm.adjust.trampoline`) of `{inner}`: an internal procedure (after `contains` in a program or procedure) that uses its host's variables reaches them through a run-time trampoline, which cannot be differentiated"
            ),
            "move the procedure into a module (or make it an external procedure) and pass the host variables it uses as arguments (enzyme_dup for those that carry derivatives)",
        ));
    }
    if !func.is_function() {
        return Err(err(
            format!("the first argument of `{hook}` is not a function: {first}"),
            "pass the function itself, e.g. __enzyme_autodiff((void*)f, ...), not a data pointer or a function pointer variable",
        ));
    }
    if body_elsewhere(func) {
        return Err(Diagnostic::new(
            DiagKind::MissingDerivative,
            format!("cannot differentiate `{}`: its body is not in this module", func.name()),
        )
        .in_function(caller_name.to_string())
        .at_loc(call.source_loc())
        .with_help("compile the file that defines it together with this one (ferrozyme cc a.c b.c) so its IR is in the module"));
    }
    if func.function_type().is_vararg() {
        return Err(err(
            format!(
                "`{}` is variadic; variadic functions cannot be differentiated",
                func.name()
            ),
            "wrap the call in a function with a fixed argument list",
        ));
    }
    Ok((func, ops[1..].to_vec()))
}

/// Is `func`'s body outside this module (a declaration without a registered derivative)?
/// Such a call cannot be differentiated here; the plugin leaves it to an LTO link.
pub(crate) fn body_elsewhere(func: Value) -> bool {
    func.is_declaration() && !func.has_string_fn_attr(ferrozyme_abi::CUSTOM_RULE_ATTR)
}

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
            call.called_value().name()
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
fn default_activity(pty: ferrozyme_llvm::Type) -> ArgActivity {
    if pty.is_fp() {
        ArgActivity::Active
    } else if pty.is_pointer() {
        ArgActivity::Dup
    } else {
        ArgActivity::Const
    }
}

pub fn parse(call: Value, caller_name: &str, mode: Mode) -> Result<AutodiffCall, Diagnostic> {
    let err = make_err(call, caller_name);
    let (func, ops) = hook_function(call, caller_name, &err)?;
    let (opts, ops) = split_call_markers(ops, &err)?;
    check_call_options(&opts, func, mode, &err)?;
    let mut r = Reader {
        rest: ops.into_iter().peekable(),
        err: &err,
        fname: func.name(),
        func,
        mode,
        opts: &opts,
    };
    let (width, primal_return) = r.leading()?;
    let params = func.params();
    let mut args = Vec::with_capacity(params.len());
    args.extend(crate::implicit_sret::output(call, func, mode, width));
    for (k, p) in params.iter().enumerate().skip(args.len()) {
        args.push(r.argument(k, p.ty(), params.len(), width)?);
    }
    let trailing = r.trailing(func, params.len())?;
    check_assumed_shape_dummies(call, func, &args, &err)?;
    Ok(AutodiffCall {
        call,
        func,
        args,
        width,
        primal_return,
        trailing,
        opts,
    })
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

/// The operands of a hook call after the function, read left to right.
struct Reader<'a> {
    rest: std::iter::Peekable<std::vec::IntoIter<Value>>,
    err: &'a ErrFn<'a>,
    /// The differentiated function's name, for messages.
    fname: String,
    func: Value,
    mode: Mode,
    opts: &'a CallOptions,
}

/// What precedes an argument's value: its marker, and the stride of `enzyme_dupv`.
struct Marked {
    marker: Option<Marker>,
    stride: Option<Value>,
    primal: Value,
}

impl Reader<'_> {
    /// `enzyme_width, N` (1 when absent) and `enzyme_primal_return`, right after the
    /// function, in either order.
    fn leading(&mut self) -> Result<(u32, bool), Diagnostic> {
        let (mut width, mut primal_return) = (1, false);
        while let Some(&v) = self.rest.peek() {
            match marker_of(v) {
                Some(Ok(Marker::Width)) => width = self.width()?,
                Some(Ok(Marker::PrimalReturn)) => {
                    self.rest.next();
                    if self.mode != Mode::Forward {
                        return Err((self.err)(
                            "enzyme_primal_return is only supported in forward mode (__enzyme_fwddiff)".to_string(),
                            "in reverse mode, get the result from split mode: __enzyme_augmentfwd declared to return struct { void *tape; T result; }",
                        ));
                    }
                    primal_return = true;
                }
                _ => break,
            }
        }
        Ok((width, primal_return))
    }

    /// `enzyme_width, N`, the marker being next.
    fn width(&mut self) -> Result<u32, Diagnostic> {
        self.rest.next();
        match self.rest.next().and_then(|n| n.const_int_value()) {
            Some(n) if n >= 1 && n <= MAX_WIDTH as i64 => Ok(n as u32),
            _ => Err((self.err)(
                "enzyme_width must be followed by a constant width between 1 and 64".to_string(),
                "write enzyme_width, 4 (an integer literal) right after the function",
            )),
        }
    }

    /// Argument `k` (of `n`) of the function, of type `pty`: marker, value, shadows.
    fn argument(
        &mut self,
        k: usize,
        pty: Type,
        n: usize,
        width: u32,
    ) -> Result<CallArg, Diagnostic> {
        let m = self.marked(k, n)?;
        let activity = self.activity(k, m.marker, pty, m.primal)?;
        // Shadows: pointers always; float scalars in forward mode (their tangents).
        let wants_shadow = activity == ArgActivity::Dup
            || (activity == ArgActivity::Active && self.mode == Mode::Forward);
        let shadow = match (wants_shadow, m.stride) {
            (false, _) => Shadow::None,
            (true, Some(stride)) => self.strided_shadow(k, stride)?,
            (true, None) => self.shadow_lanes(k, pty, width)?,
        };
        if !types_compatible(m.primal, pty) {
            return Err((self.err)(
                format!(
                    "argument {} of `{}` has type {} but the call passes {}",
                    k + 1,
                    self.fname,
                    pty,
                    m.primal.ty()
                ),
                "check the argument order and markers",
            ));
        }
        let noneed = m.marker == Some(Marker::DupNoNeed) && activity == ArgActivity::Dup;
        Ok(CallArg {
            activity,
            noneed,
            placeholder: noneed && crate::placeholder::is_placeholder_address(m.primal),
            primal: m.primal,
            shadow,
            marker: m.marker,
            sret_scratch: None,
        })
    }

    /// The marker (if any) and the value of argument `k` of `n`.
    fn marked(&mut self, k: usize, n: usize) -> Result<Marked, Diagnostic> {
        let fname = &self.fname;
        let mut marker = None;
        let mut stride = None;
        while let Some(&v) = self.rest.peek() {
            match marker_of(v) {
                Some(Ok(m)) => {
                    self.rest.next();
                    if marker.is_some() {
                        return Err((self.err)(
                            format!(
                                "two markers in a row before argument {} of `{fname}`",
                                k + 1
                            ),
                            "give each argument at most one enzyme_* marker",
                        ));
                    }
                    if m == Marker::Width || m == Marker::PrimalReturn {
                        return Err((self.err)(
                            format!(
                                "{} must come first, right after the function",
                                if m == Marker::Width { "enzyme_width" } else { "enzyme_primal_return" }
                            ),
                            "write __enzyme_fwddiff((void*)f, enzyme_width, N, ...) / __enzyme_fwddiff((void*)f, enzyme_primal_return, ...)",
                        ));
                    }
                    if m == Marker::DupV {
                        stride = self.rest.next();
                    }
                    marker = Some(m);
                }
                Some(Err(name)) => {
                    return Err((self.err)(
                        format!(
                            "unknown activity marker `{name}` before argument {} of `{fname}`",
                            k + 1
                        ),
                        "use one of enzyme_dup, enzyme_dupnoneed, enzyme_dupv, enzyme_const, enzyme_out, enzyme_width, enzyme_primal_return",
                    ));
                }
                None => {
                    let primal = self.rest.next().expect("invariant: peeked a value");
                    return Ok(Marked {
                        marker,
                        stride,
                        primal,
                    });
                }
            }
        }
        Err((self.err)(
            format!("too few arguments for `{fname}`: it takes {n}, the call passes {k}"),
            "pass every argument of the differentiated function (and a shadow after each enzyme_dup pointer)",
        ))
    }

    /// The activity marker `mk` gives an argument of type `pty` (Enzyme's defaults when
    /// unmarked).
    fn activity(
        &self,
        k: usize,
        mk: Option<Marker>,
        pty: Type,
        primal: Value,
    ) -> Result<ArgActivity, Diagnostic> {
        let (fname, forward) = (&self.fname, self.mode == Mode::Forward);
        let dup_like = matches!(
            mk,
            Some(Marker::Dup) | Some(Marker::DupNoNeed) | Some(Marker::DupV)
        );
        let activity = match mk {
            _ if dup_like && pty.is_pointer() => ArgActivity::Dup,
            _ if dup_like && pty.is_fp() && forward => ArgActivity::Active,
            _ if dup_like => {
                return Err((self.err)(
                    format!("argument {} of `{fname}` is marked enzyme_dup but has type {}, not a pointer", k + 1, pty),
                    if forward {
                        "in forward mode enzyme_dup takes a pointer or a float scalar (followed by its tangent); use enzyme_const for integers"
                    } else {
                        "use enzyme_out for an active float scalar, enzyme_const for a constant"
                    },
                ));
            }
            Some(Marker::Const) => ArgActivity::Const,
            Some(Marker::Out) if forward => {
                return Err((self.err)(
                    format!("argument {} of `{fname}` is marked enzyme_out, which has no meaning in forward mode", k + 1),
                    "in __enzyme_fwddiff pass a float scalar with its tangent (enzyme_dup, x, dx) or as enzyme_const",
                ));
            }
            Some(Marker::Out) => ArgActivity::Active,
            // A function passed unmarked (a callback): its derivatives are found from the
            // pointer itself, it has no shadow.
            None if is_function_constant(primal) => ArgActivity::Const,
            _ => default_activity(pty),
        };
        if activity == ArgActivity::Active && !pty.is_fp() {
            return Err((self.err)(
                format!("argument {} of `{fname}` is marked enzyme_out but has type {}, not a float scalar", k + 1, pty),
                "use enzyme_dup (with a shadow) for pointers, enzyme_const for integers",
            ));
        }
        Ok(activity)
    }

    /// `enzyme_dupv, stride, x, base`: the pointer to lane 0's shadow.
    fn strided_shadow(&mut self, k: usize, stride: Value) -> Result<Shadow, Diagnostic> {
        match self.rest.next() {
            Some(s) if s.ty().is_pointer() && marker_of(s).is_none() && stride.ty().is_integer() => {
                Ok(Shadow::Strided { base: s, stride })
            }
            _ => Err((self.err)(
                format!("enzyme_dupv for argument {} of `{}` needs a byte stride, the value and a pointer to its shadows", k + 1, self.fname),
                "write enzyme_dupv, sizeof(lane), x, shadows",
            )),
        }
    }

    /// One shadow (pointer, or tangent of a float scalar) per lane.
    fn shadow_lanes(&mut self, k: usize, pty: Type, width: u32) -> Result<Shadow, Diagnostic> {
        let mut lanes = Vec::new();
        for _ in 0..width {
            match self.rest.next() {
                Some(s)
                    if marker_of(s).is_none()
                        && (if pty.is_pointer() {
                            s.ty().is_pointer()
                        } else {
                            // A float scalar's tangent, or a float vector's (`float
                            // _Complex` is `<2 x float>`).
                            s.ty().is_fp_scalar() || s.ty() == pty
                        }) =>
                {
                    lanes.push(s)
                }
                _ if pty.is_pointer() && self.func.has_param_attr(k as u32, "byval") => {
                    // The user passed a struct by value (`long double _Complex`, a struct
                    // of three doubles): the callee receives a copy.
                    return Err((self.err)(
                        format!(
                            "argument {} of `{}` is a struct passed by value in memory (byval); it has no shadow, and a shadow passed by value would be a copy the derivative never leaves",
                            k + 1,
                            self.fname
                        ),
                        "pass a pointer to the struct instead (double f(struct P *p), then enzyme_dup, &p, &dp), or mark the argument enzyme_const",
                    ));
                }
                _ => {
                    let what = if pty.is_pointer() {
                        "shadow pointer"
                    } else {
                        "tangent"
                    };
                    return Err((self.err)(
                        format!(
                            "missing {what} for argument {} of `{}`: expected {width} {what}(s) after the value",
                            k + 1,
                            self.fname
                        ),
                        if pty.is_pointer() {
                            "pass the shadow buffer right after the pointer: enzyme_dup, x, dx (one shadow per lane with enzyme_width)"
                        } else {
                            "pass the tangent right after the value: __enzyme_fwddiff((void*)f, x, dx) (one per lane with enzyme_width)"
                        },
                    ));
                }
            }
        }
        Ok(Shadow::Lanes(lanes))
    }

    /// What follows the function's arguments: nothing, except for `__enzyme_reverse`
    /// (`[seed of a float result,] tape`).
    fn trailing(self, func: Value, n: usize) -> Result<Vec<Value>, Diagnostic> {
        let fname = &self.fname;
        let trailing: Vec<Value> = self.rest.collect();
        let seed = func.function_type().return_type().is_fp_scalar() && !self.opts.const_return;
        let tape_last = self.opts.tape.is_none();
        let want = match self.mode {
            Mode::ReverseSplit => usize::from(tape_last) + usize::from(seed),
            _ => 0,
        };
        if trailing.len() > want {
            let extra = trailing[want];
            return Err((self.err)(
                format!("too many arguments for `{fname}`: it takes {n}, found an extra argument {extra}"),
                "pass exactly the arguments of the differentiated function, with shadows after enzyme_dup pointers",
            ));
        }
        if trailing.len() < want {
            return Err((self.err)(
                format!(
                    "`__enzyme_reverse` for `{fname}` needs {} after the arguments, found {}",
                    match (seed, tape_last) {
                        (true, true) => "the return's adjoint seed and the tape",
                        (true, false) => "the return's adjoint seed",
                        _ => "the tape",
                    },
                    trailing.len()
                ),
                "pass the same arguments as to __enzyme_augmentfwd, then the seed of the result (if it returns a float), then the tape",
            ));
        }
        if self.mode == Mode::ReverseSplit
            && tape_last
            && !trailing.last().is_some_and(|t| t.ty().is_pointer())
        {
            return Err((self.err)(
                "the last argument of `__enzyme_reverse` must be the tape returned by __enzyme_augmentfwd".to_string(),
                "pass the tape pointer last",
            ));
        }
        Ok(trailing)
    }
}

/// A function (possibly cast) passed as a value.
fn is_function_constant(v: Value) -> bool {
    strip_casts(v).is_function()
}

fn types_compatible(v: Value, t: ferrozyme_llvm::Type) -> bool {
    let vt = v.ty();
    vt == t || (vt.is_fp_scalar() && t.is_fp_scalar()) || (vt.is_integer() && t.is_integer())
}

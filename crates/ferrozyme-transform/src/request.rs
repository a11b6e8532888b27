//! Parsing a call to `__enzyme_autodiff` into a differentiation request.
//!
//! The call's first argument is the function to differentiate; the rest are its
//! arguments, each optionally preceded by a marker value loaded from an `enzyme_*`
//! global. Unmarked arguments follow Enzyme's defaults: floating scalars are active
//! (`enzyme_out`), pointers are duplicated (a shadow follows), integers are constant.
//! Every mismatch — a missing shadow, a marker on the wrong type, too many or too few
//! arguments, an unknown marker, a first argument that is not a function — is a
//! `bad-autodiff-call` diagnostic naming the call's source line.

use ferrozyme_abi::{marker, Marker, MARKER_PREFIX};
use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_llvm::{DiagKind, Diagnostic, Opcode, Value};

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
    pub primal: Value,
    pub shadow: Shadow,
}

/// Which hook a call is, for parsing purposes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `__enzyme_autodiff` and `__enzyme_augmentfwd`: reverse-mode markers.
    Reverse,
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
}

/// The marker a call argument stands for, if it is one.
pub fn marker_of(v: Value) -> Option<Result<Marker, String>> {
    let g = if v.opcode() == Some(Opcode::LLVMLoad) {
        v.operand(0)
    } else if v.is_global_variable() {
        v
    } else {
        return None;
    };
    if !g.is_global_variable() {
        return None;
    }
    let name = g.name();
    if !name.starts_with(MARKER_PREFIX) {
        return None;
    }
    Some(marker(&name).ok_or(name))
}

fn strip_casts(mut v: Value) -> Value {
    for _ in 0..4 {
        if v.is_constant_expr()
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
    if !func.is_function() {
        return Err(err(
            format!("the first argument of `{hook}` is not a function: {first}"),
            "pass the function itself, e.g. __enzyme_autodiff((void*)f, ...), not a data pointer or a function pointer variable",
        ));
    }
    if func.is_declaration() {
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

/// A `bad-autodiff-call` diagnostic at hook call `call` in function `caller_name`.
pub(crate) fn make_err<'a>(
    call: Value,
    caller_name: &'a str,
) -> impl Fn(String, &str) -> Diagnostic + 'a {
    let loc = call.source_loc();
    let inst = call.to_string();
    move |msg: String, help: &str| {
        Diagnostic::new(DiagKind::BadAutodiffCall, msg)
            .in_function(caller_name.to_string())
            .at_instruction(inst.clone())
            .at_loc(loc.clone())
            .with_help(help.to_string())
    }
}

/// `__enzyme_augmentsize(f, markers...)`: the function and one activity per parameter
/// (markers only, no values; unmarked parameters take the defaults).
pub fn parse_markers_only(
    call: Value,
    caller_name: &str,
) -> Result<(Value, Vec<ArgActivity>), Diagnostic> {
    let err = make_err(call, caller_name);
    let (func, rest) = hook_function(call, caller_name, &err)?;
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
    Ok((func, acts))
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
    let fname = func.name();
    let params = func.params();
    let mut rest = ops.into_iter().peekable();
    // `enzyme_width, N` and `enzyme_primal_return` first, in any order.
    let mut width = 1u32;
    let mut primal_return = false;
    while let Some(&v) = rest.peek() {
        match marker_of(v) {
            Some(Ok(Marker::Width)) => {
                rest.next();
                let n = rest.next().and_then(|n| n.const_int_value());
                match n {
                    Some(n) if n >= 1 && n <= MAX_WIDTH as i64 => width = n as u32,
                    _ => {
                        return Err(err(
                            "enzyme_width must be followed by a constant width between 1 and 64"
                                .to_string(),
                            "write enzyme_width, 4 (an integer literal) right after the function",
                        ))
                    }
                }
            }
            Some(Ok(Marker::PrimalReturn)) => {
                rest.next();
                if mode != Mode::Forward {
                    return Err(err(
                        "enzyme_primal_return is only supported in forward mode (__enzyme_fwddiff)".to_string(),
                        "in reverse mode, get the result from split mode: __enzyme_augmentfwd declared to return struct { void *tape; T result; }",
                    ));
                }
                primal_return = true;
            }
            _ => break,
        }
    }
    let mut args = Vec::new();
    for (k, p) in params.iter().enumerate() {
        let pty = p.ty();
        let mut mk = None;
        let mut stride = None;
        let mut primal = None;
        while let Some(&v) = rest.peek() {
            match marker_of(v) {
                Some(Ok(m)) => {
                    rest.next();
                    if mk.is_some() {
                        return Err(err(
                            format!(
                                "two markers in a row before argument {} of `{fname}`",
                                k + 1
                            ),
                            "give each argument at most one enzyme_* marker",
                        ));
                    }
                    if m == Marker::Width || m == Marker::PrimalReturn {
                        return Err(err(
                            format!(
                                "{} must come first, right after the function",
                                if m == Marker::Width { "enzyme_width" } else { "enzyme_primal_return" }
                            ),
                            "write __enzyme_fwddiff((void*)f, enzyme_width, N, ...) / __enzyme_fwddiff((void*)f, enzyme_primal_return, ...)",
                        ));
                    }
                    if m == Marker::DupV {
                        stride = rest.next();
                    }
                    mk = Some(m);
                }
                Some(Err(name)) => {
                    return Err(err(
                        format!(
                            "unknown activity marker `{name}` before argument {} of `{fname}`",
                            k + 1
                        ),
                        "use one of enzyme_dup, enzyme_dupnoneed, enzyme_dupv, enzyme_const, enzyme_out, enzyme_width, enzyme_primal_return",
                    ));
                }
                None => {
                    primal = rest.next();
                    break;
                }
            }
        }
        let Some(primal) = primal else {
            return Err(err(
                format!("too few arguments for `{fname}`: it takes {}, the call passes {}", params.len(), k),
                "pass every argument of the differentiated function (and a shadow after each enzyme_dup pointer)",
            ));
        };
        let dup_like = matches!(
            mk,
            Some(Marker::Dup) | Some(Marker::DupNoNeed) | Some(Marker::DupV)
        );
        let activity = match mk {
            _ if dup_like && pty.is_pointer() => ArgActivity::Dup,
            _ if dup_like && pty.is_fp() && mode == Mode::Forward => ArgActivity::Active,
            _ if dup_like => {
                return Err(err(
                    format!("argument {} of `{fname}` is marked enzyme_dup but has type {}, not a pointer", k + 1, pty),
                    if mode == Mode::Forward {
                        "in forward mode enzyme_dup takes a pointer or a float scalar (followed by its tangent); use enzyme_const for integers"
                    } else {
                        "use enzyme_out for an active float scalar, enzyme_const for a constant"
                    },
                ));
            }
            Some(Marker::Const) => ArgActivity::Const,
            Some(Marker::Out) if mode == Mode::Forward => {
                return Err(err(
                    format!("argument {} of `{fname}` is marked enzyme_out, which has no meaning in forward mode", k + 1),
                    "in __enzyme_fwddiff pass a float scalar with its tangent (enzyme_dup, x, dx) or as enzyme_const",
                ));
            }
            Some(Marker::Out) => ArgActivity::Active,
            _ => default_activity(pty),
        };
        if activity == ArgActivity::Active && !pty.is_fp() {
            return Err(err(
                format!("argument {} of `{fname}` is marked enzyme_out but has type {}, not a float scalar", k + 1, pty),
                "use enzyme_dup (with a shadow) for pointers, enzyme_const for integers",
            ));
        }
        // Shadows: pointers always; float scalars in forward mode (their tangents).
        let wants_shadow = activity == ArgActivity::Dup
            || (activity == ArgActivity::Active && mode == Mode::Forward);
        let shadow = if !wants_shadow {
            Shadow::None
        } else if let Some(stride) = stride {
            match rest.next() {
                Some(s) if s.ty().is_pointer() && marker_of(s).is_none() && stride.ty().is_integer() => {
                    Shadow::Strided { base: s, stride }
                }
                _ => {
                    return Err(err(
                        format!("enzyme_dupv for argument {} of `{fname}` needs a byte stride, the value and a pointer to its shadows", k + 1),
                        "write enzyme_dupv, sizeof(lane), x, shadows",
                    ))
                }
            }
        } else {
            let mut lanes = Vec::new();
            for _ in 0..width {
                match rest.next() {
                    Some(s)
                        if marker_of(s).is_none()
                            && (if pty.is_pointer() {
                                s.ty().is_pointer()
                            } else {
                                s.ty().is_fp_scalar()
                            }) =>
                    {
                        lanes.push(s)
                    }
                    _ => {
                        let what = if pty.is_pointer() {
                            "shadow pointer"
                        } else {
                            "tangent"
                        };
                        return Err(err(
                            format!(
                                "missing {what} for argument {} of `{fname}`: expected {width} {what}(s) after the value",
                                k + 1
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
            Shadow::Lanes(lanes)
        };
        if !types_compatible(primal, pty) {
            return Err(err(
                format!(
                    "argument {} of `{fname}` has type {} but the call passes {}",
                    k + 1,
                    pty,
                    primal.ty()
                ),
                "check the argument order and markers",
            ));
        }
        args.push(CallArg {
            activity,
            primal,
            shadow,
        });
    }
    let trailing: Vec<Value> = rest.collect();
    let want_trailing = match mode {
        Mode::ReverseSplit => 1 + usize::from(func.function_type().return_type().is_fp_scalar()),
        _ => 0,
    };
    if trailing.len() > want_trailing {
        let extra = trailing[want_trailing];
        return Err(err(
            format!("too many arguments for `{fname}`: it takes {}, found an extra argument {extra}", params.len()),
            "pass exactly the arguments of the differentiated function, with shadows after enzyme_dup pointers",
        ));
    }
    if trailing.len() < want_trailing {
        return Err(err(
            format!(
                "`__enzyme_reverse` for `{fname}` needs {} after the arguments, found {}",
                if want_trailing == 2 { "the return's adjoint seed and the tape" } else { "the tape" },
                trailing.len()
            ),
            "pass the same arguments as to __enzyme_augmentfwd, then the seed of the result (if it returns a float), then the tape",
        ));
    }
    if mode == Mode::ReverseSplit && !trailing.last().is_some_and(|t| t.ty().is_pointer()) {
        return Err(err(
            "the last argument of `__enzyme_reverse` must be the tape returned by __enzyme_augmentfwd".to_string(),
            "pass the tape pointer last",
        ));
    }
    Ok(AutodiffCall {
        call,
        func,
        args,
        width,
        primal_return,
        trailing,
    })
}

fn types_compatible(v: Value, t: ferrozyme_llvm::Type) -> bool {
    let vt = v.ty();
    vt == t || (vt.is_fp_scalar() && t.is_fp_scalar()) || (vt.is_integer() && t.is_integer())
}

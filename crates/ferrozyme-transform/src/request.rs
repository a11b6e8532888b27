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

/// One argument of the differentiated function as passed at the call site.
#[derive(Clone, Debug)]
pub struct CallArg {
    pub activity: ArgActivity,
    pub primal: Value,
    pub shadow: Option<Value>,
}

#[derive(Clone, Debug)]
pub struct AutodiffCall {
    pub call: Value,
    pub func: Value,
    pub args: Vec<CallArg>,
}

/// The marker a call argument stands for, if it is one.
fn marker_of(v: Value) -> Option<Result<Marker, String>> {
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

pub fn parse(call: Value, caller_name: &str) -> Result<AutodiffCall, Diagnostic> {
    let loc = call.source_loc();
    let err = |msg: String, help: &str| {
        Diagnostic::new(DiagKind::BadAutodiffCall, msg)
            .in_function(caller_name.to_string())
            .at_instruction(call.to_string())
            .at_loc(loc.clone())
            .with_help(help.to_string())
    };
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
        .at_loc(loc.clone())
        .with_help("compile the file that defines it together with this one (ferrozyme cc a.c b.c) so its IR is in the module"));
    }
    let fname = func.name();
    let params = func.params();
    if func.function_type().is_vararg() {
        return Err(err(
            format!("`{fname}` is variadic; variadic functions cannot be differentiated"),
            "wrap the call in a function with a fixed argument list",
        ));
    }
    let mut rest = ops[1..].iter().copied().peekable();
    let mut args = Vec::new();
    for (k, p) in params.iter().enumerate() {
        let pty = p.ty();
        let mut mk = None;
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
                    mk = Some(m);
                }
                Some(Err(name)) => {
                    return Err(err(
                        format!(
                            "unknown activity marker `{name}` before argument {} of `{fname}`",
                            k + 1
                        ),
                        "use one of enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out",
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
        let activity = match mk {
            Some(Marker::Dup) | Some(Marker::DupNoNeed) => ArgActivity::Dup,
            Some(Marker::Const) => ArgActivity::Const,
            Some(Marker::Out) => ArgActivity::Active,
            Some(m @ (Marker::Width | Marker::DupV)) => {
                return Err(err(
                    format!("marker {m:?} (vector mode) is not supported yet"),
                    "call __enzyme_autodiff once per direction",
                ));
            }
            None => {
                if pty.is_fp() {
                    ArgActivity::Active
                } else if pty.is_pointer() {
                    ArgActivity::Dup
                } else {
                    ArgActivity::Const
                }
            }
        };
        let shadow = match activity {
            ArgActivity::Dup => {
                if !pty.is_pointer() {
                    return Err(err(
                        format!("argument {} of `{fname}` is marked enzyme_dup but has type {}, not a pointer", k + 1, pty),
                        "use enzyme_out for an active float scalar, enzyme_const for a constant",
                    ));
                }
                match rest.next() {
                    Some(s) if s.ty().is_pointer() && marker_of(s).is_none() => Some(s),
                    _ => {
                        return Err(err(
                            format!("missing shadow for argument {} of `{fname}`: enzyme_dup needs the pointer and then its shadow", k + 1),
                            "pass the shadow buffer right after the pointer: enzyme_dup, x, dx",
                        ))
                    }
                }
            }
            ArgActivity::Active => {
                if !pty.is_fp() {
                    return Err(err(
                        format!("argument {} of `{fname}` is marked enzyme_out but has type {}, not a float scalar", k + 1, pty),
                        "use enzyme_dup (with a shadow) for pointers, enzyme_const for integers",
                    ));
                }
                None
            }
            ArgActivity::Const => None,
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
    if let Some(extra) = rest.next() {
        return Err(err(
            format!("too many arguments for `{fname}`: it takes {}, found an extra argument {extra}", params.len()),
            "pass exactly the arguments of the differentiated function, with shadows after enzyme_dup pointers",
        ));
    }
    Ok(AutodiffCall { call, func, args })
}

fn types_compatible(v: Value, t: ferrozyme_llvm::Type) -> bool {
    let vt = v.ty();
    vt == t || (vt.is_fp_scalar() && t.is_fp_scalar()) || (vt.is_integer() && t.is_integer())
}

//! One hook call parsed and planned (which derivative it needs, asked of the driver
//! through `Callees`), then replaced by a call of that derivative.

use ferrozyme_abi::EntryPoint;
use ferrozyme_llvm::{DiagKind, Diagnostic, Module, Value};

use crate::replace::{self, HookEnv};
use crate::request::{self, AutodiffCall, Mode};
use crate::services::Callees;
use crate::signature::{Request, TangentRequest};
use crate::{audit, batch, truncate};

/// A parsed hook call and what replaces it.
pub(crate) enum Planned {
    Autodiff(AutodiffCall, Request, Value),
    /// `__enzyme_autodiff` with `enzyme_primal_return`: the split pair, whose augmented
    /// half returns the primal result.
    AutodiffPrimal(AutodiffCall, Request, Value, Value),
    Forward(AutodiffCall, TangentRequest, Value),
    AugmentFwd(AutodiffCall, Request, Value),
    ReverseSplit(AutodiffCall, Request, Value, Value),
    AugmentSize(Value, Value),
    /// A transformation that replaces the call itself (`__enzyme_batch`, truncation ...).
    Direct(Value, EntryPoint),
}

/// Per argument: a placeholder primal under `enzyme_dupnoneed` (`placeholder.rs`); empty
/// when there is none, so that ordinary calls share their request.
fn placeholders(ac: &AutodiffCall) -> Vec<bool> {
    if ac.args.iter().any(|a| a.placeholder) {
        ac.args.iter().map(|a| a.placeholder).collect()
    } else {
        Vec::new()
    }
}

pub(crate) fn plan(
    callees: &mut dyn Callees,
    call: Value,
    ep: EntryPoint,
) -> Result<Planned, Diagnostic> {
    let caller = call.parent_function().name();
    let reverse_request = |ac: &AutodiffCall| Request {
        func: ac.func,
        args: ac.args.iter().map(|a| a.activity).collect(),
        noneed: if ac.args.iter().any(|a| a.noneed) {
            ac.args.iter().map(|a| a.noneed).collect()
        } else {
            Vec::new()
        },
        placeholder: placeholders(ac),
        ret_active: ac.func.function_type().return_type().is_fp_scalar() && !ac.opts.const_return,
        width: ac.width,
        parallel: false,
        runtime: Default::default(),
    };
    let parse = |mode: Mode| {
        request::parse(call, &caller, mode).and_then(|ac| {
            audit::boundary::check_call(&ac, ep)?;
            Ok(ac)
        })
    };
    Ok(match ep {
        EntryPoint::Autodiff => {
            let ac = parse(Mode::Reverse)?;
            let req = reverse_request(&ac);
            if ac.opts.primal_return {
                if ac.width > 1 {
                    return Err(request::split_width_error(call, &caller));
                }
                let (aug, rev) = callees.split(&req);
                Planned::AutodiffPrimal(ac, req, aug, rev)
            } else {
                let g = callees.combined(&req);
                Planned::Autodiff(ac, req, g)
            }
        }
        EntryPoint::Fwddiff | EntryPoint::ErrorEstimate => {
            let ac = parse(Mode::Forward)?;
            let error = ep == EntryPoint::ErrorEstimate;
            if error && ac.width > 1 {
                return Err(request::make_err(call, &caller)(
                    "`__enzyme_error_estimate` estimates the error at one point per call; enzyme_width is not supported".to_string(),
                    "call it once per input point",
                ));
            }
            let req = TangentRequest {
                func: ac.func,
                args: ac.args.iter().map(|a| a.activity).collect(),
                width: ac.width,
                error,
                placeholder: placeholders(&ac),
                runtime: Default::default(),
            };
            let g = callees.tangent(&req);
            Planned::Forward(ac, req, g)
        }
        EntryPoint::AugmentFwd | EntryPoint::Reverse => {
            let mode = if ep == EntryPoint::Reverse {
                Mode::ReverseSplit
            } else {
                Mode::AugmentFwd
            };
            let ac = parse(mode)?;
            if ac.width > 1 {
                return Err(request::split_width_error(call, &caller));
            }
            let req = reverse_request(&ac);
            let (aug, rev) = callees.split(&req);
            if ep == EntryPoint::Reverse {
                Planned::ReverseSplit(ac, req, aug, rev)
            } else {
                Planned::AugmentFwd(ac, req, aug)
            }
        }
        EntryPoint::AugmentSize => {
            let (func, args, opts) = request::parse_markers_only(call, &caller)?;
            let req = Request {
                func,
                args,
                noneed: Vec::new(),
                placeholder: Vec::new(),
                ret_active: func.function_type().return_type().is_fp_scalar() && !opts.const_return,
                width: 1,
                parallel: false,
                runtime: Default::default(),
            };
            let (aug, _) = callees.split(&req);
            Planned::AugmentSize(call, aug)
        }
        EntryPoint::Batch
        | EntryPoint::VirtualReverse
        | EntryPoint::TruncateOpFunc
        | EntryPoint::TruncateMemFunc
        | EntryPoint::TruncateMemValue
        | EntryPoint::ExpandMemValue => Planned::Direct(call, ep),
    })
}

/// Replaces one planned hook call. Parsed again: an earlier replacement in this round may
/// have replaced a value this call uses (a tape returned by `__enzyme_augmentfwd`, say).
pub(crate) fn replace_planned(env: &mut HookEnv<'_>, p: &Planned) -> Result<(), Diagnostic> {
    let reparse = |ac: &AutodiffCall, mode: Mode| {
        request::parse(ac.call, &ac.call.parent_function().name(), mode)
    };
    match p {
        Planned::Autodiff(ac, req, g) => reparse(ac, Mode::Reverse).and_then(|mut ac| {
            // The scratch slot of a struct result seeded in Enzyme's order (implicit_sret).
            ac.make_scratch_slots();
            replace::replace_call(env, &ac, req, *g, None)
        }),
        Planned::AutodiffPrimal(ac, req, aug, rev) => reparse(ac, Mode::Reverse)
            .and_then(|ac| replace::replace_with_primal(env, &ac, req, *aug, *rev)),
        Planned::ReverseSplit(ac, req, aug, g) => reparse(ac, Mode::ReverseSplit)
            .and_then(|ac| replace::replace_call(env, &ac, req, *g, Some((&ac.trailing, *aug)))),
        Planned::AugmentFwd(ac, req, aug) => reparse(ac, Mode::AugmentFwd)
            .and_then(|ac| replace::replace_augment(env, &ac, req, *aug)),
        Planned::Forward(ac, req, g) => reparse(ac, Mode::Forward).and_then(|mut ac| {
            ac.make_scratch_slots();
            replace::replace_forward(env, &ac, req, *g)
        }),
        Planned::AugmentSize(call, aug) => {
            replace::replace_augment_size(*call, *aug);
            Ok(())
        }
        Planned::Direct(call, ep) => replace_direct(env.sup.module, env.truncations, *call, *ep),
    }
}

/// The entry points that transform the program without differentiating it.
fn replace_direct(
    module: Module,
    truncations: &mut truncate::Truncations,
    call: Value,
    ep: EntryPoint,
) -> Result<(), Diagnostic> {
    match ep {
        EntryPoint::Batch => batch::replace_batch(call),
        EntryPoint::VirtualReverse => batch::replace_virtual_reverse(call),
        EntryPoint::TruncateOpFunc | EntryPoint::TruncateMemFunc => {
            truncations.replace_func(module, call)
        }
        EntryPoint::TruncateMemValue => truncations.replace_value(module, call, false),
        EntryPoint::ExpandMemValue => truncations.replace_value(module, call, true),
        _ => Err(Diagnostic::new(
            DiagKind::BadAutodiffCall,
            format!("`{}` is not implemented yet", crate::hooks::hook_name(call)),
        )
        .at_value(call)),
    }
}

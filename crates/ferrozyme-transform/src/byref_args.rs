//! Hook arguments passed by reference: `enzyme_byref, N, [marker,] p`.
//!
//! Enzyme reads such an argument's value from `p` (N bytes, the parameter's type) at the
//! call; front ends that keep every scalar in memory (Julia's, Rust's) and C wrappers
//! that forward a `const double *` write it. Before the hook calls are planned, this
//! step puts that load in front of the call and passes the loaded value in place of `p`;
//! the markers stay, and every later reading of the call (`request/reader.rs`) checks N
//! against the parameter's size and takes the value as it is.
//!
//! Phases, per hook call that has the marker:
//! 1. read the call once with the pointers left as written (`request::by_reference`):
//!    the arguments passed by reference and their parameters' types, in order;
//! 2. find each marker's pointer operand (the marker, N, an optional activity marker,
//!    then the pointer), the k-th marker belonging to the k-th argument;
//! 3. load each value right before the call and pass it instead of the pointer.
//!
//! A call that does not read (wrong size, a marker in the wrong place) is left as it is:
//! planning reads it again and reports the error at the call.

use ferrozyme_abi::{EntryPoint, Marker};
use ferrozyme_llvm::{Builder, Module, Value};

use crate::request::{self, marker_of, Mode};

/// Loads the by-reference arguments of these hook calls in front of each call.
pub(crate) fn load_by_reference(module: Module, calls: &[(Value, EntryPoint)]) {
    let b = Builder::new(module.context());
    for &(call, ep) in calls {
        let ops = call.call_args();
        let markers: Vec<usize> = (0..ops.len())
            .filter(|&i| matches!(marker_of(ops[i]), Some(Ok(Marker::ByRef))))
            .collect();
        if markers.is_empty() {
            continue;
        }
        let Some(mode) = mode_of(ep) else { continue };
        let caller = call.parent_function().name();
        let Ok(args) = request::by_reference(call, &caller, mode) else {
            continue;
        };
        let Some(positions) = pointer_positions(&ops, &markers) else {
            continue;
        };
        let fty = call.called_function_type();
        let fixed = fty.param_types();
        let matches = args.len() == positions.len()
            && args
                .iter()
                .zip(&positions)
                .all(|(a, &at)| ops[at] == a.pointer && fixed.get(at).is_none_or(|t| *t == a.ty));
        if !matches || !fty.is_vararg() && positions.iter().any(|&at| at >= fixed.len()) {
            continue;
        }
        b.position_before(call);
        for (a, &at) in args.iter().zip(&positions) {
            let value = b.load(a.ty, a.pointer, "byref");
            call.set_operand(at as u32, value);
        }
    }
}

/// Where each `enzyme_byref` marker's pointer is among the call's operands: after the
/// marker, its byte count and at most one activity marker.
fn pointer_positions(ops: &[Value], markers: &[usize]) -> Option<Vec<usize>> {
    markers
        .iter()
        .map(|&i| {
            let at = i + 2;
            let at = match ops.get(at).and_then(|v| marker_of(*v)) {
                Some(Ok(Marker::ByRef)) | Some(Err(_)) => return None,
                Some(Ok(_)) => at + 1,
                None => at,
            };
            (at < ops.len()).then_some(at)
        })
        .collect()
}

/// How a hook of this entry point is read (`None`: not a differentiation hook).
fn mode_of(ep: EntryPoint) -> Option<Mode> {
    Some(match ep {
        EntryPoint::Autodiff => Mode::Reverse,
        EntryPoint::Fwddiff | EntryPoint::ErrorEstimate => Mode::Forward,
        EntryPoint::AugmentFwd => Mode::AugmentFwd,
        EntryPoint::Reverse => Mode::ReverseSplit,
        _ => return None,
    })
}

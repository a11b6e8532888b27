//! Markers in a hook call's operands: the `enzyme_*` name an operand stands for, and
//! the call-level markers (`enzyme_primal_return`, `enzyme_tape, p`, ...) taken out of
//! the operands before the arguments are read.

use ferrozyme_abi::{
    call_marker, canonical_marker_name, marker, unsupported_marker, CallMarker, Marker,
};
use ferrozyme_llvm::{Diagnostic, Opcode, Value};

use super::{strip_casts, CallOptions, ErrFn};

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
pub(super) fn split_call_markers(
    ops: Vec<Value>,
    err: &ErrFn<'_>,
) -> Result<(CallOptions, Vec<Value>), Diagnostic> {
    let (opts, kept) = split_call_markers_at(&ops, err)?;
    Ok((opts, kept.into_iter().map(|i| ops[i]).collect()))
}

/// [`split_call_markers`], giving the positions in `ops` of the operands that remain.
pub(super) fn split_call_markers_at(
    ops: &[Value],
    err: &ErrFn<'_>,
) -> Result<(CallOptions, Vec<usize>), Diagnostic> {
    let mut opts = CallOptions::default();
    let mut rest = Vec::with_capacity(ops.len());
    let mut it = ops.iter().copied().enumerate();
    while let Some((i, v)) = it.next() {
        let Some(name) = marker_name(v) else {
            rest.push(i);
            continue;
        };
        if let Some(why) = unsupported_marker(&name) {
            return Err(err(
                format!("the marker `{name}` is not supported: {why}"),
                "remove the marker (see the README's ABI table for what Ferrozyme supports)",
            ));
        }
        let Some(m) = call_marker(&name) else {
            rest.push(i);
            continue;
        };
        let mut operand = || {
            it.next().map(|(_, v)| v).ok_or_else(|| {
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
            CallMarker::DupReturn => {
                opts.const_return = false;
                opts.dup_return = true;
            }
            CallMarker::NoEffect => {}
            CallMarker::Interleave => {
                if opts.interleave_at.is_some() {
                    return Err(err(
                        "`enzyme_interleave` appears twice".to_string(),
                        "write every argument, then enzyme_interleave once, then the shadows",
                    ));
                }
                opts.interleave_at = Some(rest.len());
            }
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
                // `sizeof(tape[0])` of a `void *tape` is 1 in GNU C: libCEED's split-mode
                // code writes `enzyme_allocated, sizeof(tape[0]), enzyme_tape, tape` for
                // memory it malloc'd with __enzyme_augmentsize bytes, and Enzyme only warns
                // there. A one-byte claim (no tape is one byte) says nothing of the size:
                // the memory is taken to be as large as the tape.
                opts.allocated = Some(if k == 1 { u64::MAX } else { k as u64 });
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

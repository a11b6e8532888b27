//! Floats copied in integer pieces narrower than themselves (the audit's check, see
//! `body.rs`).
//!
//! A byte copy written by hand (`char *d = dst, *s = src; for (..) d[i] = s[i];`, as
//! portable code avoids `memcpy`) over an array of doubles loads and stores `i8`s: each
//! moves an eighth of a double's bits. No derivative describes a piece of a float, and
//! activity analysis, which does not follow floats through integers narrower than them,
//! made the copy a silent zero (tests/c/1319 before c33: the gradient through the copy
//! was lost, in both modes). The audit refuses it: an `i8` or `i16` load narrower than the
//! float type analysis sees at its address, from memory with a shadow, whose value is
//! stored as it is. Reading the bytes to compute on them (a hash, a checksum) is fine.

use ferrozyme_analysis::activity::Activity;
use ferrozyme_analysis::types::{TypeAnalysis, TypeTree};
use ferrozyme_llvm::{DiagKind, Opcode, Value};

use super::body::Finding;
use crate::common::ir_text::quote;
use crate::reverse::memory::{underlying, Obj};

/// Reports `i` when it is such a load.
pub(super) fn narrow_float_copy(
    i: Value,
    act: &Activity,
    types: &TypeAnalysis,
    out: &mut Vec<Finding>,
) {
    if i.opcode() != Some(Opcode::LLVMLoad) {
        return;
    }
    let Some(width) = i.ty().int_width() else {
        return;
    };
    // Activity gives the byte pointers no shadow (they only move integers): ask the
    // objects they point into.
    let addr = i.operand(0);
    if !has_shadow(addr, act) {
        return;
    }
    let Some(float_bytes) = float_at(&types.pointee_tree(addr), 0) else {
        return;
    };
    // Integers of 32 bits and more over floats are the reverse checks' (`long *` punning)
    // and the moves `memcpy` lowers to (`i64` for a double).
    if width >= 32 || u64::from(width) >= 8 * float_bytes {
        return;
    }
    // Stored into memory with a shadow, where it would be read back as a float; bytes
    // written to a constant log buffer are only lost, as any value written there.
    let Some(store) = i.users().into_iter().find(|u| {
        u.opcode() == Some(Opcode::LLVMStore) && u.operand(0) == i && has_shadow(u.operand(1), act)
    }) else {
        return;
    };
    out.push(Finding {
        kind: DiagKind::CannotDeduceType,
        at: i,
        msg: format!(
            "{} reads {} bits of a {}-byte float and {} stores them into memory with a shadow: a float copied in integer pieces narrower than itself has no derivative, so the copy's derivative would silently be zero",
            quote(i),
            width,
            float_bytes,
            quote(store)
        ),
        help: "copy floats with memcpy/memmove or as whole doubles (a loop over `double *`), not byte by byte",
    });
}

/// Does the object `p` points into (through GEPs, casts, and a loop's pointer phis) have
/// a shadow?
fn has_shadow(p: Value, act: &Activity) -> bool {
    match underlying(p) {
        Obj::Arg(o) | Obj::Global(o) | Obj::Local(o) => act.is_shadowed(o),
        Obj::Unknown => false,
    }
}

/// The size of the float type `t` holds at or around byte `off`, if any.
fn float_at(t: &TypeTree, off: i64) -> Option<u64> {
    if let Some(f) = t.get(off).fp_type() {
        return Some(f.data_size());
    }
    t.iter()
        .filter(|(k, _)| *k >= 0 && *k < off)
        .filter_map(|(k, b)| b.fp_type().map(|f| (k, f.data_size())))
        .find(|(k, s)| off < k + *s as i64)
        .map(|(_, s)| s)
}

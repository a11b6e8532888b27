//! Active doubles whose bits are shuffled in narrower integer lanes without moving whole
//! doubles (the audit's check, see `body.rs`).
//!
//! `double_halves.rs` turns shuffles of `<4 x i32>` (SSE2's `_mm_shuffle_epi32` on an
//! `__m128d`) that move whole doubles into shuffles of the doubles. A shuffle that splits
//! a double (`<1, 0, 3, 2>`: the halves of each double swapped) makes new doubles out of
//! pieces of others: no derivative describes that, and activity analysis, which does not
//! follow floats through integer lanes narrower than the float, left it a silent zero.
//! The audit refuses it: an active vector of 64-bit lanes reinterpreted as narrower
//! integer lanes that go through a shuffle and come back as floats.

use ferrozyme_analysis::activity::Activity;
use ferrozyme_llvm::{DiagKind, Opcode, Type, TypeKind, Value};

use super::body::Finding;
use crate::common::ir_text::quote;

/// How far the narrow lanes are followed.
const WALK_LIMIT: usize = 64;

/// Reports `i` when it reinterprets an active value of 64-bit lanes as narrower integer
/// lanes that a shuffle moves and a later bitcast reads back as floats.
pub(super) fn split_doubles(i: Value, act: &Activity, out: &mut Vec<Finding>) {
    if i.opcode() != Some(Opcode::LLVMBitCast) {
        return;
    }
    let src = i.operand(0);
    if !lanes_of_64_bits(src.ty()) || narrow_int_lanes(i.ty()).is_none() || !act.is_active(src) {
        return;
    }
    let mut work = vec![(i, None::<Value>)];
    let mut seen = 0;
    while let Some((v, shuffle)) = work.pop() {
        seen += 1;
        if seen > WALK_LIMIT {
            return;
        }
        for u in v.users() {
            match u.opcode() {
                Some(Opcode::LLVMShuffleVector) if narrow_int_lanes(u.ty()).is_some() => {
                    work.push((u, Some(u)))
                }
                Some(Opcode::LLVMBitCast) if narrow_int_lanes(u.ty()).is_some() => {
                    work.push((u, shuffle))
                }
                Some(Opcode::LLVMBitCast) if shuffle.is_some() && has_floats(u.ty()) => {
                    let at = shuffle.expect("checked");
                    out.push(Finding {
                        kind: DiagKind::UnsupportedInstruction,
                        at,
                        msg: format!(
                            "{} moves pieces of active doubles in integer lanes narrower than a double and {} reads them back as floats: no derivative follows a double split into pieces",
                            quote(at),
                            quote(u)
                        ),
                        help: "move whole doubles (_mm_shuffle_pd, _mm_unpacklo_pd, or a shuffle of <2 x double>) instead of their 32-bit halves",
                    });
                    return;
                }
                _ => {}
            }
        }
    }
}

fn lanes_of_64_bits(t: Type) -> bool {
    let e = if t.kind() == TypeKind::Vector {
        t.element_type()
    } else {
        t
    };
    e.int_width() == Some(64) || (e.is_fp() && e.fp_bits() == 64)
}

/// The width of `t`'s lanes when it is a vector of integers narrower than 64 bits.
fn narrow_int_lanes(t: Type) -> Option<u32> {
    if t.kind() != TypeKind::Vector {
        return None;
    }
    t.element_type().int_width().filter(|w| *w < 64)
}

fn has_floats(t: Type) -> bool {
    let e = if t.kind() == TypeKind::Vector {
        t.element_type()
    } else {
        t
    };
    e.is_fp() || e.int_width() == Some(64)
}

//! The float fields of a small record copied out of (or into) memory whose shadow may be
//! the primal itself (run-time activity).
//!
//! Under run-time activity the shadow of a constant pointer is the pointer itself, so
//! the shadow bytes of constant memory are its primal bytes: its pointers are their own
//! shadows (the convention), but its floats are values, not tangents or adjoints. A copy
//! of a record that holds both (valarray's expression closures `{double a; const
//! valarray *t}`, tests/cxx/370; Eigen's `Map`s beside a scalar) can therefore still be
//! differentiated when type analysis tells the floats' offsets exactly:
//!
//! * the pointer and integer bytes are copied from the source's shadow to the
//!   destination's as they are, whatever the source's shadow is (a shadow, or the
//!   constant pointer that is its own), unless the destination's shadow is the primal
//!   (the primal copy has written the same bytes there);
//! * the float fields move one by one, through the sink slot where either shadow is the
//!   primal (a constant float's derivative is zero; nothing is written into constant
//!   memory).
//!
//! The fields must be known: a constant-length copy of at most
//! [`crate::services::SCRATCH_SLOT_BYTES`] bytes (the sink slot's size), each float slot
//! seen as that float on one side, no slot partly inside the copy. Anything else stays
//! the compile-time "mismatched activity" error it was.

use ferrozyme_analysis::types::{BaseType, FpType, TypeAnalysis};
use ferrozyme_llvm::Value;

use super::copy_layout::{copy_layout, CopyLayout};
use crate::services::SCRATCH_SLOT_BYTES;

/// The float fields (offset, type) of the copy `call` of `len` bytes from `src` to `dst`
/// when they can be moved one by one under run-time activity (module docs); `None` when
/// the copy's layout is not known that well.
pub(crate) fn runtime_copy_fields(
    types: &TypeAnalysis,
    call: Value,
    dst: Value,
    src: Value,
    len: Value,
) -> Option<Vec<(i64, FpType)>> {
    let n = u64::try_from(len.const_int_value()?).ok()?;
    if n == 0 || n > SCRATCH_SLOT_BYTES {
        return None;
    }
    let fields = match copy_layout(types, call, dst, src, len) {
        CopyLayout::Fields(f) => f,
        CopyLayout::Strided { fp, period, mask } => strided_fields(fp, period, mask, n)?,
        _ => return None,
    };
    let seen_as = |o: i64, t: FpType| {
        [dst, src].iter().any(|p| {
            types
                .pointee_tree(*p)
                .iter()
                .any(|(at, b)| at == o && b.fp_type() == Some(t))
        })
    };
    let facts: Vec<(i64, BaseType)> = [dst, src]
        .iter()
        .flat_map(|p| types.pointee_tree(*p).iter().collect::<Vec<_>>())
        .filter(|(o, _)| *o < n as i64)
        .collect();
    let fits = fields.iter().all(|&(o, t)| {
        o >= 0 && o as u64 + t.size() <= n && (seen_as(o, t) || tail_padding(&facts, o, n))
    });
    (fits && !fields.is_empty()).then_some(fields)
}

/// Is the slot at `o` the tail padding of a record of `n` bytes aligned by a pointer
/// (`facts`: what type analysis knows of the copy's bytes): after every fact, in the
/// last 8 bytes? `{const valarray<float> *, float}`, libstdc++'s closure of `va * 0.5f`,
/// is 16 bytes with nothing known of its last 4 (difftest C++ seed 7046, tests/cxx/453).
/// Such a slot is moved as a float field (zero where the source's shadow is the primal),
/// which is right for a float type analysis missed and harmless for padding.
fn tail_padding(facts: &[(i64, BaseType)], o: i64, n: u64) -> bool {
    let width = |b: BaseType| match b {
        BaseType::Pointer => 8,
        b => b.fp_type().map_or(1, |t| t.size() as i64),
    };
    n.is_multiple_of(8)
        && o >= n as i64 - 8
        && facts.iter().any(|(_, b)| *b == BaseType::Pointer)
        && facts.iter().all(|&(at, b)| at >= 0 && at + width(b) <= o)
}

/// A `Strided` layout's float slots inside the first `n` bytes; `None` when a slot lies
/// partly inside.
fn strided_fields(fp: FpType, period: u64, mask: u64, n: u64) -> Option<Vec<(i64, FpType)>> {
    let size = fp.size();
    if period == 0 || n % size != 0 {
        return None;
    }
    Some(
        (0..n / size)
            .filter(|k| mask >> ((k * size % period) / size) & 1 == 1)
            .map(|k| ((k * size) as i64, fp))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strided_records_expand_to_their_float_slots() {
        // {double, ptr} records, 16 bytes each: the doubles at 0 and 16.
        assert_eq!(
            strided_fields(FpType::F64, 16, 0b01, 32),
            Some(vec![(0, FpType::F64), (16, FpType::F64)])
        );
        // {ptr, double, double}: slots 1 and 2.
        assert_eq!(
            strided_fields(FpType::F64, 24, 0b110, 24),
            Some(vec![(8, FpType::F64), (16, FpType::F64)])
        );
        // A copy ending inside a slot is not split.
        assert_eq!(strided_fields(FpType::F64, 16, 0b01, 17), None);
    }

    #[test]
    fn tail_padding_is_after_every_fact_in_the_last_word() {
        use BaseType::{Float, Integer, Pointer};
        // {const valarray<float> *, float}: bytes 12..16 are padding.
        let closure = [(0, Pointer), (8, Float)];
        assert!(tail_padding(&closure, 12, 16));
        assert!(!tail_padding(&closure, 8, 16), "the float itself");
        // {ptr, float, int}: an integer is known there.
        assert!(!tail_padding(
            &[(0, Pointer), (8, Float), (12, Integer)],
            12,
            16
        ));
        // Without a pointer the record need not be 8-byte aligned.
        assert!(!tail_padding(&[(0, Float), (4, Float), (8, Float)], 12, 16));
        // Not in the last 8 bytes of the copy.
        assert!(!tail_padding(&[(0, Pointer)], 8, 24));
    }
}

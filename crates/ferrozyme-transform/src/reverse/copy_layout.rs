//! What a `memcpy`/`memmove` copies as far as adjoints are concerned (`CopyLayout`),
//! from both pointers' type trees: no floats, one float type throughout, floats at known
//! offsets, or records of floats beside pointers and integers; and the copies of C strings
//! that move characters whatever type analysis merged into the destination.

use ferrozyme_analysis::calls::object_bytes_left;
use ferrozyme_analysis::types::{BaseType, FpType, TypeAnalysis};
use ferrozyme_llvm::Value;

/// What a `memcpy`/`memmove` of `len` bytes from `src` to `dst` copies, as far as
/// adjoints are concerned (from both pointers' type trees).
pub(super) enum CopyLayout {
    /// Only integers and pointers: no float adjoints to move.
    NoFloats,
    /// Nothing known, or the two sides disagree (a `double` copied into two `float`s).
    /// `conflicting`: facts were seen, and they disagree (memory holding floats and
    /// integers at offsets only known at run time: a `HashMap`'s entries).
    Untyped {
        what: &'static str,
        conflicting: bool,
    },
    /// One floating type throughout.
    Uniform(FpType),
    /// Floats of several types at known offsets of a constant-size copy.
    Fields(Vec<(i64, FpType)>),
    /// Records of `period` bytes holding floats of one type next to pointers or integers:
    /// the float slots are the bits of `mask` (slot k is bytes `k * size .. (k + 1) *
    /// size` of each record). A slot nothing is known about counts as a float, as in
    /// `Uniform`; only slots known to hold a pointer or an integer are left alone.
    Strided { fp: FpType, period: u64, mask: u64 },
}

/// The shortest record length (a multiple of `fp`'s size, at most 64 slots) under which
/// every known offset agrees on whether its slot holds a float of type `fp` or something
/// else (a pointer, an integer), and the mask of the float slots: `kinds` are the facts of
/// both sides of a copy, `copy_len` its length when constant (a length it copies several
/// records of must be a multiple of the record's). `None` when the facts have negative
/// offsets, a float off its slot, or no such length.
fn record_slots(
    kinds: &[(i64, BaseType)],
    fp: FpType,
    copy_len: Option<i64>,
) -> Option<(u64, u64)> {
    let size = fp.size() as i64;
    if kinds.iter().any(|(o, _)| *o < 0) {
        return None;
    }
    // Per slot: Some(true) a float, Some(false) something else.
    let mut slots: Vec<(i64, bool)> = Vec::new();
    for &(o, b) in kinds {
        let float = match b {
            b if b == fp.base_type() => {
                if o % size != 0 {
                    return None;
                }
                true
            }
            // A pointer covers 8 bytes: every slot it overlaps holds no float (a
            // `{ ptr, float }` record is slots {no, no, float}, not {no, ?, float}).
            BaseType::Pointer => {
                slots.extend((o / size..(o + 8 + size - 1) / size).map(|k| (k, false)));
                continue;
            }
            b if b.is_not_float() => false,
            _ => continue,
        };
        slots.push((o / size, float));
    }
    let last = slots.iter().map(|(k, _)| *k).max()?;
    (1..=64i64).find_map(|per| {
        let mut class: [Option<bool>; 64] = [None; 64];
        for &(k, float) in &slots {
            let c = &mut class[(k % per) as usize];
            if c.is_some_and(|f| f != float) {
                return None;
            }
            *c = Some(float);
        }
        // A shorter record than the facts' extent only when the facts show it twice
        // over (one record {double, int, double} must not read as 16-byte records).
        if per <= last && last < 2 * per - 1 {
            return None;
        }
        // A copy of whole records: several of them only when the record length divides it.
        if copy_len.is_some_and(|n| n > per * size && n % (per * size) != 0) {
            return None;
        }
        let mask = (0..per)
            .filter(|k| class[*k as usize] != Some(false))
            .fold(0u64, |m, k| m | (1 << k));
        Some(((per * size) as u64, mask))
    })
}

/// The layout a copy's own member tags give (`TypeAnalysis::copy_tags`): its floats'
/// offsets, one float type over every byte when the tags tile the `len` bytes with it.
fn tagged_layout(tags: &[(i64, BaseType)], len: i64) -> CopyLayout {
    let offs: Vec<(i64, FpType)> = tags
        .iter()
        .filter_map(|(o, b)| b.fp_type().map(|t| (*o, t)))
        .collect();
    let size = offs.first().map_or(0, |(_, t)| t.size() as i64);
    let tiled = len == tags.len() as i64 * size
        && tags
            .iter()
            .enumerate()
            .all(|(k, (o, _))| *o == k as i64 * size);
    match offs.first() {
        None => CopyLayout::NoFloats,
        Some((_, t)) if offs.iter().all(|(_, u)| u == t) && offs.len() == tags.len() && tiled => {
            CopyLayout::Uniform(*t)
        }
        Some(_) => CopyLayout::Fields(offs),
    }
}

/// The float slots of a constant-length copy whose floats all sit at one offset `r`
/// modulo their size but off the copy's own grid (SROA copying a record from its second
/// member on: `{int id; double v, w}` from byte 4, padding first): the slots `r + k *
/// size` inside the copy, each a float unless a pointer or integer is known inside it
/// (nothing known counts as a float, as in `Strided`). `None` with no float inside, a float
/// off that phase, a slot known as both, or more than 64 slots.
fn phased_slots(kinds: &[(i64, BaseType)], fp: FpType, len: i64) -> Option<Vec<(i64, FpType)>> {
    let size = fp.size() as i64;
    let inside = |o: i64| (0..len).contains(&o);
    let floats: Vec<i64> = kinds
        .iter()
        .filter(|(o, b)| inside(*o) && *b == fp.base_type())
        .map(|(o, _)| *o)
        .collect();
    let r = floats.first()?.rem_euclid(size);
    if floats.iter().any(|o| o.rem_euclid(size) != r) || len / size > 64 {
        return None;
    }
    let others: Vec<i64> = kinds
        .iter()
        .filter(|(o, b)| inside(*o) && b.is_not_float())
        .map(|(o, _)| *o)
        .collect();
    let mut slots = Vec::new();
    let mut o = r;
    while o + size <= len {
        let slot = o..o + size;
        let other = others.iter().any(|x| slot.contains(x));
        match (floats.contains(&o), other) {
            (true, true) => return None,
            (_, false) => slots.push((o, fp)),
            (false, true) => {}
        }
        o += size;
    }
    Some(slots)
}

/// Do both sides of a constant-length copy hold a float of type `fp` at every slot
/// (`k * size`, the copy's `len` bytes a whole number of slots), every other fact
/// sitting strictly inside a slot, never at its start or before the copy? Such integer
/// facts overlap a float both sides agree on: they are type analysis's folding of a
/// larger object's trailing fields through a variable index (Eigen's
/// `LLT<Matrix4d>::compute` walks the matrix's columns with `this + 32 k`, and the
/// object's `bool` and `int` after the matrix land at bytes 1, 4, 9, 12 of the copy of the
/// matrix into it, cxx/334), not a record the copy moves.
fn tiled_by_both(
    kinds: &[(i64, BaseType)],
    fd: &[(i64, FpType)],
    fs: &[(i64, FpType)],
    fp: FpType,
    len: i64,
) -> bool {
    let size = fp.size() as i64;
    if len <= 0 || len % size != 0 || len / size > 64 {
        return false;
    }
    let covers = |side: &[(i64, FpType)]| {
        (0..len / size).all(|k| side.iter().any(|(o, t)| *o == k * size && *t == fp))
    };
    covers(fd)
        && covers(fs)
        && kinds
            .iter()
            .filter(|(_, b)| b.fp_type().is_none())
            .all(|(o, _)| *o > 0 && o % size != 0)
        && kinds
            .iter()
            .all(|(o, b)| b.fp_type().is_none_or(|t| t == fp && o % size == 0))
}

/// Is `len` the length of the C string at `src` (`strlen(src)`, plus a constant for the
/// terminator)? Such a copy moves characters, whatever type analysis merged into the
/// destination: libstdc++'s `std::string` constructor from a `const char *` copies
/// `strlen(s)` bytes into a map node whose other bytes hold the mapped double
/// (tests/cxx/354 at -O2, the key read through a writable global table of names).
pub(super) fn copies_c_string(src: Value, len: Value) -> bool {
    let mut n = len;
    if n.opcode() == Some(ferrozyme_llvm::Opcode::LLVMAdd)
        && n.operand(1).const_int_value().is_some()
    {
        n = n.operand(0);
    }
    n.called_function().is_some_and(|f| f.name() == "strlen") && n.call_args().first() == Some(&src)
}

/// Is the pointer `p` used only as a C string: compared, measured by `strlen`, read one
/// character at a time, and the
/// source of copies of `strlen(p)` characters (`copies_c_string`)? No derivative and no
/// pointer's shadow passes through such a pointer, so its own shadow is never needed
/// (the key of tests/cxx/354, read from a writable global table of names).
pub(super) fn only_read_as_c_string(p: Value) -> bool {
    let users = p.users();
    !users.is_empty()
        && users.iter().all(|&u| match u.opcode() {
            Some(ferrozyme_llvm::Opcode::LLVMICmp) => true,
            // One character read (`_S_copy` of a one-character string assigns it).
            Some(ferrozyme_llvm::Opcode::LLVMLoad) => u.ty().int_width() == Some(8),
            _ => match u.called_function().map(|f| f.name()) {
                Some(n) if n == "strlen" => true,
                Some(n) if n.starts_with("llvm.memcpy") => {
                    let a = u.call_args();
                    a.len() > 2 && a[0] != p && a[1] == p && copies_c_string(p, a[2])
                }
                _ => false,
            },
        })
}

pub(super) fn copy_layout(
    types: &TypeAnalysis,
    call: Value,
    dst: Value,
    src: Value,
    len: Value,
) -> CopyLayout {
    if copies_c_string(src, len) {
        return CopyLayout::NoFloats;
    }
    let n_const = len.const_int_value();
    let tagged = n_const.and_then(|n| types.copy_tags(call, n));
    // A run-time length is still bounded by the objects copied from and into.
    let m = call.parent_function().parent_module();
    let hi = [object_bytes_left(m, dst), object_bytes_left(m, src)]
        .into_iter()
        .flatten()
        .fold(n_const.unwrap_or(i64::MAX), i64::min);
    let mut kinds: Vec<(i64, BaseType)> = Vec::new();
    for p in [dst, src] {
        for (off, b) in types.pointee_tree(p).iter() {
            if off < hi {
                kinds.push((off, b));
            }
        }
    }
    let has = |t: BaseType| kinds.iter().any(|(_, b)| *b == t);
    let fp_at = |p: Value| -> Vec<(i64, FpType)> {
        types
            .pointee_tree(p)
            .iter()
            .filter(|(o, _)| *o >= 0 && *o < hi)
            .filter_map(|(o, b)| b.fp_type().map(|t| (o, t)))
            .collect()
    };
    let (fd, fs) = (fp_at(dst), fp_at(src));
    let retyped = fd.iter().any(|(o, t)| {
        fs.iter()
            .any(|(o2, t2)| t != t2 && *o < o2 + t2.size() as i64 && *o2 < o + t.size() as i64)
    });
    let conflict = has(BaseType::Anything) || retyped;
    let fps: Vec<FpType> = FpType::ALL
        .into_iter()
        .filter(|t| has(t.base_type()))
        .collect();
    if kinds.is_empty() {
        return CopyLayout::Untyped {
            what: "nothing is known about",
            conflicting: false,
        };
    }
    if !conflict && fps.is_empty() {
        return CopyLayout::NoFloats;
    }
    if let (true, Some(tags)) = (conflict, &tagged) {
        // The memory holds other types at other times; the copy's `!tbaa.struct` says
        // what this copy moves (`TypeAnalysis::copy_tags`).
        return tagged_layout(tags, hi);
    }
    if conflict || (fps.len() > 1 && (n_const.is_none() || kinds.iter().any(|(o, _)| *o < 0))) {
        return CopyLayout::Untyped {
            what: "conflicting uses are seen for",
            conflicting: conflict,
        };
    }
    if fps.len() == 1 {
        if !kinds.iter().any(|(_, b)| b.is_not_float()) {
            return CopyLayout::Uniform(fps[0]);
        }
        return match record_slots(&kinds, fps[0], n_const) {
            Some((period, mask)) => CopyLayout::Strided {
                fp: fps[0],
                period,
                mask,
            },
            // A part of a record (SROA copies a struct from its second member on,
            // padding first) whose `!tbaa.struct` names its members.
            None => match (
                tagged,
                n_const.and_then(|n| phased_slots(&kinds, fps[0], n)),
            ) {
                (Some(tags), _) => tagged_layout(&tags, hi),
                (None, Some(offs)) => CopyLayout::Fields(offs),
                (None, None)
                    if n_const.is_some_and(|n| tiled_by_both(&kinds, &fd, &fs, fps[0], n)) =>
                {
                    CopyLayout::Uniform(fps[0])
                }
                (None, None) => CopyLayout::Untyped {
                    what: "no record layout repeats in",
                    conflicting: false,
                },
            },
        };
    }
    let mut offs: Vec<(i64, FpType)> = kinds
        .iter()
        .filter_map(|(o, b)| b.fp_type().map(|t| (*o, t)))
        .collect();
    offs.sort_by_key(|(o, _)| *o);
    offs.dedup_by_key(|(o, _)| *o);
    CopyLayout::Fields(offs)
}

/// The layout word `runtime/ir/kept.ll` zeroes a kept shadow of the memory `p` points to
/// by: 0 floats only (zeroed whole), 1 pointers and integers only (not zeroed), 2 nothing
/// certain (a generic allocator's `operator new` at -O0, a conflict: every word but what
/// looks like a pointer is zeroed), else records of one float type beside pointers or
/// integers (bits 0-7 the float's size, 8-31 the record's length, 32-63 the mask of its
/// float slots).
pub(crate) fn kept_layout(types: &TypeAnalysis, p: Value) -> u64 {
    const UNKNOWN: u64 = 2;
    let kinds: Vec<(i64, BaseType)> = types.pointee_tree(p).iter().collect();
    if kinds.is_empty() || kinds.iter().any(|(_, b)| *b == BaseType::Anything) {
        return UNKNOWN;
    }
    let fps: Vec<FpType> = FpType::ALL
        .into_iter()
        .filter(|t| kinds.iter().any(|(_, b)| *b == t.base_type()))
        .collect();
    let others = kinds.iter().any(|(_, b)| b.is_not_float());
    match (fps.as_slice(), others) {
        ([], _) => 1,
        (_, false) => 0,
        ([fp], true) => match record_slots(&kinds, *fp, None) {
            Some((period, mask)) if period < 1 << 24 && mask < 1 << 32 => {
                (mask << 32) | (period << 8) | fp.size()
            }
            _ => UNKNOWN,
        },
        _ => UNKNOWN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use BaseType::{Double, Integer, Pointer};

    /// cxx/334's copy of a `Matrix4d` into `LLT<Matrix4d>`: doubles at every slot on
    /// both sides, integers folded inside slots 0 and 1 (bytes 1, 4, 9, 12); a record
    /// with an integer at a slot's start, or one side lacking a slot, is not tiled.
    #[test]
    fn floats_tiling_both_sides() {
        let f: Vec<(i64, FpType)> = (0..16).map(|k| (8 * k, FpType::F64)).collect();
        let mut kinds: Vec<(i64, BaseType)> = (0..16).map(|k| (8 * k, Double)).collect();
        kinds.extend([(1, Integer), (4, Integer), (9, Integer), (12, Integer)]);
        assert!(tiled_by_both(&kinds, &f, &f, FpType::F64, 128));
        assert!(!tiled_by_both(&kinds, &f, &f[1..], FpType::F64, 128));
        assert!(!tiled_by_both(&kinds, &f, &f, FpType::F64, 132));
        kinds.push((16, Integer));
        assert!(!tiled_by_both(&kinds, &f, &f, FpType::F64, 128));
    }

    /// `{double *p; double w}` seen eight times: 16-byte records, `w` the float slot.
    #[test]
    fn pointer_double_records() {
        let kinds: Vec<(i64, BaseType)> = (0..8)
            .flat_map(|r| [(16 * r, Pointer), (16 * r + 8, Double)])
            .collect();
        assert_eq!(record_slots(&kinds, FpType::F64, None), Some((16, 0b10)));
    }

    /// `{int id; double v, w}` copied from byte 4 (20 bytes, padding first): doubles at 4
    /// and 12; the int before the copy and the next record's after it are outside.
    #[test]
    fn record_tail_off_the_grid() {
        let kinds = [
            (-4, Integer),
            (4, Double),
            (12, Double),
            (20, Integer),
            (28, Double),
        ];
        assert_eq!(record_slots(&kinds, FpType::F64, None), None);
        assert_eq!(
            phased_slots(&kinds, FpType::F64, 20),
            Some(vec![(4, FpType::F64), (12, FpType::F64)])
        );
        assert_eq!(
            phased_slots(&[(4, Double), (8, Double)], FpType::F64, 20),
            None
        );
        assert_eq!(
            phased_slots(&[(4, Double), (12, Integer)], FpType::F64, 20),
            Some(vec![(4, FpType::F64)])
        );
    }

    /// One `{double a; int k; double b}` seen once is one 24-byte record, not two
    /// 16-byte ones (which would take the next record's `a` for an `int`); seen twice it
    /// is 24 bytes too.
    #[test]
    fn one_record_is_not_read_as_shorter_ones() {
        let one = [(0, Double), (8, Integer), (16, Double)];
        assert_eq!(record_slots(&one, FpType::F64, None), Some((24, 0b101)));
        let two: Vec<(i64, BaseType)> = one
            .iter()
            .chain(one.iter())
            .enumerate()
            .map(|(k, (o, b))| (o + if k < 3 { 0 } else { 24 }, *b))
            .collect();
        assert_eq!(record_slots(&two, FpType::F64, None), Some((24, 0b101)));
    }

    /// Slots nothing is known about count as floats; a float off its slot or a negative
    /// offset gives no layout.
    #[test]
    fn unknown_slots_and_refusals() {
        assert_eq!(
            record_slots(&[(0, Pointer), (16, Double)], FpType::F64, None),
            Some((24, 0b110))
        );
        assert_eq!(
            record_slots(&[(0, Pointer), (4, Double)], FpType::F64, None),
            None
        );
        assert_eq!(
            record_slots(&[(-8, Pointer), (0, Double)], FpType::F64, None),
            None
        );
    }

    #[test]
    fn a_pointer_covers_every_float_slot_it_overlaps() {
        use BaseType::*;
        // `std::valarray<float> * float`'s closure `{ ptr, float }` (tests/cxx/446): the
        // pointer's upper half is not a float slot.
        let kinds = [(0, Pointer), (8, Float)];
        assert_eq!(record_slots(&kinds, FpType::F32, None), Some((12, 0b100)));
        // Copied whole (16 bytes with the padding) or two of them: 16-byte records.
        assert_eq!(
            record_slots(&kinds, FpType::F32, Some(16)),
            Some((16, 0b1100))
        );
        assert_eq!(
            record_slots(&kinds, FpType::F32, Some(32)),
            Some((16, 0b1100))
        );
    }
}

//! Far offsets of a carried stream left as plain adds (issue 14, bruss13: the
//! Brusselator's rows `i - 1`, `i + 1`).
//!
//! Once the reverse stencil's rows are unclamped (`peel_rows.rs`), the adds into rows
//! `i - 1` and `i + 1` of a shadow are addresses of the same anchor as row `i`'s, at
//! offsets `-W` and `+W` (the row length): `streams/mod.rs` would group all five into one
//! stream whose register window spans the whole `[-W, W]`, `2W` carried cells per
//! iteration (measured on the Brusselator with users' flags: 104k -> 386k instructions),
//! and the value form refuses it as not contiguous. Here a stream's offsets are split
//! into runs (offsets at most `MAX_GAP` apart); the run with the most adds stays the
//! stream, the others' adds stay in the loop as they are: plain read-modify-write adds.
//!
//! A far add may stay next to a carried stream of the same shadow only if it never
//! touches a cell the stream holds in a register. The anchor moves by one element per
//! iteration (offsets below count `stride` elements for interleaved fields) over `T`
//! iterations, so the stream touches, over the whole loop, the cells
//! `A0 + [qmin - (T - 1), qmax]` and an add at offset `F` the cells `A0 + [F - (T - 1),
//! F]`: disjoint exactly when `F > qmax + T - 1` or `F < qmin - (T - 1)`. That is
//! proven from the counter's constant range (`streams::counter_range`) and only then are
//! the far adds exempt from `streams::others_ok`'s rule that nothing else of the loop
//! reaches a carried shadow; with the range unknown nothing is exempt and the usual
//! rules decide (an exact stream is refused).
//!
//! Several streams may share one object: the Brusselator whose u and v blocks are one
//! array (`brusselator-periodic-br`: `u = x`, `v = x + N * N`) has a stream at each
//! base. Every comparison is therefore made in bytes from the object, the base's
//! offset read through constant GEPs (`Place`), between accesses with the same
//! loop-invariant terms: a far add is exempt only if it is apart from every stream of
//! its object, and an exact stream is carried only if every other stream of its object
//! is apart from it (`exact_apart`: two streams holding one cell in registers would
//! each store their own value of it; pinned by `stream_exact_two_blocks_one_object`).
//! Interleaved fields (`stride` 2: u and v of a cell side by side) are apart whatever
//! their spans, when their cells lie in different lanes of every `stride` elements
//! (`Place::other_lane`; `stream_exact_interleaved_lanes`).

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_llvm::{Opcode, Value};

use crate::streams::{underlying, Rmw, Stream};

/// Offsets further apart than this (elements) start a new run.
const MAX_GAP: i64 = 4;

/// Where a stream's cells lie: element `terms + konst + stride * q` (the counter among
/// the terms, coefficient `stride`; `konst` includes the stream's lane) of `base`, which
/// is `base_off` bytes into `object` when a chain of constant GEPs says so.
pub(crate) struct Place {
    object: Value,
    base_off: Option<i128>,
    terms: HashMap<Value, i128>,
    konst: i128,
    elem: i128,
    stride: i128,
}

impl Place {
    fn of(s: &Stream) -> Place {
        let object = underlying(s.anchor);
        Place {
            object,
            base_off: const_offset(s.base, object),
            terms: s.terms.clone(),
            konst: (s.konst + s.lane) as i128,
            elem: s.elem as i128,
            stride: s.stride as i128,
        }
    }

    /// The bytes offsets `qmin ..= qmax` touch over the counter's range `[lo, hi]`,
    /// relative to the object plus the terms other than the counter: `[start, end)`
    /// (with a stride above 1, a span with holes: the other lanes' cells).
    fn span(&self, qmin: i64, qmax: i64, (lo, hi): (i128, i128)) -> Option<(i128, i128)> {
        let off = self.base_off?;
        (lo <= hi).then(|| {
            (
                off + self.elem * (self.konst + self.stride * (lo + qmin as i128)),
                off + self.elem * (self.konst + self.stride * (hi + qmax as i128)) + self.elem,
            )
        })
    }

    /// Whether no cell of this place is a cell of `b` at any position and counter value:
    /// both are every `stride`-th element from their first, and their first cells'
    /// distance leaves a whole element between them in every period (interleaved u and
    /// v: lanes 0 and 1 of pairs).
    fn other_lane(&self, b: &Place) -> bool {
        let (Some(oa), Some(ob)) = (self.base_off, b.base_off) else {
            return false;
        };
        let period = self.elem * self.stride;
        let d = (oa + self.elem * self.konst - ob - b.elem * b.konst).rem_euclid(period);
        d >= self.elem && d <= period - self.elem
    }
}

/// The byte offset of `p` from `object` through GEPs with constant indices only.
fn const_offset(p: Value, object: Value) -> Option<i128> {
    let mut p = p;
    let mut off = 0i128;
    while p != object {
        if p.opcode() != Some(Opcode::LLVMGetElementPtr) || p.num_operands() != 2 {
            return None;
        }
        let k = p.operand(1).const_int_value()? as i128;
        let t = p.gep_source_type();
        let size = if t.is_integer() && t.int_width() == Some(8) {
            1
        } else if t.is_fp_scalar() {
            t.fp_bits() as i128 / 8
        } else {
            return None;
        };
        off += k * size;
        p = p.operand(0);
    }
    Some(off)
}

/// Whether offsets `qa` of place `a` and `qb` of `b` (each a `(min, max)`) never touch
/// the same byte over the counter's range `ctr`: one object, the same terms over the
/// same element size (so the loop-invariant parts are the same bytes), both bases at
/// known offsets, and the two byte spans disjoint.
fn apart(a: &Place, qa: (i64, i64), b: &Place, qb: (i64, i64), ctr: (i128, i128)) -> bool {
    if a.object != b.object || a.terms != b.terms || a.elem != b.elem || a.stride != b.stride {
        return false;
    }
    if a.other_lane(b) {
        return true;
    }
    match (a.span(qa.0, qa.1, ctr), b.span(qb.0, qb.1, ctr)) {
        (Some((a0, a1)), Some((b0, b1))) => a1 <= b0 || b1 <= a0,
        _ => false,
    }
}

/// The offsets a stream holds: `(min, max)`.
fn window(s: &Stream) -> Option<(i64, i64)> {
    Some((*s.by_q.keys().next()?, *s.by_q.keys().next_back()?))
}

/// For each stream, whether it may be carried as far as other streams are concerned: a
/// stream that keeps exact values must be `apart` from every other stream of its object
/// (a stream of partial sums commutes with anything that adds).
pub(crate) fn exact_apart(streams: &[Stream], ctr: (i128, i128)) -> Vec<bool> {
    let places: Vec<Place> = streams.iter().map(Place::of).collect();
    (0..streams.len())
        .map(|i| {
            if !streams[i].exact() {
                return true;
            }
            (0..streams.len()).all(|j| {
                if i == j || places[i].object != places[j].object {
                    return true;
                }
                match (window(&streams[i]), window(&streams[j])) {
                    (Some(wi), Some(wj)) => apart(&places[i], wi, &places[j], wj, ctr),
                    _ => false,
                }
            })
        })
        .collect()
}

/// The adds split off one stream, at their offsets from its anchor.
pub(crate) struct FarAdds {
    /// Where the stream they were split off lies.
    pub from: Place,
    pub adds: Vec<(i64, Rmw)>,
}

/// Splits `s`'s offsets into runs and leaves the run with the most adds in `s` (ties:
/// the run nearest the anchor); returns the others' adds. Nothing is split off a stream
/// with one run.
pub(crate) fn split(s: &mut Stream) -> Option<FarAdds> {
    let mut runs: Vec<Vec<i64>> = Vec::new();
    for &q in s.by_q.keys() {
        match runs.last_mut() {
            Some(r) if q - r[r.len() - 1] <= MAX_GAP => r.push(q),
            _ => runs.push(vec![q]),
        }
    }
    if runs.len() < 2 {
        return None;
    }
    let weight = |r: &Vec<i64>| {
        let adds: usize = r.iter().map(|q| s.by_q[q].len()).sum();
        let near = r.iter().map(|q| q.abs()).min().unwrap_or(0);
        (adds, std::cmp::Reverse(near))
    };
    let best = (0..runs.len()).max_by_key(|&i| weight(&runs[i]))?;
    let from = Place::of(s);
    let mut adds = Vec::new();
    for (i, r) in runs.iter().enumerate() {
        if i == best {
            continue;
        }
        for q in r {
            for a in s.by_q.remove(q).unwrap_or_default() {
                adds.push((*q, a));
            }
        }
    }
    Some(FarAdds { from, adds })
}

/// The loads and stores of far adds proven never to touch a carried cell: `apart` from
/// every stream of their object over the counter's range `ctr`.
pub(crate) fn disjoint(far: &[FarAdds], streams: &[Stream], ctr: (i128, i128)) -> HashSet<Value> {
    let mut out = HashSet::default();
    let places: Vec<Place> = streams.iter().map(Place::of).collect();
    for f in far {
        for (q, r) in &f.adds {
            let clear = streams.iter().zip(&places).all(|(s, p)| {
                p.object != f.from.object
                    || window(s).is_some_and(|w| apart(&f.from, (*q, *q), p, w, ctr))
            });
            if clear {
                out.extend([r.load, r.store]);
            }
        }
    }
    out
}

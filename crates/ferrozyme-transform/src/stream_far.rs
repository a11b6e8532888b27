//! Far offsets of a carried stream left as plain adds (issue 14, bruss13: the
//! Brusselator's rows `i - 1`, `i + 1`).
//!
//! Once the reverse stencil's rows are unclamped (`peel_rows.rs`), the adds into rows
//! `i - 1` and `i + 1` of a shadow are addresses of the same anchor as row `i`'s, at
//! offsets `-W` and `+W` (the row length): `streams.rs` would group all five into one
//! stream whose register window spans the whole `[-W, W]`, `2W` carried cells per
//! iteration (measured on the Brusselator with users' flags: 104k -> 386k instructions),
//! and the value form refuses it as not contiguous. Here a stream's offsets are split
//! into runs (offsets at most `MAX_GAP` apart); the run with the most adds stays the
//! stream, the others' adds stay in the loop as they are: plain read-modify-write adds.
//!
//! A far add may stay next to a carried stream of the same shadow only if it never
//! touches a cell the stream holds in a register. The anchor moves by one element per
//! iteration over `T` iterations, so the stream touches, over the whole loop, the cells
//! `A0 + [qmin - (T - 1), qmax]` and an add at offset `F` the cells `A0 + [F - (T - 1),
//! F]`: disjoint exactly when `F > qmax + T - 1` or `F < qmin - (T - 1)`. That is
//! proven from the counter's constant range (`streams::counter_range`) and only then are
//! the far adds exempt from `streams::others_ok`'s rule that nothing else of the loop
//! reaches a carried shadow; with the range unknown, or another stream on the same
//! object, nothing is exempt and the usual rules decide (an exact stream is refused).

use std::collections::{HashMap, HashSet};

use ferrozyme_llvm::Value;

use crate::streams::{Rmw, Stream};

/// Offsets further apart than this (elements) start a new run.
const MAX_GAP: i64 = 4;

/// The adds split off one stream, at their offsets from its anchor.
pub(crate) struct FarAdds {
    /// The stream's object (`underlying` of its anchor).
    pub object: Value,
    pub adds: Vec<(i64, Rmw)>,
}

/// Splits `s`'s offsets into runs and leaves the run with the most adds in `s` (ties:
/// the run nearest the anchor); returns the others' adds. Nothing is split off a stream
/// with one run.
pub(crate) fn split(s: &mut Stream, object: Value) -> Option<FarAdds> {
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
    Some(FarAdds { object, adds })
}

/// The loads and stores of far adds proven never to touch a carried cell: their stream
/// `s` (matched by object) is the only one of `streams` on that object, and the offset
/// is outside `s`'s positions widened by the trip count `trip` on both sides.
pub(crate) fn disjoint(
    far: &[FarAdds],
    streams: &[Stream],
    objects: &[Value],
    trip: Option<i128>,
) -> HashSet<Value> {
    let mut out = HashSet::new();
    let Some(trip) = trip else { return out };
    let mut count: HashMap<Value, usize> = HashMap::new();
    for o in objects {
        *count.entry(*o).or_insert(0) += 1;
    }
    for f in far {
        let Some(k) = objects.iter().position(|o| *o == f.object) else {
            continue;
        };
        if count[&f.object] != 1 {
            continue;
        }
        let s = &streams[k];
        let (Some(&qmin), Some(&qmax)) = (s.by_q.keys().next(), s.by_q.keys().next_back()) else {
            continue;
        };
        let (lo, hi) = (qmin as i128 - (trip - 1), qmax as i128 + (trip - 1));
        for (q, r) in &f.adds {
            let q = *q as i128;
            if q < lo || q > hi {
                out.extend([r.load, r.store]);
            }
        }
    }
    out
}

//! Strided pointers: which pointers walk memory by a constant step.
//!
//! Type analysis relates pointers that differ by a constant (`q = gep p, 8`) or are the
//! same (phi, select, casts, call argument and parameter). When those relations form a
//! cycle whose offsets do not add up to zero — `p = phi [a], [p + 8]`, a recursive call on
//! `p + 8`, `select c, a, a + 8` — the pointer walks memory in steps, and shifting trees
//! along the cycle would grow them without bound. This module finds such cycles before
//! the sweeps, with a union-find whose edges carry offsets: each class of pointers gets a
//! *period*, the gcd of the nonzero cycle offsets. The engine then treats a constant GEP
//! inside a periodic class as an index into an array whose element is one period long.
//!
//! Relations arrive in *batches* (the code registered with the engine at one time). A
//! class that already existed before the current batch and whose period the batch
//! changes is reported ([`Periods::take_old_changes`]): GEPs read earlier under the old
//! period must be read again.
//!
//! Invariant: `parent[x] = (p, w)` means `x = p + w` bytes; `find` compresses paths and
//! keeps the offsets exact. `born[r]` (for a root `r`) is the earliest batch of its members.

use crate::hash::HashMap;

use ferrozyme_llvm::Value;

#[derive(Default)]
pub(super) struct Periods {
    parent: HashMap<Value, (Value, i64)>,
    period: HashMap<Value, u64>,
    born: HashMap<Value, u32>,
    batch: u32,
    old_changed: bool,
}

impl Periods {
    /// The class representative of `x` and `x`'s offset from it.
    fn find(&mut self, x: Value) -> (Value, i64) {
        let mut path = Vec::new();
        let mut cur = x;
        let mut total = 0i64;
        while let Some(&(p, w)) = self.parent.get(&cur) {
            path.push((cur, w));
            total = total.saturating_add(w);
            cur = p;
        }
        // Path compression: every node on the path now points at the root directly.
        let mut rest = total;
        for (node, w) in path {
            self.parent.insert(node, (cur, rest));
            rest = rest.saturating_sub(w);
        }
        (cur, total)
    }

    /// Starts a new batch of relations.
    pub(super) fn begin_batch(&mut self) {
        self.batch += 1;
    }

    /// Did a class from an earlier batch change its period since the last call?
    pub(super) fn take_old_changes(&mut self) -> bool {
        std::mem::take(&mut self.old_changed)
    }

    /// Records `a = b + c` bytes.
    pub(super) fn relate(&mut self, a: Value, b: Value, c: i64) {
        let (ra, oa) = self.find(a);
        let (rb, ob) = self.find(b);
        let batch = self.batch;
        let born_a = *self.born.entry(ra).or_insert(batch);
        let born_b = *self.born.entry(rb).or_insert(batch);
        let pa = self.period.get(&ra).copied().unwrap_or(0);
        if ra == rb {
            let diff = oa.saturating_sub(ob.saturating_add(c)).unsigned_abs();
            if diff != 0 {
                let p = gcd(pa, diff);
                self.period.insert(ra, p);
                self.old_changed |= p != pa && born_a < batch;
            }
            return;
        }
        // ra = a - oa = b + c - oa = rb + ob + c - oa
        self.parent
            .insert(ra, (rb, ob.saturating_add(c).saturating_sub(oa)));
        self.born.remove(&ra);
        self.born.insert(rb, born_a.min(born_b));
        let pb = self.period.get(&rb).copied().unwrap_or(0);
        self.period.remove(&ra);
        let p = gcd(pa, pb);
        if p != 0 {
            self.period.insert(rb, p);
        }
        // A member of either class now walks with period `p`.
        self.old_changed |= (p != pa && born_a < batch) || (p != pb && born_b < batch);
    }

    /// The step of the class of `x` (`None` when its pointers do not walk).
    pub(super) fn period(&mut self, x: Value) -> Option<u64> {
        let (r, _) = self.find(x);
        self.period.get(&r).copied().filter(|p| *p > 0)
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
#[path = "period_tests.rs"]
mod tests;

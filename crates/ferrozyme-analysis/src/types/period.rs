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
//! Invariant: `parent[x] = (p, w)` means `x = p + w` bytes; `find` compresses paths and
//! keeps the offsets exact.

use std::collections::HashMap;

use ferrozyme_llvm::Value;

#[derive(Default)]
pub(super) struct Periods {
    parent: HashMap<Value, (Value, i64)>,
    period: HashMap<Value, u64>,
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

    /// Records `a = b + c` bytes.
    pub(super) fn relate(&mut self, a: Value, b: Value, c: i64) {
        let (ra, oa) = self.find(a);
        let (rb, ob) = self.find(b);
        if ra == rb {
            let diff = oa.saturating_sub(ob.saturating_add(c)).unsigned_abs();
            if diff != 0 {
                let p = self.period.get(&ra).copied().unwrap_or(0);
                self.period.insert(ra, gcd(p, diff));
            }
            return;
        }
        // ra = a - oa = b + c - oa = rb + ob + c - oa
        self.parent
            .insert(ra, (rb, ob.saturating_add(c).saturating_sub(oa)));
        if let Some(pa) = self.period.remove(&ra) {
            let pb = self.period.get(&rb).copied().unwrap_or(0);
            self.period.insert(rb, gcd(pa, pb));
        }
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

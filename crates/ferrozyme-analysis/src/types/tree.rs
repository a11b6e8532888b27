//! [`TypeTree`]: byte offset -> [`BaseType`], with the pointee trees of the pointers it
//! holds (nested, shared, bounded by [`MAX_DEPTH`], [`INNER_OFFSETS`], [`INNER_WEIGHT`]).

use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

use super::{BaseType, MAX_OFFSET};

/// How many levels of pointers a tree follows below itself (`**p` is two): deeper facts
/// are dropped, which keeps recursive structures (lists, trees) finite. What nested trees
/// cost is bounded three ways: subtrees are shared (`Rc`, adopted rather than copied, and
/// compared before they are merged), pointees are kept only for pointers in an object's
/// first [`INNER_OFFSETS`] bytes, and a slot heavier than [`INNER_WEIGHT`] turns opaque.
/// Measured on the debug build of `tests/rust` (its largest link, 3.3 MB of IR): type
/// analysis and AD 23 s, against 18 s with nested trees off and more than 10 minutes
/// with unbounded, copied trees.
pub const MAX_DEPTH: usize = 4;

/// Pointees are kept for pointers at offsets below this bound (and for "every offset"),
/// at every level: the fields of small objects (a `std::vector`, an Eigen matrix, a
/// functor, `this` in a stack slot), not the slots of pointer arrays (without the bound,
/// 62 s on the link above).
pub const INNER_OFFSETS: i64 = 64;

/// The most entries (at all levels) one pointee slot holds before it turns opaque: the
/// tagged and pointer-rich structures of Rust's standard library (`io::Error`'s packed
/// representation, crossbeam's blocks) otherwise grow trees of millions of entries.
pub const INNER_WEIGHT: usize = 64;

/// A key of a [`TypeTree`] whose fact changed in a merge: a byte offset's base type
/// (`-1`: the "every offset" entry) or what the pointer at an offset points to. Offsets
/// are below [`MAX_OFFSET`], so they fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    Entry(i16),
    Pointee(i16),
}

/// Byte offset → base type; offset `-1` means "at every offset". For pointers, also what
/// the memory they point to holds (`inner`): so the tree of a `std::vector<double>` knows
/// that the pointer at offset 0 leads to doubles, and a pointer loaded from there later
/// (in another function, after the struct went through memory) learns it.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct TypeTree {
    /// Offset → type; keys are `-1` or concrete offsets (only `insert` adds entries), so
    /// the "every offset" entry, when present, is the first (`every`).
    map: BTreeMap<i64, BaseType>,
    /// Offset → the tree of the memory the pointer stored there points to. Shared: a
    /// pointee tree learnt from another value is adopted, not copied, so the many pointers
    /// of one data structure (and the slots of a pointer array) hold one tree, copying a
    /// tree copies only its top level, and merging a tree into itself is one comparison.
    inner: BTreeMap<i64, Rc<TypeTree>>,
    /// A pointee slot that outgrew [`INNER_WEIGHT`]: it learns nothing more and teaches
    /// nothing (a pointer loaded from there knows only what its own uses say, as if
    /// pointees were not tracked). Monotone: a slot only ever becomes opaque, so the
    /// analysis still reaches its fixed point.
    opaque: bool,
}

impl TypeTree {
    pub fn new() -> TypeTree {
        TypeTree::default()
    }
    /// A tree with one entry.
    pub fn single(off: i64, t: BaseType) -> TypeTree {
        let mut tree = TypeTree::new();
        tree.insert(off, t);
        tree
    }
    /// An integer of `bytes` bytes at `off`: `Integer` at every 4-byte piece it covers,
    /// since integer accesses are checked piece by piece (a `long` is two pieces; only
    /// its first would otherwise be known, and the second look like possible float bits).
    pub fn insert_integer(&mut self, off: i64, bytes: i64) -> bool {
        let mut changed = false;
        let mut o = off;
        loop {
            changed |= self.insert(o, BaseType::Integer);
            o += 4;
            if o >= off + bytes {
                return changed;
            }
        }
    }
    /// The type at `off`, falling back to the `-1` ("every offset") entry.
    pub fn get(&self, off: i64) -> BaseType {
        if let Some(t) = self.map.get(&off) {
            return *t;
        }
        self.every()
    }
    /// The `-1` ("every offset") entry: the smallest key, when present.
    fn every(&self) -> BaseType {
        match self.map.first_key_value() {
            Some((-1, t)) => *t,
            _ => BaseType::Unknown,
        }
    }
    /// The entries in display order: concrete offsets ascending, then `-1`.
    pub fn iter(&self) -> impl Iterator<Item = (i64, BaseType)> + '_ {
        self.map
            .range(0..)
            .chain(self.map.range(..0))
            .map(|(k, v)| (*k, *v))
    }
    pub fn is_empty(&self) -> bool {
        self.map.is_empty() && self.inner.is_empty()
    }
    pub fn len(&self) -> usize {
        self.map.len()
    }
    /// Joins `t` into offset `off` (`-1` = every offset). Returns whether the tree changed.
    /// Offsets below `-1` or at/after [`MAX_OFFSET`] are ignored.
    pub fn insert(&mut self, off: i64, t: BaseType) -> bool {
        if self.opaque || t == BaseType::Unknown || !(-1..MAX_OFFSET).contains(&off) {
            return false;
        }
        if off == -1 {
            let old = self.every();
            let new = old.join(t);
            if new == old {
                return false;
            }
            self.map.insert(-1, new);
            // Every concrete entry must agree with the "every offset" entry.
            let concrete: Vec<(i64, BaseType)> =
                self.map.range(0..).map(|(k, v)| (*k, *v)).collect();
            for (k, v) in concrete {
                let joined = v.join(new);
                if joined == new {
                    self.map.remove(&k);
                } else {
                    self.map.insert(k, joined);
                }
            }
            return true;
        }
        // One search: a missing entry falls back to the "every offset" entry, the
        // smallest key (`get`).
        let every = self.every();
        match self.map.entry(off) {
            std::collections::btree_map::Entry::Occupied(mut e) => {
                let old = *e.get();
                let new = old.join(t);
                if new == old {
                    return false;
                }
                e.insert(new);
            }
            std::collections::btree_map::Entry::Vacant(e) => {
                let new = every.join(t);
                if new == every {
                    return false;
                }
                e.insert(new);
            }
        }
        true
    }
    /// Joins every entry of `other` into `self`. Returns whether `self` changed.
    pub fn merge(&mut self, other: &TypeTree) -> bool {
        self.merge_to_depth(other, MAX_DEPTH)
    }
    /// [`TypeTree::merge`] that also tells `note` each key whose fact changed (an
    /// `Entry(-1)` change may have changed every concrete entry too).
    pub(crate) fn merge_noting(&mut self, other: &TypeTree, note: &mut impl FnMut(Change)) -> bool {
        self.merge_to_depth_noting(other, MAX_DEPTH, note)
    }
    /// `merge`, keeping at most `depth` levels of pointees below this tree (in place: no
    /// copy of either tree, which mattered for the large trees of Rust debug builds).
    fn merge_to_depth(&mut self, other: &TypeTree, depth: usize) -> bool {
        self.merge_to_depth_noting(other, depth, &mut |_| {})
    }
    fn merge_to_depth_noting(
        &mut self,
        other: &TypeTree,
        depth: usize,
        note: &mut impl FnMut(Change),
    ) -> bool {
        if self.opaque {
            return false;
        }
        let mut changed = false;
        // `-1` first, so concrete entries are checked against the final "every" entry.
        if let Some(t) = other.map.get(&-1) {
            if self.insert(-1, *t) {
                note(Change::Entry(-1));
                changed = true;
            }
        }
        for (k, t) in other.map.range(0..) {
            if self.insert(*k, *t) {
                note(Change::Entry(*k as i16));
                changed = true;
            }
        }
        if depth > 0 {
            for (k, t) in &other.inner {
                if self.insert_inner_shared(*k, t, depth) {
                    note(Change::Pointee(*k as i16));
                    changed = true;
                }
            }
        }
        changed
    }
    /// Every key that holds a fact, as [`TypeTree::merge_noting`] would report them when
    /// this tree is merged into an empty one.
    pub(crate) fn keys(&self) -> impl Iterator<Item = Change> + '_ {
        let entries = self.map.keys().map(|k| Change::Entry(*k as i16));
        entries.chain(self.inner.keys().map(|k| Change::Pointee(*k as i16)))
    }
    /// Only the facts at `keys` (and the "every offset" entry): what a rule that maps
    /// entries one at a time still has to read once it has read the rest before. The
    /// pointees are the tree's own (shared), so a rule maps them exactly as it would
    /// map them from the whole tree. `keys` must not hold `Entry(-1)` (a new "every
    /// offset" entry changes every concrete one).
    pub(crate) fn at_keys(&self, keys: &[Change]) -> TypeTree {
        let mut out = TypeTree::new();
        if let Some(t) = self.map.get(&-1) {
            out.map.insert(-1, *t);
        }
        for c in keys {
            match *c {
                Change::Entry(k) => {
                    if let Some(t) = self.map.get(&(k as i64)) {
                        out.map.insert(k as i64, *t);
                    }
                }
                Change::Pointee(k) => {
                    if let Some(t) = self.inner.get(&(k as i64)) {
                        out.inner.insert(k as i64, Rc::clone(t));
                    }
                }
            }
        }
        out
    }
    /// Would [`TypeTree::merge`] of `other` leave `self` as it is? Reads only, so a shared
    /// tree is copied for a merge only when the merge teaches it something.
    pub fn subsumes(&self, other: &TypeTree) -> bool {
        self.subsumes_to_depth(other, MAX_DEPTH)
    }
    fn subsumes_to_depth(&self, other: &TypeTree, depth: usize) -> bool {
        if self.opaque || std::ptr::eq(self, other) {
            return true;
        }
        let every = self.every();
        if let Some(t) = other.map.get(&-1) {
            if every.join(*t) != every {
                return false;
            }
        }
        let flat = other.map.range(0..MAX_OFFSET).all(|(k, t)| {
            let old = self.get(*k);
            old.join(*t) == old
        });
        if !flat || depth == 0 {
            return flat;
        }
        other.inner.iter().all(|(k, t)| {
            if !(-1..INNER_OFFSETS).contains(k) || t.truncated_is_empty(depth - 1) {
                return true;
            }
            self.inner
                .get(k)
                .is_some_and(|mine| Rc::ptr_eq(mine, t) || mine.subsumes_to_depth(t, depth - 1))
        })
    }
    /// Is the tree empty once what lies more than `depth` pointers below it is dropped?
    fn truncated_is_empty(&self, depth: usize) -> bool {
        self.map.is_empty()
            && (depth == 0 || self.inner.values().all(|t| t.truncated_is_empty(depth - 1)))
    }
    /// Entries at all levels.
    fn weight(&self) -> usize {
        self.map.len() + self.inner.values().map(|t| t.weight()).sum::<usize>()
    }
    /// The tree of a slot that outgrew [`INNER_WEIGHT`].
    fn opaque() -> Rc<TypeTree> {
        thread_local! {
            static OPAQUE: Rc<TypeTree> = Rc::new(TypeTree { opaque: true, ..TypeTree::default() });
        }
        OPAQUE.with(Rc::clone)
    }
    /// Does the tree hold pointees more than `depth` levels below it?
    fn deeper_than(&self, depth: usize) -> bool {
        if depth == 0 {
            return !self.inner.is_empty();
        }
        self.inner.values().any(|t| t.deeper_than(depth - 1))
    }
    /// What the pointer at `off` points to (the `-1` entry joined in).
    pub fn inner(&self, off: i64) -> TypeTree {
        let mut out = TypeTree::new();
        if let Some(t) = self.inner.get(&-1) {
            out.merge(t);
        }
        if off != -1 {
            if let Some(t) = self.inner.get(&off) {
                out.merge(t);
            }
        }
        out
    }
    /// Joins `t` into what the pointer at `off` (`-1` = every offset) points to, dropping
    /// what lies more than [`MAX_DEPTH`] pointers below. Returns whether `self` changed.
    pub fn insert_inner(&mut self, off: i64, t: &TypeTree) -> bool {
        if !(-1..INNER_OFFSETS).contains(&off) || MAX_DEPTH == 0 || t.is_empty() {
            return false;
        }
        self.insert_inner_shared(off, &Rc::new(t.clone()), MAX_DEPTH)
    }
    /// [`TypeTree::insert_inner`] of a shared tree into a tree that may hold `depth`
    /// levels of pointees: an empty slot adopts `t` itself when it is shallow enough.
    fn insert_inner_shared(&mut self, off: i64, t: &Rc<TypeTree>, depth: usize) -> bool {
        if depth == 0 || !(-1..INNER_OFFSETS).contains(&off) || t.truncated_is_empty(depth - 1) {
            return false;
        }
        if self.opaque {
            return false;
        }
        match self.inner.get_mut(&off) {
            // A tree with more entries at its top level than a slot may hold would be
            // copied below only to be found too heavy.
            None if t.map.len() > INNER_WEIGHT => {
                self.inner.insert(off, TypeTree::opaque());
                true
            }
            None if !t.deeper_than(depth - 1) && t.weight() <= INNER_WEIGHT => {
                self.inner.insert(off, Rc::clone(t));
                true
            }
            Some(slot) if Rc::ptr_eq(slot, t) || slot.subsumes_to_depth(t, depth - 1) => false,
            Some(slot) => {
                let changed = Rc::make_mut(slot).merge_to_depth(t, depth - 1);
                if slot.weight() > INNER_WEIGHT {
                    *slot = TypeTree::opaque();
                } else if **slot == **t {
                    // A slot that became equal to `t` shares it from now on.
                    *slot = Rc::clone(t);
                }
                changed
            }
            None => {
                let mut fresh = TypeTree::new();
                fresh.merge_to_depth(t, depth - 1);
                let fresh = if fresh.weight() > INNER_WEIGHT {
                    TypeTree::opaque()
                } else {
                    Rc::new(fresh)
                };
                self.inner.insert(off, fresh);
                true
            }
        }
    }
    /// Only what the pointers point to, at offsets moved by `f` (entries it maps to
    /// `None` dropped; `-1` is passed to `f` like any offset).
    pub fn inner_remapped(&self, f: impl Fn(i64) -> Option<i64>) -> TypeTree {
        let mut out = TypeTree::new();
        for (k, t) in &self.inner {
            if let Some(n) = f(*k) {
                out.insert_inner_shared(n, t, MAX_DEPTH);
            }
        }
        out
    }
    /// The tree seen from `delta` bytes further on: entry `k` moves to `k - delta`;
    /// entries that would land before offset 0 are dropped, `-1` stays.
    pub fn shifted(&self, delta: i64) -> TypeTree {
        let mut out = TypeTree::new();
        if let Some(t) = self.map.get(&-1) {
            out.insert(-1, *t);
        }
        for (k, t) in self.map.range(0..) {
            let n = k - delta;
            if n >= 0 {
                out.insert(n, *t);
            }
        }
        for (k, t) in &self.inner {
            let n = if *k == -1 { -1 } else { k - delta };
            if *k == -1 || n >= 0 {
                out.insert_inner_shared(n, t, MAX_DEPTH);
            }
        }
        out
    }
    /// Only the entries in `[lo, hi)` (plus `-1`), unshifted.
    pub fn window(&self, lo: i64, hi: i64) -> TypeTree {
        let mut out = TypeTree::new();
        if let Some(t) = self.map.get(&-1) {
            out.insert(-1, *t);
        }
        for (k, t) in self.map.range(lo.max(0)..hi.max(0)) {
            out.insert(*k, *t);
        }
        for (k, t) in &self.inner {
            if *k == -1 || (lo.max(0)..hi.max(0)).contains(k) {
                out.insert_inner_shared(*k, t, MAX_DEPTH);
            }
        }
        out
    }
    /// The facts about bytes `0..n` only, with an "every offset" entry laid out over those
    /// bytes at its type's stride (a `double` every 8 bytes, a pointer every 8, anything
    /// else every 4). What crosses a call edge of a reference to `n` bytes: an array's
    /// "every offset is a double" means `[0]:Double` for a `double &` into it, and must
    /// not reach another caller whose reference names the `double` of a `{double, int}`.
    pub fn bounded(&self, n: i64) -> TypeTree {
        let mut out = self.window(0, n);
        let Some(every) = out.map.remove(&-1) else {
            return out;
        };
        let every_inner = out.inner.remove(&-1);
        let step = match every {
            BaseType::Pointer => 8,
            b => b.fp_type().map_or(4, |f| f.size() as i64),
        };
        let mut off = 0;
        while off < n.min(MAX_OFFSET) {
            out.insert(off, every);
            if let Some(t) = &every_inner {
                out.insert_inner_shared(off, t, MAX_DEPTH);
            }
            off += step;
        }
        out
    }
    /// Does any entry (including `-1`) have this type?
    pub fn contains(&self, t: BaseType) -> bool {
        self.map.values().any(|v| *v == t)
    }
}

impl fmt::Display for TypeTree {
    /// `{[0]:Pointer, [8]:Double}`; what a pointer points to follows it as
    /// `[0]:Pointer->{[-1]:Double}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        let mut first = true;
        for (k, t) in self.iter() {
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            write!(f, "[{k}]:{t}")?;
            if let Some(inner) = self.inner.get(&k) {
                write!(f, "->{inner}")?;
            }
        }
        // Pointees of offsets whose own entry is absent or comes from `-1`.
        for (k, inner) in &self.inner {
            if !self.map.contains_key(k) {
                if !first {
                    f.write_str(", ")?;
                }
                first = false;
                write!(f, "[{k}]->{inner}")?;
            }
        }
        f.write_str("}")
    }
}

impl fmt::Debug for TypeTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TypeTree{self}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_lays_every_offset_over_the_window() {
        use BaseType::*;
        // An array of doubles seen through a 12-byte reference: doubles at 0 and 8 only.
        let mut arr = TypeTree::single(-1, Double);
        arr.insert(40, Double);
        let b = arr.bounded(12);
        assert_eq!(b.get(0), Double);
        assert_eq!(b.get(8), Double);
        assert_eq!(b.get(4), Unknown);
        assert_eq!(b.get(16), Unknown);
        // So a `{double, int}` merged with it keeps its int at 8 apart from the doubles
        // (only offset 8 conflicts, not every offset of the pair buffer).
        let mut pair = TypeTree::single(0, Double);
        pair.insert(8, Integer);
        pair.merge(&TypeTree::single(-1, Double).bounded(8));
        assert_eq!(pair.get(0), Double);
        assert_eq!(pair.get(8), Integer);
        // Floats every 4 bytes, pointers (with what they point to) every 8.
        let f = TypeTree::single(-1, Float).bounded(8);
        assert_eq!((f.get(0), f.get(4)), (Float, Float));
        let mut p = TypeTree::single(-1, Pointer);
        p.insert_inner(-1, &TypeTree::single(0, Double));
        let pb = p.bounded(16);
        assert_eq!(
            (pb.get(0), pb.get(8), pb.get(12)),
            (Pointer, Pointer, Unknown)
        );
        assert_eq!(pb.inner(8).get(0), Double);
        // Concrete entries inside the window stay, those beyond it go.
        let mut c = TypeTree::single(0, Integer);
        c.insert(24, Double);
        let cb = c.bounded(16);
        assert_eq!((cb.get(0), cb.get(24)), (Integer, Unknown));
    }

    #[test]
    fn join_is_a_flat_lattice() {
        use BaseType::*;
        assert_eq!(Unknown.join(Double), Double);
        assert_eq!(Double.join(Double), Double);
        assert_eq!(Float.join(Double), Anything);
        assert_eq!(Anything.join(Unknown), Anything);
        assert_eq!(Integer.join(Pointer), IntOrPointer);
        assert_eq!(IntOrPointer.join(Integer), IntOrPointer);
        assert_eq!(IntOrPointer.join(Double), Anything);
        assert_eq!(Pointer.join(Float), Anything);
        // Associative and commutative over all pairs and triples.
        let all = [
            Unknown,
            Integer,
            Pointer,
            Float,
            Double,
            IntOrPointer,
            Anything,
        ];
        for a in all {
            for b in all {
                assert_eq!(a.join(b), b.join(a));
                for c in all {
                    assert_eq!(a.join(b).join(c), a.join(b.join(c)));
                }
            }
        }
    }

    #[test]
    fn every_offset_entry_subsumes_concrete_ones() {
        let mut t = TypeTree::new();
        t.insert(0, BaseType::Double);
        t.insert(8, BaseType::Float);
        t.insert(-1, BaseType::Double);
        assert_eq!(t.to_string(), "{[8]:Anything, [-1]:Double}");
        assert_eq!(t.get(16), BaseType::Double);
        assert!(!t.insert(24, BaseType::Double));
    }

    #[test]
    fn pointees_shift_merge_and_stop_at_the_depth_limit() {
        let doubles = TypeTree::single(-1, BaseType::Double);
        let mut v = TypeTree::single(0, BaseType::Pointer);
        v.insert(8, BaseType::Pointer);
        assert!(v.insert_inner(0, &doubles));
        assert!(!v.insert_inner(0, &doubles));
        assert_eq!(v.to_string(), "{[0]:Pointer->{[-1]:Double}, [8]:Pointer}");
        assert_eq!(v.shifted(0).inner(0), doubles);
        assert!(v.shifted(8).inner(0).is_empty());
        assert_eq!(v.shifted(-16).inner(16), doubles);
        assert!(v.window(8, 16).inner(0).is_empty());
        let mut w = TypeTree::new();
        assert!(w.merge(&v));
        assert_eq!(w, v);
        // A list node pointing to itself: the tree stays finite.
        let mut node = TypeTree::single(0, BaseType::Double);
        for _ in 0..10 {
            let copy = node.clone();
            node.insert_inner(8, &copy);
        }
        let mut depth = 0;
        let mut t = node;
        while !t.inner(8).is_empty() {
            t = t.inner(8);
            depth += 1;
        }
        assert_eq!(depth, MAX_DEPTH);
    }

    #[test]
    fn merges_report_the_keys_they_change_and_the_rest_teaches_nothing() {
        use BaseType::*;
        let mut base = TypeTree::single(0, Integer);
        base.insert(8, Double);
        base.insert_inner(0, &TypeTree::single(-1, Double));
        let mut grown = base.clone();
        let mut more = TypeTree::single(16, Double);
        more.insert(8, Double);
        more.insert_inner(16, &TypeTree::single(0, Integer));
        let mut keys = Vec::new();
        assert!(grown.merge_noting(&more, &mut |c| keys.push(c)));
        assert_eq!(keys, [Change::Entry(16), Change::Pointee(16)]);
        // A rule that shifted `base` before needs only the changed keys now: the same
        // tree as shifting the whole of `grown`.
        let mut by_delta = base.shifted(8);
        by_delta.merge(&grown.at_keys(&keys).shifted(8));
        assert_eq!(by_delta, grown.shifted(8));
        // A new "every offset" entry is reported as such (it changes every entry).
        let mut keys = Vec::new();
        grown.merge_noting(&TypeTree::single(-1, Double), &mut |c| keys.push(c));
        assert_eq!(keys, [Change::Entry(-1)]);
        assert_eq!(
            grown.keys().collect::<Vec<_>>(),
            [
                Change::Entry(-1),
                Change::Entry(0),
                Change::Pointee(0),
                Change::Pointee(16)
            ]
        );
    }

    #[test]
    fn shifting_drops_negative_offsets() {
        let mut t = TypeTree::new();
        t.insert(0, BaseType::Integer);
        t.insert(8, BaseType::Double);
        assert_eq!(t.shifted(8).to_string(), "{[0]:Double}");
        assert_eq!(t.shifted(-8).to_string(), "{[8]:Integer, [16]:Double}");
    }
}

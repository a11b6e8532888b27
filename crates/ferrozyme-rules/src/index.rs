//! Name lookups into the static tables by hashing, not by scanning every row.
//!
//! The call classifier (`ferrozyme-analysis`'s `calls::classify`) asks the OpenMP, MPI,
//! libm and intrinsic tables about each call it meets, and the transform classifies every
//! call tens of times per compile: scanning the rows was about 3% of the AD pass on the
//! compile-time scaling programs (issue 18). An index keeps, for each name, the first row
//! with it, as the scan found it.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::OnceLock;

/// The rows of a static table by name (by `K` and name), built on first use.
pub(crate) struct NameIndex<K = ()>(OnceLock<HashMap<K, HashMap<&'static str, usize>>>);

impl<K: Copy + Eq + Hash> NameIndex<K> {
    pub(crate) const fn new() -> Self {
        NameIndex(OnceLock::new())
    }

    /// The first row of `rows` that `key` files under (`kind`, `name`); `key` is the
    /// same function at every call of one index.
    pub(crate) fn find<'a, T>(
        &self,
        rows: &'a [T],
        key: impl Fn(&'a T) -> (K, &'static str),
        kind: K,
        name: &str,
    ) -> Option<&'a T> {
        let map = self.0.get_or_init(|| {
            let mut map: HashMap<K, HashMap<&'static str, usize>> = HashMap::new();
            for (i, row) in rows.iter().enumerate() {
                let (k, n) = key(row);
                map.entry(k).or_default().entry(n).or_insert(i);
            }
            map
        });
        map.get(&kind)?.get(name).map(|&i| &rows[i])
    }
}

impl NameIndex {
    /// The first `(name, value)` row of `rows` named `name`.
    pub(crate) fn find_named<V>(
        &self,
        rows: &'static [(&'static str, V)],
        name: &str,
    ) -> Option<&'static V> {
        self.find(rows, |(n, _)| ((), *n), (), name).map(|(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::NameIndex;

    #[test]
    fn the_first_row_of_a_name_as_a_scan_finds_it() {
        static ROWS: &[(&str, u32)] = &[("a", 1), ("b", 2), ("a", 3)];
        static INDEX: NameIndex = NameIndex::new();
        assert_eq!(INDEX.find_named(ROWS, "a"), Some(&1));
        assert_eq!(INDEX.find_named(ROWS, "b"), Some(&2));
        assert_eq!(INDEX.find_named(ROWS, "c"), None);
        static KINDS: &[(u8, &str)] = &[(0, "x"), (1, "x"), (1, "y")];
        static BY_KIND: NameIndex<u8> = NameIndex::new();
        let at = |k, n| {
            BY_KIND
                .find(KINDS, |r| (r.0, r.1), k, n)
                .map(|r| r as *const _)
        };
        assert_eq!(at(1, "x"), Some(&KINDS[1] as *const _));
        assert_eq!(at(0, "y"), None);
        assert_eq!(at(2, "x"), None);
    }
}

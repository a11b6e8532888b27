//! Name lookups into the static tables by hashing, not by scanning every row.
//!
//! The call classifier (`ferrozyme-analysis`'s `calls::classify`) asks the OpenMP, MPI,
//! libm and intrinsic tables about each call it meets, and the transform classifies every
//! call tens of times per compile: scanning the rows was about 3% of the AD pass on the
//! compile-time scaling programs (issue 18). An index keeps, for each name, the first row
//! with it, as the scan found it.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// FNV-1a: the keys are short names from static tables and from IR, hashed once per
/// lookup; the standard library's SipHash made a lookup dearer than the scan it replaces.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

type Names = HashMap<&'static str, usize, BuildHasherDefault<Fnv>>;

/// The rows of a static table by name (by `K` and name), built on first use. The kinds
/// are few (a rule's family): found by comparison, each with its names' map.
pub(crate) struct NameIndex<K = ()>(OnceLock<Vec<(K, Names)>>);

impl<K: Copy + Eq> NameIndex<K> {
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
        let kinds = self.0.get_or_init(|| {
            let mut kinds: Vec<(K, Names)> = Vec::new();
            for (i, row) in rows.iter().enumerate() {
                let (k, n) = key(row);
                let at = match kinds.iter().position(|(x, _)| *x == k) {
                    Some(at) => at,
                    None => {
                        kinds.push((k, Names::default()));
                        kinds.len() - 1
                    }
                };
                kinds[at].1.entry(n).or_insert(i);
            }
            kinds
        });
        let (_, names) = kinds.iter().find(|(k, _)| *k == kind)?;
        names.get(name).map(|&i| &rows[i])
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

//! The maps and sets of the analyses and the transform.
//!
//! Their keys are LLVM value and block handles, small integers and short names, hashed
//! millions of times per compile; none comes from an adversary. The standard library's
//! SipHash cost about 2% of a `ferrozyme cc` process (issue 18's profile of a 640-function
//! chain), so these aliases use `rustc-hash`'s Fx hasher. Iteration order is then the same
//! in every run (SipHash's keys are random per process), which nothing relies on.
//!
//! Construct with `HashMap::default()` / `HashSet::default()` (`new` exists only for the
//! standard hasher) and `with_capacity_and_hasher(n, Default::default())`.

pub type HashMap<K, V> = std::collections::HashMap<K, V, rustc_hash::FxBuildHasher>;
pub type HashSet<K> = std::collections::HashSet<K, rustc_hash::FxBuildHasher>;
pub use std::collections::hash_map;
pub use std::collections::hash_set;

//! Which keys of a pointee tree changed, for rules that map a tree entry by entry and
//! so need to read only what is new since their last firing (the constant-offset GEP
//! rule, `engine/access.rs`).
//!
//! A rule *watches* the values whose trees it reads; from then on every merge into
//! such a value's pointee tree appends the keys it changed ([`Change`]) to that value's
//! log, and adopting another value's tree whole appends all of its keys. The rule keeps
//! the log lengths it read at its last firing; the keys past them are all that can
//! teach its targets something new. Logs are per value, not per tree: a value's tree
//! may be replaced by a shared copy with another history, and the log still describes
//! what this value came to hold.
//!
//! Invariant: every change to a watched value's tree goes through `Engine::learn_ptr`
//! or `Engine::learn_ptr_shared`, which note it here. Logs only grow; each key changes
//! a bounded number of times (the lattice's height, a pointee slot's weight), so a log
//! stays within a small multiple of its tree.

use crate::hash::HashMap;

use ferrozyme_llvm::Value;

use super::super::Change;

/// The change logs of watched values.
#[derive(Default)]
pub(super) struct ChangeLog {
    logs: HashMap<Value, Vec<Change>>,
}

impl ChangeLog {
    /// Starts logging the changes of `v`'s tree (if not yet); returns the log's length
    /// now, the position from which later changes are read.
    pub(super) fn watch(&mut self, v: Value) -> u32 {
        self.logs.entry(v).or_default().len() as u32
    }
    /// The log of `v` if it is watched (to append to).
    pub(super) fn log_of(&mut self, v: Value) -> Option<&mut Vec<Change>> {
        self.logs.get_mut(&v)
    }
    /// The keys of `v`'s tree that changed since its log was `at` long.
    pub(super) fn since(&self, v: Value, at: u32) -> &[Change] {
        self.logs
            .get(&v)
            .and_then(|l| l.get(at as usize..))
            .unwrap_or(&[])
    }
}

//! Skipping rule parts whose inputs did not change: a *version* per value, counting the
//! changes of its trees, and per *pair rule* (a link between two values, a call edge, a
//! pointer moved through memory) the versions its two values had when it last ran.
//!
//! A rule becomes due when any tree it reads grows, and then runs whole: a call re-links
//! every argument with its parameter when one of them changed, a load of a pointer
//! re-copies what the pointer points to into the memory's tree. Such a part reads the
//! trees of two values only and writes only theirs, and is a function of them; so when
//! neither value changed since its last run began, that run saw the same trees and
//! taught them nothing (else their versions would have moved), and running it again
//! would teach nothing either. Skipping it changes no fact.
//!
//! Invariant: every change to a value's trees goes through `Engine::touch`, which bumps
//! the value's version.

use crate::hash::HashMap;

use ferrozyme_llvm::Value;

/// Which pair rule ran (the same two values can meet in different rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum PairRule {
    /// `Engine::link`: the same data.
    Link,
    /// `Engine::link_call_edge` within the bytes a callee declares dereferenceable.
    CallEdge,
    /// The pointer moved by a load or store and the memory under its address, with the
    /// access's sentinel window (`engine/access.rs`).
    MovedPointer(Option<i64>),
}

#[derive(Default)]
pub(super) struct Unchanged {
    versions: HashMap<Value, u32>,
    last_run: HashMap<(Value, Value, PairRule), (u32, u32)>,
}

impl Unchanged {
    /// Records a change of `v`'s trees.
    pub(super) fn bump(&mut self, v: Value) {
        *self.versions.entry(v).or_default() += 1;
    }
    fn version(&self, v: Value) -> u32 {
        self.versions.get(&v).copied().unwrap_or(0)
    }
    /// Must `rule` on `(a, b)` run? False when neither value changed since its last run
    /// began; otherwise records this run.
    pub(super) fn must_run(&mut self, a: Value, b: Value, rule: PairRule) -> bool {
        let now = (self.version(a), self.version(b));
        self.last_run.insert((a, b, rule), now) != Some(now)
    }
}

//! Heap buffers known only through a pointer compared with a walk over them.
//!
//! A loop that walks an array backwards stops when its pointer reaches the first element:
//! `for (auto it = v.rbegin(); it != v.rend(); ++it)` over a `std::vector<double>` is, at
//! -O1 and up, `p = phi [end], [p - 8]`, `load double (p - 8)` and `icmp eq (p - 8), begin`.
//! The walk's class of pointers is periodic (`types/period.rs`) and its facts say "a
//! double at every offset", but nothing relates the walk to `begin`, the buffer: the end
//! pointer it starts from is `begin + (old_end - old_begin) + 8` (a byte distance, which
//! carries no facts, `access.rs`), and with the elements pushed through the same
//! distance the buffer's own tree stays empty, so `push_back`'s reallocation `memmove`
//! of the old buffer was refused as an untyped copy (tests/cxx/404).
//!
//! The comparison is the relation: a pointer compared with another points into the same
//! array. It is used in one direction and one case only: when one side walks memory that
//! is one scalar type at every offset, with that scalar's size as its period, and the
//! other side is, through phis and selects, only fresh allocations (`malloc`, `operator
//! new`) and null, the allocations get "that scalar at every offset". A fresh allocation
//! compared with a pointer walking it holds what the walk reads; one that held something
//! else as well would meet those facts as a conflict (an error at its accesses, never a
//! guess).

use crate::hash::HashSet;

use ferrozyme_llvm::{Opcode, Value};

use super::super::TypeTree;
use super::Engine;

/// Phis and selects followed from the compared pointer to its allocations.
const MAX_SOURCES: usize = 16;

impl Engine {
    /// The rule of `icmp p, q` on pointers: see the module documentation.
    pub(super) fn compared_pointers(&mut self, p: Value, q: Value) {
        for (walk, other) in [(p, q), (q, p)] {
            let Some(period) = self.periods.period(walk) else {
                continue;
            };
            let tree = self.pointee(walk);
            let mut entries = tree.iter();
            let Some((-1, b)) = entries.next() else {
                continue;
            };
            if entries.next().is_some() || !b.is_float() || !self.scalar_fills(b, period) {
                continue;
            }
            if only_fresh_allocations(other) {
                self.learn_ptr(other, &TypeTree::single(-1, b));
            }
        }
    }
}

/// Is `v`, through phis and selects, only fresh C or C++ allocations and null (at least
/// one allocation)?
fn only_fresh_allocations(v: Value) -> bool {
    let mut seen = HashSet::default();
    let mut todo = vec![v];
    let mut any = false;
    while let Some(x) = todo.pop() {
        if !seen.insert(x) {
            continue;
        }
        if seen.len() > MAX_SOURCES {
            return false;
        }
        match x.opcode() {
            Some(Opcode::LLVMPHI) => todo.extend(x.incoming().into_iter().map(|(v, _)| v)),
            Some(Opcode::LLVMSelect) => todo.extend([x.operand(1), x.operand(2)]),
            Some(Opcode::LLVMCall | Opcode::LLVMInvoke)
                if crate::calls::is_fresh_c_allocation(x) =>
            {
                any = true
            }
            _ if x.is_null() => {}
            _ => return false,
        }
    }
    any
}

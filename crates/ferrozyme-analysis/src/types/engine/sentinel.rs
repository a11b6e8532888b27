//! Sentinel nodes of the C++ standard library's linked containers.
//!
//! libstdc++'s node-based containers keep a *sentinel* node base inside the container
//! object itself: `std::unordered_map`'s `_Hashtable` holds `_M_before_begin` (a
//! `_Hash_node_base`, just the `next` pointer) at offset 16, and its bucket array holds
//! pointers to "the node before the bucket's first node": real nodes (`_Hash_node`, with
//! key, value and cached hash after the `next` pointer) and, for one bucket,
//! `&_M_before_begin`. Type analysis is not context-sensitive, so the memory of a bucket
//! slot would point to the join of a node and "the container from offset 16 on": the
//! container's `float` load factor lands on the node's `std::string` length, its
//! single-bucket pointer on the string's buffer, and every integer access to a node
//! (hash code, key length, the small-string buffer moved as an `i64`) becomes a
//! cannot-deduce-type error.
//!
//! The library only ever reaches the sentinel through its base class: through a
//! `_Hash_node_base *` just the `next` pointer is read or written, and a node is only
//! downcast after it was loaded from a `next` field (a real, separately allocated node).
//! So when a pointer is stored as `T *` for such a node base `T` (the access's `!tbaa`
//! says so), and the stored pointer is a constant, non-zero offset into a bigger object
//! (it is the embedded sentinel, not a node: nodes are allocations of their own), only the
//! bytes of `T` move between what the pointer points to and what the memory's pointer
//! points to. Facts are only dropped this way, never invented: what is lost is a
//! conflict, and an access no fact covers stays an error (type analysis never guesses).

use ferrozyme_llvm::{Opcode, Value};

use super::super::layout;
use super::Engine;

/// Node-base types of libstdc++'s containers as clang's TBAA names pointers to them, and
/// their size in bytes (x86-64): what a sentinel of that type holds.
const NODE_BASES: &[(&str, i64)] = &[
    // std::__detail::_Hash_node_base { _Hash_node_base *_M_nxt; }
    ("p1 _ZTSNSt8__detail15_Hash_node_baseE", 8),
];

impl Engine {
    /// For a pointer `val` moved by the load or store `inst`: the number of bytes its
    /// pointee facts are limited to when it is an embedded sentinel (see the module
    /// documentation), else `None`.
    pub(super) fn sentinel_window(&self, inst: Value, val: Value) -> Option<i64> {
        if !val.ty().is_pointer() || inst.opcode() != Some(Opcode::LLVMStore) {
            return None;
        }
        let tag = inst.metadata(self.m.context().md_kind("tbaa"))?;
        let name = layout::tbaa_access_type_name(tag)?;
        let size = NODE_BASES.iter().find(|(n, _)| *n == name)?.1;
        let (_, back) = super::strip_constant_geps(self.m, val, super::super::MAX_OFFSET);
        (back > 0).then_some(size)
    }
}

//! Type-erased storage of the C++ standard library: `std::function`'s `_Any_data`.
//!
//! libstdc++'s `std::function<R(A...)>` keeps its target in `_Any_data`, 16 bytes that hold
//! the functor itself when it fits (a lambda capturing two doubles), or a pointer to a
//! heap copy of it, and — in the temporary the manager writes for `target_type()` and
//! `target()` — a `type_info` pointer or a functor pointer. Every typed accessor
//! (`_M_access<T>()`, one instantiation per `T`) and the manager's `_M_create` go through
//! one untyped accessor, `void *_Any_data::_M_access()` (and its `const` twin), which
//! returns the address of the storage. Type analysis is not context-sensitive: through
//! that one function, the `type_info` pointer stored in the manager's
//! `__get_type_info` arm, the functor pointer of `__get_functor_ptr` and the captured
//! doubles copied by `_M_create` all land in one tree, and the copy of the lambda into
//! the storage (a plain `memcpy` at `-O0`, where no `!tbaa.struct` types it) cannot be
//! typed. With `!tbaa` (`-O1` and up) the accesses type themselves
//! (`typed_access.rs`); unoptimized IR (`-O0`, `--ad-before-opt`) has none.
//!
//! What each caller does with the address is typed by the caller: `_M_access<T>()`
//! returns it as `T &`, which its own users load and store as `T`; `_M_create` copies the
//! functor into it, typed by the functor the copy reads. So facts cross a call of the
//! untyped accessor in *one* direction only: from the call's result (what this caller
//! does with the storage) into the storage argument, never back. Each call's result
//! learns only from that call's own users (the functor layout at `_M_create`'s copy, a
//! `type_info` pointer in the type-info arm), while the `_Any_data` objects still learn
//! everything any caller puts there. That keeps the analysis sound: a `std::function`
//! object's storage is the join of all its uses (`Anything` where a functor's doubles and
//! a pointer meet), so code that moves the whole storage without knowing what it holds
//! (`std::function`'s move constructor and `swap` copy the 16 bytes at `-O0`) is still a
//! clear cannot-deduce-type error, never a copy that looks pointer-only and drops the
//! captured doubles' adjoints. (Cutting both directions would do exactly that: the
//! storage would then only know the null pointer its default constructor stores.)

use ferrozyme_llvm::Value;

use super::Engine;

/// The untyped accessors of type-erased storage (Itanium-mangled): `std::_Any_data::
/// _M_access()` and `std::_Any_data::_M_access() const`.
pub(super) const ERASED_ACCESSORS: &[&str] = &[
    "_ZNSt9_Any_data9_M_accessEv",
    "_ZNKSt9_Any_data9_M_accessEv",
];

impl Engine {
    /// If `i` calls an untyped accessor of type-erased storage (`callee`), applies its rule
    /// (what the result learnt flows into the storage argument, within the bytes the
    /// parameter declares `dereferenceable`) and returns true; otherwise false.
    pub(super) fn erased_access(&mut self, i: Value, callee: Value, args: &[Value]) -> bool {
        if !ERASED_ACCESSORS.contains(&callee.name().as_str()) {
            return false;
        }
        if let Some(&storage) = args.first() {
            let n = callee
                .dereferenceable_bytes(Some(0))
                .map_or(super::super::MAX_OFFSET, |n| {
                    (n as i64).min(super::super::MAX_OFFSET)
                });
            let t = self.pointee(i).window(0, n);
            self.learn_ptr(storage, &t);
        }
        true
    }
}

//! Runtime activity: pointers whose activity is only known when the program runs.
//!
//! Unoptimized code (and Eigen's at every level) chooses at run time between memory that
//! has a shadow and memory that has none: a `phi` merging an `enzyme_const` matrix's data
//! with a duplicated temporary, a struct whose field receives an `enzyme_const` pointer
//! while the struct itself has a shadow. Enzyme handles such code in its runtime-activity
//! mode (`-enzyme-runtime-activity`, Enzyme.jl's `set_runtime_activity`), and so do we,
//! automatically, where the static analysis would otherwise report mismatched activity:
//!
//! * the **shadow of a constant pointer is the primal pointer itself** where it meets
//!   shadowed code (the incoming value of such a phi or select, the pointer stored into
//!   shadowed memory, alone or in a record stored whole): [`RuntimeActivity::own_shadow`];
//! * every derivative access through a shadow that **may** be such a primal is guarded at
//!   run time by `shadow != primal`: loaded tangents read zero, tangent stores and
//!   pointer-shadow stores go to a scratch slot, adjoint accumulation and the zeroing of
//!   a stored-over adjoint are masked off. Those pointers are
//!   [`RuntimeActivity::maybe_primal`]: the phis and selects above, what is computed from
//!   them by address arithmetic, merged from them, and pointers loaded through them; and
//!   when such a pointer was stored into shadowed memory, every pointer the function
//!   loads from shadowed memory.
//!
//! Everything else stays unguarded: a function that needs no runtime activity gets
//! exactly the code it got before. Across calls: a callee with IR given a maybe-primal
//! pointer, or shadowed memory that may hold one, gets its own derivative under checks
//! ([`RuntimeIn`] in its request: which parameters may be primals, whether pointers it
//! loads from shadowed memory may be), and a pointer it returns is maybe-primal to the
//! caller; such a call also makes the caller's later pointer loads maybe-primal (the
//! callee may have stored one). A callee given a constant pointer to floats that may
//! return one computed from it as its own shadow, or store one into memory it is given
//! (`constant_args.rs`), makes the result maybe-primal (the callee is told the caller
//! checks it: `RuntimeIn::result`) and that memory a holder. Memory intrinsics are
//! guarded by their length, `free` by
//! freeing null, a float `atomicrmw fadd` (an OpenMP reduction into shared memory that
//! a region reads through its struct of captures) by reading its adjoint, and adding its
//! tangent, only where the shadow is not the primal. Where a maybe-primal shadow would
//! go where no check can follow (a function without IR, an indirect call, a custom
//! derivative, the differentiated function's own return, an instruction whose
//! derivative touches memory otherwise),
//! [`RuntimeActivity::unguardable`] says so and it stays a compile-time "mismatched
//! activity" error naming the place.
//!
//! Enzyme's known silent-wrong case under runtime activity (a value that depends on the
//! inputs written through a pointer whose shadow is the primal, then read back: the
//! derivative goes nowhere) is refused: a compile-time error where this function itself
//! chose the pointer between constant and duplicated memory, and a run-time check that
//! aborts with a message when such a store really goes to constant memory, where the
//! pointer is only assumed maybe-primal (read from memory, or a parameter a caller
//! flagged) ([`RuntimeActivity::checked_stores`]). Storing into constant memory without reading
//! back through such pointers stays allowed, as for `enzyme_const` buffers (`audit::body`).

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_analysis::activity::{is_unaddressable, Activity};
use ferrozyme_analysis::calls::callee_args;

use crate::signature::RuntimeIn;
use ferrozyme_llvm::Value;

mod analyze;
mod checks;
mod constant_args;
mod guards;
mod holders;
mod lost_derivatives;
mod records;

pub(crate) use analyze::analyze;
pub(crate) use checks::{and_lanes, emit_store_check, masked_write_to_primal, written_address};
use guards::passes_shadowed_pointer;
use holders::Holders;
use records::carries_pointer_field;

/// What runtime activity needs in one function.
#[derive(Default, Debug, Clone)]
pub(crate) struct RuntimeActivity {
    /// Pointers without a shadow whose shadow is taken to be the pointer itself.
    pub own_shadow: HashSet<Value>,
    /// Pointers with a shadow that may, at run time, be the primal pointer.
    pub maybe_primal: HashSet<Value>,
    /// Where a maybe-primal shadow escapes what can be guarded: (instruction, why).
    pub unguardable: Vec<(Value, String)>,
    /// Pointers read from shadowed memory may be primals (a constant pointer was stored
    /// into shadowed memory here, by a caller, or possibly by a callee under checks).
    pub tainted: bool,
    /// Which shadowed memory may hold such a pointer, when `tainted` (holders.rs).
    holders: Holders,
    /// Stores of values that depend on the inputs through a maybe-primal pointer, in a
    /// function that also reads such values back through one, where the pointer is only
    /// *assumed* maybe-primal (read from memory that may hold one, or a parameter a
    /// caller flagged): checked at run time, aborting with a message when the shadow is
    /// the primal (the derivative would be lost). Where the function itself chose the
    /// pointer between constant and duplicated memory, it is a compile-time error.
    pub checked_stores: HashSet<Value>,
    /// `insertvalue`s building a record that holds an own-shadow pointer next to floats or
    /// shadowed pointers, stored whole into shadowed memory: their shadow is built field
    /// by field (that pointer itself, the shadows of shadowed pointers, the floats'
    /// tangents or zero adjoints, the integers as they are), also where activity gives
    /// the record none (`{w, s}` before the shadowed `out` joins it).
    pub own_records: HashSet<Value>,
    /// The constant records such an `insertvalue` chain starts from that hold a constant
    /// pointer (`{ptr @TABLE, double poison}`: instsimplify folds the first insertions of
    /// clang -O0's `pair c = {TABLE, s}; return c;`), with their shadow records: the
    /// constant pointers and integers as they are, zero elsewhere.
    pub record_constants: HashMap<Value, Value>,
}

impl RuntimeActivity {
    /// Does the function need run-time activity checks, and can all be inserted?
    pub fn active(&self) -> bool {
        (!self.own_shadow.is_empty() || !self.maybe_primal.is_empty() || self.tainted)
            && self.unguardable.is_empty()
    }

    /// What call `call` tells its callee (empty for calls that need no checks, so their
    /// derivatives are the ordinary ones).
    pub fn call_runtime(&self, call: Value) -> RuntimeIn {
        if !self.active() {
            return RuntimeIn::default();
        }
        let params: Vec<bool> = callee_args(call)
            .iter()
            .map(|a| a.is_some_and(|a| self.maybe_primal.contains(&a)))
            .collect();
        // A callee reads such pointers back only from memory that may hold one.
        let loads = self.tainted
            && callee_args(call)
                .into_iter()
                .flatten()
                .any(|a| a.ty().is_pointer() && self.holders.may_hold(a));
        if !loads && !params.iter().any(|b| *b) {
            // A result computed from a constant argument (constant_args.rs): checked
            // here.
            return RuntimeIn {
                result: returns_pointer(call) && self.maybe_primal.contains(&call),
                ..RuntimeIn::default()
            };
        }
        RuntimeIn {
            params,
            loads,
            result: false,
        }
    }

    /// Is `v`'s shadow the primal itself (a constant pointer meeting shadowed code)?
    pub fn is_own_shadow(&self, v: Value) -> bool {
        self.active() && self.own_shadow.contains(&v)
    }

    /// Is `i` an `insertvalue` whose shadow record is built field by field although
    /// activity may give it none ([`RuntimeActivity::own_records`])?
    pub fn builds_record_shadow(&self, i: Value) -> bool {
        self.active() && self.own_records.contains(&i)
    }

    /// The shadow of constant record `v` ([`RuntimeActivity::record_constants`]).
    pub fn constant_record_shadow(&self, v: Value) -> Option<Value> {
        if !self.active() {
            return None;
        }
        self.record_constants.get(&v).copied()
    }

    /// Must accesses through `v`'s shadow be guarded by `shadow != primal`?
    pub fn is_guarded(&self, v: Value) -> bool {
        self.active() && self.maybe_primal.contains(&v)
    }

    /// The `--print-activity` lines: where run-time checks go.
    pub fn print(&self, f: Value) -> String {
        if !self.active() {
            return String::new();
        }
        let mut names: Vec<String> = self
            .maybe_primal
            .iter()
            .map(|v| short(*v))
            .collect::<Vec<_>>();
        names.sort();
        let mut own: Vec<String> = self.own_shadow.iter().map(|v| short(*v)).collect();
        own.sort();
        format!(
            "runtime activity in @{}: shadow = primal for {}; accesses guarded through {}\n",
            f.name(),
            own.join(", "),
            names.join(", ")
        )
    }
}

fn short(v: Value) -> String {
    let n = v.name();
    if n.is_empty() {
        let t = v.to_string();
        t.split(" = ").next().unwrap_or("").trim().to_string()
    } else {
        format!("%{n}")
    }
}

/// Does call `i` return a pointer, alone or in a record? A record's pointer fields are
/// followed like a pointer (taken out by `extractvalue`): a generated augmented forward
/// returns `{primal, shadow, tape}`, and a higher-order derivative's inner gradient
/// calling a callee that picks a constant or a duplicated pointer read the picked
/// pointer's tangent through the constant unguarded (tests/c/1478).
fn returns_pointer(i: Value) -> bool {
    i.ty().is_pointer() || carries_pointer_field(i.ty())
}

/// A pointer that has no shadow where one is needed: not null/undef/unaddressable.
pub(crate) fn lacks_shadow(act: &Activity, v: Value) -> bool {
    let harmless = v.is_undef() || (v.is_constant() && v.ty().zero() == v) || is_unaddressable(v);
    !harmless && !act.is_shadowed(v)
}

//! MPI handle frees inside a callee that the reverse sweep does not differentiate.
//!
//! A call without a derivative (it touches no differentiable data) is copied into the
//! forward sweep as it is. When the callee frees an MPI handle it was handed
//! (`MPI_Comm_free(&this->comm)`, `MPI_Type_free(&s->pair)`: a C++ destructor at -O0,
//! which -O2 inlines), the handle is gone before the reverse sweep posts the adjoint
//! communication that still uses it: Open MPI stopped the program (`MPI_Type_get_envelope`:
//! internal error) or the adjoint crashed (tests/mpi/103 at -O0). A free in the
//! differentiated function itself is moved after the reverse sweep
//! (`memory::is_mpi_handle_free`), so this module only finds the ones the copy would run
//! early; `check.rs` refuses them with the remedy. A handle the callee makes and frees
//! itself (a local `MPI_Comm` slot) cannot be used by the caller's adjoint and is left
//! alone. A callee differentiated in split mode defers such a free to the end of the
//! outermost reverse sweep instead (`handed_free.rs`); [`HandedFrees`] says which
//! combined derivatives bracket their sweeps for it. Calls include invokes: a C++
//! destructor at -O0 invokes `MPI_Type_free`.
//!
//! The walk for [`outliving_handle_free`] (a few calls deep, for a diagnostic) remembers,
//! for each function, the most calls it still had to go when it got
//! there, and goes through a function again when a shorter chain reaches it: marking a
//! function seen at the depth first met missed a free within reach only through a
//! function first met deeper (errors/hpc46_handle_free_shallow_path).

use ferrozyme_analysis::caller_graph::CallerGraph;
use ferrozyme_analysis::hash::{HashMap, HashSet};
use ferrozyme_llvm::{Module, Value};

/// How deep the walk follows calls of functions with IR.
const CALL_DEPTH: u32 = 4;

/// The first MPI handle free reached from the call `call` (into functions with IR, a few
/// calls deep) whose handle is not a local of the function that frees it: `(the function
/// holding the free, the free)`.
pub(crate) fn outliving_handle_free(call: Value) -> Option<(Value, Value)> {
    let f = call.called_function()?;
    find(f, CALL_DEPTH, &mut HashMap::default())
}

/// Which functions reach a free of an MPI handle they were handed, for
/// [`HandedFrees::reached_from`]: one reverse reachability over the module's direct calls,
/// built at the first question of a drain (`Support::reaches_handed_free`) and kept for
/// the drain, whose user functions do not change. A walk per combined derivative (hpc46)
/// recursed once per call level and went down the whole chain below each function: the
/// 10,000-deep chain of crates/ferrozyme-cli/tests/deep_chain.rs overflowed a 1 MiB stack
/// and was quadratic. Here each function and call is visited once, without recursion,
/// and a free any number of calls down is found.
pub(crate) struct HandedFrees {
    /// The functions with IR when the graph was built.
    known: HashSet<Value>,
    /// The known functions that free a handle they were handed, or call (directly,
    /// through any number of calls) one that does.
    reaching: HashSet<Value>,
}

impl HandedFrees {
    /// Phase 1: the callers of each function with IR and the functions freeing a handed
    /// handle themselves (the seeds). Phase 2: the seeds' callers, closed over the graph
    /// (`CallerGraph::callers_closure`, a work list). A handle free itself is no edge:
    /// the walk it replaces did not go through one either.
    pub fn new(module: Module) -> HandedFrees {
        let mut graph = CallerGraph::default();
        let mut known = HashSet::default();
        let mut seeds = Vec::new();
        for f in module.definitions() {
            known.insert(f);
            let mut frees = false;
            for i in f.calls_and_invokes() {
                if super::memory::is_mpi_handle_free(i) {
                    frees |= !super::memory::frees_local_handle(i);
                } else if let Some(g) = i.called_function() {
                    graph.add_call(f, g);
                }
            }
            if frees {
                seeds.push(f);
            }
        }
        let reaching = if seeds.is_empty() {
            HashSet::default()
        } else {
            graph.callers_closure(seeds)
        };
        HandedFrees { known, reaching }
    }

    /// Does a function `f` calls (into functions with IR, any number of calls deep) free
    /// an MPI handle it was handed? Then the handle may be one `f`'s adjoint communication
    /// uses, and a callee differentiated in split mode defers the free to `f`'s reverse
    /// exit. `f`'s own frees do not count. Functions made since the graph was built (`f`
    /// itself, a clone, and what its preprocessing outlined) are walked here, with a work
    /// list, down to the known functions the graph answers for.
    pub fn reached_from(&self, f: Value) -> bool {
        let mut seen: HashSet<Value> = HashSet::default();
        seen.insert(f);
        let mut work = vec![f];
        while let Some(h) = work.pop() {
            let first = h == f;
            if !first && self.known.contains(&h) {
                if self.reaching.contains(&h) {
                    return true;
                }
                continue;
            }
            if h.is_declaration() {
                continue;
            }
            for i in h.calls_and_invokes() {
                if super::memory::is_mpi_handle_free(i) {
                    if !first && !super::memory::frees_local_handle(i) {
                        return true;
                    }
                } else if let Some(g) = i.called_function() {
                    if seen.insert(g) {
                        work.push(g);
                    }
                }
            }
        }
        false
    }
}

/// `seen`: each function walked, with the calls the walk still had to go there.
fn find(f: Value, depth: u32, seen: &mut HashMap<Value, u32>) -> Option<(Value, Value)> {
    if f.is_declaration() || seen.get(&f).is_some_and(|d| *d >= depth) {
        return None;
    }
    seen.insert(f, depth);
    for i in f.calls_and_invokes() {
        if super::memory::is_mpi_handle_free(i) {
            if !super::memory::frees_local_handle(i) {
                return Some((f, i));
            }
        } else if depth > 0 {
            if let Some(hit) = i.called_function().and_then(|g| find(g, depth - 1, seen)) {
                return Some(hit);
            }
        }
    }
    None
}

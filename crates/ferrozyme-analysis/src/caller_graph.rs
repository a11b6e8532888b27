//! Which functions call which, for closing a property of functions over their callers
//! ("touches a shadowed global", "reaches a barrier": a function has it when one of its
//! callees has it).

use crate::hash::{HashMap, HashSet};

use ferrozyme_llvm::{Module, Value};

use crate::calls::{call_targets, parallel_callee};

/// The callers of each function of a module: through direct calls, through calls by
/// pointer (every candidate of the call's type) and through parallel regions (the
/// region's microtask), plus the edges a client adds ([`CallerGraph::add_call`]). The
/// default graph has no edges: a client with its own notion of a call adds them all.
#[derive(Default)]
pub struct CallerGraph {
    callers: HashMap<Value, Vec<Value>>,
}

impl CallerGraph {
    /// The calls of the module's defined functions.
    pub fn new(module: Module) -> CallerGraph {
        let mut graph = CallerGraph {
            callers: HashMap::default(),
        };
        for f in module.definitions() {
            for i in f.instructions() {
                if !i.is_call() {
                    continue;
                }
                match i.called_function() {
                    Some(c) => graph.add_call(f, c),
                    None if !i.is_inline_asm_call() => {
                        for c in call_targets(i) {
                            graph.add_call(f, c);
                        }
                    }
                    None => {}
                }
                if let Some(m) = parallel_callee(i) {
                    graph.add_call(f, m);
                }
            }
        }
        graph
    }

    /// Records that `caller` calls `callee` (a call the module's IR does not show, as a
    /// Fortran MPI binding calling the runtime wrapper that implements it).
    pub fn add_call(&mut self, caller: Value, callee: Value) {
        self.callers.entry(callee).or_default().push(caller);
    }

    /// `seeds` and every function that calls one of them, directly or through others.
    pub fn callers_closure(&self, seeds: impl IntoIterator<Item = Value>) -> HashSet<Value> {
        let mut out = HashSet::default();
        let mut work: Vec<Value> = seeds.into_iter().collect();
        while let Some(f) = work.pop() {
            if out.insert(f) {
                work.extend(self.callers.get(&f).into_iter().flatten().copied());
            }
        }
        out
    }
}
